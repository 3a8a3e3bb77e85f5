"""tgfake explore against a Node bot: grammY (tests/explore/bots/grammy_bot.mjs) with planted bugs, and its correct
twin, in polling (``bot.start()``) and webhook mode (``webhookCallback`` on node:http). Every planted bug is found, as
its kind; the twin comes out clean. Every bug is planted at once (one bot start per mode: the bot is started again
after each bug that stops it). Skipped without Node or ``npm ci`` at the root, failed so in CI."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.explore.planted import ALL_PHASES, PLANTED, TWIN_REPLY_TIME, explore_bot, kinds
from tests.node_support import ROOT, require_node

BOT = Path(__file__).parent / "bots" / "grammy_bot.mjs"
LIBRARIES = ROOT / "tests" / "libraries" / "node"
"""The npm workspace whose dependencies hold grammY (the bot resolves it from the root's node_modules)."""


def run(plant: str, mode: str, **kwargs: Any) -> dict[str, Any]:
    require_node(LIBRARIES, "the grammY explore bot")
    node = shutil.which("node")
    assert node is not None
    return explore_bot([node, str(BOT)], plant, mode, **kwargs)


@pytest.mark.parametrize("mode", ["polling", "webhook"])
def test_the_grammy_twin_comes_out_clean(mode: str) -> None:
    report = run("", mode, phases=ALL_PHASES, reply_time=TWIN_REPLY_TIME)
    assert report["findings"] == [], [f["title"] for f in report["findings"]]
    coverage = report["coverage"]
    assert coverage["commands_tried"] == ["/start", "/help", "/menu", "/about", "/stats"]
    assert {'[Count] on "Hello, Alice!"', '[Close] on "This bot counts taps."'} <= set(coverage["buttons_tapped"])
    assert coverage["reply_buttons_pressed"] == ["Red", "Blue"]
    assert report["stopped"] == ""
    assert "/stats while Carol blocks the bot" in report["actions"]


@pytest.mark.parametrize("mode", ["polling", "webhook"])
def test_every_bug_planted_in_the_grammy_bot_is_found(mode: str) -> None:
    """Each kind once, but fault_not_recovered twice when polling: the breaker trips on the 502 on sendMessage and,
    once the bot is started again, on the 502 on getUpdates (a webhook bot is never polled)."""
    report = run(",".join(PLANTED), mode, phases=ALL_PHASES)
    twice = ["fault_not_recovered"] if mode == "polling" else []
    assert kinds(report) == sorted([*PLANTED, *twice])
    by_kind = {f["kind"]: f for f in report["findings"]}
    crash = by_kind["crash"]
    assert crash["title"] == "TypeError: Cannot read properties of undefined (reading 'startsWith') after a photo"
    assert "\n    at " in crash["evidence"]["output"]
    assert crash["steps"][0]["path"] == "/sim/file"
    assert by_kind["no_reply"]["steps"] == [{"path": "/sim/message", "body": {"text": "/help", "user_id": 4242}}]
    assert by_kind["unanswered_callback"]["title"].startswith("tapping [Back] brought no answerCallbackQuery")
    assert [s["body"].get("label") for s in by_kind["dead_button"]["steps"]][-1] == "Close"
    injected = by_kind["markup_injection"]["evidence"]["calls"][0]
    assert (injected["status"], injected["params"]["text"]) == (400, "Hello, <b><3 Ann</b>!")
    assert injected["description"].startswith("Bad Request: can't parse entities: ")
    assert by_kind["too_long"]["evidence"]["calls"][0]["description"] == "Bad Request: message is too long"
    refused = by_kind["api_refused"]["evidence"]["calls"][0]
    assert (refused["method"], refused["description"]) == (
        "sendPhoto",
        "Bad Request: wrong file identifier/HTTP URL specified",
    )
    assert by_kind["not_modified"]["evidence"]["calls"][0]["description"].startswith(
        "Bad Request: message is not modified"
    )
    assert by_kind["retry_after_ignored"]["steps"][0] == {
        "path": "/sim/fault",
        "body": {"method": "sendMessage", "code": 429, "times": 1, "retry_after": 1},
    }
    recovered = [f for f in report["findings"] if f["kind"] == "fault_not_recovered"]
    assert recovered[0]["title"] == "after a 502 on sendMessage, the bot no longer answers /start"
    blocked = by_kind["blocked_not_handled"]
    assert blocked["title"] == "the bot kept sending to Carol after she blocked it (/stats)"
    assert [c["description"] for c in blocked["evidence"]["calls"]] == ["Forbidden: bot was blocked by the user"] * 2


@pytest.mark.parametrize("mode", ["polling", "webhook"])
def test_a_slow_reply_of_the_grammy_bot_is_found(mode: str) -> None:
    """/menu answers 2 s late: inside the default reply time, so not a no_reply, but slow."""
    report = run("slow_reply", mode, phases=("commands",), reply_time=3.0)
    assert kinds(report) == ["slow_reply"]
    assert report["findings"][0]["steps"] == [{"path": "/sim/message", "body": {"text": "/menu", "user_id": 4242}}]
