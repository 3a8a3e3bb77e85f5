"""The person's actions in the world: a message typed (or a file, a share...: :func:`inject`), a quote, a
button tapped; the chat they write in is their private chat with the bot or a group made on first use.

Rules over the world's state (:class:`~tgfake.world.telegram.Telegram`); the sim's handlers call them with its
bodies, the in-process API through :class:`tgfake.stand.Stand`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.chats import Chat, StoredMessage, button_in, comment_thread, message_json
from tgfake.errors import SimError
from tgfake.models import MAX_TEXT, CallbackIn, MessageIn, SenderFields
from tgfake.text import plain_entities, utf16_len
from tgfake.world import rooms
from tgfake.world.members import MEMBER, Member
from tgfake.world.people import User, stand_in_sender
from tgfake.world.state import dump

if TYPE_CHECKING:
    from tgfake.content import Media
    from tgfake.world.bots import Bot
    from tgfake.world.telegram import Telegram

GROUP_ID_BASE = -100000000000
DEFAULT_GROUP_TITLE = "Fake group"


def inject_message(t: Telegram, body: MessageIn) -> tuple[int, int]:
    """The person sends a text; returns (message_id, update_id)."""
    if not body.text.strip():
        raise SimError(400, "text is empty")
    if len(body.text) > MAX_TEXT:
        raise SimError(400, f"text is longer than {MAX_TEXT} characters")
    return inject(t, body, body.text, extra=_quote(t, body))


def _quote(t: Telegram, body: MessageIn) -> dict[str, Any] | None:
    """A manual quote of the replied-to message: its text must contain the quote (position in UTF-16 units)."""
    if not body.quote:
        return None
    chat = person_chat(
        t,
        body,
        t.person(body.user_id, body.username, body.first_name, name_from_username=True),
        t.find_bot(body.bot),
    )
    target = chat.live(body.reply_to_message_id) if body.reply_to_message_id else None
    if target is None:
        raise SimError(400, "a quote needs reply_to_message_id, a live message of the chat")
    source = target.caption if target.is_media else target.text
    at = source.find(body.quote)
    if at < 0:
        raise SimError(400, f"message {target.message_id} does not contain the quote {body.quote!r}")
    return {"quote": {"text": body.quote, "position": utf16_len(source[:at]), "is_manual": True}}


def person_chat(t: Telegram, body: SenderFields, person: User, bot: Bot) -> Chat:
    """The chat a person writes in: their private chat with the bot, or a group (made on first use)."""
    chat_type = body.chat_type.strip().lower()
    if body.chat_id >= 0 and chat_type in ("", "private"):
        chat = t.private_chat(bot, person if body.chat_id in (0, person.id) else body.chat_id)
        if chat.blocked:
            raise SimError(403, f"{person.handle} blocked @{bot.username}: unblock it first (POST /sim/unblock)")
        return chat
    if body.chat_id > 0:
        raise SimError(400, f"chat_id {body.chat_id} of a {chat_type} must be negative (as every group's is)")
    if chat_type == "private":
        if body.chat_id not in t.world.chats:
            raise SimError(400, "a private chat's chat_id is the person's user_id: it must be positive")
        chat_type = ""  # an existing group's id wins over the type
    chat_id = body.chat_id or GROUP_ID_BASE - person.id
    known = t.world.chats.get(chat_id)
    if known is None:
        chat = t.group(chat_id, chat_type, body.chat_title or DEFAULT_GROUP_TITLE, bot=bot)
    else:
        chat = known
        if not chat.title:
            chat.title = body.chat_title or DEFAULT_GROUP_TITLE
    member = chat.members.get(person.id)
    if member is None:
        t.add_member(chat, Member(user=person, status=MEMBER))
    elif not member.present:
        raise SimError(403, f"{person.handle} is not a member of chat {chat.id} ({member.status})")
    return chat


def inject(
    t: Telegram,
    body: SenderFields,
    text: str,
    extra: dict[str, Any] | None = None,
    reply_to: int | None = None,
    media: Media | None = None,
    media_group_id: str = "",
    entities: list[dict[str, Any]] | None = None,
) -> tuple[int, int]:
    """The person's message: a text, or with ``media`` a file or shared content whose caption is ``text``.

    Entities are the ones Telegram detects (commands, mentions, links, ...); a caption's go out as
    ``caption_entities``, as Telegram's do. Returns the message id and the update id the addressed bot
    (``bot``, else the default one) got, 0 if it saw nothing. ``media`` (a file of any kind, a contact, a
    location, a poll...: tgfake/content.py) is what the message carries, ``text`` its caption if that kind takes
    one; ``extra`` (forward_origin, quote) goes with it; ``reply_to`` overrides the body's; ``media_group_id``
    is the album it belongs to, ``entities`` the ones the client sent merged with the detected ones (none:
    detect them here).
    """
    has_media = media is not None
    bot = t.find_bot(body.bot)
    person = t.person(body.user_id, body.username, body.first_name, name_from_username=True, last_name=body.last_name)
    chat = person_chat(t, body, person, bot)
    if body.mention:
        handle = "@" + bot.username
        text = f"{handle} {text}" if text else handle
    entities = [e.json() for e in plain_entities(text)] if entities is None else entities
    if body.mention and not (entities and entities[0]["offset"] == 0 and entities[0]["type"] == "mention"):
        # a bot username the detector would not take (too short, odd characters) is still mentioned
        entities = [{"offset": 0, "length": utf16_len(handle), "type": "mention"}] + [
            e for e in entities if e["offset"] >= utf16_len(handle)
        ]
    if reply_to is None:
        reply_to = body.reply_to_message_id if body.reply_to_message_id in chat.messages else None
    sender_chat = _sender_chat(t, body, chat, person) if body.sender_chat_id else None
    signature = ""
    if sender_chat is chat:
        member = chat.members.get(person.id)
        signature = member.custom_title if member is not None else ""
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=t.unix_now(),
            sender=person if sender_chat is None else stand_in_sender(sender_chat.id, chat.id, automatic_forward=False),
            sender_chat=sender_chat,
            signature=signature,
            text="" if has_media else text,
            caption=text if has_media else "",
            entities=entities,
            reply_to=reply_to,
            media=media,
            media_group_id=media_group_id,
            thread_id=body.message_thread_id or comment_thread(chat, reply_to),
            extra=extra or {},
        )
    )
    got = rooms.deliver(t, chat, msg)
    return msg.message_id, got.get(bot.id, 0)


def _sender_chat(t: Telegram, body: SenderFields, chat: Chat, person: User) -> Chat:
    """The chat a person writes on behalf of in a supergroup: the group itself (an anonymous administrator) or
    a channel they own or administer, not one the group banned (``banChatSenderChat``)."""
    if chat.type != "supergroup":
        raise SimError(400, "only in a supergroup can a person write on behalf of a chat")
    if body.sender_chat_id == chat.id:
        speaker = chat
    else:
        found = t.world.chats.get(body.sender_chat_id)
        if found is None or found.type != "channel":
            raise SimError(404, f"sender_chat_id {body.sender_chat_id} is not a channel of the stand")
        speaker = found
    member = speaker.members.get(person.id)
    if member is None or not member.is_admin:
        raise SimError(403, f"{person.handle} is not an administrator of {speaker.title!r}")
    until = chat.banned_senders.get(speaker.id)
    if until is not None and (until == 0 or until > t.unix_now()):
        raise SimError(403, f"{speaker.title!r} is banned in {chat.title!r} (banChatSenderChat)")
    return speaker


def inject_callback(t: Telegram, body: CallbackIn) -> tuple[str, int]:
    """The person taps a button (by label, or sends ``data`` as if they had); returns (query id, update id)."""
    if not body.label and not body.data:
        raise SimError(400, "data or label is required")
    person = t.person(body.user_id, body.username, body.first_name, name_from_username=False)
    chat_id = body.chat_id or person.id
    named = t.find_bot(body.bot) if body.bot else None
    chat = t.chat_of(named or t.default_bot, chat_id)
    if chat is None or not chat.messages:
        raise SimError(404, f"chat {chat_id} has no messages")
    if body.message_id:
        target = chat.messages.get(body.message_id)
        if target is None:
            raise SimError(404, f"message {body.message_id} not found in chat {chat_id}")
    else:
        found = chat.newest_with_keyboard()
        if found is None:
            raise SimError(404, f"chat {chat_id} has no message with an inline keyboard")
        target = found
    data = body.data
    game = None
    if not data:
        hit = None
        if body.message_id:
            hit = button_in(target, body.label)
        else:
            located = chat.find_button(body.label)
            if located is not None:
                target, hit = located
        if hit is None:
            raise SimError(404, f"message {target.message_id} has no button {dump(body.label.strip())}")
        if hit.url is not None:
            raise SimError(400, f"[{hit.text}] is a url button: it opens {hit.url}, Telegram sends no callback")
        if hit.switch_inline is not None:
            query = hit.switch_inline[1] if isinstance(hit.switch_inline[1], str) else ""
            raise SimError(400, f"[{hit.text}] switches to inline mode: POST /sim/inline with query {query!r}")
        if hit.web_app_url is not None:
            raise SimError(
                400, f"[{hit.text}] opens the Mini App {hit.web_app_url}: POST /sim/webapp/launch with that url"
            )
        data = hit.callback_data or ""
        game = t.world.games.messages.get((chat.id, target.message_id)) if hit.callback_game else None
    bot = _owner(t, chat, target, named)
    query_id = f"cbq-{t.world.next_cbq}"
    t.world.next_cbq += 1
    bot.callback_queries[query_id] = chat_id
    payload: dict[str, Any] = {
        "id": query_id,
        "from": person.json(),
        "message": message_json(chat, target),
        "chat_instance": str(chat_id),
    }
    if target.inline_message_id:  # a message sent via an inline bot: the tap is the bot's, without the message
        del payload["message"]
        payload = {"id": query_id, "from": person.json(), "inline_message_id": target.inline_message_id, **payload}
    if data:
        payload["data"] = data
    elif not body.data and game is not None:  # a callback_game button: the game's short name, no data
        payload["game_short_name"] = game.short_name
    return query_id, bot.push("callback_query", payload)


def _owner(t: Telegram, chat: Chat, msg: StoredMessage, named: Bot | None) -> Bot:
    """The bot a tap goes to: the one that sent the message with the keyboard (or sent it via inline mode)."""
    if msg.via_bot is not None and msg.via_bot.id in t.bots:
        return t.bots[msg.via_bot.id]
    if msg.sender is not None and msg.sender.is_bot and msg.sender.id in t.bots:
        return t.bots[msg.sender.id]
    if chat.bot_id in t.bots:
        return t.bots[chat.bot_id]
    return named or t.default_bot
