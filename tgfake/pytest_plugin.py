"""The pytest plugin (entry point ``pytest11``): a stand per session, a clean client per test, bots as subprocesses.

Fixtures:

- ``tgfake_options`` / ``tgfake_model_options`` (session): what the session stand is built with; override
  them in a conftest.
- ``tgfake_server`` (session): the stand, served from a daemon thread on a free loopback port, or the
  running stand named by ``TGFAKE_URL``.
- ``tgfake`` (function): a :class:`~tgfake.testing.StandClient` on a session of its own on that stand (``POST
  /sim/sessions``; ended after the test, kept when it failed so its evidence stays on the stand), so tests run in
  parallel (``pytest -n 4``) against one stand; configured by the ``tgfake`` marker. A stand without sessions, and
  ``TGFAKE_BOT=external`` or ``TGFAKE_SESSIONS=0``, give every test the stand's root, reset before the test.
- ``atgfake`` (function, async): the same as an :class:`~tgfake.testing.AsyncStandClient`.
- ``tgfake_bot`` (function): starts a bot under test as a subprocess pointed at the stand, waits until it has made its
  own first Bot API call (with its token), stops it after the test, and adds its output to the report when the test
  fails. How long a bot may take to make that call: ``--tgfake-ready-timeout`` / the ``tgfake_ready_timeout`` ini
  option (default 60 s), or ``ready_timeout=`` of one start.
- ``tgfake_explore`` (function): explores a bot and answers its report (tgfake/explore/plugin.py).

Marker ``@pytest.mark.tgfake(...)``: ``script`` (the model's rules: a list, JSON text or a path),
``faults`` (a list of ``/sim/fault`` bodies), ``mode`` (``"echo"``: the model echoes), and options that
need a stand of their own, which the test then gets in place of the session one: ``token``,
``bot_username``, ``bot_name``, ``poll_max``, ``answers`` (canned model answers) and ``model``
(``ModelOptions`` fields).

Option ``--tgfake-strict`` (ini ``tgfake_strict = true``): the session stand runs ``--strict`` with the bot token
``BOT_TOKEN`` (docs/command.md); other bots are made with ``POST /sim/bots``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shlex
from collections.abc import AsyncIterator, Generator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import pytest

from tgfake.explore.plugin import tgfake_explore  # noqa: F401  (the explorer's fixture, registered with the plugin)
from tgfake.options import Options
from tgfake.testing import (
    DEFAULT_BOT_TOKEN,
    DEFAULT_READY_TIMEOUT,
    AsyncStandClient,
    BotProcess,
    SimAPIError,
    StandClient,
    ThreadedStand,
    bot_environment,
)

__all__ = ["BotFactory", "BotPool", "StandHandle", "StandSession", "make_model", "start_stand", "use_pooled_bot"]

STAND_OPTIONS = frozenset({"token", "bot_username", "bot_name", "poll_max"})
MODEL_OPTIONS = frozenset({"answers", "model"})
RUNTIME_OPTIONS = frozenset({"script", "faults", "mode"})
TEST_POLL_MAX = 1.0  # an idle bot's held poll is answered (and recorded) within a second

_BOTS = pytest.StashKey[list[BotProcess]]()
_CLIENT = pytest.StashKey[StandClient]()
_OFFSETS = pytest.StashKey[dict[int, int]]()  # where each pooled bot's output for this test begins
_FAILED = pytest.StashKey[bool]()  # the test failed: its session is kept for a look at the stand


READY_TIMEOUT_OPTION = "tgfake_ready_timeout"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tgfake")
    strict_help = "run the session stand with --strict: Telegram's refusals for unknown tokens, chats and people"
    group.addoption("--tgfake-strict", action="store_true", default=None, help=strict_help)
    parser.addini("tgfake_strict", strict_help, type="bool", default=False)
    help_text = (
        "seconds a bot under test may take to make its first Bot API call "
        f"(default {DEFAULT_READY_TIMEOUT:g}; imports can be slow on a busy machine)"
    )
    group.addoption("--tgfake-ready-timeout", dest=READY_TIMEOUT_OPTION, type=float, default=None, help=help_text)
    parser.addini(READY_TIMEOUT_OPTION, help_text, default=str(DEFAULT_READY_TIMEOUT))


def ready_timeout(config: pytest.Config) -> float:
    """The readiness timeout: the command line's, else the ini option's, else 60 s."""
    given = config.getoption(READY_TIMEOUT_OPTION)
    if given is None:
        raw = str(config.getini(READY_TIMEOUT_OPTION) or DEFAULT_READY_TIMEOUT)
        try:
            given = float(raw)
        except ValueError:
            raise pytest.UsageError(f"{READY_TIMEOUT_OPTION} must be a number of seconds, not {raw!r}") from None
    if given <= 0:
        raise pytest.UsageError(f"{READY_TIMEOUT_OPTION} must be positive, not {given:g}")
    return float(given)


def pytest_configure(config: pytest.Config) -> None:
    ready_timeout(config)  # a wrong value is a usage error at the start, not in the first test with a bot
    config.addinivalue_line(
        "markers",
        "tgfake(script=None, faults=None, mode=None, token=None, bot_username=None, bot_name=None, "
        "poll_max=None, answers=None, model=None): per-test options for the tgfake stand",
    )


# ---------------------------------------------------------------------------------------------------------
# Building stands


def make_model(settings: Mapping[str, Any] | None) -> Any:
    """An ``llmstub.Model`` from ``ModelOptions`` fields, or None when ``settings`` is None."""
    if settings is None:
        return None
    import llmstub

    model_options = getattr(llmstub, "ModelOptions", None)
    if model_options is None:  # pragma: no cover - an llmstub without the scripted model
        return None
    return llmstub.Model(model_options(**settings))


@dataclasses.dataclass
class StandHandle:
    """A stand the tests talk to: its origin, and the threaded server when this process serves it.

    ``script`` is the model's rules as the stand started, so a test that replaces them can put them back
    (an attached stand's starting script is unknown: replacing it there lasts). ``sessions``: each test gets a
    session of this stand (False: the tests share its root). A session's own handle has its ``session_id``.
    """

    url: str
    threaded: ThreadedStand | None = None
    token: str = ""
    script: list[Any] | None = None
    sessions: bool = True
    session_id: str = ""

    def client(self) -> StandClient:
        return StandClient(self.url)

    def open_session(self) -> StandHandle | None:
        """A new session of this stand; None when tests share the root (or the stand has no sessions)."""
        if not self.sessions:
            return None
        try:
            got = self.client().open_session()
        except SimAPIError as exc:
            if exc.status != 404:
                raise
            self.sessions = False  # a stand without sessions (an older tgfake, the Go reference stand)
            return None
        return StandHandle(str(got["url"]), token=self.token, script=self.script, sessions=False, session_id=got["id"])

    def end_session(self, session: StandHandle) -> None:
        """End one of this stand's sessions (already gone, or the stand stopped: nothing to do)."""
        with contextlib.suppress(SimAPIError, OSError):
            self.client().end_session(session.session_id)

    def stop(self) -> None:
        if self.threaded is not None:
            self.threaded.stop()


def start_stand(options: Options, model_settings: Mapping[str, Any] | None) -> StandHandle:
    """A threaded stand with a model built from ``model_settings`` (None: no model)."""
    stand = ThreadedStand(options, model=make_model(model_settings))
    stand.start()
    rules = None if model_settings is None else list(model_settings.get("rules") or [])
    return StandHandle(stand.url, stand, token=options.token, script=rules)


@pytest.fixture(scope="session")
def tgfake_options(pytestconfig: pytest.Config) -> Options:
    """The session stand's options; override to change the token, the bot's name, the poll cap."""
    strict = pytestconfig.getoption("tgfake_strict")
    if strict is None:
        strict = bool(pytestconfig.getini("tgfake_strict"))
    if strict:  # only the stand's bots are accepted: the bot under test's token is one
        return Options(poll_max=TEST_POLL_MAX, strict=True, token=DEFAULT_BOT_TOKEN)
    return Options(poll_max=TEST_POLL_MAX)


@pytest.fixture(scope="session")
def tgfake_model_options() -> dict[str, Any] | None:
    """``llmstub.ModelOptions`` fields for the session stand's model (None: serve no model)."""
    return {"delay": 0.0}


@pytest.fixture(scope="session")
def tgfake_server(tgfake_options: Options, tgfake_model_options: dict[str, Any] | None) -> Iterator[StandHandle]:
    """The session's stand: the one ``TGFAKE_URL`` names, else one served from a thread."""
    url = os.environ.get("TGFAKE_URL", "").strip()
    if url:
        # A bot started outside the tests polls one fixed URL: its tests must share that stand, not sessions.
        shared = os.environ.get("TGFAKE_BOT") == "external" or os.environ.get("TGFAKE_SESSIONS", "") == "0"
        yield StandHandle(url.rstrip("/"), token=os.environ.get("BOT_TOKEN", ""), sessions=not shared)
        return
    handle = start_stand(tgfake_options, tgfake_model_options)
    try:
        yield handle
    finally:
        handle.stop()


# ---------------------------------------------------------------------------------------------------------
# The per-test client


def _marker_options(item: pytest.Item) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for mark in reversed(list(item.iter_markers("tgfake"))):  # closest marker wins
        if mark.args:
            raise pytest.UsageError("@pytest.mark.tgfake takes keyword arguments only")
        merged.update(mark.kwargs)
    unknown = set(merged) - STAND_OPTIONS - MODEL_OPTIONS - RUNTIME_OPTIONS
    if unknown:
        raise pytest.UsageError(f"@pytest.mark.tgfake got unknown options: {', '.join(sorted(unknown))}")
    return merged


def _script_rules(script: Any) -> Any:
    if isinstance(script, Path):
        return json.loads(script.read_text())
    if isinstance(script, str):
        return json.loads(script)
    return script


class StandSession:
    """One test's stand: a session of its own on the shared stand (``own``), the shared stand's root when it has no
    sessions, a pooled bot's session (``adopt``), or a private stand when the test asks for options only a new
    stand has."""

    def __init__(
        self,
        server: StandHandle,
        options: Options,
        model_settings: dict[str, Any] | None,
        marks: Mapping[str, Any],
    ) -> None:
        self.server = server
        self.options = options
        self.model_settings = model_settings
        self.marks = marks
        self.private: StandHandle | None = None
        self.own: StandHandle | None = None
        self.replaced_script = False
        self.script: Any = None  # the rules this test put in place (carried along when it moves)
        self.lost_script: Any = None  # called at the end when a shared session's script cannot be put back
        if STAND_OPTIONS & marks.keys() or MODEL_OPTIONS & marks.keys():
            self.private = self._private(options, model_settings, marks)
        else:
            self.own = server.open_session()
        self.handle = self.private or self.own or server
        self.client = self.handle.client()

    def _private(
        self, options: Options, model_settings: dict[str, Any] | None, marks: Mapping[str, Any]
    ) -> StandHandle:
        if self.server.threaded is None:
            pytest.skip("this test needs a stand of its own (token, answers, model), not the TGFAKE_URL one")
        changes = {k: marks[k] for k in STAND_OPTIONS & marks.keys()}
        settings = dict(model_settings or {})
        if "model" in marks:
            settings.update(marks["model"])
        if "answers" in marks:
            settings["answers"] = list(marks["answers"])
        return start_stand(dataclasses.replace(options, **changes), settings)

    def use_private(self, **marks: Any) -> None:
        """Move this test to a stand of its own built with ``marks`` (start bots after this)."""
        if self.private is not None:
            self.private.stop()
        self._end_own()
        self.private = self._private(self.options, self.model_settings, marks)
        self.handle = self.private
        self.client.retarget(self.handle.url)

    def adopt(self, handle: StandHandle, lost_script: Any = None) -> None:
        """Move this test to a shared session (a pooled bot's): reset, marked and scripted as this test was."""
        self._end_own()
        self.handle = handle
        self.client.retarget(handle.url)
        self.lost_script = lost_script
        script = self.script
        self.replaced_script = False
        self.prepare(self.marks)
        if script is not None:
            self.set_script(script)

    def _end_own(self) -> None:
        if self.own is not None:
            self.server.end_session(self.own)
            self.own = None

    def prepare(self, marks: Mapping[str, Any]) -> None:
        self.client.reset()
        if marks.get("mode") == "echo":
            self.set_script([])
        elif marks.get("mode") not in (None, "script"):
            raise pytest.UsageError(f"@pytest.mark.tgfake mode is 'echo' or 'script', not {marks['mode']!r}")
        if marks.get("script") is not None:
            self.set_script(_script_rules(marks["script"]))
        for fault in marks.get("faults") or []:
            self.client.fault(**fault)

    def set_script(self, rules: Any) -> None:
        self.client.model.script(rules)
        self.replaced_script = True
        self.script = rules

    def close(self, *, keep: bool = False) -> None:
        """After the test: stop its private stand, end its session (``keep``: leave it for a look, it idles out),
        and put back the script of a shared stand it replaced (or drop a pooled session whose script is unknown)."""
        if self.private is not None:
            self.private.stop()
            return
        if self.replaced_script and self.own is not None:
            pass  # a session of its own has a model of its own, which ends with it
        elif self.replaced_script and self.server.script is not None:
            # a shared stand's (or a session that shares the stand's model, with an llmstub that serves one)
            self.client.model.script(self.server.script)
        elif self.replaced_script and self.lost_script is not None:
            self.lost_script()
        if self.own is not None and not keep:
            self.server.end_session(self.own)


@pytest.fixture
def tgfake_stand(
    request: pytest.FixtureRequest,
    tgfake_server: StandHandle,
    tgfake_options: Options,
    tgfake_model_options: dict[str, Any] | None,
) -> Iterator[StandSession]:
    """The test's stand (the session's, or a private one for the marker's options), reset before the test."""
    marks = _marker_options(request.node)
    session = StandSession(tgfake_server, tgfake_options, tgfake_model_options, marks)
    try:
        session.prepare(marks)
        request.node.stash[_CLIENT] = session.client
        yield session
    finally:
        session.close(keep=request.node.stash.get(_FAILED, False))


@pytest.fixture
def tgfake(tgfake_stand: StandSession) -> StandClient:
    """A client for the test's stand, which was reset before the test; see :class:`~tgfake.testing.StandClient`."""
    return tgfake_stand.client


try:
    import pytest_asyncio
except ImportError:  # pragma: no cover - pytest-asyncio is optional for the sync fixtures
    pass
else:

    @pytest_asyncio.fixture
    async def atgfake(tgfake_stand: StandSession) -> AsyncIterator[AsyncStandClient]:
        """The async client for the test's stand (reset before the test, like ``tgfake``)."""
        async with AsyncStandClient(tgfake_stand.handle.url) as client:
            client.share_reading(tgfake_stand.client)  # one reading position per test
            yield client


# ---------------------------------------------------------------------------------------------------------
# Bots under test


class BotFactory(Protocol):
    def __call__(
        self,
        command: str | Sequence[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        ready: bool = True,
        token: str | None = None,
        ready_timeout: float | None = None,
    ) -> BotProcess: ...


def _register_bot(item: pytest.Item, bot: BotProcess) -> None:
    bots = item.stash.get(_BOTS, None)
    if bots is None:
        bots = []
        item.stash[_BOTS] = bots
    if bot not in bots:
        bots.append(bot)


def _command(command: str | Sequence[str] | None, default: str | Sequence[str] | None) -> str | Sequence[str]:
    chosen = command or os.environ.get("BOT_CMD") or default
    if not chosen:
        raise pytest.UsageError("no bot command: pass one, set BOT_CMD, or override the tgfake_bot_command fixture")
    return chosen


@pytest.fixture
def tgfake_bot_command() -> str | Sequence[str] | None:
    """The bot under test when a test or step names none (``BOT_CMD`` wins); override in a conftest."""
    return None


@pytest.fixture
def tgfake_bot_env() -> dict[str, str]:
    """Extra environment for bots under test, over ``TELEGRAM_API``, ``BOT_TOKEN``, ``OPENAI_*``."""
    return {}


@pytest.fixture
def tgfake_bot(
    request: pytest.FixtureRequest,
    tgfake_stand: StandSession,
    tgfake_bot_command: str | Sequence[str] | None,
    tgfake_bot_env: dict[str, str],
) -> Iterator[BotFactory]:
    """Start a bot as a subprocess pointed at the test's stand; it is stopped after the test.

    ``command`` defaults to ``BOT_CMD`` or ``tgfake_bot_command``; ``token`` is its ``BOT_TOKEN`` (the stand's token
    by default: give each bot of a test its own, e.g. one made by ``tgfake.add_bot``). ``ready`` waits until the bot
    has made its own first Bot API call (with its token, held on the stand), failing at once with its output if it
    exits first, and after ``ready_timeout`` seconds (``--tgfake-ready-timeout``, default 60) if it makes none.
    """
    started: list[BotProcess] = []
    default_timeout = ready_timeout(request.config)

    def start(
        command: str | Sequence[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        ready: bool = True,
        token: str | None = None,
        ready_timeout: float | None = None,
    ) -> BotProcess:
        handle = tgfake_stand.handle
        full_env = {**bot_environment(handle.url, token=handle.token), **tgfake_bot_env, **(env or {})}
        if token is not None:
            full_env["BOT_TOKEN"] = token
        bot = BotProcess(_command(command, tgfake_bot_command), env=full_env, cwd=cwd)
        since = tgfake_stand.client.count()
        bot.start()
        started.append(bot)
        _register_bot(request.node, bot)
        if ready:
            timeout = default_timeout if ready_timeout is None else ready_timeout
            bot.wait_ready(tgfake_stand.client, since=since, timeout=timeout)
        return bot

    try:
        yield start
    finally:
        for bot in started:
            bot.stop()


class BotPool:
    """Bots kept running across the tests of a module (started once, restarted if they died).

    Keyed by the stand's origin, the command and the environment, so a test with a private stand gets
    its own bot. On a stand with sessions each pooled bot has a session of its own for the module, which the
    tests using it move to (reset before each, as the root was). Used by the Gherkin step "the bot is running".
    """

    def __init__(self, ready_timeout: float = DEFAULT_READY_TIMEOUT) -> None:
        self.ready_timeout = ready_timeout
        self._bots: dict[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]], BotProcess] = {}
        self._sessions: dict[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]], StandHandle] = {}
        self._servers: dict[str, StandHandle] = {}  # a pooled session's url -> the stand it is a session of

    def session_for(
        self, server: StandHandle, command: str | Sequence[str], env: Mapping[str, str]
    ) -> StandHandle | None:
        """The pooled session of this stand, command and environment (made on first use); None without sessions."""
        key = (server.url, _argv(command), tuple(sorted(env.items())))
        handle = self._sessions.get(key)
        if handle is None:
            handle = server.open_session()
            if handle is None:
                return None
            self._sessions[key] = handle
            self._servers[handle.url] = server
        return handle

    def drop(self, handle: StandHandle) -> None:
        """Forget a pooled session (its script was changed and cannot be put back): stop its bots and end it."""
        self.close_for(handle.url)
        self._sessions = {k: h for k, h in self._sessions.items() if h is not handle}
        server = self._servers.pop(handle.url, None)
        if server is not None:
            server.end_session(handle)

    def ensure(
        self,
        client: StandClient,
        command: str | Sequence[str],
        env: Mapping[str, str],
        cwd: str | os.PathLike[str] | None = None,
    ) -> tuple[BotProcess, bool]:
        """The running bot for this stand, command and environment; and whether it was just started."""
        argv = _argv(command)
        key = (client.url, argv, tuple(sorted(env.items())))
        bot = self._bots.get(key)
        if bot is not None and bot.alive():
            return bot, False
        if bot is not None:
            bot.close()
        bot = BotProcess(list(argv), env=env, cwd=cwd)
        since = client.count()
        bot.start()
        self._bots[key] = bot
        bot.wait_ready(client, since=since, timeout=self.ready_timeout)
        return bot, True

    def close_for(self, url: str) -> None:
        """Stop the bots of one stand (a test's private stand, which is going away)."""
        for key in [k for k in self._bots if k[0] == url]:
            self._bots.pop(key).close()

    def close(self) -> None:
        for bot in self._bots.values():
            bot.close()
        self._bots.clear()
        for handle in self._sessions.values():
            self._servers[handle.url].end_session(handle)
        self._sessions.clear()
        self._servers.clear()


def _argv(command: str | Sequence[str]) -> tuple[str, ...]:
    return tuple(shlex.split(command) if isinstance(command, str) else command)


@pytest.fixture(scope="module")
def tgfake_bot_pool(request: pytest.FixtureRequest) -> Iterator[BotPool]:
    """Bots that live for the module (see :class:`BotPool`)."""
    pool = BotPool(ready_timeout(request.config))
    try:
        yield pool
    finally:
        pool.close()


def use_pooled_bot(
    request: pytest.FixtureRequest,
    pool: BotPool,
    stand: StandSession,
    command: str | Sequence[str],
    env: Mapping[str, str],
    cwd: str | os.PathLike[str] | None = None,
) -> BotProcess:
    """Start (or reuse) a pooled bot for this test (moving the test to the bot's session) and attach its output."""
    if stand.private is None:
        shared = pool.session_for(stand.server, command, env)
        if shared is not None and stand.handle is not shared:
            stand.adopt(shared, lost_script=lambda: pool.drop(shared))
    handle = stand.handle
    full_env = {**bot_environment(handle.url, token=handle.token), **env}
    bot, started = pool.ensure(stand.client, command, full_env, cwd)
    if started and stand.private is not None:
        url = handle.url
        request.addfinalizer(lambda: pool.close_for(url))  # runs before the private stand stops
    _register_bot(request.node, bot)
    offsets = request.node.stash.setdefault(_OFFSETS, {})
    offsets.setdefault(id(bot), bot.output_size())
    return bot


# ---------------------------------------------------------------------------------------------------------
# Reports


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed test's report gets each bot's output and the stand's transcript and outbox."""
    report = yield
    if report.failed and call.when in ("setup", "call"):
        item.stash[_FAILED] = True
        offsets = item.stash.get(_OFFSETS, {})
        for bot in item.stash.get(_BOTS, []):
            report.sections.append((f"tgfake bot {bot.name} (pid {bot.pid})", bot.output(offsets.get(id(bot), 0))))
        client = item.stash.get(_CLIENT, None)
        if client is not None and call.when == "call":
            report.sections.append(("tgfake stand", client.evidence()))
    return report
