"""The person's actions beyond text and files (logic in tgfake/world/actions.py): pressing reply keyboard buttons,
sharing a location, venue, contact, dice or poll, voting, editing, deleting, forwarding, reacting."""

from __future__ import annotations

from aiohttp import web

from tgfake.action_models import EditIn, ForwardIn, PassportIn, ReactIn, ReplyButtonIn, ShareIn, TargetIn, VoteIn
from tgfake.sim import answers
from tgfake.sim.common import read_body, stand_of
from tgfake.sim.openapi import documented
from tgfake.wire import sim_json
from tgfake.world import actions, passport

routes = web.RouteTableDef()


def sent(message_id: int, update_id: int) -> web.Response:
    return sim_json({"message_id": message_id, "update_id": update_id})


@routes.post("/sim/reply-button")
@documented(answers.Sent, body=ReplyButtonIn, errors=(409,))
async def reply_button(request: web.Request) -> web.Response:
    return sent(*actions.press_reply_button(stand_of(request), await read_body(request, ReplyButtonIn)))


@routes.post("/sim/share")
@documented(answers.Sent, body=ShareIn)
async def share(request: web.Request) -> web.Response:
    return sent(*actions.share(stand_of(request), await read_body(request, ShareIn)))


@routes.post("/sim/passport")
@documented(answers.Sent, body=PassportIn)
async def share_passport(request: web.Request) -> web.Response:
    return sent(*passport.share(stand_of(request), await read_body(request, PassportIn)))


@routes.post("/sim/forward")
@documented(answers.Sent, body=ForwardIn)
async def forward(request: web.Request) -> web.Response:
    return sent(*actions.forward(stand_of(request), await read_body(request, ForwardIn)))


@routes.post("/sim/vote")
@documented(answers.Voted, body=VoteIn, errors=(409,))
async def vote(request: web.Request) -> web.Response:
    return sim_json(actions.vote(stand_of(request), await read_body(request, VoteIn)))


@routes.post("/sim/edit")
@documented(answers.Updated, body=EditIn, errors=(403,))
async def edit(request: web.Request) -> web.Response:
    return sim_json(actions.edit(stand_of(request), await read_body(request, EditIn)))


@routes.post("/sim/delete")
@documented(answers.Deleted, body=TargetIn, errors=(403,))
async def delete(request: web.Request) -> web.Response:
    body = await read_body(request, TargetIn)
    actions.delete(stand_of(request), body)
    return sim_json({"message_id": body.message_id, "deleted": True})


@routes.post("/sim/react")
@documented(answers.Updated, body=ReactIn)
async def react(request: web.Request) -> web.Response:
    return sim_json(actions.react(stand_of(request), await read_body(request, ReactIn)))
