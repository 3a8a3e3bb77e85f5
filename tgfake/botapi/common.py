"""Checks shared by several methods: chat ids, text limits, reply targets, the message being edited."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tgfake import errors, reply_keyboards
from tgfake.chats import Chat, Keyboard, StoredMessage
from tgfake.errors import bad_request
from tgfake.params import Params, loads, parse_int
from tgfake.reply_keyboards import ReplyMarkup

if TYPE_CHECKING:
    from tgfake.stand import BotCall

MAX_TEXT = 4096  # code points
MAX_CAPTION = 1024  # code points


def chat_id(p: Params) -> int:
    """``chat_id`` must be a non-zero integer; ``@username`` and garbage read as empty, as Telegram words it."""
    value = parse_int(p.text("chat_id"))
    if not value:
        raise bad_request(errors.CHAT_ID_EMPTY)
    return value


def check_text(text: str | None) -> str:
    """Message text is 1..4096 code points; whitespace-only text is accepted."""
    if not text:
        raise bad_request(errors.TEXT_EMPTY)
    if len(text) > MAX_TEXT:
        raise bad_request(errors.TEXT_TOO_LONG)
    return text


def check_caption(caption: str) -> str:
    if len(caption) > MAX_CAPTION:
        raise bad_request(errors.CAPTION_TOO_LONG)
    return caption


def reply_target(p: Params, chat: Chat) -> int | None:
    """The message a send quotes: ``reply_parameters`` first, else ``reply_to_message_id``.

    A missing or deleted target is refused unless ``allow_sending_without_reply``, then the send is unthreaded.
    """
    raw = p.get("reply_parameters")
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
    else:
        target_id = parse_int(p.text("reply_to_message_id")) or 0
        allow = p.flag("allow_sending_without_reply")
    if not target_id:
        return None
    if chat.live(target_id) is None:
        if allow:
            return None
        raise bad_request(errors.REPLY_NOT_FOUND)
    return target_id


def own_message(ctx: BotCall, p: Params) -> tuple[Chat, StoredMessage]:
    """The bot's live message named by ``chat_id`` + ``message_id``, as edits need it."""
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
    **fields: Any,
) -> Any:
    """Store the bot's new message in chat ``cid`` and return its Bot API JSON.

    The chat is created before the reply target is checked (a send refused for its target still leaves the chat,
    as the reference does); ``attach`` (minting file ids) runs only once every check has passed. The new message
    replaces the drafts streamed in its thread (their history stays). A reply keyboard, remove or force reply
    (``keyboard`` not a list) updates the keyboards of the people it is for.
    """
    chat = ctx.chat_for_send(cid)
    reply_to = reply_target(p, chat)
    if attach is not None:
        fields.update(attach())
    thread = parse_int(p.text("message_thread_id")) or 0
    chat.drafts.settle(thread)
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=ctx.unix_now(),
            sender=ctx.bot.user,
            reply_to=reply_to,
            keyboard=keyboard if isinstance(keyboard, list) else None,
            reply_markup=keyboard if isinstance(keyboard, ReplyMarkup) else None,
            thread_id=thread if chat.is_forum else 0,
            **fields,
        )
    )
    if msg.reply_markup is not None:
        reply_keyboards.apply(chat, msg, msg.reply_markup)
    ctx.stand.deliver(chat, msg)  # a channel post reaches the channel's other admin bots
    return ctx.message_json(chat, msg)
