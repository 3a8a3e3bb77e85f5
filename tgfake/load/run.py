"""``tgfake.load(...)``: a bot under load, from a test or from ``tgfake load``, and the report it got.

The bot is started on a session of its own (:func:`tgfake.botrun.bot_on_stand`: a stand started here, or
``url``, or ``TGFAKE_URL``), with ``--webhook`` told to take a webhook (``BOT_MODE=webhook``, ``WEBHOOK_URL``,
``WEBHOOK_PORT``, ``WEBHOOK_SECRET``, as the project's library bots read them). The run itself happens in the stand
(``POST /sim/load``); this side reads its progress once a second and its report at the end. Without a command,
the run goes to a bot already taking updates on ``url`` (a session's origin).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tgfake.botrun import BotStartError, RunningBot, SimLine, bot_on_stand
from tgfake.load.scenario import Scenario, load_file, parse
from tgfake.options import Options
from tgfake.testing import SimAPIError

POLL_EVERY = 1.0
"""Seconds between two reads of the run's progress."""
WEBHOOK_PATH = "/hook"


class LoadError(Exception):
    """The run could not be made: the bot did not start, took no webhook when asked to, or the stand refused."""


@dataclass(frozen=True, slots=True)
class LoadReport:
    """A run's report (``GET /sim/load/report``), with its main figures as attributes; ``raw`` is the JSON."""

    raw: Mapping[str, Any] = field(repr=False)

    @property
    def totals(self) -> Mapping[str, Any]:
        got: Mapping[str, Any] = self.raw.get("totals", {})
        return got

    @property
    def offered(self) -> int:
        return int(self.totals.get("offered", 0))

    @property
    def delivered(self) -> int:
        return int(self.totals.get("delivered", 0))

    @property
    def answered(self) -> int:
        return int(self.totals.get("answered", 0))

    @property
    def unanswered(self) -> int:
        return int(self.totals.get("unanswered", 0))

    @property
    def too_many(self) -> int:
        """Calls refused with 429 Too Many Requests."""
        return int(self.totals.get("too_many", 0))

    def latency(self, which: str = "p99") -> float:
        """Reply latency in seconds: ``p50``, ``p90``, ``p99``, ``max`` or ``mean``."""
        return float(self.totals.get("latency_ms", {}).get(which, 0.0)) / 1000.0

    @property
    def p99(self) -> float:
        return self.latency("p99")

    @property
    def calls(self) -> Mapping[str, int]:
        got: Mapping[str, int] = self.totals.get("calls", {})
        return got

    @property
    def refusals(self) -> Mapping[str, int]:
        got: Mapping[str, int] = self.totals.get("refusals", {})
        return got

    @property
    def seconds(self) -> list[Mapping[str, Any]]:
        return list(self.raw.get("seconds", []))

    @property
    def stopped(self) -> str:
        return str(self.raw.get("stopped", ""))

    def json(self) -> dict[str, Any]:
        return dict(self.raw)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def webhook_environment() -> dict[str, str]:
    """What a bot reads to serve a webhook on a free loopback port (``BOT_MODE=webhook`` and the three others)."""
    port = _free_port()
    return {
        "BOT_MODE": "webhook",
        "WEBHOOK_URL": f"http://127.0.0.1:{port}{WEBHOOK_PATH}",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_SECRET": secrets.token_hex(16),
    }


def scenario_json(scenario: Scenario | Mapping[str, Any] | str | Path | None) -> dict[str, Any] | None:
    """A scenario as the route takes it: a :class:`Scenario`, its mapping, or a YAML or JSON file's path."""
    if scenario is None:
        return None
    if isinstance(scenario, Scenario):
        return scenario.json()
    if isinstance(scenario, (str, Path)):
        return load_file(scenario).json()
    return parse(dict(scenario)).json()


def load(
    command: Sequence[str] | str | None = None,
    *,
    url: str | None = None,
    people: int = 100,
    groups: int = 10,
    members: int = 10,
    rate: float = 50.0,
    duration: float = 10.0,
    ramp: float = 0.0,
    budget: int = 0,
    drain: float = 2.0,
    flood: bool = True,
    chat_burst: int = 3,
    seed: int = 1,
    scenario: Scenario | Mapping[str, Any] | str | Path | None = None,
    webhook: bool = False,
    options: Options | None = None,
    model: Any = None,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    progress: Callable[[Mapping[str, Any]], None] | None = None,
    stop: threading.Event | None = None,
) -> LoadReport:
    """Run the bot that ``command`` starts under load and return the report (docs/load.md).

    ``url`` is a stand's origin (else ``TGFAKE_URL``, else a stand started here with ``options`` and ``model``, the
    scripted model an LLM bot talks to: an ``llmstub.Model``); without a
    ``command`` it is the origin of a session whose bot already takes updates. ``stop`` (set from another thread)
    and Ctrl-C end the run early, with the partial report. Raises :class:`LoadError` when the run cannot be made.
    """
    body = {
        "people": people,
        "groups": groups,
        "members": members,
        "rate": float(rate),
        "duration": float(duration),
        "ramp": float(ramp),
        "budget": budget,
        "drain": float(drain),
        "flood": flood,
        "chat_burst": chat_burst,
        "seed": seed,
        "scenario": scenario_json(scenario),
    }
    with _bot(command, url=url, options=options, model=model, env=env, cwd=cwd, webhook=webhook) as (sim, bot):
        return drive(sim, body, bot=bot, progress=progress, stop=stop)


@contextlib.contextmanager
def _bot(
    command: Sequence[str] | str | None,
    *,
    url: str | None,
    options: Options | None,
    model: Any,
    env: dict[str, str] | None,
    cwd: str | None,
    webhook: bool,
) -> Iterator[tuple[SimLine, RunningBot | None]]:
    if command is None:
        origin = url or os.environ.get("TGFAKE_URL", "")
        if not origin:
            raise LoadError("give the bot's command, or the url of a session whose bot takes updates")
        yield SimLine(origin), None
        return
    extra = {**(env or {}), **(webhook_environment() if webhook else {})}
    try:
        started = bot_on_stand(command, url=url, options=options, model=model, env=extra, cwd=cwd, line=SimLine)
        with started as (sim, bot, hooked):
            if webhook and not hooked:
                raise LoadError(f"the bot polls instead of setting a webhook; its output:\n{bot.output()}")
            if not webhook and hooked:
                raise LoadError("the bot set a webhook: run with --webhook (webhook=True) to load it that way")
            yield sim, bot
    except BotStartError as exc:
        raise LoadError(str(exc)) from None


def drive(
    sim: SimLine,
    body: dict[str, Any],
    *,
    bot: RunningBot | None = None,
    progress: Callable[[Mapping[str, Any]], None] | None = None,
    stop: threading.Event | None = None,
) -> LoadReport:
    """Start the run on the session, follow it once a second, stop it when asked (or on Ctrl-C), and report."""
    try:
        sim.post("/load", body)
    except SimAPIError as exc:
        raise LoadError(f"the stand refused the run: {exc}") from None
    waiter = stop or threading.Event()
    drain = float(body.get("drain", 2.0))
    try:
        while True:
            state = sim.get("/load")
            if progress is not None:
                progress(state)
            if state.get("state") == "done":
                break
            if bot is not None and not bot.alive():
                return _stop(sim, drain, "bot exited")
            if waiter.wait(POLL_EVERY):
                return _stop(sim, drain, "stopped")
    except KeyboardInterrupt:
        return _stop(sim, drain, "interrupted")
    return LoadReport(sim.get("/load/report"))


def _stop(sim: SimLine, drain: float, why: str) -> LoadReport:
    """Stop the run in the stand; the report says ``why`` (the stand only knows it was asked to stop)."""
    raw = sim.request("POST", "/load/stop", {}, wait=drain + 5.0)
    return LoadReport({**raw, "stopped": why})
