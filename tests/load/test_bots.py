"""``tgfake.load()`` against the example bots and the project's library bots (python-telegram-bot, aiogram, grammY),
polling and by webhook: each run's figures agree with each other and with the stand's own count of its outbox.

The library bots play tests/libraries/dialog.py's dialog: ``/start`` shows a button, a tap is answered and edits
the message, ``fmt`` gets a formatted text, a photo comes back. The scenario does those acts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from llmstub import Model
from llmstub.options import ModelOptions
from tests.load.conftest import assert_consistent
from tests.node_support import require_node
from tgfake.load import LoadError, LoadReport, load
from tgfake.options import Options

ROOT = Path(__file__).parents[2]
LIBRARIES = ROOT / "tests" / "libraries"
DIALOG = {
    "think": 0.3,
    "groups": 0.2,
    "actions": [{"tap": {}, "weight": 2}, {"text": "fmt", "weight": 2}, {"photo": {}}],
}
QUICK: dict[str, Any] = {"people": 12, "groups": 2, "members": 4, "rate": 25, "duration": 1.0, "drain": 3.0}


def _run(command: list[str], origin: str, **settings: Any) -> LoadReport:
    try:
        return load(command, url=origin, cwd=str(LIBRARIES), **{**QUICK, **settings})
    except LoadError as exc:
        raise AssertionError(str(exc)) from None


def _check(report: LoadReport, *answers: str) -> None:
    assert_consistent(report)
    assert report.stopped == "duration"
    assert report.offered >= 12, report.totals
    assert report.answered > 0, report.totals
    for method in answers:
        assert report.calls.get(method, 0) > 0, (method, report.calls)


CASES = [
    pytest.param(["python", str(LIBRARIES / "bots" / "ptb_bot.py")], id="ptb"),
    pytest.param(["python", str(LIBRARIES / "bots" / "aiogram_bot.py")], id="aiogram"),
    pytest.param(["node", str(LIBRARIES / "node" / "grammy_bot.js")], id="grammy", marks=pytest.mark.node),
]


@pytest.mark.parametrize("mode", ["polling", "webhook"])
@pytest.mark.parametrize("command", CASES)
def test_a_library_bot_under_load(origin: str, command: list[str], mode: str) -> None:
    if command[0] == "node":
        require_node(LIBRARIES / "node", "the grammY bot")
    env = {"BOT_MODE": mode}
    report = _run(command, origin, scenario=DIALOG, webhook=mode == "webhook", flood=False, env=env)
    _check(report, "sendMessage", "answerCallbackQuery", "sendPhoto")
    assert report.raw["bot"]["webhook"] is (mode == "webhook")
    assert (report.totals["webhook"]["deliveries"] >= report.delivered) is (mode == "webhook")


def test_the_echo_bot_under_load_with_telegrams_limits(origin: str) -> None:
    report = _run(["python", str(ROOT / "examples" / "echobot" / "echobot.py")], origin, scenario={"think": 0.3})
    _check(report, "sendMessage")
    assert report.raw["settings"]["flood"] is True


def test_the_dialog_bot_under_load_with_the_scripted_model() -> None:
    model = Model(ModelOptions(delay=0.0))
    report = load(
        ["python", str(ROOT / "examples" / "dialogbot" / "dialogbot.py")],
        options=Options(poll_max=1.0),
        model=model,
        scenario={"think": 0.5},
        flood=False,
        **{**QUICK, "groups": 0},
    )
    _check(report, "sendMessage")
