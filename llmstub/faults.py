"""Scripted transport faults: what a rule or a step may do to its answer on the way out, and doing it.

A fault is part of the script (the ``fault`` field of a rule or a step, validated here) and is carried
out by the transport, event by event, so it hits every surface (chat, legacy completions, Responses,
Messages) the same way. Two kinds act before the answer starts (``delay``, ``drop``); the others need a
streamed answer and act on its events, counted from the first one sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from . import wire

__all__ = ["STREAM_FAULTS", "ErrorFrame", "Fault", "FaultKind", "FaultRun", "chat_error_frame", "split_events"]

FaultKind = Literal["cut", "stall", "no_done", "error_event", "malformed", "delay", "drop"]

STREAM_FAULTS = frozenset({"cut", "stall", "no_done", "error_event", "malformed"})
"""The kinds that act on a stream's events (a whole answer is sent untouched by them)."""

_AFTER = {"cut", "stall", "error_event", "malformed"}
_DURATION = {"stall", "delay"}
_BREAKS = {"drop", "cut", "error_event", "malformed"}
"""Kinds after which the client has no usable answer: the step's tool calls are not delivered."""

_WHAT = {
    "cut": "the connection is closed after that many events",
    "stall": "the stream pauses after that many events",
    "error_event": "the error event follows that many events",
    "malformed": "that many events go out intact before the malformed one",
}


class Fault(BaseModel):
    """One injected fault. ``after_chunks`` counts the stream's events (``data:`` frames, ``[DONE]``
    included); ``duration_ms`` is the pause of ``stall`` and the wait of ``delay``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: FaultKind
    after_chunks: int | None = Field(default=None, ge=0)
    duration_ms: int | None = Field(default=None, ge=1)
    message: str | None = None
    error_type: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _fields_of_the_kind(self) -> Fault:
        kind = self.kind
        if kind in _AFTER and self.after_chunks is None:
            raise ValueError(f"fault {kind!r} needs after_chunks: {_WHAT[kind]}")
        if kind not in _AFTER and self.after_chunks is not None:
            raise ValueError(f"fault {kind!r} takes no after_chunks")
        if kind in _DURATION and self.duration_ms is None:
            raise ValueError(f"fault {kind!r} needs duration_ms (milliseconds)")
        if kind not in _DURATION and self.duration_ms is not None:
            raise ValueError(f"fault {kind!r} takes no duration_ms")
        if kind != "error_event" and (self.message is not None or self.error_type is not None):
            raise ValueError(f"message and error_type belong to fault 'error_event', not {kind!r}")
        return self

    @property
    def streamed(self) -> bool:
        """Whether the fault acts on a stream's events (and needs a streamed answer)."""
        return self.kind in STREAM_FAULTS

    def record(self) -> dict[str, Any]:
        """The fault as the journal shows it (its set fields)."""
        return self.model_dump(exclude_none=True)


ErrorFrame = Callable[[str, str | None, int], bytes]
"""Builds a surface's error event from (message, error type, number of events sent before it)."""


def split_events(data: bytes) -> list[bytes]:
    """Split SSE bytes into whole events, each with its blank-line terminator.

    Our encoder never writes a raw newline inside JSON, so the blank line only ends events.
    """
    events = []
    start = 0
    while (end := data.find(b"\n\n", start)) >= 0:
        events.append(data[start : end + 2])
        start = end + 2
    if start < len(data):
        events.append(data[start:])
    return events


def malformed(event: bytes) -> bytes:
    """The event with its ``data:`` payload cut in half, so it is no longer JSON; an ``event:`` line stays."""
    head, found, payload = event.rstrip(b"\n").rpartition(b"data: ")
    if not found:
        return b"data: {\n\n"
    return head + b"data: " + payload[: max(1, len(payload) // 2)] + b"\n\n"


@dataclass(slots=True)
class FaultRun:
    """One fault carried out on one stream: the events with their send times, and what happened."""

    fault: Fault
    error_frame: ErrorFrame
    injected: bool = False
    sent_events: int = 0

    def breaks_answer(self) -> bool:
        """Whether the client was left without a usable answer (so tool calls are not delivered)."""
        return self.injected and self.fault.kind in _BREAKS

    def journal(self) -> dict[str, Any]:
        return self.fault.record() | {"injected": self.injected, "events_sent": self.sent_events}

    async def stream(
        self,
        write: Callable[[bytes], Awaitable[None]],
        close: Callable[[], None],
        head: bytes,
        pieces: Sequence[bytes],
        tail: bytes,
        delay: float,
    ) -> None:
        """Send the stream event by event, at the pace of :func:`~llmstub.streaming.send_paced`, with the fault.

        ``close`` drops the connection (for ``cut``); the caller ends the response normally otherwise.
        """
        timed = [(event, 0) for event in split_events(head)]
        for number, piece in enumerate(pieces, start=1):
            timed += [(event, number) for event in split_events(piece)]
        timed += [(event, len(pieces)) for event in split_events(tail)]
        fault = self.fault
        if fault.kind == "no_done" and timed:
            timed.pop()  # the closing event: [DONE], response.completed or message_stop
            self.injected = True
        loop = asyncio.get_running_loop()
        start = loop.time()
        for index, (event, number) in enumerate(timed):
            if index == fault.after_chunks:
                self.injected = True
                if fault.kind == "cut":
                    close()
                    return
                if fault.kind == "error_event":
                    await write(self.error_frame(fault.message or "scripted stream error", fault.error_type, index))
                    return
                if fault.kind == "stall":
                    await asyncio.sleep((fault.duration_ms or 0) / 1000)
                    start += (fault.duration_ms or 0) / 1000
                if fault.kind == "malformed":
                    event = malformed(event)
            remaining = start + number * delay - loop.time() if delay > 0 else 0
            if remaining > 0:
                await asyncio.sleep(remaining)
            await write(event)
            self.sent_events = index + 1
        if fault.after_chunks is not None and fault.after_chunks >= len(timed) and fault.kind != "malformed":
            # Past the end: a cut closes the finished stream abruptly; an error event comes last.
            self.injected = True
            if fault.kind == "cut":
                close()
            elif fault.kind == "error_event":
                await write(self.error_frame(fault.message or "scripted stream error", fault.error_type, len(timed)))


def chat_error_frame(message: str, error_type: str | None, sent: int) -> bytes:
    """An error in an OpenAI chat or completions stream: a ``data:`` event whose object has ``error``."""
    return wire.sse_frame(wire.error_body(message, type_=error_type or "server_error"))
