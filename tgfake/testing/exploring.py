"""``explore(command)`` on the testing client: ``tgfake explore`` on the client's stand, written once for both clients.

The exploration opens a session of its own on the stand the client talks to (its origin: a session client's
``/s/<id>`` is left off), starts the bot there and answers the :class:`~tgfake.explore.Report`. It blocks for as
long as exploring takes, so the async client runs it in a thread (the stand may share the test's event loop).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from tgfake.explore.findings import Report
from tgfake.explore.run import explore
from tgfake.testing.core import Core, Local, Op
from tgfake.testing.drivers import op

SESSION_PATH = re.compile(r"/s/[^/]+$")


def stand_origin(url: str) -> str:
    """The stand's origin of a client's URL: a session's (``http://host:port/s/<id>``) without its ``/s/<id>``."""
    return SESSION_PATH.sub("", url.rstrip("/"))


class ExploreMethods:
    """Exploring a bot from a test (docs/explore.md)."""

    @op
    def explore(core: Core, /, command: Sequence[str] | str, **settings: Any) -> Op[Report]:
        """Explore the bot ``command`` starts on this client's stand (a session of its own) and answer the report;
        ``settings`` as ``tgfake.explore.explore`` takes them (``budget``, ``time_limit``, ``seed``, ``reply_time``,
        ``slow_reply``, ``phases``, ``env``, ``cwd``, ``trim``...). Raises ``BotStartError`` when the bot cannot be
        started."""
        run = functools.partial(explore, command, url=stand_origin(core.url), **settings)
        report: Report = yield Local(run, blocking=True)
        return report
