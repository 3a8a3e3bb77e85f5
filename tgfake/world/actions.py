"""The person's actions beyond typing and sending files: pressing a reply keyboard button, and what it sends.

Each button kind sends the message a Telegram client sends for it: its label as text; the person's contact; a
location; a poll the person made; ``users_shared`` / ``chat_shared``; ``web_app_data`` from the Mini App the
button opened. Transport-free: ``tgfake/sim/actions.py`` serves it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import reply_keyboards
from tgfake.action_models import PollIn, ReplyButtonIn
from tgfake.errors import SimError
from tgfake.world.groups import account_ref

if TYPE_CHECKING:
    from tgfake.chats import Chat
    from tgfake.reply_keyboards import ReplyButton
    from tgfake.stand import Stand
    from tgfake.world.people import User


def press_reply_button(stand: Stand, body: ReplyButtonIn) -> tuple[int, int]:
    """The person presses ``label`` on their current reply keyboard; returns (message id, update id)."""
    if not body.label.strip():
        raise SimError(400, "label is required")
    bot = stand.find_bot(body.bot)
    person = stand.person(body.user_id, body.username, body.first_name, name_from_username=True)
    chat = stand.person_chat(body, person, bot)
    shown = reply_keyboards.current(chat, person.id)
    if shown is None:
        raise SimError(404, f"{person.handle} has no reply keyboard in chat {chat.id}")
    if shown.hidden:
        raise SimError(
            409,
            f"the one-time keyboard of message {shown.message_id} was hidden after a press: the bot sends it again",
        )
    button = shown.markup.find(body.label)
    if button is None:
        labels = " ".join(f"[{b.text}]" for row in shown.markup.rows for b in row)
        raise SimError(
            404, f"the reply keyboard of message {shown.message_id} has no button {body.label.strip()!r}: {labels}"
        )
    extra = _shared(stand, chat, person, button, body)
    # In a group a personal keyboard's press answers the message that showed it, as clients send it.
    reply_to = shown.message_id if chat.type != "private" and shown.markup.selective else None
    reply_keyboards.pressed(chat, person.id, shown)
    if extra is None:
        return stand.inject(body, button.text, reply_to=reply_to)
    return stand.inject(body, "", extra=extra, reply_to=reply_to)


def _shared(stand: Stand, chat: Chat, person: User, button: ReplyButton, body: ReplyButtonIn) -> dict[str, Any] | None:
    """The Bot API fields the button's message carries instead of text (None: a text button)."""
    kind = button.kind
    if kind == "text":
        return None
    if kind == "request_contact":
        contact: dict[str, Any] = {
            "phone_number": body.phone_number or f"+1555{person.id % 10_000_000:07d}",
            "first_name": person.first_name,
        }
        if person.last_name:
            contact["last_name"] = person.last_name
        contact["user_id"] = person.id
        return {"contact": contact}
    if kind == "request_location":
        if body.latitude is None or body.longitude is None:
            raise SimError(400, f"[{button.text}] shares a location: give latitude and longitude")
        check_location(body.latitude, body.longitude)
        return {"location": {"latitude": body.latitude, "longitude": body.longitude}}
    if kind == "request_poll":
        if body.poll is None:
            raise SimError(400, f"[{button.text}] creates a poll: give poll (question, options)")
        forced = button.options.get("type")
        if forced and body.poll.type and body.poll.type != forced:
            raise SimError(400, f"[{button.text}] asks for a {forced} poll, not a {body.poll.type}")
        return {"poll": new_poll(stand, body.poll, forced or body.poll.type or "regular")}
    if kind == "request_users":
        return {"users_shared": _users_shared(stand, button, body)}
    if kind == "request_chat":
        return {"chat_shared": _chat_shared(stand, button, body)}
    # web_app: the Mini App the button opened calls Telegram.WebApp.sendData(data) and closes.
    if not body.data:
        raise SimError(400, f"[{button.text}] opens a Mini App: give the data it sends (Telegram.WebApp.sendData)")
    if len(body.data.encode()) > 4096:
        raise SimError(400, "Mini App data is at most 4096 bytes (Telegram.WebApp.sendData)")
    return {"web_app_data": {"data": body.data, "button_text": button.text}}


def check_location(latitude: float, longitude: float) -> None:
    if not -90 <= latitude <= 90 or not -180 <= longitude <= 180:
        raise SimError(400, "latitude is -90..90 and longitude -180..180")


def new_poll(stand: Stand, poll: PollIn, poll_type: str) -> dict[str, Any]:
    """A poll's Bot API object with no votes yet (2-12 options, as Telegram allows)."""
    if poll_type not in ("regular", "quiz"):
        raise SimError(400, f"poll type {poll_type!r} is regular or quiz")
    if not poll.question.strip():
        raise SimError(400, "a poll needs a question")
    if not 2 <= len(poll.options) <= 12:
        raise SimError(400, "a poll has 2-12 options")
    if poll_type == "quiz" and not 0 <= poll.correct_option_id < len(poll.options):
        raise SimError(400, "a quiz needs correct_option_id, the index of the right option")
    world = stand.world
    world.next_poll += 1
    out: dict[str, Any] = {
        "id": str(5_000_000_000_000_000_000 + world.next_poll),
        "question": poll.question,
        "options": [{"text": text, "voter_count": 0} for text in poll.options],
        "total_voter_count": 0,
        "is_closed": False,
        "is_anonymous": poll.is_anonymous,
        "type": poll_type,
        "allows_multiple_answers": poll.allows_multiple_answers and poll_type == "regular",
    }
    if poll_type == "quiz":
        out["correct_option_id"] = poll.correct_option_id
    return out


def _users_shared(stand: Stand, button: ReplyButton, body: ReplyButtonIn) -> dict[str, Any]:
    opts = button.options
    if not body.users:
        raise SimError(400, f"[{button.text}] shares users: give users (ids or names)")
    limit = int(opts.get("max_quantity", 1))
    if len(body.users) > limit:
        raise SimError(400, f"[{button.text}] shares at most {limit} user(s)")
    users = []
    for ref in body.users:
        user = account_ref(stand, ref)
        if "user_is_bot" in opts and user.is_bot != opts["user_is_bot"]:
            raise SimError(
                400, f"[{button.text}] asks for {'bots' if opts['user_is_bot'] else 'people'}: {user.handle}"
            )
        item: dict[str, Any] = {"user_id": user.id}
        if opts.get("request_name"):
            item["first_name"] = user.first_name
            if user.last_name:
                item["last_name"] = user.last_name
        if opts.get("request_username") and user.username:
            item["username"] = user.username
        users.append(item)
    return {"request_id": opts["request_id"], "users": users}


def _chat_shared(stand: Stand, button: ReplyButton, body: ReplyButtonIn) -> dict[str, Any]:
    opts = button.options
    chat = stand.world.chats.get(body.chat) if body.chat else None
    if chat is None:
        raise SimError(400, f"[{button.text}] shares a chat: give chat, the id of a group or channel on the stand")
    is_channel = chat.type == "channel"
    if bool(opts.get("chat_is_channel")) != is_channel:
        raise SimError(400, f"[{button.text}] asks for a {'channel' if opts.get('chat_is_channel') else 'group'}")
    if "chat_is_forum" in opts and opts["chat_is_forum"] != chat.is_forum:
        raise SimError(400, f"[{button.text}] asks for a chat that is {'' if opts['chat_is_forum'] else 'not '}a forum")
    if "chat_has_username" in opts and opts["chat_has_username"] != bool(chat.username):
        raise SimError(
            400, f"[{button.text}] asks for a chat {'with' if opts['chat_has_username'] else 'without'} a username"
        )
    out: dict[str, Any] = {"request_id": opts["request_id"], "chat_id": chat.id}
    if opts.get("request_title") and chat.title:
        out["title"] = chat.title
    if opts.get("request_username") and chat.username:
        out["username"] = chat.username
    return out
