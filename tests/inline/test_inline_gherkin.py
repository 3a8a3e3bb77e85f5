"""The Gherkin steps for inline mode drive a real inline bot (tests/inline/inline_bot.py) through BOT_CMD."""

from __future__ import annotations

from pathlib import Path

import pytest

BOT = Path(__file__).with_name("inline_bot.py")


def test_the_inline_steps_type_check_and_pick(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_CMD", f"python {BOT}")
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makeconftest('pytest_plugins = ["tgfake.bdd"]')
    pytester.makefile(
        ".feature",
        inline="""
        Feature: Inline
          Scenario: The person picks a case
            Given the bot is running
            And the bot has inline mode on
            When alice types the inline query "hello World"
            Then the bot offers the inline results "Upper", "Lower", "Title"
            When alice picks the inline result "Title"
            Then the transcript is:
              \"\"\"
              [1] alice via @tgfake_bot: Hello World
              \"\"\"

          Scenario: A result the bot did not offer fails with the chat
            Given the bot is running
            And the bot has inline mode on
            When alice types the inline query "x"
            And alice picks the inline result "Reverse"
        """,
    )
    pytester.makepyfile("from pytest_bdd import scenarios\n\nscenarios('inline.feature')\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*the bot offered no inline result 'Reverse': [[]'Upper', 'Lower', 'Title'[]]*"])
