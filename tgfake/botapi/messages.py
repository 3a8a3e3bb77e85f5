"""Text messages: sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage(s), sendChatAction."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import link_previews
from tgfake.botapi.common import chat_id, checked_chat, entities_json, message_text, own_message, post_message
from tgfake.botapi.forwards import message_ids
from tgfake.botapi.inline import inline_target
from tgfake.botapi.keyboards import parse_inline_keyboard, parse_send_markup, same_keyboard
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, StoredMessage
from tgfake.errors import bad_request
from tgfake.params import Params, parse_int
from tgfake.world import business, rooms

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


@bot_method("sendMessage")
async def send_message(ctx: BotCall, p: Params) -> Any:
    cid = chat_id(p)
    preview = link_previews.requested(p)
    text = message_text(p)
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))
    return post_message(
        ctx,
        p,
        cid,
        keyboard,
        text=text.text,
        entities=entities_json(ctx, text),
        parse_mode=p.text("parse_mode"),
        link_preview=link_previews.shown(preview, text),
    )


@bot_method("editMessageText")
async def edit_message_text(ctx: BotCall, p: Params) -> Any:
    inline = inline_target(ctx, p)  # an inline message (by inline_message_id): edited, answered with True
    chat, msg = inline or own_message(ctx, p)
    preview = link_previews.requested(p)
    text = message_text(p)
    entities = entities_json(ctx, text)
    keyboard = parse_inline_keyboard(p.get("reply_markup"), chat.type)
    if text.text == msg.text and entities == msg.entities and same_keyboard(keyboard, msg.keyboard):
        raise bad_request(errors.NOT_MODIFIED)
    msg.text = text.text
    msg.entities = entities
    msg.link_preview = link_previews.shown(preview, text)
    msg.keyboard = keyboard
    msg.parse_mode = p.text("parse_mode")
    msg.edit_date = ctx.unix_now()
    rooms.deliver(ctx.telegram, chat, msg, edited=True)  # a channel post's edit reaches the channel's other admin bots
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


TWO_DAYS = 2 * 86400  # a bot deletes (for everyone) only messages younger than this
UNDELETABLE_SERVICE = frozenset({"channel_chat_created", "migrate_from_chat_id", "forum_topic_created"})


def deletion_refused(ctx: BotCall, chat: Chat, msg: StoredMessage) -> str | None:
    """Why the bot may not delete this message for everyone (TDLib's ``can_delete_message`` and
    ``can_revoke_message`` for a bot), or None.

    Supergroups and channels: ``can_delete_messages`` deletes anything younger than two days; without it only the
    bot's own messages (its channel posts and service messages need ``can_post_messages``). Private chats: both
    sides' messages, but a die only after a day. Basic groups: the bot's own, or any as an administrator.
    """
    age = ctx.unix_now() - msg.date
    own = msg.sender is not None and msg.sender.id == ctx.bot.id
    member = chat.member(ctx.bot.id)
    if chat.type in ("supergroup", "channel"):
        if age >= TWO_DAYS or (msg.service and UNDELETABLE_SERVICE.intersection(msg.service)):
            return errors.CANT_DELETE
        if member is not None and member.can("can_delete_messages"):
            return None
        if not own:
            return errors.CANT_DELETE
        if chat.type == "channel" or msg.service:
            return None if member is not None and member.can("can_post_messages") else errors.CANT_DELETE
        return None
    if chat.type == "private":
        dice = msg.kind == "dice"
        return errors.CANT_DELETE_FOR_EVERYONE if (dice and age < 86400) or age > TWO_DAYS else None
    admin = member is not None and member.is_admin
    allowed = (own and not msg.service) or admin
    return None if allowed and age <= TWO_DAYS else errors.CANT_DELETE_FOR_EVERYONE


@bot_method("deleteMessage")
async def delete_message(ctx: BotCall, p: Params) -> Any:
    """The bot's and the person's messages, as the rights allow; the message is flagged, not removed, so history
    stays."""
    cid = chat_id(p)
    chat = ctx.chat(cid)
    msg = chat.live(parse_int(p.text("message_id")) or 0) if chat is not None else None
    if chat is None or msg is None:
        raise bad_request(errors.DELETE_NOT_FOUND)
    refused = deletion_refused(ctx, chat, msg)
    if refused:
        raise bad_request(refused)
    rooms.delete(ctx.telegram, chat, msg)
    return True


@bot_method("deleteMessages")
async def delete_messages(ctx: BotCall, p: Params) -> Any:
    """1-100 ids; missing ones are skipped, and either every found message is deleted or none (the first one the
    bot may not delete names the refusal)."""
    ids = message_ids(p)
    chat = checked_chat(ctx, chat_id(p))
    found = [m for m in (chat.live(i) for i in ids) if m is not None]
    for msg in found:
        refused = deletion_refused(ctx, chat, msg)
        if refused:
            raise bad_request(refused)
    for msg in found:
        rooms.delete(ctx.telegram, chat, msg)
    return True


CHAT_ACTIONS = frozenset(
    {
        "cancel",
        "typing",
        "record_video",
        "upload_video",
        "record_audio",
        "record_voice",
        "upload_audio",
        "upload_voice",
        "upload_photo",
        "upload_document",
        "choose_sticker",
        "pick_up_location",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
"""The actions Client.cpp's get_chat_action knows (lower-cased, untrimmed, legacy aliases included)."""


@bot_method("sendChatAction")
async def send_chat_action(ctx: BotCall, p: Params) -> Any:
    """Shows "typing" for five seconds of the stand's clock (the action's kind is only recorded); an action
    Telegram does not know is refused before the chat is looked at, as Client.cpp does."""
    if p.text("action").lower() not in CHAT_ACTIONS:
        raise bad_request(errors.WRONG_CHAT_ACTION)
    connection = p.text("business_connection_id")
    if connection:  # the owner is shown typing to the customer (the connection and the chat as a send's)
        business.action_target(ctx.telegram, ctx.bot, connection, p.text("chat_id")).typing_at = ctx.now()
        return True
    chat = ctx.chat_for_send(chat_id(p))
    chat.typing_at = ctx.now()
    return True
