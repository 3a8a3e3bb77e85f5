"""One stand for the module's load runs (each run opens a session of its own on it), and the report checks."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tgfake.load import LoadReport
from tgfake.options import Options
from tgfake.testing import ThreadedStand

BOTS = Path(__file__).parent / "bots"
ANSWER_BOT = ["python", str(BOTS / "answer_bot.py")]


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with ThreadedStand(Options(poll_max=1.0)) as served:
        yield served.url


def outbox_calls(report: LoadReport, base: str) -> list[dict[str, Any]]:
    """The session's recorded calls within the run (its outbox range), read over the wire."""
    span = report.raw["outbox"]
    with urllib.request.urlopen(f"{base}/sim/outbox?since={span['after']}", timeout=10) as resp:
        calls: list[dict[str, Any]] = json.loads(resp.read())["calls"]
    return [c for c in calls if c["seq"] <= span["through"]]


def assert_consistent(report: LoadReport, calls: list[dict[str, Any]] | None = None) -> None:
    """The figures agree with each other and, given the outbox's calls, with the outbox."""
    t = report.totals
    assert report.answered <= report.delivered <= report.offered, t
    lat = t["latency_ms"]
    assert lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"], lat
    assert lat["count"] == report.answered
    assert report.unanswered == t["answerable"] - report.answered
    kept = report.raw["outbox"]  # the stand's own count of the run's calls in its outbox
    assert (t["calls_total"], dict(t["calls"]), report.too_many) == (kept["calls"], kept["by_method"], kept["too_many"])
    rows = report.seconds
    for key, total in (("offered", report.offered), ("delivered", report.delivered), ("answered", report.answered)):
        assert sum(r[key] for r in rows) == total, key
    assert sum(r["too_many"] for r in rows) == report.too_many
    for r in rows:
        assert r["p50"] <= r["p90"] <= r["p99"] <= r["max"], r
    if calls is not None:
        assert t["calls_total"] == len(calls), (t["calls"], len(calls))
        by_method: dict[str, int] = {}
        for c in calls:
            by_method[c["method"]] = by_method.get(c["method"], 0) + 1
        assert by_method == dict(t["calls"])
        assert report.too_many == sum(1 for c in calls if c["status"] == 429)
