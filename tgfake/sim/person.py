"""The person's side: ``POST /sim/message``, ``POST /sim/callback`` and ``POST /sim/privacy``."""

from __future__ import annotations

from aiohttp import web

from tgfake.action_models import PrivacyIn
from tgfake.models import CallbackIn, MessageIn
from tgfake.sim import answers
from tgfake.sim.common import read_body, stand_of
from tgfake.sim.openapi import documented
from tgfake.wire import sim_json

routes = web.RouteTableDef()


@routes.post("/sim/message")
@documented(answers.Sent, body=MessageIn, errors=(403,))
async def message(request: web.Request) -> web.Response:
    message_id, update_id = stand_of(request).inject_message(await read_body(request, MessageIn))
    return sim_json({"message_id": message_id, "update_id": update_id})


@routes.post("/sim/callback")
@documented(answers.CallbackSent, body=CallbackIn)
async def callback(request: web.Request) -> web.Response:
    query_id, update_id = stand_of(request).inject_callback(await read_body(request, CallbackIn))
    return sim_json({"callback_query_id": query_id, "update_id": update_id})


@routes.post("/sim/privacy")
@documented(answers.Answer, body=PrivacyIn)
async def privacy(request: web.Request) -> web.Response:
    body = await read_body(request, PrivacyIn)
    person = stand_of(request).person(body.user_id, body.username, body.first_name, name_from_username=True)
    person.hides_forwards = body.hide_forwards
    return sim_json({"user_id": person.id, "hide_forwards": person.hides_forwards})
