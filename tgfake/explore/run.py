"""Exploring a bot from start to end: a stand (or ``TGFAKE_URL``), a session of its own, the bot's process."""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tgfake import botrun
from tgfake.botrun import STARTUP_TIMEOUT, BotStartError, RunningBot
from tgfake.explore.engine import PHASES, Explorer, Settings, check_slow_reply
from tgfake.explore.faults import run_faults
from tgfake.explore.findings import Report
from tgfake.explore.sim import Sim
from tgfake.options import Options

__all__ = ["STARTUP_TIMEOUT", "BotStartError", "RunningBot", "bot_on_stand", "explore"]


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
    """The bot on a session of its own, settled (:func:`tgfake.botrun.bot_on_stand`), with the explorer's line."""
    with botrun.bot_on_stand(command, url=url, options=options, model=model, env=env, cwd=cwd, line=Sim) as got:
        yield got


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
) -> Report:
    """Explore the bot that ``command`` starts and report what it does wrong.

    ``url`` (else ``TGFAKE_URL``, else a stand started here with ``options`` and ``model``) is a stand's origin; the
    exploration opens a session of its own on it and ends it after. Raises :class:`BotStartError` when the bot
    cannot be started. ``phases`` picks some of :data:`PHASES` (in their order). A reply ``slow_reply`` seconds or
    more after the bot took the update is a ``slow_reply`` finding (ValueError unless it is below ``reply_time``).
    """
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    flood = bool(options and options.flood_control)
    check_slow_reply(slow_reply, reply_time)
    with bot_on_stand(command, url=url, options=options, model=model, env=env, cwd=cwd) as (sim, bot, webhook):
        settings = Settings(
            budget=budget,
            time_limit=time_limit,
            seed=seed,
            reply_time=reply_time,
            slow_reply=slow_reply,
            flood_limits=flood,
            phases=tuple(phases),
            quiet=quiet,
        )
        explorer = Explorer(sim, bot, settings, webhook=webhook, progress=progress)
        return explorer.run(argv, later=[run_faults])
