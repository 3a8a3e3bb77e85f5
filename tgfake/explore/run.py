"""Exploring a bot from start to end: a stand (or ``TGFAKE_URL``), a session of its own, the bot's process, then the
findings' steps trimmed by replaying shorter runs on fresh sessions of the same stand."""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tgfake.botrun import STARTUP_TIMEOUT, BotStartError, RunningBot
from tgfake.explore.engine import PHASES, Explorer, Settings, check_slow_reply
from tgfake.explore.faults import run_faults
from tgfake.explore.findings import Report
from tgfake.explore.sim import bot_on_stand
from tgfake.explore.trim import TRIM_REPLAYS, TRIM_TIME, Trimming, trim_findings
from tgfake.harness import ThreadedStand
from tgfake.options import Options

__all__ = ["STARTUP_TIMEOUT", "BotStartError", "RunningBot", "bot_on_stand", "explore"]


@contextlib.contextmanager
def stand_at(url: str | None, options: Options | None, model: Any) -> Iterator[str]:
    """The stand's origin: ``url``, else ``TGFAKE_URL``, else a stand started here (stopped after)."""
    origin = url or os.environ.get("TGFAKE_URL", "")
    if origin:
        yield origin
        return
    stand = ThreadedStand(options or Options(), model=model)
    try:
        yield stand.start()
    finally:
        stand.stop()


def explore(
    command: Sequence[str] | str,
    *,
    url: str | None = None,
    budget: int = 300,
    time_limit: float = 120.0,
    seed: int = 1,
    reply_time: float = 3.0,
    slow_reply: float = 1.0,
    options: Options | None = None,
    model: Any = None,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    progress: Callable[[Explorer], None] | None = None,
    phases: Sequence[str] = PHASES,
    quiet: float = 0.2,
    trim: bool = True,
    trim_replays: int = TRIM_REPLAYS,
    trim_time: float = TRIM_TIME,
) -> Report:
    """Explore the bot that ``command`` starts and report what it does wrong.

    ``url`` (else ``TGFAKE_URL``, else a stand started here with ``options`` and ``model``) is a stand's origin; the
    exploration opens a session of its own on it and ends it after; whether the stand has flood limits (a 429
    nobody injected is a ``flood`` finding) is read from it. Raises :class:`BotStartError` when the bot
    cannot be started. ``phases`` picks some of :data:`PHASES` (in their order). A reply ``slow_reply`` seconds or
    more after the bot took the update is a ``slow_reply`` finding (ValueError unless it is below ``reply_time``).
    With ``trim``, each finding's steps are then trimmed: shorter step lists replayed on fresh sessions (at most
    ``trim_replays`` per finding, ``trim_time`` seconds in all), the shortest still showing it kept.
    """
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    check_slow_reply(slow_reply, reply_time)
    with stand_at(url, options, model) as origin:
        with bot_on_stand(command, url=origin, env=env, cwd=cwd) as (sim, bot, webhook):
            settings = Settings(
                budget=budget,
                time_limit=time_limit,
                seed=seed,
                reply_time=reply_time,
                slow_reply=slow_reply,
                flood_limits=sim.flood_limits(),
                phases=tuple(phases),
                quiet=quiet,
            )
            explorer = Explorer(sim, bot, settings, webhook=webhook, progress=progress)
            report = explorer.run(argv, later=[run_faults])
        if trim and report.findings:
            how = Trimming(
                command=command,
                url=origin,
                reply_time=reply_time,
                slow_reply=slow_reply,
                options=options,
                env=env,
                cwd=cwd,
                replays=trim_replays,
                seconds=trim_time,
            )
            trim_findings(report.findings, how)
        return report
