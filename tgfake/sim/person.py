"""The person's side: ``POST /sim/message`` and ``POST /sim/callback``."""

from __future__ import annotations

from aiohttp import web

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
