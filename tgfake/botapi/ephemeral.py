"""Ephemeral messages: a bot's message only its receiver sees (made by a send with ``ephemeral_message_parameters``,
tgfake/botapi/ephemeral_sends.py), edited and deleted by these five methods.

The calls are read as telegram-bot-api reads its other methods (``receiver_user_id`` with ``get_user_id``, then
``check_chat``); then TDLib's ``ephemeral.*`` queries name the receiver (``can't access the user`` for anyone the
stand does not know); then Telegram's server answers an id it has no ephemeral message for (another bot's, another
receiver's, a deleted one) with ``MESSAGE_ID_INVALID``. The telegram-bot-api version read (Client.cpp) predates
these methods, so their server side is the stand's reading of TDLib (``MessageQueryManager.cpp``'s
``edit_ephemeral_message``: an edit's text is MTProto's ``message``, a medium's caption on a media message), as
docs/bot-api.md says. Then the content is read as editMessageText / editMessageCaption / editMessageMedia read it,
and the markup as an inline keyboard. An edit sets ``edit_date``; no bot gets an update of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import link_previews
from tgfake.botapi.absent import known_chat
from tgfake.botapi.albums import input_media
from tgfake.botapi.common import caption_text, entities_json, message_text
from tgfake.botapi.fields import required_json
from tgfake.botapi.keyboards import parse_inline_keyboard
from tgfake.botapi.registry import bot_method
from tgfake.chats import StoredMessage
from tgfake.errors import bad_request
from tgfake.params import Params, to_integer

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


def ephemeral_message(ctx: BotCall, p: Params) -> StoredMessage:
    """The receiver, the chat, the person, then the bot's live ephemeral message for that receiver."""
    receiver = to_integer(p.text("receiver_user_id"))
    if receiver <= 0:
        raise bad_request(errors.INVALID_ID.format(name="receiver_user_id"))
    if not p.text("chat_id"):
        raise bad_request(errors.CHAT_ID_EMPTY)
    chat_id = known_chat(ctx, p)
    if receiver not in ctx.world.users and receiver not in ctx.telegram.bots:
        raise bad_request(errors.CANT_ACCESS_USER)
    found = ctx.world.channels.ephemeral.get((chat_id, to_integer(p.text("ephemeral_message_id"))))
    mine = found is not None and found.message.sender is not None and found.message.sender.id == ctx.bot.id
    if found is None or not mine or found.receiver_id != receiver or found.message.deleted:
        raise bad_request(errors.MESSAGE_ID_INVALID)
    return found.message


def _edited(ctx: BotCall, msg: StoredMessage, p: Params) -> bool:
    if p.get("reply_markup") is not None:
        msg.keyboard = parse_inline_keyboard(p.get("reply_markup"), "supergroup")
    msg.edit_date = ctx.unix_now()
    return True


@bot_method("deleteEphemeralMessage")
async def delete_ephemeral_message(ctx: BotCall, p: Params) -> Any:
    """The message is gone for its receiver (its id is free to be reused, as the Bot API warns)."""
    ephemeral_message(ctx, p).deleted = True
    return True


@bot_method("editEphemeralMessageText")
async def edit_ephemeral_message_text(ctx: BotCall, p: Params) -> Any:
    """New text (``message text is empty`` without one) and markup; on a media message, its caption."""
    msg = ephemeral_message(ctx, p)
    text = message_text(p)
    entities = entities_json(ctx, text)
    if msg.media is not None:
        msg.caption, msg.entities = text.text, entities
    else:
        preview = link_previews.requested(p)
        msg.text, msg.entities = text.text, entities
        msg.link_preview = link_previews.shown(preview, text)
    msg.parse_mode = p.text("parse_mode")
    return _edited(ctx, msg, p)


@bot_method("editEphemeralMessageCaption")
async def edit_ephemeral_message_caption(ctx: BotCall, p: Params) -> Any:
    """A new caption (empty removes it), ``show_caption_above_media``, markup; on a text message, its text."""
    msg = ephemeral_message(ctx, p)
    caption = caption_text(p)
    entities = entities_json(ctx, caption)
    if msg.media is None:
        if not caption.text:
            raise bad_request(errors.TEXT_EMPTY)
        msg.text, msg.entities = caption.text, entities
    else:
        msg.caption, msg.entities = caption.text, entities
        msg.caption_above = p.flag("show_caption_above_media")
    msg.parse_mode = p.text("parse_mode")
    return _edited(ctx, msg, p)


@bot_method("editEphemeralMessageMedia")
async def edit_ephemeral_message_media(ctx: BotCall, p: Params) -> Any:
    """New content (an animation, audio, document, photo or video) with its own caption; a text becomes media."""
    msg = ephemeral_message(ctx, p)
    value = required_json(p, "media", errors.INPUT_MEDIA_BAD)
    _, caption, make = input_media(ctx, p, value, for_album=False)
    msg.media, msg.text = make(), ""
    msg.caption, msg.entities = caption.text, entities_json(ctx, caption)
    msg.caption_above = value.get("show_caption_above_media") is True
    return _edited(ctx, msg, p)


@bot_method("editEphemeralMessageReplyMarkup")
async def edit_ephemeral_message_reply_markup(ctx: BotCall, p: Params) -> Any:
    """The inline keyboard (none removes it)."""
    msg = ephemeral_message(ctx, p)
    msg.keyboard = parse_inline_keyboard(p.get("reply_markup"), "supergroup")
    msg.edit_date = ctx.unix_now()
    return True
