"""Injectable clocks: the stand reads time only through one, so tests move time instead of sleeping."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Where the stand reads the time of day (message dates, typing window, drafts, ``auth_date``)."""

    def now(self) -> float:
        """Seconds since the Unix epoch."""
        ...


class SystemClock:
    """The real wall clock."""

    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that stands still until a test moves it."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move time forward (or back, with a negative amount)."""
        self._now += seconds

    def set(self, when: float) -> None:
        self._now = when


class OffsetClock:
    """A clock running at its base's pace, shifted by an offset that ``POST /sim/clock`` moves.

    Every stand reads time through one, so moving one session's time never moves another's, and a stand on the
    wall clock can still be moved (a ManualClock base keeps moving it too: the offset is added on top).
    """

    def __init__(self, base: Clock) -> None:
        self.base = base
        self.offset = 0.0

    def now(self) -> float:
        return self.base.now() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def set(self, when: float) -> None:
        self.offset = when - self.base.now()
