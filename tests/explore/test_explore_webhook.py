"""tgfake explore against the Python library bots in webhook mode (tests/explore/bots: python-telegram-bot's
run_webhook, aiogram's aiohttp webhook handler, pyTelegramBotAPI under the standard library's HTTP server): the twin
comes out clean, and every bug planted at once is found as its kind. Also the fault bug planted in the aiogram and
pyTelegramBotAPI bots, polling (a 502 on getUpdates stops them too)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.explore.planted import ALL_PHASES, PLANTED, TWIN_REPLY_TIME, explore_bot, kinds

BOTS = Path(__file__).parent / "bots"
LIBRARIES = {"ptb": "ptb_bot.py", "aiogram": "aiogram_bot.py", "telebot": "telebot_bot.py"}
HANDLED_AFTER_THE_ANSWER = 0.5
"""PTB and aiogram answer a webhook's POST before their handler runs (PTB queues the update, aiogram handles it as a
task of its own), so the explorer's quiet window after each act is all that tells the act's calls from the next
act's: on a loaded machine PTB's calls came more than 0.3 s after the delivery (a hostile name's refused greeting then
counted for the next person's act, an api_refused instead of its markup_injection)."""


def run(library: str, plant: str, mode: str, **kwargs: Any) -> dict[str, Any]:
    if library != "telebot" and mode == "webhook":
        kwargs.setdefault("quiet", HANDLED_AFTER_THE_ANSWER)
    return explore_bot([sys.executable, str(BOTS / LIBRARIES[library])], plant, mode, **kwargs)


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_library_twin_comes_out_clean_by_webhook(library: str) -> None:
    report = run(library, "", "webhook", phases=ALL_PHASES, reply_time=TWIN_REPLY_TIME)
    assert report["findings"] == [], [f["title"] for f in report["findings"]]
    coverage = report["coverage"]
    assert coverage["commands_tried"] == ["/start", "/help", "/long", "/photo"]
    assert len(coverage["buttons_tapped"]) >= 3
    assert report["stopped"] == ""


@pytest.mark.parametrize("library", LIBRARIES)
def test_every_bug_planted_in_a_library_bot_is_found_by_webhook(library: str) -> None:
    """One bot start (and one more after the fault bug stopped it). A refusal the library raises with a deep stack
    (aiogram's webhook handler) is that refusal's evidence, not a crash of its own."""
    report = run(library, ",".join(PLANTED), "webhook", phases=ALL_PHASES)
    assert kinds(report) == sorted(PLANTED), [f["title"] for f in report["findings"]]
    by_kind = {f["kind"]: f for f in report["findings"]}
    assert by_kind["crash"]["title"] == "AttributeError: 'NoneType' object has no attribute 'lower' after a photo"
    assert by_kind["crash"]["evidence"]["output"].startswith("Traceback (most recent call last)")
    assert by_kind["too_long"]["evidence"]["calls"][0]["description"] == "Bad Request: message is too long"
    assert by_kind["fault_not_recovered"]["steps"][0] == {
        "path": "/sim/fault",
        "body": {"method": "sendMessage", "code": 502, "times": 1},
    }
    blocked = by_kind["blocked_not_handled"]
    assert blocked["title"].endswith(
        "Forbidden: bot was blocked by the user after a 403 'bot was blocked by the user' on sendMessage"
    )


@pytest.mark.parametrize("library", ["aiogram", "telebot"])
def test_the_fault_bug_planted_in_a_polling_library_bot_is_found(library: str) -> None:
    """The bot stops on the first 5xx from the Bot API: after the 502 on sendMessage, and (started again) after the
    502 on getUpdates."""
    report = run(library, "fault_not_recovered", "polling", phases=("commands", "faults"))
    assert kinds(report) == ["fault_not_recovered"] * 2
    assert [f["steps"][0]["body"]["method"] for f in report["findings"]] == ["sendMessage", "getUpdates"]
