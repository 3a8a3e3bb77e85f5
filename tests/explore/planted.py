"""What the planted-bug tests share: the kinds every bot plants at once, the phases, one exploration of a bot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.explore.test_explore import QUIET, REPLY_TIME
from tgfake.explore import explore
from tgfake.explore.findings import KINDS

PLANTED = tuple(kind for kind in KINDS if kind not in ("flood", "slow_reply"))
"""Every kind planted in one run: flood needs the stand's limits, slow_reply a longer reply time."""
ALL_PHASES = ("commands", "texts", "names", "contents", "buttons", "groups", "faults")
TWIN_REPLY_TIME = 3.0
"""The default reply time for the twins: a correct bot answers at once, so it costs nothing, and a heavily loaded
machine does not make a slow answer look like none."""


def explore_bot(command: Sequence[str], plant: str, mode: str, **kwargs: Any) -> dict[str, Any]:
    """The JSON report of exploring the bot with ``PLANT`` and ``MODE`` (short reply time and quiet window unless
    given)."""
    kwargs = {"reply_time": REPLY_TIME, "quiet": QUIET, "trim": False, **kwargs}
    answer: dict[str, Any] = explore(list(command), env={"PLANT": plant, "MODE": mode}, **kwargs).json()
    assert answer["mode"] == mode
    return answer


def kinds(report: dict[str, Any]) -> list[str]:
    return sorted(str(f["kind"]) for f in report["findings"])
