"""Mini Apps from the person's side: open one (signed launch data), and the two theme tables."""

from __future__ import annotations

from aiohttp import web

from tgfake import webapp
from tgfake.errors import SimError
from tgfake.launches import LaunchRequest, launch
from tgfake.models import SimBody
from tgfake.sim.common import read_body, stand_of
from tgfake.wire import sim_json

routes = web.RouteTableDef()


class WebAppLaunchIn(SimBody):
    """``POST /sim/webapp/launch``; every field optional (see :class:`tgfake.launches.LaunchRequest`)."""

    url: str = ""
    chat_id: int = 0
    user_id: int = 0
    username: str = ""
    first_name: str = ""
    start_param: str = ""
    color_scheme: str = ""
    platform: str = ""
    version: str = ""


@routes.post("/sim/webapp/launch")
async def launch_route(request: web.Request) -> web.Response:
    body = await read_body(request, WebAppLaunchIn)
    return sim_json(launch(stand_of(request), LaunchRequest(**body.model_dump())))


@routes.get("/sim/webapp/theme/{scheme}")
async def theme(request: web.Request) -> web.Response:
    scheme = request.match_info["scheme"]
    if scheme not in ("light", "dark"):
        raise SimError(400, "scheme is light or dark")
    return sim_json(webapp.theme_params(scheme))
