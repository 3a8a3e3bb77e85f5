"""Wire shapes of the OpenAI API: JSON encoding, completion objects, chunks and SSE framing.

Everything here builds plain values or bytes (no aiohttp), so the chat route, the legacy
``/v1/completions`` route and tests share one encoder and one framing.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "SSE_DONE",
    "SSE_HEADERS",
    "Envelope",
    "chat_chunk",
    "chat_completion",
    "dumps",
    "encoded_chat_completion",
    "error_body",
    "sse_frame",
    "sse_frames",
    "sse_text_frames",
    "text_chunk",
    "text_completion",
    "text_usage_chunk",
    "tool_call_entry",
    "usage_chunk",
    "usage_object",
]

JSON_CONTENT_TYPE = "application/json"
SSE_CONTENT_TYPE = "text/event-stream"
SSE_HEADERS: Mapping[str, str] = {"Cache-Control": "no-cache"}
SSE_DONE = b"data: [DONE]\n\n"


@dataclass(frozen=True, slots=True)
class Envelope:
    """The fields every completion object and chunk of one answer repeats."""

    id: str
    created: int
    model: str

    def fields(self) -> dict[str, Any]:
        return {"created": self.created, "id": self.id, "model": self.model}


_SORTED = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)  # once, not once per call


def dumps(value: Any) -> str:
    """Compact JSON with sorted keys, the byte layout of the Go stand's answers."""
    return _SORTED.encode(value)


def sse_frame(value: Any) -> bytes:
    """One ``data:`` event carrying ``value`` as JSON."""
    return b"data: " + dumps(value).encode() + b"\n\n"


_SLOT = "\x00tgfake-slot\x00"
encode_string: Callable[[str], str] = json.encoder.encode_basestring
"""A string as a JSON string, non-ASCII kept (what ``JSONEncoder(ensure_ascii=False).encode`` returns for a
string, without its Python-level dispatch): the one encoder of every streamed piece."""


def sse_text_frames(chunk: Callable[[str], Any], pieces: Iterable[str]) -> list[bytes]:
    """One ``data:`` event per piece, where ``chunk(piece)`` builds the event: the chunk is encoded once around a
    placeholder and each piece is spliced in, so a streamed answer costs one string encoding per frame, not one
    whole-object encoding (the bytes are identical to encoding each chunk)."""
    template = sse_frame(chunk(_SLOT))
    slot = dumps(_SLOT).encode()
    before, found, after = template.partition(slot)
    if not found:  # pragma: no cover - the chunk builders always carry the piece as a JSON string
        return [sse_frame(chunk(piece)) for piece in pieces]
    return [before + encode_string(piece).encode() + after for piece in pieces]


def sse_frames(values: Iterable[Any]) -> bytes:
    """Several events in one buffer, for a single write."""
    return b"".join(sse_frame(v) for v in values)


def usage_object(
    prompt_tokens: int, completion_tokens: int, total_tokens: int | None = None
) -> dict[str, int]:
    """A ``usage`` object; the total defaults to the sum."""
    total = prompt_tokens + completion_tokens if total_tokens is None else total_tokens
    return {"completion_tokens": completion_tokens, "prompt_tokens": prompt_tokens, "total_tokens": total}


def tool_call_entry(call_id: str, name: str, arguments: str, index: int | None = None) -> dict[str, Any]:
    """A function tool call; ``index`` is set for stream deltas only."""
    entry: dict[str, Any] = {
        "function": {"arguments": arguments, "name": name},
        "id": call_id,
        "type": "function",
    }
    if index is not None:
        entry["index"] = index
    return entry


def chat_completion(
    envelope: Envelope,
    *,
    content: str | None,
    tool_calls: Sequence[Mapping[str, Any]] = (),
    finish_reason: str = "stop",
    usage: Mapping[str, int] | None = None,
    empty_choices: bool = False,
    refusal: str | None = None,
    function_call: Mapping[str, Any] | None = None,
    n: int = 1,
) -> dict[str, Any]:
    """A non-streamed ``chat.completion`` object; ``n`` repeats the message in that many choices."""
    message: dict[str, Any] = {"content": content, "role": "assistant"}
    if tool_calls:
        message["tool_calls"] = list(tool_calls)
    if refusal is not None:
        message["refusal"] = refusal
    if function_call is not None:
        message["function_call"] = dict(function_call)
    body: dict[str, Any] = {
        "choices": []
        if empty_choices
        else [{"finish_reason": finish_reason, "index": i, "message": message} for i in range(n)],
        **envelope.fields(),
        "object": "chat.completion",
    }
    if usage is not None:
        body["usage"] = dict(usage)
    return body


_ID_SLOT = "\x00tgfake-id\x00"
_CREATED_SLOT = -7_654_321_987_654_321  # no real ``created`` is negative: the slot cannot be mistaken


def encoded_chat_completion(
    envelope: Envelope,
    *,
    content: str | None,
    refusal: str | None = None,
    finish_reason: str = "stop",
    usage: Mapping[str, int],
    n: int = 1,
) -> bytes:
    """``dumps(chat_completion(...)) + "\\n"`` as bytes, byte for byte, from an encoding cached per answer.

    A scripted answer is the same on every call except for its id and time: its encoding (the answer's text
    escaped, the keys sorted) is done once, around two slots, and each call splices its own id and ``created`` in.
    """
    before, middle, after = _completion_template(
        envelope.model, content, refusal, finish_reason, tuple(usage.items()), n
    )
    return b"".join((before, str(envelope.created).encode(), middle, encode_string(envelope.id).encode(), after))


@functools.lru_cache(maxsize=128)
def _completion_template(
    model: str,
    content: str | None,
    refusal: str | None,
    finish_reason: str,
    usage: tuple[tuple[str, int], ...],
    n: int,
) -> tuple[bytes, bytes, bytes]:
    body = chat_completion(
        Envelope(_ID_SLOT, _CREATED_SLOT, model),
        content=content,
        refusal=refusal,
        finish_reason=finish_reason,
        usage=dict(usage),
        n=n,
    )
    encoded = (dumps(body) + "\n").encode()
    before, _, rest = encoded.partition(f'"created":{_CREATED_SLOT}'.encode())
    middle, _, after = rest.partition(dumps(_ID_SLOT).encode())
    return before + b'"created":', middle, after


def chat_chunk(
    envelope: Envelope, delta: Mapping[str, Any], finish_reason: str | None = None, index: int = 0
) -> dict[str, Any]:
    """A ``chat.completion.chunk`` with one choice (of number ``index`` when ``n`` asked for several)."""
    return {
        "choices": [{"delta": dict(delta), "finish_reason": finish_reason, "index": index}],
        **envelope.fields(),
        "object": "chat.completion.chunk",
    }


def usage_chunk(envelope: Envelope, usage: Mapping[str, int]) -> dict[str, Any]:
    """The closing chunk with no choices and the usage, as OpenAI sends it when usage is asked for."""
    return {"choices": [], **envelope.fields(), "object": "chat.completion.chunk", "usage": dict(usage)}


def text_completion(
    envelope: Envelope, *, text: str, finish_reason: str = "stop", usage: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """A non-streamed legacy ``text_completion`` object (``POST /v1/completions``)."""
    body: dict[str, Any] = {
        "choices": [{"finish_reason": finish_reason, "index": 0, "logprobs": None, "text": text}],
        **envelope.fields(),
        "object": "text_completion",
    }
    if usage is not None:
        body["usage"] = dict(usage)
    return body


def text_chunk(envelope: Envelope, text: str, finish_reason: str | None = None) -> dict[str, Any]:
    """One streamed ``text_completion`` chunk with one choice (OpenAI streams the same object type)."""
    return {
        "choices": [{"finish_reason": finish_reason, "index": 0, "logprobs": None, "text": text}],
        **envelope.fields(),
        "object": "text_completion",
    }


def text_usage_chunk(envelope: Envelope, usage: Mapping[str, int]) -> dict[str, Any]:
    """The closing legacy chunk: no choices, the usage."""
    return {"choices": [], **envelope.fields(), "object": "text_completion", "usage": dict(usage)}


def error_body(
    message: str,
    *,
    code: str | int | None = None,
    type_: str | None = None,
    param: str | None = None,
    full: bool = False,
) -> dict[str, Any]:
    """An OpenAI-style error object, the one helper for every error llmstub sends.

    By default only ``message`` and the keys given appear (the Go stand's byte layout for the
    scripted model); ``full=True`` always carries all four keys of OpenAI's envelope,
    ``{"message", "type", "param", "code"}``, ``null`` where not given (generated answers, fixtures).
    """
    error: dict[str, Any] = {"message": message}
    for key, value in (("type", type_), ("param", param), ("code", code)):
        if full or value is not None:
            error[key] = value
    return {"error": error}
