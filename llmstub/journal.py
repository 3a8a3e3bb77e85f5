"""The journal of completed completion requests, kept in reservation order and bounded."""

from __future__ import annotations

import bisect
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["JOURNAL_LIMIT", "Journal", "LogEntry"]

JOURNAL_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One answered completion request. Request headers are never copied here (only the client key).

    ``step`` is the zero-based step of a sequence, -1 for the legacy path; ``rule`` is the rule's name
    and ``rule_index`` its position (both ``None`` when no rule matched).
    """

    seq: int
    at: str
    profile: str
    client: str
    model: str
    stream: bool
    messages: list[Any]
    tools: list[Any]
    tool_choice: Any
    rule: str | None
    rule_index: int | None
    step: int
    status: int
    response: str
    latency_ms: float
    cancelled: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    request_id: str | None = None
    """The ``x-request-id`` (Anthropic routes: ``request-id``) the answer carried."""

    def as_dict(self) -> dict[str, Any]:
        """The entry as ``GET /sim/llm/log`` shows it."""
        data = asdict(self)
        data.update(data.pop("extra"))
        return data


class Journal:
    """Completed entries ordered by reservation, keeping the ``limit`` newest reservations.

    Not thread-safe on its own: the model calls it under its lock.
    """

    def __init__(self, limit: int = JOURNAL_LIMIT) -> None:
        self._limit = limit
        self._entries: list[LogEntry] = []
        self._seqs: list[int] = []
        self.dropped = 0

    def add(self, entry: LogEntry) -> None:
        """Insert by reservation; an entry reserved early and finished late is the first to go."""
        position = bisect.bisect(self._seqs, entry.seq)
        self._seqs.insert(position, entry.seq)
        self._entries.insert(position, entry)
        overflow = len(self._entries) - self._limit
        if overflow > 0:
            del self._entries[:overflow]
            del self._seqs[:overflow]
            self.dropped += overflow

    def entries(self) -> list[LogEntry]:
        return list(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self._seqs.clear()
        self.dropped = 0
