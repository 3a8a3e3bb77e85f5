"""The people's side of the world: bots, chats, memberships, forum topics, blocking (logic in tgfake/world)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tgfake.chats import Chat
from tgfake.errors import SimError
from tgfake.models import BlockIn, BotIn, ChatIn, MemberIn, TopicIn
from tgfake.params import parse_int
from tgfake.sim import answers
from tgfake.sim.common import read_body, stand_of
from tgfake.sim.openapi import CHAT_ID, documented
from tgfake.stand import Stand
from tgfake.wire import sim_json
from tgfake.world import groups
from tgfake.world.members import CREATOR
from tgfake.world.people import User

routes = web.RouteTableDef()


@routes.post("/sim/bots")
@documented(answers.BotCreated, body=BotIn, errors=(409,))
async def create_bot(request: web.Request) -> web.Response:
    bot = stand_of(request).create_bot(await read_body(request, BotIn))
    return sim_json({"bot": bot.get_me(), "token": bot.token})


@routes.get("/sim/bots")
@documented(answers.BotList)
async def list_bots(request: web.Request) -> web.Response:
    stand = stand_of(request)
    return sim_json({"bots": [{**b.get_me(), "default": b is stand.default_bot} for b in stand.bots.values()]})


def chat_json(chat: Chat) -> dict[str, Any]:
    out = chat.json()
    out["members"] = chat.members_view()
    if chat.topics:
        out["topics"] = [t.json() for t in chat.topics.values()]
    return out


@routes.post("/sim/chats")
@documented(answers.ChatCreated, body=ChatIn, errors=(409,))
async def create_chat(request: web.Request) -> web.Response:
    stand = stand_of(request)
    body = await read_body(request, ChatIn)
    chat = groups.create_chat(
        stand,
        body.type,
        body.title,
        chat_id=body.id,
        username=body.username,
        is_forum=body.is_forum,
        description=body.description,
        creator=body.creator,
        members=list(body.members),
        admins=list(body.admins),
        join_by_request=body.join_by_request,
        linked_chat_id=body.linked_chat_id,
    )
    return sim_json({"chat_id": chat.id, "chat": chat_json(chat)})


def _chat(request: web.Request) -> tuple[Stand, Chat]:
    raw = request.match_info["id"]
    cid = parse_int(raw) if raw == raw.strip() else None
    if cid is None:
        raise SimError(400, "chat id must be an integer")
    stand = stand_of(request)
    return stand, groups.chat_ref(stand, cid)


async def _member_body(request: web.Request) -> tuple[Stand, Chat, MemberIn, User]:
    stand, chat = _chat(request)
    body = await read_body(request, MemberIn)
    if body.user in ("", 0):
        raise SimError(400, "user is required (an id, a name, or a bot's @username)")
    return stand, chat, body, groups.account_ref(stand, body.user)


def _done(stand: Stand, chat: Chat, account: User) -> web.Response:
    member = chat.members.get(account.id)
    return sim_json({"ok": True, "status": member.status if member else "left", "chat": chat_json(chat)})


@routes.post("/sim/chats/{id}/add")
@documented(answers.Membership, body=MemberIn, params=(CHAT_ID,), errors=(403, 409))
async def add(request: web.Request) -> web.Response:
    stand, chat, body, account = await _member_body(request)
    groups.add(stand, chat, account, by=groups.actor_in(stand, chat, body.by, "can_invite_users"))
    return _done(stand, chat, account)


@routes.post("/sim/chats/{id}/join")
@documented(answers.Membership, body=MemberIn, params=(CHAT_ID,), errors=(403, 409))
async def join(request: web.Request) -> web.Response:
    stand, chat, body, account = await _member_body(request)
    link = groups.usable_link(stand, chat, body.invite_link) if body.invite_link else None
    if link is not None and link.creates_join_request:
        raise SimError(409, f"this link asks for approval: POST /sim/chats/{chat.id}/join-request with it")
    if link is None and chat.join_by_request:
        raise SimError(409, f"chat {chat.id} approves its members: POST /sim/chats/{chat.id}/join-request")
    groups.join(stand, chat, account, link=link)
    return _done(stand, chat, account)


@routes.post("/sim/chats/{id}/join-request")
@documented(answers.JoinRequested, body=MemberIn, params=(CHAT_ID,), errors=(403, 409))
async def join_request(request: web.Request) -> web.Response:
    stand, chat, body, account = await _member_body(request)
    link = groups.usable_link(stand, chat, body.invite_link) if body.invite_link else None
    if link is not None and not link.creates_join_request:
        raise SimError(409, f"this link lets people in without approval: POST /sim/chats/{chat.id}/join with it")
    sent = groups.request_join(stand, chat, account, body.bio, link)
    return sim_json({"ok": True, "update_ids": sent})


@routes.post("/sim/chats/{id}/leave")
@documented(answers.Membership, body=MemberIn, params=(CHAT_ID,), errors=(403, 409))
async def leave(request: web.Request) -> web.Response:
    stand, chat, _, account = await _member_body(request)
    groups.leave(stand, chat, account)
    return _done(stand, chat, account)


@routes.post("/sim/chats/{id}/remove")
@documented(answers.Membership, body=MemberIn, params=(CHAT_ID,), errors=(403, 409))
async def remove(request: web.Request) -> web.Response:
    stand, chat, body, account = await _member_body(request)
    by = groups.actor_in(stand, chat, body.by, "can_restrict_members")
    groups.remove(stand, chat, account, by=by, ban=body.ban, until_date=body.until_date)
    return _done(stand, chat, account)


@routes.post("/sim/chats/{id}/promote")
@documented(answers.Membership, body=MemberIn, params=(CHAT_ID,), errors=(403, 409))
async def promote(request: web.Request) -> web.Response:
    stand, chat, body, account = await _member_body(request)
    by = groups.actor_in(stand, chat, body.by, "can_promote_members")
    groups.promote(stand, chat, account, by=by, rights=dict(body.rights), title=body.custom_title)
    return _done(stand, chat, account)


@routes.post("/sim/chats/{id}/demote")
@documented(answers.Membership, body=MemberIn, params=(CHAT_ID,), errors=(403, 409))
async def demote(request: web.Request) -> web.Response:
    stand, chat, body, account = await _member_body(request)
    groups.demote(stand, chat, account, by=groups.actor_in(stand, chat, body.by, "can_promote_members"))
    return _done(stand, chat, account)


@routes.post("/sim/chats/{id}/restrict")
@documented(answers.Membership, body=MemberIn, params=(CHAT_ID,), errors=(403, 409))
async def restrict(request: web.Request) -> web.Response:
    stand, chat, body, account = await _member_body(request)
    by = groups.actor_in(stand, chat, body.by, "can_restrict_members")
    groups.restrict(stand, chat, account, by=by, permissions=dict(body.permissions), until_date=body.until_date)
    return _done(stand, chat, account)


@routes.post("/sim/chats/{id}/migrate")
@documented(answers.Migrated, params=(CHAT_ID,), errors=(409,))
async def migrate(request: web.Request) -> web.Response:
    stand, chat = _chat(request)
    owner = next((m.user for m in chat.members.values() if m.status == CREATOR), None)
    if owner is None:
        raise SimError(400, f"chat {chat.id} has no owner to upgrade it")
    sup = groups.migrate(stand, chat, owner)
    return sim_json({"ok": True, "chat_id": sup.id, "chat": chat_json(sup)})


@routes.post("/sim/chats/{id}/topics")
@documented(answers.TopicCreated, body=TopicIn, params=(CHAT_ID,), errors=(403, 409))
async def create_topic(request: web.Request) -> web.Response:
    stand, chat = _chat(request)
    body = await read_body(request, TopicIn)
    by = (
        groups.actor_in(stand, chat, body.by, "can_manage_topics")
        if body.by
        else groups.actor_in(stand, chat, None, "")
    )
    topic = groups.create_topic(stand, chat, body.name, by, body.icon_color, body.icon_custom_emoji_id)
    return sim_json({"ok": True, "message_thread_id": topic.message_thread_id, "topic": topic.json()})


@routes.post("/sim/block")
@documented(answers.Blocked, body=BlockIn, errors=(409,))
async def block(request: web.Request) -> web.Response:
    stand = stand_of(request)
    body = await read_body(request, BlockIn)
    update_id = groups.block(stand, stand.find_bot(body.bot), groups.person_ref(stand, body.user), True)
    return sim_json({"ok": True, "update_id": update_id})


@routes.post("/sim/unblock")
@documented(answers.Blocked, body=BlockIn, errors=(409,))
async def unblock(request: web.Request) -> web.Response:
    stand = stand_of(request)
    body = await read_body(request, BlockIn)
    update_id = groups.block(stand, stand.find_bot(body.bot), groups.person_ref(stand, body.user), False)
    return sim_json({"ok": True, "update_id": update_id})
