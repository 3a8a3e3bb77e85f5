"""Chat members: getChatMember, getChatMemberCount, getChatAdministrators, ban, unban, restrict, promote,
setChatAdministratorCustomTitle, banChatSenderChat, unbanChatSenderChat, leaveChat.

Parameters are read in telegram-bot-api's order (``user_id`` and permissions before the chat); who may do what is
decided in :mod:`tgfake.world.rights`; every change goes through :func:`tgfake.world.membership.set_member`, so the
bots get the same ``my_chat_member`` / ``chat_member`` updates and service messages as when a person does it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.managed import (
    READ,
    READ_MEMBERS,
    WRITE,
    account,
    bot_member,
    input_string,
    int_arg,
    lenient_int,
    managed_chat,
    parse_permissions,
    user_arg,
)
from tgfake.botapi.registry import bot_method
from tgfake.bounds import MAX_CUSTOM_TITLE
from tgfake.chats import Chat
from tgfake.errors import bad_request
from tgfake.params import Params
from tgfake.world import rights
from tgfake.world.members import (
    ADMINISTRATOR,
    ALL_ADMIN_RIGHTS,
    CREATOR,
    KICKED,
    LEFT,
    MEMBER,
    PERMISSIONS,
    RESTRICTED,
    Member,
)
from tgfake.world.membership import set_member

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

SUPERGROUP_OR_CHANNEL = ("supergroup", "channel")


def _member_or_missing(ctx: BotCall, chat: Chat, user_id: int) -> Member:
    """The membership getChatMember answers; an account the stand never met is ``member not found``."""
    if chat.type == "private":
        if user_id == ctx.bot.id:
            return Member(user=ctx.bot.user, status=MEMBER)
        if chat.user is not None and user_id == chat.user.id:
            return Member(user=chat.user, status=MEMBER)
        raise bad_request(errors.MEMBER_NOT_FOUND)
    found = rights.refuse_unknown(account(ctx, user_id), errors.MEMBER_NOT_FOUND)
    return rights.current(chat, found, ctx.unix_now())


def _change(ctx: BotCall, chat: Chat, old: Member, new: Member) -> bool:
    """Apply a status change in a supergroup or channel, refused as Telegram refuses it; an unchanged one is a no-op."""
    if rights.same(old, new) and old.status != CREATOR:
        return True
    rights.check_change(chat, bot_member(ctx, chat), old, new)
    set_member(ctx.telegram, chat, new, actor=ctx.bot.user)
    return True


def _leave(ctx: BotCall, chat: Chat) -> bool:
    """The bot leaves (``left``); a bot that is not in the chat succeeds without a change."""
    if bot_member(ctx, chat).present:
        set_member(ctx.telegram, chat, Member(user=ctx.bot.user, status=LEFT), actor=ctx.bot.user)
    return True


@bot_method("getChatMember")
async def get_chat_member(ctx: BotCall, p: Params) -> Any:
    user_id = user_arg(p)
    chat = managed_chat(ctx, p, READ if user_id == ctx.bot.id else READ_MEMBERS)
    if chat.type == "channel" and not bot_member(ctx, chat).is_admin:
        raise bad_request(errors.MEMBER_LIST_INACCESSIBLE)
    return _member_or_missing(ctx, chat, user_id).json(chat.type, ctx.bot.id)


@bot_method("getChatMemberCount")
async def get_chat_member_count(ctx: BotCall, p: Params) -> Any:
    chat = managed_chat(ctx, p, READ_MEMBERS)
    if chat.type == "private":
        return 2
    return sum(1 for m in chat.members.values() if m.present)


@bot_method("getChatAdministrators")
async def get_chat_administrators(ctx: BotCall, p: Params) -> Any:
    """The owner first, then the administrators; other bots only with ``return_bots``."""
    chat = managed_chat(ctx, p, READ_MEMBERS)
    if chat.type == "private":
        raise bad_request(errors.NO_ADMINS_IN_PRIVATE)
    with_bots = p.flag("return_bots")
    admins = [
        m
        for m in chat.members.values()
        if m.is_admin and m.present and (with_bots or not m.user.is_bot or m.user.id == ctx.bot.id)
    ]
    admins.sort(key=lambda m: m.status != CREATOR)
    return [m.json(chat.type, ctx.bot.id) for m in admins]


@bot_method("banChatMember")
async def ban_chat_member(ctx: BotCall, p: Params) -> Any:
    """A basic group only removes (the person may be added again); a supergroup or channel bans until ``until_date``.

    ``revoke_messages`` is accepted and recorded: the removed person's view of the history is not modelled.
    """
    user_id = user_arg(p)
    until_date = int_arg(p, "until_date")
    chat = managed_chat(ctx, p, WRITE)
    if chat.type == "private":
        raise bad_request(errors.CANT_BAN_IN_PRIVATE)
    target = rights.refuse_unknown(account(ctx, user_id), errors.PARTICIPANT_ID_INVALID)
    old = rights.current(chat, target, ctx.unix_now())
    if chat.type == "group":
        if user_id == ctx.bot.id:
            return _leave(ctx, chat)
        rights.check_group_kick(bot_member(ctx, chat), old)
        set_member(ctx.telegram, chat, Member(user=target, status=LEFT), actor=ctx.bot.user)
        return True
    new = Member(user=target, status=KICKED, until_date=rights.until(until_date, ctx.unix_now()))
    return _change(ctx, chat, old, new)


@bot_method("unbanChatMember")
async def unban_chat_member(ctx: BotCall, p: Params) -> Any:
    """Leaves the person free to join again (``left``); without ``only_if_banned`` a member is removed too."""
    user_id = user_arg(p)
    chat = managed_chat(ctx, p, WRITE, SUPERGROUP_OR_CHANNEL, errors.SUPERGROUP_OR_CHANNEL_ONLY)
    if p.flag("only_if_banned"):
        old = _member_or_missing(ctx, chat, user_id)
        if old.status != KICKED:
            return True
    else:
        target = rights.refuse_unknown(account(ctx, user_id), errors.PARTICIPANT_ID_INVALID)
        old = rights.current(chat, target, ctx.unix_now())
    if user_id == ctx.bot.id:
        return _leave(ctx, chat)  # Telegram reads "unban myself" as leaving
    return _change(ctx, chat, old, Member(user=old.user, status=LEFT))


@bot_method("restrictChatMember")
async def restrict_chat_member(ctx: BotCall, p: Params) -> Any:
    """Every permission true lifts the restriction; the flat pre-5.0 parameters keep polls, info, invites, pins and
    topics as they were for a member already restricted, as Telegram does."""
    user_id = user_arg(p)
    until_date = int_arg(p, "until_date")
    independent = p.flag("use_independent_chat_permissions")
    perms, legacy = parse_permissions(p, allow_legacy=True, independent=independent)
    chat = managed_chat(ctx, p, WRITE, ("supergroup",), errors.SUPERGROUP_ONLY)
    old = _member_or_missing(ctx, chat, user_id)
    if legacy and old.status == RESTRICTED:
        for name in ("can_send_polls", "can_change_info", "can_invite_users", "can_pin_messages", "can_manage_topics"):
            perms[name] = old.permissions.get(name, False)
    if all(perms[name] for name in PERMISSIONS):
        new = Member(user=old.user, status=MEMBER if old.present else LEFT)
    else:
        new = Member(
            user=old.user,
            status=RESTRICTED,
            permissions=perms,
            until_date=rights.until(until_date, ctx.unix_now()),
            is_member=old.present,
        )
    return _change(ctx, chat, old, new)


@bot_method("promoteChatMember")
async def promote_chat_member(ctx: BotCall, p: Params) -> Any:
    """Every right false demotes to a member. In a channel, a promotion that does not name
    ``can_restrict_members`` grants it, as telegram-bot-api does; ``can_manage_voice_chats`` is the old name of
    ``can_manage_video_chats``."""
    user_id = user_arg(p)
    wanted = {name: p.flag(name) for name in ALL_ADMIN_RIGHTS}
    wanted["can_manage_video_chats"] = wanted["can_manage_video_chats"] or p.flag("can_manage_voice_chats")
    anonymous = p.flag("is_anonymous")
    chat = managed_chat(ctx, p, WRITE, SUPERGROUP_OR_CHANNEL, errors.SUPERGROUP_OR_CHANNEL_ONLY)
    promotion = anonymous or any(wanted.values())
    if chat.type == "channel" and promotion and "can_restrict_members" not in p.values:
        wanted["can_restrict_members"] = True
    target = rights.refuse_unknown(account(ctx, user_id), errors.PARTICIPANT_ID_INVALID)
    old = rights.current(chat, target, ctx.unix_now())
    granted = rights.admin_rights(chat, wanted)
    if any(granted.values()) or anonymous:
        new = Member(
            user=target,
            status=ADMINISTRATOR,
            rights=granted,
            is_anonymous=anonymous,
            custom_title=old.custom_title if old.status == ADMINISTRATOR else "",
            promoted_by=ctx.bot.id,
        )
    else:
        new = Member(user=target, status=MEMBER)
    return _change(ctx, chat, old, new)


@bot_method("setChatAdministratorCustomTitle")
async def set_chat_administrator_custom_title(ctx: BotCall, p: Params) -> Any:
    """Only for an administrator this bot promoted; 0-16 characters, emoji not checked."""
    user_id = user_arg(p)
    chat = managed_chat(ctx, p, WRITE, ("group", "supergroup"), errors.GROUPS_ONLY)
    old = _member_or_missing(ctx, chat, user_id)
    if old.status == CREATOR:
        raise bad_request(errors.OWNER_CUSTOM_TITLE)
    if old.status != ADMINISTRATOR:
        raise bad_request(errors.NOT_AN_ADMIN)
    if old.promoted_by != ctx.bot.id:
        raise bad_request(errors.NOT_ENOUGH_RIGHTS_TO.format(action="change custom title of the user"))
    title = input_string(p.text("custom_title"))
    if len(title) > MAX_CUSTOM_TITLE:
        raise bad_request(errors.CUSTOM_TITLE_INVALID)
    if title != old.custom_title:
        new = old.copy()
        new.custom_title = title
        set_member(ctx.telegram, chat, new, actor=ctx.bot.user)
    return True


def _sender_chat_arg(p: Params) -> int:
    raw = p.text("sender_chat_id")
    if not raw:
        raise bad_request(errors.SENDER_CHAT_ID_EMPTY)
    value = lenient_int(raw)
    if str(value) != raw.strip().lstrip("+"):
        raise bad_request(errors.SENDER_CHAT_ID_BAD)
    return value


@bot_method("banChatSenderChat")
async def ban_chat_sender_chat(ctx: BotCall, p: Params) -> Any:
    """The channel is remembered as banned (``until_date`` kept); posts on behalf of chats are not modelled."""
    until_date = int_arg(p, "until_date")
    chat = managed_chat(ctx, p, WRITE)
    sender = _sender_chat_arg(p)
    if chat.type == "private":
        raise bad_request(errors.CANT_BAN_IN_PRIVATE)
    if chat.type == "group":
        raise bad_request(errors.BAN_CHATS_IN_GROUPS)
    rights.require(chat, bot_member(ctx, chat), "restrict")
    chat.banned_senders[sender] = rights.until(until_date, ctx.unix_now())
    return True


@bot_method("unbanChatSenderChat")
async def unban_chat_sender_chat(ctx: BotCall, p: Params) -> Any:
    chat = managed_chat(ctx, p, WRITE)
    sender = _sender_chat_arg(p)
    if chat.type == "private":
        raise bad_request(errors.STATUS_IN_PRIVATE)
    if chat.type == "group":
        return True  # a basic group has no banned chats: "unbanned" already
    rights.require(chat, bot_member(ctx, chat), "restrict")
    chat.banned_senders.pop(sender, None)
    return True


@bot_method("leaveChat")
async def leave_chat(ctx: BotCall, p: Params) -> Any:
    chat = managed_chat(ctx, p, READ)
    if chat.type == "private":
        raise bad_request(errors.CANT_LEAVE_PRIVATE)
    return _leave(ctx, chat)
