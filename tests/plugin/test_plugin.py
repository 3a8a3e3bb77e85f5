"""The pytest plugin, run the way users run it: inner pytest sessions through ``pytester``."""

from __future__ import annotations

import json
import tomllib
import urllib.request
from pathlib import Path

import pytest

from tgfake.options import Options
from tgfake.testing import StandClient, ThreadedStand

ROOT = Path(__file__).resolve().parents[2]
ECHOBOT = ROOT / "examples/echobot/echobot.py"
PLUGIN = ("-p", "no:tgfake", "-p", "tgfake.pytest_plugin", "-p", "no:cacheprovider")


@pytest.fixture(autouse=True)
def inner_ini(pytester: pytest.Pytester) -> None:
    """The inner sessions' configuration: pytest-asyncio as users set it up (it warns when left unset)."""
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")


def test_the_entry_point_names_the_plugin_module() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["entry-points"]["pytest11"] == {"tgfake": "tgfake.pytest_plugin"}
    assert "-p no:tgfake" in project["tool"]["pytest"]["ini_options"]["addopts"]


def test_each_test_gets_a_session_of_its_own_on_the_stand_shared_by_the_run(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import urllib.request, urllib.error
        urls = []

        def status(url):
            try:
                with urllib.request.urlopen(url + "/sim/state") as f:
                    return f.status
            except urllib.error.HTTPError as e:
                return e.code

        def test_first(tgfake):
            urls.append(tgfake.url)
            tgfake.send("left over")
            assert tgfake.transcript() == "[1] alice: left over\\n"

        def test_second(tgfake):
            urls.append(tgfake.url)
            assert tgfake.transcript(4242) == ""
            origin = urls[0].rsplit("/s/", 1)[0]
            assert origin.startswith("http://127.0.0.1:")
            assert urls == [origin + "/s/1", origin + "/s/2"]
            assert status(urls[0]) == 404  # the first test's session ended with it
            assert tgfake.bot_api_url == tgfake.url + "/bot"
            assert tgfake.openai_base_url == tgfake.url + "/v1"
        """
    )
    pytester.runpytest(*PLUGIN).assert_outcomes(passed=2)


def test_a_failed_tests_session_is_kept_on_the_stand(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import json, urllib.request
        urls = []

        def test_fails(tgfake):
            urls.append(tgfake.url)
            tgfake.send("evidence")
            assert False

        def test_look(tgfake):
            with urllib.request.urlopen(urls[0] + "/sim/chat/4242?format=text") as f:
                assert f.read().decode() == "[1] alice: evidence\\n"
        """
    )
    pytester.runpytest(*PLUGIN).assert_outcomes(passed=1, failed=1)


def test_the_marker_gives_a_test_its_own_stand_for_a_token(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import json, urllib.request, urllib.error
        import pytest

        def get_me(url, token):
            try:
                with urllib.request.urlopen(f"{url}/bot{token}/getMe") as f:
                    return f.status
            except urllib.error.HTTPError as e:
                return e.code

        shared = []

        def test_session_stand(tgfake):
            shared.append(tgfake.url)
            assert get_me(tgfake.url, "1:any") == 200

        @pytest.mark.tgfake(token="42:secret", bot_username="my_bot")
        def test_own_stand(tgfake):
            assert tgfake.url != shared[0]
            assert (get_me(tgfake.url, "1:any"), get_me(tgfake.url, "42:secret")) == (401, 200)
            assert tgfake.state()["bot"]["username"] == "my_bot"

        @pytest.mark.tgfake(faults=[{"method": "sendMessage", "code": 429, "retry_after": 2}])
        def test_faults(tgfake):
            assert tgfake.url.rsplit("/s/", 1)[0] == shared[0].rsplit("/s/", 1)[0]  # a session of the same stand
            assert [f["method"] for f in tgfake.state()["faults"]] == ["sendmessage"]

        @pytest.mark.tgfake(colour="blue")
        def test_unknown(tgfake):
            pass
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(["*@pytest.mark.tgfake got unknown options: colour*"])


def test_tgfake_url_attaches_to_a_running_stand(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    with ThreadedStand(Options(poll_max=1.0)) as stand:
        monkeypatch.setenv("TGFAKE_URL", stand.url + "/")
        pytester.makepyfile(
            f"""
            def test_attached(tgfake):
                assert tgfake.url == {stand.url + "/s/1"!r}
                tgfake.send("over there")
            """
        )
        pytester.runpytest(*PLUGIN).assert_outcomes(passed=1)
        root = StandClient(stand.url)
        assert root.transcript(4242) == ""  # the test played in its own session, ended after it
        assert root.open_session()["id"] == "2"


@pytest.mark.parametrize(("name", "value"), [("TGFAKE_SESSIONS", "0"), ("TGFAKE_BOT", "external")])
def test_tests_share_the_root_of_a_stand_when_told_or_when_the_bot_runs_elsewhere(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    with ThreadedStand(Options(poll_max=1.0)) as stand:
        monkeypatch.setenv("TGFAKE_URL", stand.url)
        monkeypatch.setenv(name, value)
        pytester.makepyfile(
            f"""
            def test_attached(tgfake):
                assert tgfake.url == {stand.url!r}
                tgfake.send("over there")
            """
        )
        pytester.runpytest(*PLUGIN).assert_outcomes(passed=1)
        assert StandClient(stand.url).transcript(4242) == "[1] alice: over there\n"


def test_the_bot_fixture_runs_a_bot_against_the_stand_and_stops_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        f"""
        pids = []

        def test_echo(tgfake, tgfake_bot):
            bot = tgfake_bot("python {ECHOBOT}")
            pids.append(bot)
            tgfake.send("hello")
            tgfake.expect_reply("You said: hello")

        def test_stopped():
            assert pids[0].returncode is not None
        """
    )
    pytester.runpytest(*PLUGIN).assert_outcomes(passed=2)


def test_a_failing_test_reports_the_bots_output_and_the_chat(pytester: pytest.Pytester) -> None:
    bot = pytester.makefile(
        ".py", crashing_bot="import os, sys\nprint('BOT-MARKER', os.environ['TELEGRAM_API'])\nsys.exit(3)\n"
    )
    pytester.makepyfile(
        f"""
        import sys

        def test_bot_that_dies(tgfake_bot):
            tgfake_bot([sys.executable, {str(bot)!r}])

        def test_wrong_reply(tgfake):
            tgfake.send("hello")
            assert False, "the test's own assertion"
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        [
            "*the bot crashing_bot.py exited with status 3; its output:*",
            "*BOT-MARKER http://127.0.0.1:*",
            "*tgfake stand*",
            "*[[]1] alice: hello*",
        ]
    )


def test_the_async_client_fixture(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        async def test_async(atgfake):
            sent = await atgfake.send("hi", chat="group")
            assert await atgfake.transcript(sent.chat_id) == "[1] alice: hi\\n"
        """
    )
    pytester.runpytest(*PLUGIN).assert_outcomes(passed=1)


def test_the_gherkin_steps_drive_a_bot_named_by_bot_cmd(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOT_CMD", f"python {ECHOBOT}")
    pytester.makeconftest('pytest_plugins = ["tgfake.bdd"]')  # the plugin comes with the install
    pytester.makefile(
        ".feature",
        echo="""
        Feature: Echo
          Scenario: Echo and a wrong expectation
            Given the bot is running
            When alice sends "hello"
            Then the bot replies "You said: hello"
            And the transcript is:
              \"\"\"
              [1] alice: hello
              [2] bot: You said: hello
              \"\"\"

          Scenario: A step that fails shows the chat
            Given the bot is running
            When alice sends "hello"
            Then the bot replies "You said: goodbye"
        """,
    )
    pytester.makepyfile("from pytest_bdd import scenarios\n\nscenarios('echo.feature')\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*timed out waiting for the bot's next message to read 'You said: goodbye'*", "*[[]2] bot: You said: hello*"]
    )


def test_the_marker_scripts_the_model_and_the_session_script_comes_back(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import json, urllib.request
        import pytest

        def ask(url, text):
            body = json.dumps({"model": "m", "messages": [{"role": "user", "content": text}]}).encode()
            req = urllib.request.Request(url + "/v1/chat/completions", data=body, method="POST")
            with urllib.request.urlopen(req) as f:
                return json.loads(f.read())["choices"][0]["message"]["content"]

        @pytest.mark.tgfake(script=[{"match": "ping", "answer": "pong"}])
        def test_scripted(tgfake):
            assert ask(tgfake.url, "ping") == "pong"
            assert len(tgfake.model.log()) == 1

        def test_script_restored(tgfake):
            assert ask(tgfake.url, "ping") == "You said: ping"

        @pytest.mark.tgfake(answers=["first", "second"])
        def test_answers(tgfake):
            assert [ask(tgfake.url, p) for p in "abc"] == ["first", "second", "first"]

        @pytest.mark.tgfake(mode="echo")
        def test_echo(tgfake):
            assert ask(tgfake.url, "hi") == "You said: hi"
        """
    )
    pytester.runpytest(*PLUGIN).assert_outcomes(passed=4)


DIALOGBOT = ROOT / "examples/dialogbot/dialogbot.py"


def test_the_model_steps_script_the_model_for_a_scenario(pytester: pytest.Pytester) -> None:
    pytester.makeconftest('pytest_plugins = ["tgfake.bdd"]')  # the plugin comes with the install
    pytester.makefile(
        ".feature",
        model=f"""
        Feature: A bot on a model
          Scenario: Canned answers on a stand of the scenario's own
            Given the model answers "Forty-two.", "Again?"
            And the bot "python {DIALOGBOT}" is running
            When alice sends "What is the answer?"
            Then the bot replies "Forty-two."
            And the model was called 1 time
            And the model was called with a system prompt containing "Dialogbot"

          Scenario: A script in the feature
            Given the stand runs the script:
              \"\"\"
              [{{"match": "name", "answer": "I am a script."}}]
              \"\"\"
            And the bot "python {DIALOGBOT}" is running
            When alice sends "What is your name?"
            Then the bot replies "I am a script."
            And the model was last called with a message containing "your name"
            And the bot sent no further message
        """,
    )
    pytester.makepyfile("from pytest_bdd import scenarios\n\nscenarios('model.feature')\n")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_a_suite_runs_in_four_workers_against_one_stand_each_test_in_its_own_session(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pytest-xdist with ``-n 4`` and ``TGFAKE_URL``: six tests (two with a bot of their own) at once, none
    seeing another's messages, calls, faults or clock; the stand's root is untouched and every session ended."""
    with ThreadedStand(Options(poll_max=1.0)) as stand:
        monkeypatch.setenv("TGFAKE_URL", stand.url)
        log = pytester.path / "sessions.log"
        pytester.makepyfile(
            f"""
            import os
            import pytest

            def note(tgfake):
                with open({str(log)!r}, "a") as f:
                    f.write(os.environ["PYTEST_XDIST_WORKER"] + " " + tgfake.url + "\\n")

            @pytest.mark.parametrize("n", range(4))
            def test_alone(tgfake, n):
                note(tgfake)
                assert tgfake.outbox() == [] and tgfake.transcript(4242) == ""
                tgfake.fault("sendMessage", 429, retry_after=n + 1)
                tgfake.move_clock(1000 * n)
                tgfake.send(f"message {{n}}")
                assert tgfake.transcript() == f"[1] alice: message {{n}}\\n"
                assert [f["retry_after"] for f in tgfake.state()["faults"]] == [n + 1]

            @pytest.mark.parametrize("n", range(2))
            def test_with_a_bot(tgfake, tgfake_bot, n):
                note(tgfake)
                tgfake_bot("python {ECHOBOT}")
                tgfake.send(f"hello {{n}}")
                tgfake.expect_reply(f"You said: hello {{n}}")
                assert [c.params["text"] for c in tgfake.outbox("sendMessage")] == [f"You said: hello {{n}}"]
            """
        )
        result = pytester.runpytest_subprocess(*PLUGIN, "-n", "4")
        result.assert_outcomes(passed=6)
        result.stdout.fnmatch_lines(["*4 workers*"])
        lines = [line.split() for line in log.read_text().splitlines()]
        assert len({url for _, url in lines}) == 6  # six sessions
        assert len({worker for worker, _ in lines}) > 1  # run by more than one worker at once
        root = StandClient(stand.url)
        assert (root.transcript(4242), root.outbox(), root.state()["faults"]) == ("", [], [])
        assert root.open_session()["id"] == "7"  # and each test's session was ended
        with urllib.request.urlopen(stand.url + "/sim/sessions") as f:
            assert [s["id"] for s in json.loads(f.read())["sessions"]] == ["7"]


STRICT_TESTS = """
import json, urllib.error, urllib.request

def call(url, token, method, **params):
    data = urllib.parse.urlencode(params).encode()
    try:
        with urllib.request.urlopen(f"{url}/bot{token}/{method}", data=data) as f:
            return f.status, json.load(f)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)

def test_stand(tgfake):
    answers = [call(tgfake.url, t, "getMe") for t in ("None", "1:any", "123456:tgfake")]
    got = [(status, body.get("description", body.get("result", {}).get("id"))) for status, body in answers]
    assert got == EXPECTED
    status, body = call(tgfake.url, "123456:tgfake", "sendMessage", chat_id=999999, text="hi")
    assert (status, body.get("description")) == SEND
"""
STRICT = [(401, "Unauthorized: invalid token specified"), (401, "Unauthorized"), (200, 123456)]
LENIENT = [(200, 7000000001), (200, 1), (200, 123456)]


@pytest.mark.parametrize(
    ("args", "ini", "expected", "send"),
    [
        (("--tgfake-strict",), "", STRICT, (400, "Bad Request: chat not found")),
        ((), "tgfake_strict = true\n", STRICT, (400, "Bad Request: chat not found")),
        ((), "", LENIENT, (200, None)),
    ],
)
def test_the_strict_option_and_ini_run_the_session_stand_strict(
    pytester: pytest.Pytester, args: tuple[str, ...], ini: str, expected: list[object], send: tuple[int, object]
) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n" + ini)
    pytester.makepyfile(
        "import urllib.parse\n" + STRICT_TESTS.replace("EXPECTED", repr(expected)).replace("SEND", repr(send))
    )
    pytester.runpytest(*PLUGIN, *args).assert_outcomes(passed=1)
