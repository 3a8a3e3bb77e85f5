"""Rich messages and streamed drafts: sendRichMessage, sendRichMessageDraft, sendMessageDraft.

A draft is a preview, not a message (see :mod:`tgfake.drafts`): these methods return ``true`` and
leave the chat's messages alone; the bot is expected to send the final text with ``sendMessage``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.common import MAX_TEXT, chat_id, entities_json, post_message
from tgfake.botapi.keyboards import parse_send_markup
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, parse_int
from tgfake.text import format_text

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

RICH_MESSAGE_BAD = "Bad Request: can't parse rich_message JSON object"
DRAFT_ID_BAD = "Bad Request: draft_id must be a non-zero integer"
DRAFT_PEER_INVALID = "Bad Request: TEXTDRAFT_PEER_INVALID"  # what Telegram answers for a draft outside a private chat


def _rich_message(p: Params) -> dict[str, Any]:
    """``rich_message`` as an object (JSON ``null`` reads as empty); anything else is refused."""
    try:
        obj = p.json("rich_message")
    except ValueError:
        raise bad_request(RICH_MESSAGE_BAD) from None
    if obj is None:
        obj = {}
    if not isinstance(obj, dict) or not all(isinstance(obj.get(key), str | None) for key in ("markdown", "html")):
        raise bad_request(RICH_MESSAGE_BAD)
    return obj


def _draft_id(p: Params) -> int:
    value = parse_int(p.text("draft_id"))
    if not value:
        raise bad_request(DRAFT_ID_BAD)
    return value


@bot_method("sendRichMessage")
async def send_rich_message(ctx: BotCall, p: Params) -> Any:
    """A message whose text is the markdown (else the html), flagged ``rich``; no 4096 limit, keyboards allowed.

    The rich formats are kept as written: telegram-bot-api has no parser for them to port (docs/formatting.md).
    """
    cid = chat_id(p)
    rich = _rich_message(p)
    text = rich.get("markdown") or rich.get("html") or ""
    if not text:
        raise bad_request(RICH_MESSAGE_BAD)
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))
    return post_message(ctx, p, cid, keyboard, text=text, rich=True)


@bot_method("sendRichMessageDraft")
async def send_rich_message_draft(ctx: BotCall, p: Params) -> Any:
    """A revision of a rich draft: only its markdown is kept (an html-only draft shows empty text)."""
    cid = chat_id(p)
    draft_id = _draft_id(p)
    rich = _rich_message(p)
    chat = ctx.chat_for_send(cid)
    chat.drafts.revise(
        ctx.now(),
        draft_id,
        kind="rich",
        text=rich.get("markdown") or "",
        can_stop=p.flag("can_stop"),
        keep_on_stop=p.flag("keep_on_stop"),
        message_thread_id=p.int_or_zero("message_thread_id"),
    )
    return True


@bot_method("sendMessageDraft")
async def send_message_draft(ctx: BotCall, p: Params) -> Any:
    """Bot API 9.3+: a text preview in a private chat, 0..4096 characters after parsing (empty = "Thinking…").

    The text is parsed like a message's (``parse_mode`` or ``entities``, same refusals); the draft keeps the result.

    ``can_stop`` and ``keep_on_stop`` are honoured as for rich drafts (Telegram's newer docs add them here too).
    """
    cid = chat_id(p)
    if ctx.chat_type(cid) != "private":
        raise bad_request(DRAFT_PEER_INVALID)
    draft_id = _draft_id(p)
    parse_mode = p.text("parse_mode")
    text = format_text(p.text("text"), parse_mode, p.get("entities"), allow_empty=True, limit=MAX_TEXT)
    chat = ctx.chat_for_send(cid)
    chat.drafts.revise(
        ctx.now(),
        draft_id,
        kind="text",
        text=text.text,
        entities=entities_json(ctx, text),
        parse_mode=parse_mode,
        can_stop=p.flag("can_stop"),
        keep_on_stop=p.flag("keep_on_stop"),
        message_thread_id=p.int_or_zero("message_thread_id"),
    )
    return True


__all__ = ["send_message_draft", "send_rich_message", "send_rich_message_draft"]
