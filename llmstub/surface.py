"""Other APIs on the one engine: a *surface* translates its request into a chat request, and the plan the
engine reserved for it (a chat completion, whole or streamed) into its own wire.

The engine decides everything (rules, sequences, tool-call bookkeeping, the journal, pacing); a surface
only reads the chat answer back as a few events (text, a tool call opening, an arguments fragment, the
finish reason) and writes them its own way, piece for piece, so a streamed answer keeps its pauses.
Errors (status 400 and above) keep OpenAI's shape unless the surface has its own; a scripted
``raw_body`` is never translated.
"""

from __future__ import annotations

import json
import json.decoder
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .engine import ChatRequest, Plan
from .faults import split_events

__all__ = ["Surface", "TurnWriter", "render_plan"]


class Surface(Protocol):
    """What :meth:`Model._complete <llmstub.model.Model>` needs from an API other than chat completions."""

    def error_body(self, status: int, message: str, *, param: str | None = None) -> dict[str, Any]:
        """The surface's error object for a request it refuses (see :mod:`llmstub.errors`)."""
        ...

    def error_frame(self, message: str, error_type: str | None, sent: int) -> bytes:
        """The surface's in-stream error event (the ``error_event`` fault)."""
        ...

    def parse(self, body: Any, *, profile: str = "", client: str | None = None) -> ChatRequest:
        """The chat request the engine answers (raises :class:`~llmstub.engine.RequestError`)."""
        ...

    def render(self, plan: Plan, request: ChatRequest) -> Plan:
        """The reserved chat plan, rewritten in the surface's wire."""
        ...


class TurnWriter(Protocol):
    """Receives one answer as events and writes the surface's frames; :meth:`take` hands over what was written."""

    def start(self, envelope: Mapping[str, Any], usage: Mapping[str, int] | None) -> None: ...

    def text(self, delta: str) -> None: ...

    def refusal(self, delta: str) -> None: ...

    def tool_start(self, index: int, call_id: str, name: str) -> None: ...

    def tool_arguments(self, index: int, delta: str) -> None: ...

    def finish(self, reason: str | None) -> None: ...

    def end(self) -> None: ...

    def take(self) -> bytes: ...


# The C string scanner of the json module (not in its type stubs): reads one JSON string from an offset.
scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_CONTENT = 'data: {"choices":[{"delta":{"content":"'
_CONTENT_END = '},"finish_reason":null,"index":0}],'


def content_piece(piece: bytes) -> str | None:
    """The text of a piece that is one plain content chunk (what every text piece of the engine is), read
    without decoding the whole chunk; ``None`` for anything else, which then goes through :func:`json.loads`."""
    text = piece.decode()
    if not text.startswith(_CONTENT) or text.find("\n\n") != len(text) - 2:
        return None
    value, end = scanstring(text, len(_CONTENT))
    return value if text.startswith(_CONTENT_END, end) else None


def _chunks(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(event[6:]) for event in split_events(data) if event.startswith(b"data: {")]


def _feed_chunk(writer: TurnWriter, chunk: Mapping[str, Any]) -> None:
    for choice in chunk.get("choices") or ():
        if choice.get("index", 0) != 0:
            continue  # these APIs answer with one output; n > 1 is a chat completions option
        delta = choice.get("delta") or {}
        if isinstance(delta.get("content"), str) and delta["content"]:
            writer.text(delta["content"])
        if isinstance(delta.get("refusal"), str) and delta["refusal"]:
            writer.refusal(delta["refusal"])
        for call in delta.get("tool_calls") or ():
            function = call.get("function") or {}
            if call.get("id") is not None:
                writer.tool_start(call.get("index", 0), call["id"], function.get("name") or "")
            if function.get("arguments"):
                writer.tool_arguments(call.get("index", 0), function["arguments"])
        if choice.get("finish_reason") is not None:
            writer.finish(choice["finish_reason"])


def render_plan(plan: Plan, writer: TurnWriter, content_type: str) -> None:
    """Rewrite a successful chat plan through ``writer``: a stream piece by piece (head, each piece, tail
    keep their place, so the pace is the chat stream's), a whole completion as the writer's one body.

    The writer starts with the answer's envelope (``id``, ``created``, ``model``) and its usage (``None``
    when the step omits it), since some streams announce the usage in their first event.
    """
    if not plan.streamed:
        body = json.loads(plan.body)
        writer.start(body, body.get("usage"))
        for choice in body.get("choices") or ():
            message = choice.get("message") or {}
            delta = {key: message.get(key) for key in ("content", "refusal")}
            calls = [
                call | {"index": number, "function": call.get("function") or {}}
                for number, call in enumerate(message.get("tool_calls") or ())
            ]
            _feed_chunk(writer, {"choices": [{**choice, "delta": delta | {"tool_calls": calls}}]})
            break
        writer.end()
        plan.body = writer.take()
        return
    texts = [content_piece(piece) for piece in plan.pieces]
    segments = [
        _chunks(plan.head),
        *([] if text is not None else _chunks(piece) for text, piece in zip(texts, plan.pieces, strict=True)),
        _chunks(plan.tail),
    ]
    chunks = [chunk for segment in segments for chunk in segment]
    usage = next((c["usage"] for c in reversed(chunks) if c.get("usage") is not None), None)
    writer.start(chunks[0] if chunks else {}, usage)
    written = []
    for number, segment in enumerate(segments):
        text = texts[number - 1] if 0 < number <= len(texts) else None
        if text:
            writer.text(text)
        for chunk in segment:
            _feed_chunk(writer, chunk)
        if number == len(segments) - 1:
            writer.end()
        written.append(writer.take())
    plan.head, plan.pieces, plan.tail = written[0], written[1:-1], written[-1]
    plan.content_type = content_type
