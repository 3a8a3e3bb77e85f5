"""The pytest fixture ``tgfake_explore``: explore a bot from a test, so "explore finds nothing" can stay a test.

Loaded by the tgfake pytest plugin (tgfake/pytest_plugin.py imports the fixture)::

    def test_explore_finds_nothing(tgfake_explore):
        report = tgfake_explore("python my_bot.py", budget=100)
        assert report.findings == [], [f.title for f in report.findings]

The exploration runs on a session of its own on the tests' stand (``tgfake_server``: the threaded stand, or the one
``TGFAKE_URL`` names), with the bot's command from the call, ``BOT_CMD`` or the ``tgfake_bot_command`` fixture, and
``tgfake_bot_env`` added to its environment.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import pytest

from tgfake.explore.findings import Report
from tgfake.explore.run import explore


class _Stand(Protocol):
    url: str


@pytest.fixture
def tgfake_explore(
    tgfake_server: _Stand,
    tgfake_bot_command: str | Sequence[str] | None,
    tgfake_bot_env: dict[str, str],
) -> Callable[..., Report]:
    """``tgfake_explore(command=None, **settings)``: a :class:`Report` (``settings`` as ``tgfake.explore.explore``
    takes them: ``budget``, ``time_limit``, ``seed``, ``reply_time``, ``phases``, ``env``, ``cwd``)."""

    def run(command: str | Sequence[str] | None = None, **settings: Any) -> Report:
        chosen = command or os.environ.get("BOT_CMD") or tgfake_bot_command
        if not chosen:
            raise pytest.UsageError("no bot command: pass one, set BOT_CMD, or override the tgfake_bot_command fixture")
        env = {**tgfake_bot_env, **(settings.pop("env", None) or {})}
        return explore(chosen, url=tgfake_server.url, env=env, **settings)

    return run
