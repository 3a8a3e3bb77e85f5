"""The ``tgfake_explore`` fixture: "explore finds nothing" kept as a test, on the tests' own stand."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from tgfake.explore import Report

BOT = [sys.executable, str(Path(__file__).parent / "bots" / "plain_bot.py")]


def test_explore_finds_nothing_on_the_twin(tgfake_explore: Callable[..., Report]) -> None:
    report = tgfake_explore(BOT, phases=("commands", "contents"), reply_time=1.5, trim=False)
    assert report.findings == [], [f.title for f in report.findings]
    assert report.coverage.commands == ["/start", "/help", "/menu", "/about", "/stats"]


def test_explore_finds_the_planted_bug(tgfake_explore: Callable[..., Report]) -> None:
    report = tgfake_explore(BOT, phases=("commands", "contents"), reply_time=1.5, env={"PLANT": "crash"}, trim=False)
    assert [(f.kind, f.title) for f in report.findings] == [("crash", "KeyError: 'text' after a photo")]
