"""Trimming a finding's steps: shorter step lists replayed on fresh sessions, the shortest that still shows it kept.

Delta-debugging style: the finding's last act stays; of the steps before it, first all are dropped at once, then
halves, quarters... down to one at a time, each candidate replayed with :func:`tgfake.explore.replay` on a fresh
session; a candidate that still shows a finding of the same kind becomes the steps. A quick double tap (two equal
taps in a row) is one unit. Bounded by a number of replays per finding and a time for all findings together.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tgfake.botrun import BotStartError
from tgfake.explore.findings import Finding
from tgfake.explore.replay import FAULT_KINDS, replay, units
from tgfake.explore.sim import Step
from tgfake.options import Options

TRIM_REPLAYS = 6
"""At most this many replays per finding."""

TRIM_TIME = 60.0
"""At most this many seconds of trimming for all the findings of one exploration."""


@dataclass(slots=True)
class Trimming:
    """Where and how to replay: the bot's command and environment, the stand, the judging settings, the bounds."""

    command: Sequence[str] | str
    url: str
    reply_time: float = 3.0
    slow_reply: float = 1.0
    options: Options | None = None
    env: dict[str, str] | None = None
    cwd: str | None = None
    replays: int = TRIM_REPLAYS
    seconds: float = TRIM_TIME


def trim_findings(findings: Sequence[Finding], how: Trimming) -> None:
    """Trim each finding's steps in place (its ``trimmed_from`` set to the count before), within the bounds."""
    deadline = time.monotonic() + how.seconds
    for finding in findings:
        finding.trimmed_from = len(finding.steps)
        if finding.kind in FAULT_KINDS or len(units(finding.steps)) < 2:
            continue  # a fault check's steps are its fault and its follow-up; a single act has nothing to drop
        finding.steps = shortest(finding.steps, finding.kind, how, deadline)


def shortest(steps: Sequence[Step], kind: str, how: Trimming, deadline: float) -> list[Step]:
    """The shortest step list found (within ``how.replays`` replays and the deadline) still showing ``kind``."""
    *before, last = units(steps)
    left = how.replays
    parts = 1
    while before and left > 0 and time.monotonic() < deadline:
        size = math.ceil(len(before) / parts)
        dropped = False
        for start in range(0, len(before), size):
            if left <= 0 or time.monotonic() >= deadline:
                break
            candidate = before[:start] + before[start + size :]
            left -= 1
            if _shows([*candidate, last], kind, how):
                before, dropped = candidate, True
                parts = max(parts - 1, 1)
                break
        if not dropped:
            if size == 1:
                break
            parts = min(len(before), parts * 2)
    return [step for unit in [*before, last] for step in unit]


def _shows(candidate: list[list[Step]], kind: str, how: Trimming) -> bool:
    steps: list[Step | dict[str, Any]] = [step for unit in candidate for step in unit]
    try:
        found = replay(
            how.command,
            steps,
            kind,
            url=how.url,
            reply_time=how.reply_time,
            slow_reply=how.slow_reply,
            options=how.options,
            env=how.env,
            cwd=how.cwd,
        )
    except BotStartError:
        return False
    return bool(found)
