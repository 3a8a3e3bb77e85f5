"""Steering the stand: faults and the shared reset."""

from __future__ import annotations

from aiohttp import web

from tgfake.models import FaultIn
from tgfake.sim.common import read_body, stand_of
from tgfake.wire import sim_json

routes = web.RouteTableDef()


@routes.post("/sim/fault")
async def set_fault(request: web.Request) -> web.Response:
    stand = stand_of(request)
    stand.schedule_fault(await read_body(request, FaultIn))
    return sim_json({"faults": stand.world.faults.list(), "ok": True})


@routes.delete("/sim/fault")
async def clear_faults(request: web.Request) -> web.Response:
    stand_of(request).world.faults.clear_all()
    return sim_json({"ok": True})


@routes.post("/sim/reset")
async def reset(request: web.Request) -> web.Response:
    """One reset for the whole origin: the Telegram side and every hooked part (the model)."""
    stand_of(request).reset()
    return sim_json({"ok": True})
