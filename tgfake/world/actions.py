"""The person's actions beyond typing and sending files: pressing a reply keyboard button, and what it sends.

Each button kind sends the message a Telegram client sends for it: its label as text; the person's contact; a
location; a poll the person made; ``users_shared`` / ``chat_shared``; ``web_app_data`` from the Mini App the
button opened. Transport-free: ``tgfake/sim/actions.py`` serves it.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any

from tgfake.action_models import EditIn, ForwardIn, PollIn, ReactIn, ReplyButtonIn, ShareIn, TargetIn, VoteIn
from tgfake.chats import Chat, StoredMessage, origin_of
from tgfake.content import Media
from tgfake.errors import SimError
from tgfake.extras import ORIGIN, reaction_counts
from tgfake.world import keyboards, polls, rooms, visibility
from tgfake.world.groups import account_ref
from tgfake.world.people import DEFAULT_USER_ID
from tgfake.world.person import inject, person_chat

if TYPE_CHECKING:
    from tgfake.markup import ReplyButton
    from tgfake.world.people import User
    from tgfake.world.telegram import Telegram


def press_reply_button(stand: Telegram, body: ReplyButtonIn) -> tuple[int, int]:
    """The person presses ``label`` on their current reply keyboard; returns (message id, update id)."""
    if not body.label.strip():
        raise SimError(400, "label is required")
    bot = stand.find_bot(body.bot)
    person = stand.person(body.user_id, body.username, body.first_name, name_from_username=True)
    chat = person_chat(stand, body, person, bot)
    shown = keyboards.current(chat, person.id)
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
    shared = _shared(stand, chat, person, button, body)
    # In a group a personal keyboard's press answers the message that showed it, as clients send it.
    reply_to = shown.message_id if chat.type != "private" and shown.markup.selective else None
    keyboards.pressed(chat, person.id, shown)
    if shared is None:
        return inject(stand, body, button.text, reply_to=reply_to)
    return inject(stand, body, "", media=shared, reply_to=reply_to)


def _shared(stand: Telegram, chat: Chat, person: User, button: ReplyButton, body: ReplyButtonIn) -> Media | None:
    """What the button's message carries instead of text (None: a text button)."""
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
        return Media("contact", fields=contact)
    if kind == "request_location":
        if body.latitude is None or body.longitude is None:
            raise SimError(400, f"[{button.text}] shares a location: give latitude and longitude")
        check_location(body.latitude, body.longitude)
        return Media("location", fields={"latitude": body.latitude, "longitude": body.longitude})
    if kind == "request_poll":
        if body.poll is None:
            raise SimError(400, f"[{button.text}] creates a poll: give poll (question, options)")
        forced = button.options.get("type")
        if forced and body.poll.type and body.poll.type != forced:
            raise SimError(400, f"[{button.text}] asks for a {forced} poll, not a {body.poll.type}")
        return Media("poll", fields=new_poll(stand, body.poll, forced or body.poll.type or "regular"))
    if kind == "request_users":
        return Media("users_shared", fields=_users_shared(stand, button, body))
    if kind == "request_chat":
        return Media("chat_shared", fields=_chat_shared(stand, button, body))
    # web_app: the Mini App the button opened calls Telegram.WebApp.sendData(data) and closes.
    if not body.data:
        raise SimError(400, f"[{button.text}] opens a Mini App: give the data it sends (Telegram.WebApp.sendData)")
    if len(body.data.encode()) > 4096:
        raise SimError(400, "Mini App data is at most 4096 bytes (Telegram.WebApp.sendData)")
    return Media("web_app_data", fields={"data": body.data, "button_text": button.text})


def check_location(latitude: float, longitude: float) -> None:
    if not -90 <= latitude <= 90 or not -180 <= longitude <= 180:
        raise SimError(400, "latitude is -90..90 and longitude -180..180")


def new_poll(stand: Telegram, poll: PollIn, poll_type: str) -> dict[str, Any]:
    """The poll a person makes, with no votes yet (2-12 options, as a Telegram client allows)."""
    if poll_type not in ("regular", "quiz"):
        raise SimError(400, f"poll type {poll_type!r} is regular or quiz")
    if not poll.question.strip():
        raise SimError(400, "a poll needs a question")
    if not 2 <= len(poll.options) <= 12:
        raise SimError(400, "a poll has 2-12 options")
    if poll_type == "quiz" and not 0 <= poll.correct_option_id < len(poll.options):
        raise SimError(400, "a quiz needs correct_option_id, the index of the right option")
    return polls.poll_object(
        stand.world.polls.mint_id(),
        poll.question,
        [(text, []) for text in poll.options],
        poll_type=poll_type,
        is_anonymous=poll.is_anonymous,
        allows_multiple_answers=poll.allows_multiple_answers and poll_type == "regular",
        correct_option_ids=[poll.correct_option_id] if poll_type == "quiz" else None,
    )


def _users_shared(stand: Telegram, button: ReplyButton, body: ReplyButtonIn) -> dict[str, Any]:
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


def _chat_shared(stand: Telegram, button: ReplyButton, body: ReplyButtonIn) -> dict[str, Any]:
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


# --- the person's own messages and what they do to messages -------------------------------------------------------
DICE_MAX = {"🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "🎰": 64}
LIVE_FOREVER = 0x7FFFFFFF
MAX_REACTIONS = 3  # a Premium account's; others choose one


def share(stand: Telegram, body: ShareIn) -> tuple[int, int]:
    """``POST /sim/share``: a location, venue, contact, dice or poll message; returns (message id, update id)."""
    given = [name for name in ("location", "venue", "contact", "dice", "poll") if getattr(body, name) is not None]
    if len(given) != 1:
        raise SimError(400, "give exactly one of location, venue, contact, dice, poll")
    kind = given[0]
    if kind == "poll":
        assert body.poll is not None
        poll = new_poll(stand, body.poll, body.poll.type or "regular")
        return inject(stand, body, "", media=Media("poll", fields=poll))
    raw = dict(getattr(body, kind))
    fields: dict[str, Any]
    if kind == "location":
        fields = _location(raw, live=True)
    elif kind == "venue":
        loc = _location(raw.pop("location", None) or {}, live=False)
        for name in ("title", "address"):
            if not isinstance(raw.get(name), str) or not raw[name]:
                raise SimError(400, f"venue.{name} is required")
        fields = {"location": loc, **{k: v for k, v in raw.items() if isinstance(v, str)}}
    elif kind == "contact":
        for name in ("phone_number", "first_name"):
            if not isinstance(raw.get(name), str) or not raw[name]:
                raise SimError(400, f"contact.{name} is required")
        keep = ("phone_number", "first_name", "last_name", "user_id", "vcard")
        fields = {k: v for k, v in raw.items() if k in keep}
    else:
        fields = _dice(raw)
    return inject(stand, body, "", media=Media(kind, fields=fields))


def _location(raw: Any, *, live: bool) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise SimError(400, "location is an object with latitude and longitude")
    lat, lon = raw.get("latitude"), raw.get("longitude")
    if not isinstance(lat, (int, float)) or not isinstance(lon, (int, float)) or isinstance(lat, bool):
        raise SimError(400, "location needs latitude and longitude (numbers)")
    check_location(float(lat), float(lon))
    out: dict[str, Any] = {"latitude": lat, "longitude": lon}
    accuracy = raw.get("horizontal_accuracy")
    if accuracy is not None:
        if not isinstance(accuracy, (int, float)) or not 0 <= accuracy <= 1500:
            raise SimError(400, "horizontal_accuracy is 0..1500 meters")
        out["horizontal_accuracy"] = accuracy
    period = raw.get("live_period")
    if period is not None and live:
        if not isinstance(period, int) or not (60 <= period <= 86400 or period == LIVE_FOREVER):
            raise SimError(400, f"live_period is 60..86400 seconds, or {LIVE_FOREVER} (until stopped)")
        out["live_period"] = period
    return out


def _dice(raw: dict[str, Any]) -> dict[str, Any]:
    emoji = raw.get("emoji", "🎲")
    if emoji not in DICE_MAX:
        raise SimError(400, f"dice.emoji is one of {' '.join(DICE_MAX)}")
    value = raw.get("value")
    top = DICE_MAX[emoji]
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
        raise SimError(400, f"dice.value is 1..{top} for {emoji} (the stand throws no dice itself)")
    return {"emoji": emoji, "value": value}


def _target(stand: Telegram, body: TargetIn) -> tuple[Chat, StoredMessage, User]:
    """The live message a person acts on, in their private chat with ``bot`` or in the group ``chat_id``."""
    bot = stand.find_bot(body.bot)
    person = stand.person(body.user_id, body.username, body.first_name, name_from_username=True)
    chat_id = body.chat_id or person.id
    chat = stand.chat_of(bot, chat_id)
    if chat is None:
        raise SimError(404, f"chat {chat_id} not found")
    if chat.type != "private" and not chat.present(person.id):
        raise SimError(403, f"{person.handle} is not in chat {chat_id}")
    msg = chat.live(body.message_id)
    if msg is None:
        raise SimError(404, f"message {body.message_id} not found in chat {chat_id}")
    return chat, msg, person


def vote(stand: Telegram, body: VoteIn) -> dict[str, Any]:
    """The person votes (or, with no options, retracts) in the poll of a message: :func:`polls.vote`."""
    _, msg, person = _target(stand, body)
    return polls.vote(stand, msg, person, body.options)


def edit(stand: Telegram, body: EditIn) -> dict[str, Any]:
    """The person edits their own message (text, or a media message's caption); the bots that saw it get the edit."""
    chat, msg, person = _target(stand, body)
    if msg.sender is None or msg.sender.id != person.id:
        raise SimError(403, f"message {msg.message_id} is not {person.handle}'s")
    if msg.service or (msg.media is not None and not msg.media.captioned):
        raise SimError(400, f"message {msg.message_id} has no text to edit")
    if not body.text.strip():
        raise SimError(400, "text is empty")
    if msg.is_media:
        msg.caption = body.text
    else:
        msg.text = body.text
    msg.entities = command_entities(body.text)
    msg.edit_date = stand.unix_now()
    got = rooms.deliver(stand, chat, msg, edited=True)
    return {"message_id": msg.message_id, "updates": {str(k): v for k, v in got.items()}}


def command_entities(text: str) -> list[dict[str, Any]]:
    m = re.match(r"/[A-Za-z0-9_]+(?:@[A-Za-z0-9_]+)?", text)
    return [{"type": "bot_command", "offset": 0, "length": len(m.group())}] if m else []


def delete(stand: Telegram, body: TargetIn) -> None:
    """The person deletes a message: their own, any in a private chat (for both sides, as Telegram lets them), or
    any in a group they administer. Telegram tells no bot."""
    chat, msg, person = _target(stand, body)
    own = msg.sender is not None and msg.sender.id == person.id
    member = chat.member(person.id)
    if not own and chat.type != "private" and (member is None or not member.is_admin):
        raise SimError(403, f"{person.handle} can delete only their own messages in chat {chat.id}")
    rooms.delete(stand, chat, msg)


def react(stand: Telegram, body: ReactIn) -> dict[str, Any]:
    """The person sets their reactions on a message; who hears of it is :func:`visibility.reaction_recipients`.

    A named reaction is ``message_reaction`` (old and new reactions); a channel's reactions are anonymous, so its
    admin bots get ``message_reaction_count`` (the totals) instead. Both are opt-in update kinds.
    """
    chat, msg, person = _target(stand, body)
    new = [{"type": "emoji", "emoji": e} for e in body.emoji]
    new += [{"type": "custom_emoji", "custom_emoji_id": c} for c in body.custom_emoji]
    if len(new) > MAX_REACTIONS:
        raise SimError(400, f"at most {MAX_REACTIONS} reactions a message")
    if any(not (r.get("emoji") or r.get("custom_emoji_id")) for r in new):
        raise SimError(400, "a reaction is an emoji or a custom emoji id")
    old = msg.reactions.get(person.id, [])
    if new:
        msg.reactions[person.id] = new
    else:
        msg.reactions.pop(person.id, None)
    date = stand.unix_now()
    got: dict[str, int] = {}
    for bot in visibility.reaction_recipients(stand, chat):
        if chat.type == "channel":
            payload = {"chat": chat.json(), "message_id": msg.message_id, "date": date}
            payload["reactions"] = reaction_counts(msg.reactions)
            got[str(bot.id)] = bot.push("message_reaction_count", payload)
            continue
        payload = {"chat": chat.json(), "message_id": msg.message_id, "user": person.json(), "date": date}
        payload.update(old_reaction=old, new_reaction=new)
        got[str(bot.id)] = bot.push("message_reaction", payload)
    return {"message_id": msg.message_id, "updates": got}


def forward(stand: Telegram, body: ForwardIn) -> tuple[int, int]:
    """The person forwards a message into the chat: a stored one (its content, its origin), or one from outside."""
    if body.from_chat_id or body.message_id:
        bot = stand.find_bot(body.bot)
        source_chat = stand.chat_of(bot, body.from_chat_id or (body.user_id or DEFAULT_USER_ID))
        source = source_chat.live(body.message_id) if source_chat is not None else None
        if source_chat is None or source is None:
            raise SimError(404, f"message {body.message_id} not found in chat {body.from_chat_id}")
        origin = origin_of(source_chat, source, hidden=body.hidden)
        text = source.caption if source.is_media else source.text
        # A forwarded poll is the same poll (its votes are shared); other content is copied.
        media = source.media
        if media is not None and media.kind != "poll":
            media = Media(media.kind, media.file, copy.deepcopy(media.fields), spoiler=media.spoiler)
        # The text keeps its formatting, as the bot's forward does (with a mention the entities are found anew).
        entities = None if body.mention else copy.deepcopy(source.entities)
        return inject(stand, body, text, media=media, extra={ORIGIN: origin}, entities=entities)
    if body.origin is None or not body.text.strip():
        raise SimError(400, "give from_chat_id and message_id, or text and origin")
    return inject(stand, body, body.text, extra={ORIGIN: _outside_origin(stand, body.origin)})


def _outside_origin(stand: Telegram, origin: dict[str, Any]) -> dict[str, Any]:
    kind = origin.get("type")
    date = origin.get("date") if isinstance(origin.get("date"), int) else stand.unix_now()
    if kind == "user":
        return {"type": "user", "date": date, "sender_user": account_ref(stand, origin.get("user") or "").json()}
    if kind == "hidden_user":
        if not isinstance(origin.get("name"), str) or not origin["name"]:
            raise SimError(400, "a hidden_user origin needs name")
        return {"type": "hidden_user", "date": date, "sender_user_name": origin["name"]}
    if kind in ("chat", "channel"):
        chat = stand.world.chats.get(origin.get("chat_id") or 0)
        if chat is None:
            raise SimError(400, f"a {kind} origin needs chat_id, a chat on the stand")
        if kind == "chat":
            return {"type": "chat", "date": date, "sender_chat": chat.json()}
        if chat.type != "channel" or not isinstance(origin.get("message_id"), int):
            raise SimError(400, "a channel origin needs the chat_id of a channel and message_id")
        return {"type": "channel", "date": date, "chat": chat.json(), "message_id": origin["message_id"]}
    raise SimError(400, "origin.type is user, hidden_user, chat or channel")
