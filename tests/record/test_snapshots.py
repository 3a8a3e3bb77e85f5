"""Transcript snapshots (``tgfake.assert_snapshot()``), run as users run them: inner pytest sessions through
``pytester``; the bot's messages are made over the Bot API, as a bot makes them."""

from __future__ import annotations

import pytest

from tgfake.testing.snapshots import normal_transcript

PLUGIN = ("-p", "no:tgfake", "-p", "tgfake.pytest_plugin", "-p", "tgfake.bdd", "-p", "no:cacheprovider")

TESTS = """
import json
import urllib.request

import pytest
from tgfake.testing import DEFAULT_BOT_TOKEN

def bot_says(tgfake, text):
    # the bot's sendMessage, made over the Bot API as a bot makes it
    body = json.dumps({"chat_id": 4242, "text": text}).encode()
    request = urllib.request.Request(
        f"{tgfake.bot_api_url}{DEFAULT_BOT_TOKEN}/sendMessage", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        assert json.load(answer)["ok"]

@pytest.mark.parametrize("word", ["apple", "pear"])
def test_echo(tgfake, word):
    tgfake.send(word)
    bot_says(tgfake, f"You said: {word}")
    tgfake.assert_snapshot()

def test_with_calls(tgfake):
    tgfake.send("hello")
    bot_says(tgfake, "You said: hello")
    tgfake.assert_snapshot(calls=True)

async def test_async(atgfake):
    await atgfake.send("plum")
    await atgfake.assert_snapshot("after plum")
"""


@pytest.fixture(autouse=True)
def inner_ini(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")


def snapshots(pytester: pytest.Pytester) -> dict[str, str]:
    folder = pytester.path / "__tgfake_snapshots__"
    return {path.name: path.read_text() for path in sorted(folder.iterdir())}


def test_the_first_run_writes_the_snapshots_and_the_next_compares_under_xdist(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_bot=TESTS)
    pytester.runpytest_subprocess(*PLUGIN, "-n", "2").assert_outcomes(passed=4)
    kept = snapshots(pytester)
    assert sorted(kept) == [
        "test_async.after plum.txt".replace(" ", "_"),
        "test_echo[apple].txt",
        "test_echo[pear].txt",
        "test_with_calls.txt",
    ]
    assert kept["test_echo[apple].txt"] == "[1] alice: apple\n[2] bot: You said: apple\n"
    assert "pear" not in kept["test_echo[apple].txt"]
    calls = kept["test_with_calls.txt"].split("--- the bot's calls ---\n")[1]
    assert calls == 'sendMessage {"chat_id": "4242", "text": "You said: hello"}\n'
    pytester.runpytest_subprocess(*PLUGIN, "-n", "2").assert_outcomes(passed=4)
    assert snapshots(pytester) == kept


def test_a_changed_reply_fails_with_a_diff_and_the_update_flag_accepts_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_bot=TESTS)
    pytester.runpytest_subprocess(*PLUGIN).assert_outcomes(passed=4)
    folder = pytester.path / "__tgfake_snapshots__"
    kept = (folder / "test_echo[pear].txt").read_text()
    (folder / "test_echo[pear].txt").write_text(kept.replace("pear", "peach"))
    result = pytester.runpytest_subprocess(*PLUGIN)
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*the chat differs from its snapshot test_echo[[]pear].txt (run with --tgfake-snapshot-update to accept*",
            "*-[[]1] alice: peach",
            "*+[[]1] alice: pear",
        ]
    )
    pytester.runpytest_subprocess(*PLUGIN, "--tgfake-snapshot-update").assert_outcomes(passed=4)
    assert (folder / "test_echo[pear].txt").read_text() == kept


def test_a_gherkin_step_compares_the_chat_with_its_snapshot(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".feature",
        echo='Feature: Echo\n  Scenario: A word\n    When alice sends "kiwi"\n    Then the chat matches its snapshot\n',
    )
    pytester.makepyfile(test_steps='from pytest_bdd import scenarios\n\nscenarios("echo.feature")\n')
    pytester.runpytest_subprocess(*PLUGIN).assert_outcomes(passed=1)
    (kept,) = snapshots(pytester).values()
    assert kept == "[1] alice: kiwi\n"


def test_ids_are_numbered_in_order_and_dates_normalised() -> None:
    text = "[17] alice: at 2026-12-05T09:01:51Z\n[18] bot: ok 1796460564\n    reply to [17]\n"
    assert normal_transcript(text) == "[1] alice: at <date>\n[2] bot: ok <date>\n    reply to [17]\n"
