"""The journal of completed completion requests, kept in reservation order and bounded."""

from __future__ import annotations

import bisect
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

__all__ = ["JOURNAL_LIMIT", "Journal", "LogEntry"]

JOURNAL_LIMIT = 1000


Record = dict[str, Any]
"""What the journal keeps of a request: :class:`LogEntry`'s fields with ``at`` as seconds since the epoch and
``response`` as the bytes sent. Entries are built from records when the journal is read, which most runs never
do: building a frozen entry and formatting its time on every answer was a tenth of a chat completion's cost."""


def iso_time(seconds: float) -> str:
    """``2026-12-01T15:04:19.123Z``: the journal's time format."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


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

    @classmethod
    def of(cls, record: Record) -> LogEntry:
        """The entry of a journal record: its time in ISO 8601 (UTC, milliseconds), its answer as text."""
        fields = dict(record)
        fields["at"] = iso_time(record["at"])
        fields["response"] = record["response"].decode("utf-8", "replace")
        return cls(**fields)

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
        self._records: list[Record] = []
        self._seqs: list[int] = []
        self.dropped = 0

    def add(self, record: Record) -> None:
        """Insert by reservation; a request reserved early and finished late is the first to go."""
        seq = record["seq"]
        position = bisect.bisect(self._seqs, seq)
        self._seqs.insert(position, seq)
        self._records.insert(position, record)
        overflow = len(self._records) - self._limit
        if overflow > 0:
            del self._records[:overflow]
            del self._seqs[:overflow]
            self.dropped += overflow

    def entries(self) -> list[LogEntry]:
        return [LogEntry.of(record) for record in self._records]

    def clear(self) -> None:
        self._records.clear()
        self._seqs.clear()
        self.dropped = 0
