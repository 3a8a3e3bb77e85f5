"""The ``tgfake_explore`` fixture and the testing client's ``explore``: "explore finds nothing" kept as a test, on the
tests' own stand."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from tgfake.explore import Report
from tgfake.testing import AsyncStandClient, StandClient
from tgfake.testing.exploring import stand_origin

BOT = [sys.executable, str(Path(__file__).parent / "bots" / "plain_bot.py")]


def test_explore_finds_nothing_on_the_twin(tgfake_explore: Callable[..., Report]) -> None:
    report = tgfake_explore(BOT, phases=("commands", "contents"), reply_time=1.5, trim=False)
    assert report.findings == [], [f.title for f in report.findings]
    assert report.coverage.commands == ["/start", "/help", "/menu", "/about", "/stats"]


def test_explore_finds_the_planted_bug(tgfake_explore: Callable[..., Report]) -> None:
    report = tgfake_explore(BOT, phases=("commands", "contents"), reply_time=1.5, env={"PLANT": "crash"}, trim=False)
    assert [(f.kind, f.title) for f in report.findings] == [("crash", "KeyError: 'text' after a photo")]


def test_the_testing_client_explores_on_its_stand(tgfake: StandClient) -> None:
    """``tgfake.explore(...)``: a session of its own on the client's stand; the client's own world sees none of it."""
    report = tgfake.explore(BOT, phases=("commands",), reply_time=1.5, trim=False, env={"PLANT": "too_long"})
    assert [(f.kind, f.title) for f in report.findings] == [
        ("too_long", "sendMessage refused after /about: 400 Bad Request: message is too long")
    ]
    assert tgfake.state()["calls"] == 0


async def test_the_async_client_explores_without_blocking_its_loop(atgfake: AsyncStandClient) -> None:
    report = await atgfake.explore(BOT, phases=("commands",), reply_time=1.5, trim=False)
    assert report.findings == [], [f.title for f in report.findings]
    assert report.coverage.commands == ["/start", "/help", "/menu", "/about", "/stats"]


def test_a_session_clients_stand_is_its_origin() -> None:
    assert stand_origin("http://127.0.0.1:18790/s/7/") == "http://127.0.0.1:18790"
    assert stand_origin("http://127.0.0.1:18790") == "http://127.0.0.1:18790"
