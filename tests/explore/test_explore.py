"""tgfake explore against small bots with planted bugs and their correct twin: every planted bug is found, as its
kind, once; the twin comes out clean. The bots are plain-HTTP Python (tests/explore/bots/plain_bot.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tgfake.explore import explore

BOT = str(Path(__file__).parent / "bots" / "plain_bot.py")
REPLY_TIME = 1.5
"""Short, since only a buggy bot ever waits it out: a correct one answers at once."""

PLAIN_KINDS = (
    "crash",
    "no_reply",
    "unanswered_callback",
    "dead_button",
    "markup_injection",
    "not_modified",
    "too_long",
    "api_refused",
)


def run(plant: str = "", **kwargs: object) -> dict[str, object]:
    report = explore([sys.executable, BOT], env={"PLANT": plant}, reply_time=REPLY_TIME, **kwargs)  # type: ignore[arg-type]
    return report.json()


def kinds(report: dict[str, object]) -> list[str]:
    return sorted(str(f["kind"]) for f in report["findings"])  # type: ignore[attr-defined]


def test_the_correct_twin_comes_out_clean() -> None:
    report = run("")
    assert report["findings"] == []
    coverage = report["coverage"]
    assert coverage["commands_tried"] == ["/start", "/help", "/menu", "/about", "/stats"]  # type: ignore[index]
    assert {'[Count] on "Hello, Alice!"', '[Back] on "This bot counts taps."'} <= set(
        coverage["buttons_tapped"]  # type: ignore[index]
    )
    assert coverage["reply_buttons_pressed"] == ["Red", "Blue"]  # type: ignore[index]
    assert report["stopped"] == ""


def test_every_planted_bug_is_found_once_as_its_kind() -> None:
    report = run(",".join(PLAIN_KINDS), phases=("commands", "texts", "names", "contents", "buttons"))
    assert kinds(report) == sorted(PLAIN_KINDS)
    by_kind = {f["kind"]: f for f in report["findings"]}  # type: ignore[attr-defined]
    crash = by_kind["crash"]
    assert "KeyError: 'text'" in crash["evidence"]["output"]
    assert crash["steps"][0]["path"] == "/sim/file"
    assert by_kind["no_reply"]["steps"] == [{"path": "/sim/message", "body": {"text": "/help", "user_id": 4242}}]
    injected = by_kind["markup_injection"]["evidence"]["calls"][0]
    assert injected["status"] == 400
    assert injected["description"].startswith("Bad Request: can't parse entities: ")
    assert by_kind["too_long"]["evidence"]["calls"][0]["description"] == "Bad Request: message is too long"
    refused = by_kind["api_refused"]["evidence"]["calls"][0]
    assert (refused["method"], refused["description"]) == (
        "sendPhoto",
        "Bad Request: wrong file identifier/HTTP URL specified",
    )
    assert [s["body"].get("label") for s in by_kind["dead_button"]["steps"]] == [None, "Info"]
    assert by_kind["not_modified"]["evidence"]["calls"][0]["description"].startswith(
        "Bad Request: message is not modified"
    )
    assert "Hello, <b>" in by_kind["markup_injection"]["evidence"]["calls"][0]["params"]["text"]


@pytest.mark.parametrize("kind", ["retry_after_ignored", "fault_not_recovered", "blocked_not_handled"])
def test_a_planted_fault_bug_is_found(kind: str) -> None:
    report = run(kind, phases=("commands", "faults"))
    assert kinds(report) == [kind]
    steps = report["findings"][0]["steps"]  # type: ignore[index]
    assert steps[0]["path"] == "/sim/fault"


def test_the_twin_survives_the_faults() -> None:
    assert run("", phases=("commands", "faults"))["findings"] == []


def test_the_same_seed_gives_the_same_actions_and_findings() -> None:
    first = run("markup_injection", phases=("commands", "texts", "names"), seed=7)
    second = run("markup_injection", phases=("commands", "texts", "names"), seed=7)
    assert first["actions"] == second["actions"]
    assert [f["steps"] for f in first["findings"]] == [f["steps"] for f in second["findings"]]  # type: ignore[attr-defined]
    assert kinds(first) == ["markup_injection"]


def test_the_budget_bounds_the_actions() -> None:
    report = run("", budget=4)
    assert report["coverage"]["actions"] == 4  # type: ignore[index]
    assert report["stopped"] == "budget"
