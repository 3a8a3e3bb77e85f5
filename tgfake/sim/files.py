"""``GET /sim/file/{id}``: the bytes of a photo or document the bot uploaded, with the sniffed type."""

from __future__ import annotations

from aiohttp import web

from tgfake.errors import SimError
from tgfake.sim.common import stand_of

routes = web.RouteTableDef()


@routes.get("/sim/file/{id}")
async def file(request: web.Request) -> web.Response:
    stored = stand_of(request).world.files.get(request.match_info["id"])
    if stored is None:
        raise SimError(404, "no such file")
    return web.Response(body=stored.data, headers={"Content-Type": stored.mime_type})
