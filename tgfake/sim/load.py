"""The load routes: a world built in bulk (``POST /sim/world/bulk``) and load runs (``/sim/load``): docs/load.md.

A run belongs to the stand it was started on (a session's, normally) and runs on its event loop
(tgfake/load/engine.py); these handlers start it, read its progress and report, and stop it.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref

from aiohttp import web

from tgfake.errors import SimError
from tgfake.load.engine import Run, Settings
from tgfake.load.models import MAX_MEMBERSHIPS, WORLD_MEMBERSHIPS, BulkBuilt, BulkIn, LoadIn, LoadReport, LoadState
from tgfake.load.scenario import ScenarioError, parse
from tgfake.models import MAX_WAIT
from tgfake.sim.common import query_wait, read_body, stand_of
from tgfake.sim.openapi import documented, query
from tgfake.stand import Stand
from tgfake.wire import sim_json
from tgfake.world import bulk

routes = web.RouteTableDef()
RUNS: weakref.WeakKeyDictionary[Stand, Run] = weakref.WeakKeyDictionary()
STOP_WAIT = 70.0
"""How long ``POST /sim/load/stop`` waits for the run to drain and end (the drain is at most 60 s)."""


def _memberships(stand: Stand) -> int:
    return sum(len(c.members) for cid, c in stand.world.chats.items() if cid <= -bulk.GROUP_ID_BASE)


def _room_for(stand: Stand, groups: int, members: int) -> None:
    if groups * members > MAX_MEMBERSHIPS:
        raise SimError(400, f"{groups} groups of {members} members is over {MAX_MEMBERSHIPS:,} memberships at once")
    if groups and _memberships(stand) + groups * members > WORLD_MEMBERSHIPS:
        raise SimError(409, f"the world would hold over {WORLD_MEMBERSHIPS:,} bulk memberships: reset it first")


@routes.post("/sim/world/bulk")
@documented(BulkBuilt, body=BulkIn, errors=(404, 409))
async def build(request: web.Request) -> web.Response:
    """Add many people and groups at once (the bot in every group), with no update sent: the world as it was
    before the bot started."""
    stand = stand_of(request)
    body = await read_body(request, BulkIn)
    _room_for(stand, body.groups, body.members)
    loop = asyncio.get_running_loop()
    began = loop.time()
    built = bulk.build(
        stand,
        stand.find_bot(body.bot),
        body.people,
        body.groups,
        body.members,
        chat_type=body.chat_type.strip().lower(),
        bot_admin=body.bot_admin,
        seed=body.seed,
    )
    return sim_json(
        {
            "people": built.people,
            "groups": [{"id": gid, "members": members} for gid, members in built.groups.items()],
            "ms": round((loop.time() - began) * 1000.0, 1),
        }
    )


def _run(stand: Stand) -> Run:
    run = RUNS.get(stand)
    if run is None:
        raise SimError(404, "no load run on this stand: POST /sim/load starts one")
    return run


@routes.post("/sim/load")
@documented(LoadState, body=LoadIn, errors=(404, 409))
async def start(request: web.Request) -> web.Response:
    """Start a load run on the bot, which must be taking updates (polling, or with a webhook)."""
    stand = stand_of(request)
    body = await read_body(request, LoadIn)
    try:
        scenario = parse(body.scenario)
    except ScenarioError as exc:
        raise SimError(400, f"scenario: {exc}") from None
    bot = stand.find_bot(body.bot)
    running = RUNS.get(stand)
    if running is not None and not running.done:
        raise SimError(409, "a load run is already going on this stand: POST /sim/load/stop ends it")
    if not (bot.webhook.active or bot.held_polls or bot.polls_started):
        raise SimError(409, f"@{bot.username} takes no updates yet: start it polling or with a webhook first")
    if body.members > body.people and body.groups:
        raise SimError(400, f"groups of {body.members} members need that many people, not {body.people}")
    _room_for(stand, body.groups, body.members)
    settings = Settings(
        people=body.people,
        groups=body.groups,
        members=body.members,
        rate=body.rate,
        duration=body.duration,
        ramp=body.ramp,
        budget=body.budget,
        drain=body.drain,
        flood=body.flood,
        chat_burst=body.chat_burst,
        seed=body.seed,
        bot_admin=body.bot_admin,
        scenario=scenario,
    )
    run = Run(stand, bot, settings)
    RUNS[stand] = run
    run.start()
    await asyncio.sleep(0)  # the run's task builds the world before anything else runs on the loop
    return sim_json(run.progress())


DONE_WAIT = query(
    "timeout", "Hold up to this many seconds for the run to end (an ``s`` suffix allowed; 0: answer at once)",
    "number", minimum=0, maximum=MAX_WAIT,
)  # fmt: skip


@routes.get("/sim/load")
@documented(LoadState, params=(DONE_WAIT,), errors=(400, 404))
async def progress(request: web.Request) -> web.Response:
    """The run's progress so far; with ``timeout``, once the run has ended or that many seconds have passed."""
    run = _run(stand_of(request))
    wait = query_wait(request, 0.0)
    if wait > 0 and not run.done:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(run.wait(), wait)
    return sim_json(run.progress())


@routes.get("/sim/load/report")
@documented(LoadReport, errors=(404,))
async def report(request: web.Request) -> web.Response:
    """The run's report: final once its state is done, partial before."""
    return sim_json(_run(stand_of(request)).report())


@routes.post("/sim/load/stop")
@documented(LoadReport, errors=(404,))
async def stop(request: web.Request) -> web.Response:
    """Stop offering now; answers the report once the run has drained (its drain setting) and ended."""
    run = _run(stand_of(request))
    run.stop()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(run.wait(), STOP_WAIT)
    return sim_json(run.report())
