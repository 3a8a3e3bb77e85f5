"""Readiness is per bot: a bot under test is ready after its own first Bot API call (its token, after its process
started, while it runs), waited for on the stand; a bot that exits first fails at once with its output, one that
never calls fails at the readiness timeout (the plugin's option, or an argument)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tgfake.options import Options
from tgfake.testing import BotProcess, StandClient, ThreadedStand, bot_environment

HERE = Path(__file__).parent
PLUGIN = ("-p", "no:tgfake", "-p", "tgfake.pytest_plugin", "-p", "no:cacheprovider")
SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]


@pytest.fixture(autouse=True)
def inner_ini(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")


def test_two_bot_processes_in_one_group_under_xdist(pytester: pytest.Pytester) -> None:
    """The short version of the readiness proof: two tests, each with two bots in one group (privacy on for one),
    in two workers; each bot is ready on its own first call, and each hears what its privacy lets it hear."""
    pytester.syspathinsert(HERE.parent.parent)
    pytester.makepyfile(test_two=(HERE / "two_bots.py").read_text().replace("__file__", repr(str(HERE / "x.py"))))
    result = pytester.runpytest_subprocess(*PLUGIN, "-n", "2")
    result.assert_outcomes(passed=2)


def test_a_bot_that_never_calls_is_not_ready_while_another_bot_polls(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        import sys

        def test_sleeper(tgfake, tgfake_bot):
            tgfake_bot("python {HERE / "group_bot.py"}")  # polls with the stand's token
            helper = tgfake.add_bot("sleepy_bot")
            tgfake_bot({SLEEPER!r}, token=helper.token, ready_timeout=0.5)
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*the bot import time; time.sleep(60) made no Bot API call with its token '*:tgfake-*' within 0.5 s*"]
    )


@pytest.mark.parametrize(
    ("args", "ini"), [(("--tgfake-ready-timeout", "0.4"), ""), ((), "tgfake_ready_timeout = 0.4\n")]
)
def test_the_readiness_timeout_is_a_command_line_and_an_ini_option(
    pytester: pytest.Pytester, args: tuple[str, ...], ini: str
) -> None:
    pytester.makeini(f"[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n{ini}")
    pytester.makepyfile(f"def test_sleeper(tgfake_bot):\n    tgfake_bot({SLEEPER!r})\n")
    result = pytester.runpytest(*PLUGIN, *args)
    result.assert_outcomes(errors=0, failed=1)
    result.stdout.fnmatch_lines(["*made no Bot API call with its token '123456:tgfake' within 0.4 s*"])


def test_a_bad_readiness_timeout_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_bot(tgfake_bot):\n    pass\n")
    result = pytester.runpytest(*PLUGIN, "--tgfake-ready-timeout", "0")
    result.stderr.fnmatch_lines(["*tgfake_ready_timeout must be positive, not 0*"])


def test_a_bot_that_exits_fails_at_once_with_its_output() -> None:
    with ThreadedStand(Options(poll_max=1.0)) as stand:
        code = "print('BOT-MARKER'); raise SystemExit(3)"
        bot = BotProcess([sys.executable, "-c", code], env=bot_environment(stand.url), name="crasher")
        with bot:
            started = time.monotonic()
            with pytest.raises(AssertionError) as failed:
                bot.wait_ready(StandClient(stand.url), timeout=60)
            assert time.monotonic() - started < 30, "the exit is noticed when it happens, not at the timeout"
        assert str(failed.value) == "the bot crasher exited with status 3; its output:\nBOT-MARKER\n"


def test_a_bot_is_ready_on_its_own_token_and_a_late_start_is_waited_for() -> None:
    with ThreadedStand(Options(poll_max=1.0)) as stand:
        client = StandClient(stand.url)
        helper = client.add_bot("late_bot")
        env = {**bot_environment(stand.url, token=helper.token), "IMPORT": "tgfake.app"}
        with BotProcess(f"python {HERE / 'group_bot.py'}", env=env) as bot:
            bot.wait_ready(client)
            assert [c.method for c in client.outbox() if c.bot_id == helper.id][:1] == ["getMe"]
            assert bot.alive()
