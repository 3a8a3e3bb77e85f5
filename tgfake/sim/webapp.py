"""Mini Apps from the person's side: open one (signed launch data), and the two theme tables."""

from __future__ import annotations

from aiohttp import web

from tgfake import webapp
from tgfake.errors import SimError
from tgfake.launches import launch
from tgfake.models import LaunchIn
from tgfake.sim import answers
from tgfake.sim.common import read_body, stand_of
from tgfake.sim.openapi import documented, path
from tgfake.wire import sim_json

routes = web.RouteTableDef()


@routes.post("/sim/webapp/launch")
@documented(answers.Launched, body=LaunchIn)
async def launch_route(request: web.Request) -> web.Response:
    return sim_json(launch(stand_of(request), await read_body(request, LaunchIn)))


@routes.get("/sim/webapp/theme/{scheme}")
@documented(dict[str, str], params=(path("scheme", "The color scheme", enum=["light", "dark"]),))
async def theme(request: web.Request) -> web.Response:
    scheme = request.match_info["scheme"]
    if scheme not in ("light", "dark"):
        raise SimError(400, "scheme is light or dark")
    return sim_json(webapp.theme_params(scheme))
