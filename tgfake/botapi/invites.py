"""Invite links and join requests: exportChatInviteLink, create/edit/revokeChatInviteLink, the subscription link
methods, approveChatJoinRequest and declineChatJoinRequest.

Links look like Telegram's (``https://t.me/+`` and 16 URL-safe characters) and are stable for a given chat and
order of creation. Only administrators with ``can_invite_users`` manage them. Approving a request puts the person
in the chat through :func:`tgfake.world.membership.set_member` (``via_join_request``), as the person's own join
would.
"""

from __future__ import annotations

import base64
import hashlib
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.managed import WRITE, bot_member, clean_name, int_arg, managed_chat, user_arg
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, InviteLink
from tgfake.errors import bad_request
from tgfake.params import Params
from tgfake.world import rights
from tgfake.world.members import MEMBER, Member
from tgfake.world.membership import set_member

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_LINK_NAME = 32  # code points
MAX_MEMBER_LIMIT = 100_000
MAX_PERIOD = 1_000_000_000
MAX_PRICE = 1_000_000


def link_manager(ctx: BotCall, p: Params, action: str = "invite_links", chat: Chat | None = None) -> Chat:
    """The chat whose links (or join requests) the bot manages: not a private chat, and only with the right."""
    chat = chat or managed_chat(ctx, p, WRITE)
    if chat.type == "private":
        raise bad_request(errors.INVITE_IN_PRIVATE if action == "invite_links" else errors.JOIN_REQUESTS_IN_PRIVATE)
    rights.require(chat, bot_member(ctx, chat), action)
    return chat


def mint_link(ctx: BotCall, chat: Chat, **fields: Any) -> InviteLink:
    """A new link in Telegram's shape, derived from the chat and how many links it has had."""
    seed = f"{chat.id}/{len(chat.invite_links)}".encode()
    token = base64.urlsafe_b64encode(hashlib.sha256(seed).digest()[:12]).decode()
    link = InviteLink(invite_link=f"https://t.me/+{token}", creator=ctx.bot.user, **fields)
    chat.invite_links[link.invite_link] = link
    return link


def link_json(chat: Chat, link: InviteLink) -> dict[str, Any]:
    return chat.link_json(link)


def existing_link(chat: Chat, p: Params) -> InviteLink:
    value = p.text("invite_link")
    if not value:
        raise bad_request(errors.INVITE_LINK_EMPTY)
    link = chat.invite_links.get(value)
    if link is None:
        raise bad_request(errors.INVITE_HASH_EXPIRED)
    return link


def _limits(p: Params) -> tuple[int, int, bool]:
    expire = int_arg(p, "expire_date", 0)
    limit = int_arg(p, "member_limit", 0, MAX_MEMBER_LIMIT)
    joins = p.flag("creates_join_request")
    return expire, limit, joins


@bot_method("exportChatInviteLink")
async def export_chat_invite_link(ctx: BotCall, p: Params) -> Any:
    """A new primary link; the previous primary one is revoked."""
    chat = link_manager(ctx, p)
    for link in chat.invite_links.values():
        if link.is_primary:
            link.is_primary = False
            link.is_revoked = True
    return mint_link(ctx, chat, is_primary=True).invite_link


@bot_method("createChatInviteLink")
async def create_chat_invite_link(ctx: BotCall, p: Params) -> Any:
    name = clean_name(p.text("name"), MAX_LINK_NAME)
    expire, limit, joins = _limits(p)
    chat = managed_chat(ctx, p, WRITE)
    if joins and limit:
        raise bad_request(errors.INVITE_LINK_LIMIT)
    link_manager(ctx, p, chat=chat)
    link = mint_link(ctx, chat, name=name, expire_date=expire, member_limit=limit, creates_join_request=joins)
    return link_json(chat, link)


@bot_method("createChatSubscriptionInviteLink")
async def create_chat_subscription_invite_link(ctx: BotCall, p: Params) -> Any:
    """A paid link (period in seconds, price in Stars); paying for the subscription is not modelled."""
    name = clean_name(p.text("name"), MAX_LINK_NAME)
    period = int_arg(p, "subscription_period", 0, MAX_PERIOD)
    price = int_arg(p, "subscription_price", 0, MAX_PRICE)
    chat = managed_chat(ctx, p, WRITE)
    if not period or not price:
        raise bad_request(errors.SUBSCRIPTION_PRICING)
    link_manager(ctx, p, chat=chat)
    link = mint_link(ctx, chat, name=name, subscription_period=period, subscription_price=price)
    return link_json(chat, link)


@bot_method("editChatInviteLink")
async def edit_chat_invite_link(ctx: BotCall, p: Params) -> Any:
    name = clean_name(p.text("name"), MAX_LINK_NAME)
    expire, limit, joins = _limits(p)
    chat = link_manager(ctx, p)
    if joins and limit:
        raise bad_request(errors.INVITE_LINK_LIMIT)
    link = existing_link(chat, p)
    link.name, link.expire_date, link.member_limit, link.creates_join_request = name, expire, limit, joins
    return link_json(chat, link)


@bot_method("editChatSubscriptionInviteLink")
async def edit_chat_subscription_invite_link(ctx: BotCall, p: Params) -> Any:
    name = clean_name(p.text("name"), MAX_LINK_NAME)
    chat = link_manager(ctx, p)
    link = existing_link(chat, p)
    link.name = name
    return link_json(chat, link)


@bot_method("revokeChatInviteLink")
async def revoke_chat_invite_link(ctx: BotCall, p: Params) -> Any:
    """Revoking the primary link makes a new primary one, as Telegram does; the revoked link is answered."""
    chat = link_manager(ctx, p)
    link = existing_link(chat, p)
    link.is_revoked = True
    if link.is_primary:
        link.is_primary = False
        mint_link(ctx, chat, is_primary=True)
    return link_json(chat, link)


def _join_request(ctx: BotCall, p: Params, *, approving: bool = False) -> tuple[Chat, int]:
    """The pending request; approving someone already in the chat who asked nothing is the server's
    USER_ALREADY_PARTICIPANT (what Telegram answers python-telegram-bot's suite for its channel's owner)."""
    user_id = user_arg(p)
    chat = link_manager(ctx, p, "join_requests")
    if user_id not in chat.join_requests:
        present = approving and chat.present(user_id)
        raise bad_request(errors.USER_ALREADY_PARTICIPANT if present else errors.HIDE_REQUESTER_MISSING)
    return chat, user_id


@bot_method("approveChatJoinRequest")
async def approve_chat_join_request(ctx: BotCall, p: Params) -> Any:
    chat, user_id = _join_request(ctx, p, approving=True)
    request = chat.join_requests.pop(user_id)
    if chat.present(user_id):
        raise bad_request(errors.USER_ALREADY_PARTICIPANT)
    extra: dict[str, Any] = {"via_join_request": True}
    if request.invite_link:
        extra = {"invite_link": request.invite_link}
    set_member(ctx.telegram, chat, Member(user=request.user, status=MEMBER), actor=request.user, extra=extra)
    return True


@bot_method("declineChatJoinRequest")
async def decline_chat_join_request(ctx: BotCall, p: Params) -> Any:
    chat, user_id = _join_request(ctx, p)
    del chat.join_requests[user_id]
    return True
