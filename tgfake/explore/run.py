"""Exploring a bot from start to end: a stand (or ``TGFAKE_URL``), a session of its own, the bot's process."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tgfake.explore.engine import PHASES, Explorer, Settings
from tgfake.explore.faults import run_faults
from tgfake.explore.findings import Report
from tgfake.explore.sim import Sim
from tgfake.options import Options
from tgfake.testing import BotProcess, ThreadedStand, bot_environment

STARTUP_TIMEOUT = 20.0
"""How long the bot may take to make its first Bot API call and settle (poll, or set its webhook)."""


class BotStartError(Exception):
    """The bot could not be started: it exited, or made no Bot API call in time (its output is kept)."""


class RunningBot:
    """The bot's process, started again (with the same environment) after it died; its output kept across runs."""

    def __init__(self, command: Sequence[str] | str, env: dict[str, str], cwd: str | None = None) -> None:
        self.command = command
        self.env = env
        self.cwd = cwd
        self.sim: Sim | None = None
        self._earlier = ""
        self._proc = BotProcess(command, env=env, cwd=cwd)
        self.restarts = 0

    def start(self, sim: Sim) -> None:
        self.sim = sim
        since = sim.last_seq()
        self._proc.start()
        self._wait_first_call(since)

    def _wait_first_call(self, since: int) -> None:
        assert self.sim is not None
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while self.alive():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if self.sim.wait_calls(since, min(remaining, 1.0)):
                break
        else:
            raise BotStartError(f"the bot exited with status {self._proc.returncode}; its output:\n{self.output()}")
        if not self.alive() or not self.sim.calls(since):
            raise BotStartError(
                f"the bot made no Bot API call within {STARTUP_TIMEOUT:g} s; its output:\n{self.output()}"
            )

    def settle(self) -> bool:
        """Wait until the bot polls or has a webhook; True for a webhook."""
        assert self.sim is not None
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while self.alive() and time.monotonic() < deadline:
            hook = self.sim.webhook().get("webhook")
            if hook:
                self.sim.wait_calls(self.sim.last_seq(), 0.3)  # its remaining set-up calls
                return True
            if self.sim.wait_polling(min(0.5, max(deadline - time.monotonic(), 0.0))):
                return False
        raise BotStartError(
            f"the bot neither polled nor set a webhook within {STARTUP_TIMEOUT:g} s; its output:\n{self.output()}"
        )

    def alive(self) -> bool:
        return self._proc.alive()

    def output(self, offset: int = 0) -> str:
        return (self._earlier + self._proc.output())[offset:]

    def output_size(self) -> int:
        return len(self.output())

    def restart(self) -> None:
        assert self.sim is not None
        self._earlier += self._proc.output()
        self._proc.close()
        self.restarts += 1
        self._proc = BotProcess(self.command, env=self.env, cwd=self.cwd)
        self.start(self.sim)
        self.settle()

    def close(self) -> None:
        self._proc.close()


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        answer: dict[str, Any] = json.loads(resp.read().decode())
    return answer


def _delete(url: str) -> None:
    req = urllib.request.Request(url, method="DELETE")
    try:
        with urllib.request.urlopen(req, timeout=10):
            pass
    except OSError:
        pass


@contextlib.contextmanager
def bot_on_stand(
    command: Sequence[str] | str,
    *,
    url: str | None = None,
    options: Options | None = None,
    model: Any = None,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
) -> Iterator[tuple[Sim, RunningBot, bool]]:
    """The bot started on a session of its own (of ``url``, ``TGFAKE_URL`` or a stand started here), settled:
    yields the session's sim API, the bot, and whether it took a webhook. Everything is stopped after."""
    origin = url or os.environ.get("TGFAKE_URL", "")
    stand: ThreadedStand | None = None
    if not origin:
        stand = ThreadedStand(options or Options(), model=model)
        origin = stand.start()
    origin = origin.rstrip("/")
    try:
        session = _post(f"{origin}/sim/sessions", {})
        base = str(session["url"]).rstrip("/")
        sim = Sim(base)
        bot = RunningBot(command, {**bot_environment(base), **(env or {})}, cwd)
        try:
            bot.start(sim)
            webhook = bot.settle()
            yield sim, bot, webhook
        finally:
            bot.close()
            _delete(f"{origin}/sim/sessions/{session['id']}")
    finally:
        if stand is not None:
            stand.stop()


def explore(
    command: Sequence[str] | str,
    *,
    url: str | None = None,
    budget: int = 300,
    time_limit: float = 120.0,
    seed: int = 1,
    reply_time: float = 3.0,
    options: Options | None = None,
    model: Any = None,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    progress: Callable[[Explorer], None] | None = None,
    phases: Sequence[str] = PHASES,
    quiet: float = 0.2,
) -> Report:
    """Explore the bot that ``command`` starts and report what it does wrong.

    ``url`` (else ``TGFAKE_URL``, else a stand started here with ``options`` and ``model``) is a stand's origin; the
    exploration opens a session of its own on it and ends it after. Raises :class:`BotStartError` when the bot
    cannot be started. ``phases`` picks some of :data:`PHASES` (in their order).
    """
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    flood = bool(options and options.flood_control)
    with bot_on_stand(command, url=url, options=options, model=model, env=env, cwd=cwd) as (sim, bot, webhook):
        settings = Settings(
            budget=budget,
            time_limit=time_limit,
            seed=seed,
            reply_time=reply_time,
            flood_limits=flood,
            phases=tuple(phases),
            quiet=quiet,
        )
        explorer = Explorer(sim, bot, settings, webhook=webhook, progress=progress)
        return explorer.run(argv, later=[run_faults])
