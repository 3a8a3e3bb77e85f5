"""A supergroup's sticker set (setChatStickerSet, deleteChatStickerSet) and a member's tag (setChatMemberTag).

Ported from telegram-bot-api's ``process_set_chat_sticker_set_query`` / ``process_delete_chat_sticker_set_query``
(``check_chat`` with write access, supergroups only, ``resolve_sticker_set``: ``sticker_set_name is empty``,
``sticker set not found``) and TDLib's ``ChatManager::set_channel_sticker_set`` (the bot needs ``can_change_info``:
``not enough rights to change supergroup sticker set``). Any set the stand holds can be chosen, as
``searchStickerSet`` finds any public set; getChat then shows ``sticker_set_name``, and ``can_set_sticker_set`` for
a bot that may change it.

setChatMemberTag is ``process_set_chat_member_tag_query`` (``user_id``, then ``check_chat``, groups and supergroups
only) and TDLib's ``set_dialog_participant_rank``; the rank is a regular member's ``tag`` and an administrator's
``custom_title`` (Client.cpp's JsonChatMember writes the one TDLib field under both names). The bot needs
``can_manage_tags`` and the person must be in the chat; Telegram's server refuses otherwise with
``CHAT_ADMIN_REQUIRED`` / ``USER_NOT_PARTICIPANT``. The change reaches the bots as ``chat_member`` updates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.managed import WRITE, account, bot_member, managed_chat, user_arg
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat
from tgfake.errors import bad_request
from tgfake.params import Params
from tgfake.world import rights
from tgfake.world.members import ADMINISTRATOR, CREATOR
from tgfake.world.membership import set_member

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


def _may_change_info(ctx: BotCall, chat: Chat) -> None:
    if not bot_member(ctx, chat).can("can_change_info"):
        raise bad_request(errors.NO_RIGHTS_STICKER_SET)


@bot_method("setChatStickerSet")
async def set_chat_sticker_set(ctx: BotCall, p: Params) -> Any:
    """A supergroup's group sticker set: any set the stand holds, chosen by an administrator with can_change_info."""
    chat = managed_chat(ctx, p, WRITE, ("supergroup",), errors.SUPERGROUP_ONLY)
    name = p.text("sticker_set_name")
    if not name:
        raise bad_request(errors.STICKER_SET_NAME_EMPTY)
    found = ctx.world.stickers.sets.get(name.lower())
    if found is None:
        raise bad_request(errors.STICKER_SET_NOT_FOUND)
    _may_change_info(ctx, chat)
    chat.sticker_set_name = found.name
    return True


@bot_method("deleteChatStickerSet")
async def delete_chat_sticker_set(ctx: BotCall, p: Params) -> Any:
    """The supergroup has no group sticker set any more (True also when it had none)."""
    chat = managed_chat(ctx, p, WRITE, ("supergroup",), errors.SUPERGROUP_ONLY)
    _may_change_info(ctx, chat)
    chat.sticker_set_name = ""
    return True


@bot_method("setChatMemberTag")
async def set_chat_member_tag(ctx: BotCall, p: Params) -> Any:
    """A member's ``tag`` (an administrator's ``custom_title``); the bot needs can_manage_tags, the person be in."""
    user_id = user_arg(p)
    chat = managed_chat(ctx, p, WRITE, ("group", "supergroup"), errors.GROUPS_ONLY)
    found = rights.refuse_unknown(account(ctx, user_id), errors.USER_NOT_FOUND)
    if not bot_member(ctx, chat).can("can_manage_tags"):
        raise bad_request(errors.CHAT_ADMIN_REQUIRED)
    old = rights.current(chat, found, ctx.unix_now())
    if not old.present:
        raise bad_request(errors.USER_NOT_PARTICIPANT)
    tag = p.text("tag")
    new = old.copy()
    if old.status in (CREATOR, ADMINISTRATOR):
        new.custom_title = tag
    else:
        new.tag = tag
    if (new.tag, new.custom_title) != (old.tag, old.custom_title):
        set_member(ctx.telegram, chat, new, actor=ctx.bot.user)
    return True
