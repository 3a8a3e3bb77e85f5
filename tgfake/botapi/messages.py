"""Text messages: sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage, sendChatAction."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.common import chat_id, entities_json, message_text, own_message, post_message
from tgfake.botapi.inline import inline_target
from tgfake.botapi.keyboards import parse_inline_keyboard, parse_send_markup, same_keyboard
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, parse_int

if TYPE_CHECKING:
    from tgfake.stand import BotCall


@bot_method("sendMessage")
async def send_message(ctx: BotCall, p: Params) -> Any:
    cid = chat_id(p)
    text = message_text(p)
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))
    return post_message(
        ctx, p, cid, keyboard, text=text.text, entities=entities_json(ctx, text), parse_mode=p.text("parse_mode")
    )


@bot_method("editMessageText")
async def edit_message_text(ctx: BotCall, p: Params) -> Any:
    inline = inline_target(ctx, p)  # an inline message (by inline_message_id): edited, answered with True
    chat, msg = inline or own_message(ctx, p)
    text = message_text(p)
    entities = entities_json(ctx, text)
    keyboard = parse_inline_keyboard(p.get("reply_markup"), chat.type)
    if text.text == msg.text and entities == msg.entities and same_keyboard(keyboard, msg.keyboard):
        raise bad_request(errors.NOT_MODIFIED)
    msg.text = text.text
    msg.entities = entities
    msg.keyboard = keyboard
    msg.parse_mode = p.text("parse_mode")
    msg.edit_date = ctx.unix_now()
    return True if inline else ctx.message_json(chat, msg)


@bot_method("editMessageReplyMarkup")
async def edit_message_reply_markup(ctx: BotCall, p: Params) -> Any:
    inline = inline_target(ctx, p)
    chat, msg = inline or own_message(ctx, p)
    keyboard = parse_inline_keyboard(p.get("reply_markup"), chat.type)
    if same_keyboard(keyboard, msg.keyboard):
        raise bad_request(errors.NOT_MODIFIED)
    msg.keyboard = keyboard
    msg.edit_date = ctx.unix_now()
    return True if inline else ctx.message_json(chat, msg)


@bot_method("deleteMessage")
async def delete_message(ctx: BotCall, p: Params) -> Any:
    """Works on the bot's and the person's messages; the message is flagged, not removed, so history stays."""
    cid = chat_id(p)
    chat = ctx.chat(cid)
    msg = chat.live(parse_int(p.text("message_id")) or 0) if chat is not None else None
    if msg is None:
        raise bad_request(errors.DELETE_NOT_FOUND)
    msg.deleted = True
    return True


@bot_method("sendChatAction")
async def send_chat_action(ctx: BotCall, p: Params) -> Any:
    """Shows "typing" for five seconds of the stand's clock (the action's kind is only recorded)."""
    chat = ctx.chat_for_send(chat_id(p))
    chat.typing_at = ctx.now()
    return True
