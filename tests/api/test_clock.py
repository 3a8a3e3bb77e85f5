"""``GET/POST /sim/clock``: time moved over HTTP, for tests in any language (the in-process twin is ManualClock)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from tests.conftest import Wire
from tgfake.app import create_app
from tgfake.clock import ManualClock

RICH = json.dumps({"markdown": "**Hello**"})


async def move(wire: Wire, **body: Any) -> dict[str, Any]:
    status, got = await wire.sim("POST", "/sim/clock", body)
    assert status == 200, got
    return dict(got)


async def drafts(wire: Wire) -> list[dict[str, Any]]:
    status, view = await wire.sim("GET", "/sim/chat/4242")
    assert status == 200
    return list(view["drafts"])


async def test_get_reads_the_stand_clock(wire: Wire, clock: ManualClock) -> None:
    status, got = await wire.sim("GET", "/sim/clock")
    assert status == 200
    assert got == {"now": clock.now(), "unix": int(clock.now()), "offset": 0.0}


async def test_a_draft_expires_after_an_advance_over_the_wire(wire: Wire) -> None:
    await wire.say("question")
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH)
    await move(wire, advance=29.5)
    assert [d["draft_id"] for d in await drafts(wire)] == [1]
    got = await move(wire, advance=0.5)  # exactly 30 s after the revision: gone
    assert got["offset"] == 30.0
    assert await drafts(wire) == []


async def test_set_moves_message_dates_and_advance_adds_to_it(wire: Wire) -> None:
    got = await move(wire, set=1_800_000_000)
    assert (got["unix"], got["now"]) == (1_800_000_000, 1_800_000_000.0)
    await move(wire, advance=60)
    msg = await wire.ok("sendMessage", chat_id=4242, text="hi")
    assert msg["date"] == 1_800_000_060


async def test_the_in_process_clock_still_moves_a_moved_stand(wire: Wire, clock: ManualClock) -> None:
    await move(wire, advance=100)
    clock.advance(5)
    status, got = await wire.sim("GET", "/sim/clock")
    assert status == 200
    assert got["now"] == clock.now() + 100


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({}, "give exactly one of advance (seconds) or set (a Unix time)"),
        ({"advance": 1, "set": 5}, "give exactly one of advance (seconds) or set (a Unix time)"),
        ({"advance": "soon"}, "invalid JSON body: advance: Input should be a valid number"),
        ({"set": -1}, "set must be a Unix time (seconds since 1970), not negative"),
    ],
)
async def test_refusals_name_the_problem(wire: Wire, body: dict[str, Any], error: str) -> None:
    assert await wire.sim("POST", "/sim/clock", body) == (400, {"error": error})
    assert (await wire.sim("GET", "/sim/clock"))[1]["offset"] == 0.0


async def test_infinity_is_refused(wire: Wire) -> None:
    resp = await wire.client.post("/sim/clock", data=b'{"advance": 1e999}')
    assert resp.status == 400
    assert await resp.json() == {"error": "the clock moves by a finite number of seconds"}


async def test_a_reset_keeps_the_moved_time(wire: Wire) -> None:
    """Time is not conversation: a reset forgets chats, not the hour (as a ManualClock is not rewound)."""
    await move(wire, advance=10)
    assert (await wire.sim("POST", "/sim/reset"))[0] == 200
    assert (await wire.sim("GET", "/sim/clock"))[1]["offset"] == 10.0


async def test_a_wall_clock_stand_moves_too() -> None:
    async with TestClient(TestServer(create_app())) as client:  # no clock given: the system clock
        wire = Wire(client)
        before = time.time()
        got = await move(wire, advance=3600)
        assert got["offset"] == 3600.0
        assert before + 3600 <= got["now"] <= time.time() + 3600
