"""Steering the stand: faults, the clock and the shared reset."""

from __future__ import annotations

from aiohttp import web

from tgfake.models import ClockIn, FaultIn
from tgfake.sim import answers
from tgfake.sim.common import read_body, stand_of
from tgfake.sim.openapi import documented
from tgfake.wire import sim_json

routes = web.RouteTableDef()


@routes.post("/sim/fault")
@documented(answers.Faults, body=FaultIn)
async def set_fault(request: web.Request) -> web.Response:
    stand = stand_of(request)
    stand.schedule_fault(await read_body(request, FaultIn))
    return sim_json({"faults": stand.world.faults.list(), "ok": True})


@routes.delete("/sim/fault")
@documented(answers.Ok)
async def clear_faults(request: web.Request) -> web.Response:
    stand_of(request).world.faults.clear_all()
    return sim_json({"ok": True})


@routes.get("/sim/options")
@documented(answers.StandOptions)
async def options(request: web.Request) -> web.Response:
    """What the stand runs with that a bot's calls feel: flood limits (a 429 nobody injected), strict mode, the
    longest held getUpdates, where files by URL come from. A tool on a running stand reads them here."""
    opts = stand_of(request).options
    return sim_json(
        {
            "flood_control": opts.flood_control,
            "strict": opts.strict,
            "poll_max": opts.poll_max,
            "url_files": opts.url_files,
        }
    )


@routes.post("/sim/reset")
@documented(answers.Ok)
async def reset(request: web.Request) -> web.Response:
    """One reset for this session (the root routes: the default one): the Telegram side and its hooked model."""
    stand_of(request).reset()
    return sim_json({"ok": True})


@routes.get("/sim/clock")
@documented(answers.Clock)
async def get_clock(request: web.Request) -> web.Response:
    return sim_json(stand_of(request).clock_json())


@routes.post("/sim/clock")
@documented(answers.Clock, body=ClockIn)
async def move_clock(request: web.Request) -> web.Response:
    """Move this session's time (draft expiry, ``until_date``) instead of sleeping; other sessions keep theirs."""
    stand = stand_of(request)
    stand.move_clock(await read_body(request, ClockIn))
    return sim_json(stand.clock_json())
