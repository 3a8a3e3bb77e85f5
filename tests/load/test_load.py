"""``tgfake.load()`` against a minimal aiohttp bot, polling and by webhook: the figures agree with each other and
with the outbox read over the wire; a slow bot's backlog and p99 grow; a bot that ignores retry_after shows its
429s, and none without flood limits."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest

import tgfake.load
from tests.load.conftest import ANSWER_BOT, assert_consistent, outbox_calls
from tgfake.load import LoadError, LoadReport, load
from tgfake.load.run import webhook_environment
from tgfake.testing import BotProcess, bot_environment

SCENARIO = {"think": 0.2, "groups": 0.3, "actions": [{"text": "hi {name}", "weight": 4}, {"photo": {}}]}
READY = 30.0


def _request(url: str, verb: str = "GET", body: dict[str, Any] | None = None, timeout: float = 10) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=verb, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        raw = resp.read()
    return json.loads(raw) if raw.strip() else {}


@pytest.fixture
def session(origin: str) -> Iterator[str]:
    made = _request(f"{origin}/sim/sessions", "POST", {})
    yield str(made["url"]).rstrip("/")
    _request(f"{origin}/sim/sessions/{made['id']}", "DELETE")


def _loaded(base: str, extra: dict[str, str], **settings: Any) -> tuple[LoadReport, list[dict[str, Any]]]:
    """The answer bot on the session ``base``, loaded once it takes updates: the report and the run's calls."""
    with BotProcess(ANSWER_BOT, env={**bot_environment(base), **extra}, name="answer bot") as bot:
        wait = "method=setWebhook" if extra.get("BOT_MODE") == "webhook" else "polling=1"
        try:
            _request(f"{base}/sim/wait?{wait}&timeout={READY}", timeout=READY + 5)
            report = load(url=base, **settings)
        except Exception as exc:
            raise AssertionError(f"{exc}\n--- the bot's output ---\n{bot.output()}") from exc
        return report, outbox_calls(report, base)


@pytest.mark.parametrize("mode", ["polling", "webhook"])
def test_the_figures_agree_with_each_other_and_the_outbox(session: str, mode: str) -> None:
    extra = webhook_environment() if mode == "webhook" else {}
    report, calls = _loaded(
        session, extra, people=60, groups=10, members=10, rate=150, duration=1.0, scenario=SCENARIO, flood=False
    )
    assert_consistent(report, calls)
    assert report.stopped == "duration"
    assert report.offered >= 100  # 60 people, 0.2 s of thought: the rate is reached
    assert report.answered == report.offered  # the bot answers texts and photos, in private chats and groups
    assert report.raw["bot"]["webhook"] is (mode == "webhook")
    hook = report.totals["webhook"]
    assert (hook["deliveries"] >= report.delivered) is (mode == "webhook")
    assert hook["failures"] == 0
    assert any(c["method"] == "sendMessage" and int(c["params"]["chat_id"]) < 0 for c in calls)  # groups too


def test_a_slow_bot_shows_its_backlog_growing_and_its_p99_rising(session: str) -> None:
    report, calls = _loaded(
        session, {"SLEEP": "0.2"}, people=50, groups=0, rate=12, duration=2.2, drain=0.6, scenario={"think": 0},
        flood=False,
    )  # fmt: skip
    assert_consistent(report, calls)
    rows = report.seconds
    assert rows[2]["backlog"] > rows[1]["backlog"] > rows[0]["backlog"], rows
    answered = [r for r in rows if r["answered"]]
    assert answered[-1]["p99"] > answered[0]["p99"] + 200, answered  # each later update waited longer
    assert report.unanswered > 0
    assert report.answered < report.delivered


def test_a_bot_that_ignores_retry_after_shows_its_429s(session: str) -> None:
    report, calls = _loaded(session, {"SENDS": "5"}, people=20, groups=0, rate=40, duration=1.0, drain=0.5)
    assert_consistent(report, calls)
    assert report.too_many > 0
    assert sum(n for words, n in report.refusals.items() if words.startswith("Too Many Requests: retry after ")) == (
        report.too_many
    )
    assert report.answered > 0  # the sends within the limits got through


def test_without_flood_limits_nothing_is_refused(session: str) -> None:
    report, calls = _loaded(session, {"SENDS": "5"}, people=20, groups=0, rate=40, duration=0.6, flood=False)
    assert_consistent(report, calls)
    assert (report.too_many, dict(report.refusals)) == (0, {})
    assert report.calls["sendMessage"] == 5 * report.answered


def test_a_run_needs_a_bot_taking_updates(session: str) -> None:
    with pytest.raises(LoadError, match="takes no updates yet: start it polling or with a webhook first"):
        load(url=session, duration=0.5)


def test_a_stop_request_ends_the_run_with_its_partial_report(session: str) -> None:
    stop = threading.Event()
    seen: list[str] = []

    def follow(state: Any) -> None:
        seen.append(state["state"])
        if state["state"] == "running" and state["offered"]:
            stop.set()

    with BotProcess(ANSWER_BOT, env=bot_environment(session), name="answer bot"):
        _request(f"{session}/sim/wait?polling=1&timeout={READY}", timeout=READY + 5)
        report = load(url=session, rate=50, duration=60, drain=0.5, progress=follow, stop=stop, flood=False)
    assert report.stopped == "stopped"
    assert report.raw["state"] == "done"
    assert 0 < report.raw["elapsed"] < 30
    assert_consistent(report)


def test_a_budget_ends_the_run_at_that_many_updates(session: str) -> None:
    report, calls = _loaded(session, {}, people=40, groups=0, rate=200, duration=30, budget=25, scenario={"think": 0})
    assert_consistent(report, calls)
    assert report.stopped == "budget"
    assert report.offered == 25  # one update an act: the budget is met exactly
    assert report.raw["elapsed"] < 5


def test_the_package_is_the_function(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TGFAKE_URL", raising=False)
    run = cast("Callable[..., LoadReport]", tgfake.load)  # tgfake.load(...) as written untyped
    with pytest.raises(LoadError, match="give the bot's command, or the url of a session whose bot takes updates"):
        run(duration=1)
