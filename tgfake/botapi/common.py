"""Checks shared by several methods: chat ids, text limits, reply targets, the message being edited."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import ephemeral_sends
from tgfake.chats import Chat, StoredMessage, comment_thread
from tgfake.errors import bad_request
from tgfake.markup import Keyboard, ReplyMarkup
from tgfake.params import Params, loads, parse_int, to_integer
from tgfake.text import FormattedText, format_text, utf16_len
from tgfake.world import business, keyboards, rooms, suggested, visibility

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_TEXT = 4096  # code points
MAX_CAPTION = 1024  # code points


def chat_id(p: Params, param: str = "chat_id") -> int:
    """``check_chat``: an empty parameter is ``chat_id is empty``; one that names no chat (garbage, 0, a username
    nobody public has) is ``chat not found``. Which chats exist, and may be written to, is the caller's next step.
    Beside a ``business_connection_id`` the chat is read later, with the connection (:func:`post_message`)."""
    if param == "chat_id" and p.text("business_connection_id"):
        return to_integer(p.text(param))
    if not p.text(param):
        raise bad_request(errors.CHAT_ID_EMPTY)
    value = p.chat(param)
    if not value:
        raise bad_request(errors.CHAT_NOT_FOUND)
    return value


def message_text(p: Params) -> FormattedText:
    """``text`` with ``parse_mode`` or ``entities``: 1..4096 code points once parsed and trimmed (see tgfake.text)."""
    text = p.get("text")
    if not text:
        raise bad_request(errors.TEXT_EMPTY)
    return format_text(text, p.text("parse_mode"), p.get("entities"), limit=MAX_TEXT)


def caption_text(p: Params) -> FormattedText:
    """``caption`` with ``parse_mode`` or ``caption_entities``: up to 1024 code points once parsed, may be empty."""
    return parse_caption(p.text("caption"), p.text("parse_mode"), p.get("caption_entities"))


def parse_caption(caption: str, parse_mode: str, entities: str | None) -> FormattedText:
    """One caption (a send's, or an album item's), parsed and limited as Telegram does."""
    return format_text(
        caption, parse_mode, entities, allow_empty=True, limit=MAX_CAPTION, too_long=errors.CAPTION_TOO_LONG
    )


def user_json(ctx: BotCall, user_id: int) -> dict[str, Any]:
    """A text_mention's user as the Bot API writes it: the person's (or bot's) names when the stand knows them."""
    known = ctx.world.users.get(user_id)
    if known is None and user_id in ctx.telegram.bots:
        known = ctx.telegram.bots[user_id].user
    return known.json() if known is not None else {"id": user_id, "is_bot": False, "first_name": ""}


def entities_json(ctx: BotCall, text: FormattedText) -> list[dict[str, Any]]:
    return text.entities_json(lambda uid: user_json(ctx, uid))


def caption_fields(ctx: BotCall, caption: FormattedText | None) -> dict[str, Any]:
    """A new message's ``caption`` and its entities as post_message stores them (none: an uncaptioned kind)."""
    if caption is None:
        return {"caption": "", "entities": []}
    return {"caption": caption.text, "entities": entities_json(ctx, caption)}


def reply_target(p: Params, chat: Chat) -> tuple[int | None, dict[str, Any] | None]:
    """The message a send replies to (``reply_parameters`` first, else ``reply_to_message_id``) and its quote.

    A missing or deleted target is refused unless ``allow_sending_without_reply``, then the send is unthreaded.
    """
    raw = p.get("reply_parameters")
    quote: FormattedText | None = None
    position = 0
    if raw:
        try:
            obj = loads(raw)
        except ValueError:
            obj = None
        if not isinstance(obj, dict):
            raise bad_request(errors.REPLY_PARAMS_BAD)
        mid = obj.get("message_id")
        allow = obj.get("allow_sending_without_reply")
        # Typed fields, as Go decodes the object: a string id or a "true" string does not parse (null reads as unset).
        if (mid is not None and (not isinstance(mid, int) or isinstance(mid, bool))) or allow not in (
            None,
            True,
            False,
        ):
            raise bad_request(errors.REPLY_PARAMS_BAD)
        target_id = mid or 0
        allow = allow is True
        quote, position = _quote(obj)
    else:
        target_id = parse_int(p.text("reply_to_message_id")) or 0
        allow = p.flag("allow_sending_without_reply")
    if not target_id:
        return None, None
    target = chat.live(target_id)
    if target is None:
        if allow:
            return None, None
        raise bad_request(errors.REPLY_NOT_FOUND)
    return target_id, (_quoted(target, quote, position) if quote is not None else None)


QUOTE_TYPES = frozenset({"bold", "italic", "underline", "strikethrough", "spoiler", "custom_emoji", "date_time"})


def _quote(obj: dict[str, Any]) -> tuple[FormattedText | None, int]:
    """``quote`` with ``quote_parse_mode``/``quote_entities``, parsed like any text (refusals included)."""
    fields = ("quote", "quote_parse_mode", "quote_entities", "quote_position")
    text, mode, entities, position = (obj.get(k) for k in fields)
    if not isinstance(text, str) or not text:
        return None, 0
    raw_entities = json.dumps(entities) if isinstance(entities, list) else None
    quote = format_text(text, mode if isinstance(mode, str) else "", raw_entities, allow_empty=True)
    if not quote.text:
        return None, 0
    kept = tuple(e for e in quote.entities if e.type in QUOTE_TYPES)
    return FormattedText(quote.text, kept), position if isinstance(position, int) and position >= 0 else 0


def _quoted(target: StoredMessage, quote: FormattedText, position: int) -> dict[str, Any]:
    """The reply's ``quote``: it must be a part of the replied message's text (at ``quote_position`` if it is
    there, else its first occurrence)."""
    body = target.caption if target.is_media else target.text
    units = body.encode("utf-16-le")
    wanted = quote.text.encode("utf-16-le")
    at = position if units[2 * position : 2 * position + len(wanted)] == wanted else -1
    if at < 0:
        index = body.find(quote.text)
        if index < 0:
            raise bad_request(errors.QUOTE_INVALID)
        at = utf16_len(body[:index])
    out: dict[str, Any] = {"text": quote.text}
    if quote.entities:
        out["entities"] = quote.entities_json()
    out["position"] = at
    out["is_manual"] = True
    return out


def checked_chat(ctx: BotCall, cid: int, *, write: bool = True) -> Chat:
    """``check_chat``: a chat the stand has for this bot (else ``chat not found``) where it may read or write."""
    chat = ctx.chat(cid)
    if chat is None:
        raise bad_request(errors.CHAT_NOT_FOUND)
    visibility.check_access(chat, ctx.bot, write=write)
    return chat


def named_message(chat: Chat, p: Params, what: str) -> StoredMessage:
    """``check_message``: the live message ``message_id`` names in ``chat``, else ``<what> not found``."""
    msg = chat.live(parse_int(p.text("message_id")) or 0)
    if msg is None:
        raise bad_request(errors.MESSAGE_TO_NOT_FOUND.format(what=what))
    return msg


def target_chat(ctx: BotCall, p: Params, cid: int) -> Chat:
    """Where a send goes before it is made (a die's roll, an album's group id): the business chat beside a
    ``business_connection_id`` (checked as :func:`post_message` checks it), else the bot's chat ``cid``."""
    connection = p.text("business_connection_id")
    if connection:
        return business.send_target(ctx.telegram, ctx.bot, connection, p.text("chat_id"))[0]
    return ctx.chat_for_send(cid)


def own_message(ctx: BotCall, p: Params) -> tuple[Chat, StoredMessage]:
    """The bot's live message named by ``chat_id`` + ``message_id``, as edits need it (beside a
    ``business_connection_id``: the message it sent through that connection)."""
    connection = p.text("business_connection_id")
    if connection:
        message_id = max(0, min(to_integer(p.text("message_id")), 2**31 - 1))
        return business.edit_target(ctx.telegram, ctx.bot, connection, p.text("chat_id"), message_id)
    cid = chat_id(p)
    chat = ctx.chat(cid)
    mid = parse_int(p.text("message_id")) or 0
    msg = chat.live(mid) if chat is not None else None
    if chat is None or msg is None:
        raise bad_request(errors.EDIT_NOT_FOUND)
    if msg.sender is None or msg.sender.id != ctx.bot.id:
        raise bad_request(errors.CANT_EDIT)
    return chat, msg


def post_message(
    ctx: BotCall,
    p: Params,
    cid: int,
    keyboard: Keyboard | ReplyMarkup | None,
    attach: Callable[[], dict[str, Any]] | None = None,
    base: StoredMessage | None = None,
    **fields: Any,
) -> Any:
    """Store the bot's new message in chat ``cid`` and return its Bot API JSON.

    The chat is created before the reply target is checked (a send refused for its target still leaves the chat,
    as the reference does); ``attach`` (minting file ids) runs only once every check has passed. The new message
    replaces the drafts streamed in its thread (their history stays). A reply keyboard, remove or force reply
    (``keyboard`` not a list) updates the keyboards of the people it is for. ``base`` (a forward's or a copy's
    content, see tgfake/botapi/forwards.py) gives every field the send does not set itself.
    """
    receiver = ephemeral_sends.requested(p)  # Bot API 10.3: a message only this person sees
    connection = p.text("business_connection_id")
    business_extra: dict[str, Any] = {}
    chat: Chat
    if connection:  # on a person's behalf: to their customer, as them (tgfake/world/business.py)
        chat, business_extra = business.send_target(ctx.telegram, ctx.bot, connection, p.text("chat_id"))
    else:
        chat = ctx.chat_for_send(cid)
    if receiver is not None:
        if attach is not None:
            fields.update(attach())
        return ephemeral_sends.post(ctx, chat, receiver, keyboard, base, fields)
    reply_to, quote = reply_target(p, chat)
    if attach is not None:
        fields.update(attach())
    thread = parse_int(p.text("message_thread_id")) or 0
    chat.drafts.settle(thread)
    own: dict[str, Any] = {
        "message_id": chat.mint_message_id(),
        "date": ctx.unix_now(),
        "sender": ctx.bot.user,
        "reply_to": reply_to,
        "quote": quote,
        "keyboard": keyboard if isinstance(keyboard, list) else None,
        "reply_markup": keyboard if isinstance(keyboard, ReplyMarkup) else None,
        "thread_id": thread if chat.is_forum else comment_thread(chat, reply_to),
        "protected": p.flag("protect_content"),
        **fields,
    }
    if business_extra:
        own["sender"] = business.sender(ctx.telegram, business_extra)
        own["extra"] = {**(base.extra if base is not None else {}), **fields.get("extra", {}), **business_extra}
    msg = chat.add(StoredMessage(**own) if base is None else replace(base, **own))
    topic = suggested.topic_for_send(ctx.telegram, chat, parse_int(p.text("direct_messages_topic_id")) or 0, reply_to)
    if topic is not None:  # a channel's direct messages: the person's topic
        msg.extra = {**msg.extra, "direct_messages_topic": topic}
    if msg.reply_markup is not None:
        keyboards.apply(chat, msg, msg.reply_markup)
    if not business_extra:
        rooms.deliver(ctx.telegram, chat, msg)  # a channel post reaches the channel's other admin bots
    return ctx.message_json(chat, msg)
