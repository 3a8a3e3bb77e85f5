"""The person's actions beyond text and files: ``POST /sim/reply-button`` (logic in tgfake/world/actions.py)."""

from __future__ import annotations

from aiohttp import web

from tgfake.action_models import ReplyButtonIn
from tgfake.sim.common import read_body, stand_of
from tgfake.wire import sim_json
from tgfake.world import actions

routes = web.RouteTableDef()


@routes.post("/sim/reply-button")
async def reply_button(request: web.Request) -> web.Response:
    body = await read_body(request, ReplyButtonIn)
    message_id, update_id = actions.press_reply_button(stand_of(request), body)
    return sim_json({"message_id": message_id, "update_id": update_id})
