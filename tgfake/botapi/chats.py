"""The chat itself: getChat, setChatTitle, setChatDescription, setChatPhoto, deleteChatPhoto, setChatPermissions,
pinChatMessage, unpinChatMessage, unpinAllChatMessages.

Changes that Telegram announces post the same service message a person's change would (``new_chat_title``,
``new_chat_photo``, ``delete_chat_photo``, ``pinned_message``), delivered to the other bots in the chat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.managed import (
    READ,
    WRITE,
    bot_member,
    clean_name,
    input_string,
    lenient_int,
    managed_chat,
    parse_permissions,
    permissions_json,
)
from tgfake.botapi.profiles import audio_json
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, message_json
from tgfake.content import StoredFile, photo_sizes
from tgfake.errors import bad_request
from tgfake.filestore import FILE_TOO_BIG, draw_sizes
from tgfake.media import IMAGE_PROCESS_FAILED, MAX_PHOTO_BYTES, PROFILE_PHOTO_BOXES, image_size
from tgfake.params import Params
from tgfake.text.cleaning import strip_empty_characters
from tgfake.world import rights
from tgfake.world.members import PERMISSIONS
from tgfake.world.membership import post_service

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_DESCRIPTION = 255  # code points
MAX_REACTIONS = 11  # Telegram's default number of distinct reactions per message
SUPERGROUP_BASE = 1_000_000_000_000


def accent_color_id(chat: Chat) -> int:
    """Telegram's default accent colour: the peer's own id modulo 7 (a user's id, a group's or channel's id)."""
    if chat.type == "private":
        return (chat.user.id if chat.user is not None else chat.id) % 7
    if chat.type == "group":
        return -chat.id % 7
    return (-chat.id - SUPERGROUP_BASE) % 7


def gift_types(accepted: bool) -> dict[str, bool]:
    return dict.fromkeys(
        ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription", "gifts_from_channels"), accepted
    )


def chat_photo_json(photo: StoredFile) -> dict[str, str]:
    """``ChatPhoto``: the small (160 px) and the big (640 px) of its sizes (one file if the image is no larger)."""
    small = photo.sizes[0] if photo.sizes else photo
    return {
        "small_file_id": small.file_id,
        "small_file_unique_id": small.unique_id,
        "big_file_id": photo.file_id,
        "big_file_unique_id": photo.unique_id,
    }


def full_info(ctx: BotCall, chat: Chat) -> dict[str, Any]:
    """The Bot API ``ChatFullInfo`` as telegram-bot-api builds it (its ``JsonChat`` with ``is_full``)."""
    out: dict[str, Any] = {"id": chat.id}
    if chat.type == "private":
        user = chat.user
        out["first_name"] = user.first_name if user is not None else ""
        if user is not None and user.last_name:
            out["last_name"] = user.last_name
        if user is not None and user.username:
            out["username"] = user.username
        out["type"] = "private"
        if user is not None and not user.is_bot:
            out["can_send_gift"] = True
        if user is not None and user.username:
            out["active_usernames"] = [user.username]
        out["accepted_gift_types"] = gift_types(True)
        personal = ctx.world.chats.get(ctx.world.profiles.personal_chats.get(chat.id, 0))
        if personal is not None:  # the channel on the person's profile (POST /sim/profile personal_chat)
            out["personal_chat"] = personal.json()
        audios = ctx.world.profiles.audios.get(chat.id)  # a private chat's id is the person's
        if audios:
            out["first_profile_audio"] = audio_json(audios[0])
    elif chat.type == "group":
        out["title"] = chat.title
        out["type"] = "group"
        if chat.description:
            out["description"] = chat.description
        primary = _primary_link(chat)
        if primary:
            out["invite_link"] = primary
        out["permissions"] = permissions_json(chat.permissions)
        everyone = all(chat.permissions.get(n, False) for n in PERMISSIONS if n != "can_manage_topics")
        out["all_members_are_administrators"] = everyone
        out["accepted_gift_types"] = gift_types(False)
    else:
        out["title"] = chat.title
        if chat.username:
            out["username"] = chat.username
        if chat.is_forum:
            out["is_forum"] = True
        out["type"] = chat.type
        if chat.username:
            out["active_usernames"] = [chat.username]
        if chat.description:
            out["description"] = chat.description
        primary = _primary_link(chat)
        if primary:
            out["invite_link"] = primary
        if chat.sticker_set_name:
            out["sticker_set_name"] = chat.sticker_set_name
        if chat.type == "channel":
            out["can_send_gift"] = True
        if chat.type == "supergroup" and bot_member(ctx, chat).can("can_change_info"):
            out["can_set_sticker_set"] = True  # setChatStickerSet (tgfake/botapi/group_settings.py)
        if chat.type == "supergroup":
            out["permissions"] = permissions_json(chat.permissions)
            if chat.join_by_request:
                out["join_by_request"] = True
        if chat.linked_chat_id:
            out["linked_chat_id"] = chat.linked_chat_id
        out["accepted_gift_types"] = gift_types(chat.type == "channel")
    photo = chat.photo
    if photo is None and chat.type == "private":  # a person's: their newest profile photo
        photo = next(iter(ctx.world.profiles.photos.get(chat.id, [])), None)
    if photo is not None:
        out["photo"] = chat_photo_json(photo)
    pinned = _newest_pinned(chat)
    if pinned is not None:
        out["pinned_message"] = message_json(chat, pinned, quote=False)
    status = ctx.world.grants.emoji_statuses.get(chat.id) if chat.type == "private" else None
    if status is not None:  # setUserEmojiStatus (tgfake/botapi/user_profile.py)
        out["emoji_status_custom_emoji_id"] = status["custom_emoji_id"]
        if "expiration_date" in status:
            out["emoji_status_expiration_date"] = status["expiration_date"]
    out["max_reaction_count"] = MAX_REACTIONS
    out["accent_color_id"] = accent_color_id(chat)
    return out


def _primary_link(chat: Chat) -> str:
    """The primary invite link, once an administrator bot has exported one (Telegram shows it only then)."""
    return next((link.invite_link for link in chat.invite_links.values() if link.is_primary), "")


def _newest_pinned(chat: Chat) -> Any:
    for mid in reversed(chat.pinned):
        msg = chat.live(mid)
        if msg is not None:
            return msg
    return None


@bot_method("getChat")
async def get_chat(ctx: BotCall, p: Params) -> Any:
    return full_info(ctx, managed_chat(ctx, p, READ))


def _check_change(ctx: BotCall, chat: Chat, what: str, action: str) -> None:
    """The bot changes the chat's ``what``: refused in private chats and without the right."""
    if chat.type == "private":
        raise bad_request(errors.CANT_CHANGE_PRIVATE.format(what=what))
    rights.require(chat, bot_member(ctx, chat), action)


@bot_method("setChatTitle")
async def set_chat_title(ctx: BotCall, p: Params) -> Any:
    """1-128 characters (longer titles are cut); the same title again changes nothing and posts nothing."""
    chat = managed_chat(ctx, p, WRITE)
    title = clean_name(p.text("title"))
    if not title:
        raise bad_request(errors.TITLE_EMPTY)
    _check_change(ctx, chat, "title", "title")
    if title != chat.title:
        chat.title = title
        post_service(ctx.telegram, chat, ctx.bot.user, {"new_chat_title": title})
    return True


@bot_method("setChatDescription")
async def set_chat_description(ctx: BotCall, p: Params) -> Any:
    chat = managed_chat(ctx, p, WRITE)
    _check_change(ctx, chat, "description", "description")
    # td cuts it to the server's 255 characters (strip_empty_characters): a longer one is not refused
    description = strip_empty_characters(input_string(p.text("description")), MAX_DESCRIPTION)
    if description == chat.description:
        raise bad_request(errors.DESCRIPTION_NOT_MODIFIED)
    chat.description = description
    return True


@bot_method("setChatPhoto")
async def set_chat_photo(ctx: BotCall, p: Params) -> Any:
    """An uploaded PNG, JPEG or GIF (a file id or URL is refused, as Telegram refuses it)."""
    upload = p.files.get("photo")
    if upload is None:
        raise bad_request(errors.NO_PHOTO if not p.text("photo") else errors.PHOTO_NOT_UPLOADED)
    chat = managed_chat(ctx, p, WRITE)
    _check_change(ctx, chat, "photo", "photo")
    if len(upload.data) > MAX_PHOTO_BYTES:
        raise bad_request(FILE_TOO_BIG)
    size = image_size(upload.data)
    if size is None:
        raise bad_request(IMAGE_PROCESS_FAILED)
    chat.photo = draw_sizes(ctx.telegram, upload.filename, upload.data, *size, boxes=PROFILE_PHOTO_BOXES)
    post_service(ctx.telegram, chat, ctx.bot.user, {"new_chat_photo": photo_sizes(chat.photo)})
    return True


@bot_method("deleteChatPhoto")
async def delete_chat_photo(ctx: BotCall, p: Params) -> Any:
    chat = managed_chat(ctx, p, WRITE)
    _check_change(ctx, chat, "photo", "photo")
    if chat.photo is None:
        raise bad_request(errors.CHAT_NOT_MODIFIED)
    chat.photo = None
    post_service(ctx.telegram, chat, ctx.bot.user, {"delete_chat_photo": True})
    return True


@bot_method("setChatPermissions")
async def set_chat_permissions(ctx: BotCall, p: Params) -> Any:
    """Every member's default permissions; absent ``permissions`` means all false, as telegram-bot-api reads it."""
    independent = p.flag("use_independent_chat_permissions")
    perms, _ = parse_permissions(p, allow_legacy=False, independent=independent)
    chat = managed_chat(ctx, p, WRITE)
    if chat.type == "private":
        raise bad_request(errors.CANT_CHANGE_PRIVATE.format(what="permissions"))
    if chat.type == "channel":
        raise bad_request(errors.CHANNEL_PERMISSIONS)
    rights.require(chat, bot_member(ctx, chat), "permissions")
    if perms == {name: chat.permissions.get(name, False) for name in perms}:
        raise bad_request(errors.CHAT_NOT_MODIFIED)
    chat.permissions = perms
    return True


def _message_id(p: Params) -> int:
    return max(lenient_int(p.text("message_id")), 0)


@bot_method("pinChatMessage")
async def pin_chat_message(ctx: BotCall, p: Params) -> Any:
    """Pins (again, if pinned) and posts ``pinned_message``; ``disable_notification`` is only recorded."""
    chat = managed_chat(ctx, p, WRITE)
    msg = chat.live(_message_id(p))
    if msg is None:
        raise bad_request(errors.PIN_NOT_FOUND)
    rights.require(chat, bot_member(ctx, chat), "pin")
    if msg.service:
        raise bad_request(errors.SERVICE_PIN)
    if msg.message_id in chat.pinned:
        chat.pinned.remove(msg.message_id)
    chat.pinned.append(msg.message_id)
    service = {"pinned_message": message_json(chat, msg, quote=False)}
    post_service(ctx.telegram, chat, ctx.bot.user, service, thread_id=msg.thread_id)
    return True


@bot_method("unpinChatMessage")
async def unpin_chat_message(ctx: BotCall, p: Params) -> Any:
    """Without ``message_id``, the newest pinned message."""
    chat = managed_chat(ctx, p, WRITE)
    mid = _message_id(p)
    msg = chat.live(mid) if mid else _newest_pinned(chat)
    if msg is None:
        raise bad_request(errors.UNPIN_NOT_FOUND)
    rights.require(chat, bot_member(ctx, chat), "pin")
    if msg.message_id in chat.pinned:
        chat.pinned.remove(msg.message_id)
    return True


def unpin_all(chat: Chat, thread_id: int | None = None) -> None:
    """Unpin every message, or those of one forum topic (0: the General topic)."""
    if thread_id is None:
        chat.pinned.clear()
        return
    chat.pinned[:] = [mid for mid in chat.pinned if (m := chat.messages.get(mid)) is None or m.thread_id != thread_id]


@bot_method("unpinAllChatMessages")
async def unpin_all_chat_messages(ctx: BotCall, p: Params) -> Any:
    chat = managed_chat(ctx, p, WRITE)
    rights.require(chat, bot_member(ctx, chat), "pin")
    unpin_all(chat)
    return True
