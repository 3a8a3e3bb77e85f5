"""An upstream's answer, as the recorder received it, read back as one step of the rules file.

Every API the recorder forwards (Chat Completions, Responses, Anthropic Messages) ends up in the same
step: the text (``answer``), the pieces it streamed in (``pieces``), the tool calls with their ids and
the exact text of their arguments, the finish reason and the usage. A failure (status 400 and above) is
the provider failure the rules already know: ``status``, the message as ``answer``, the error's
``code``/``type``/``param`` and the ``Retry-After`` headers. Nothing of the request (its key, its
headers) is ever part of a step.
"""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["RawJson", "UnreadableAnswer", "read_error", "read_success", "read_vectors", "sse_events"]

KEPT_HEADERS = ("retry-after", "retry-after-ms")
"""The response headers a failure keeps (what a client's retry reads); every other header is left out."""

_ANTHROPIC_STOPS = {"end_turn": "stop", "stop_sequence": "stop", "tool_use": "tool_calls", "max_tokens": "length"}
_FINISH = {"length", "content_filter"}  # the finish reasons a step states (stop and tool_calls follow by themselves)


class UnreadableAnswer(ValueError):
    """An upstream success the recorder cannot read as a completion (it is relayed, not recorded)."""


@dataclass(frozen=True, slots=True)
class RawJson:
    """A tool call's arguments as the upstream wrote them: the rules file carries them byte for byte."""

    text: str


def sse_events(body: bytes) -> Iterator[tuple[str, Any]]:
    """``(event name, decoded data)`` of each event of a server-sent-events body (``[DONE]`` left out)."""
    text = body.decode("utf-8", errors="replace").replace("\r\n", "\n")
    for block in text.split("\n\n"):
        name = ""
        data: list[str] = []
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
        joined = "\n".join(data)
        if not data or joined == "[DONE]":
            continue
        try:
            yield name, json.loads(joined)
        except ValueError:
            raise UnreadableAnswer(f"a stream event is not JSON: {joined[:80]!r}") from None


def _arguments(text: str) -> Any:
    """A call's arguments for the rules file: the exact text when it is a JSON object, else ``raw_arguments``."""
    try:
        parsed = json.loads(text) if text else {}
    except ValueError:
        parsed = None
    return RawJson(text) if isinstance(parsed, dict) and text else ({} if not text else None)


def _usage(prompt: Any, completion: Any) -> dict[str, int] | None:
    if not isinstance(prompt, int) or not isinstance(completion, int):
        return None
    return {"completion_tokens": completion, "prompt_tokens": prompt, "total_tokens": prompt + completion}


def _step(
    text: str | None,
    pieces: list[str] | None,
    calls: list[tuple[str | None, str, str]],
    finish: str | None,
    usage: dict[str, int] | None,
    refusal: str | None = None,
) -> dict[str, Any]:
    """A step from what an answer said; ``calls`` are ``(id, name, arguments text)``."""
    step: dict[str, Any] = {}
    if refusal is not None:
        step["refusal"] = refusal
    elif text is not None and (text or not calls):
        step["answer"] = text
    if pieces is not None and len(pieces) > 1 and "".join(pieces) == (refusal if refusal is not None else text):
        step["pieces"] = pieces
    if calls:
        entries = []
        for call_id, name, arguments in calls:
            entry: dict[str, Any] = {"name": name}
            value = _arguments(arguments)
            if value is None:
                entry["raw_arguments"] = arguments
                step["negative"] = True
            elif value != {}:
                entry["arguments"] = value
            if call_id:
                entry["id"] = call_id
            entries.append(entry)
        step["tool_calls"] = entries
    if finish in _FINISH and refusal is None:
        step["finish_reason"] = finish
    if usage is None:
        step["omit_usage"] = True
    else:
        step["usage"] = usage
    return step


# ----- Chat Completions -----


def _chat_whole(body: Mapping[str, Any]) -> dict[str, Any]:
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise UnreadableAnswer("the completion has no choices")
    message = choices[0].get("message") or {}
    calls = [
        (c.get("id"), c["function"]["name"], c["function"].get("arguments") or "")
        for c in message.get("tool_calls") or ()
        if isinstance(c, dict) and isinstance(c.get("function"), dict)
    ]
    usage = body.get("usage") or {}
    return _step(
        message.get("content"),
        None,
        calls,
        choices[0].get("finish_reason"),
        _usage(usage.get("prompt_tokens"), usage.get("completion_tokens")),
        message.get("refusal"),
    )


def _chat_stream(body: bytes) -> dict[str, Any]:
    pieces: list[str] = []
    refusal: list[str] = []
    calls: dict[int, list[Any]] = {}
    finish: str | None = None
    usage: dict[str, int] | None = None
    for _name, chunk in sse_events(body):
        if not isinstance(chunk, dict):
            continue
        if isinstance(chunk.get("usage"), dict):
            usage = _usage(chunk["usage"].get("prompt_tokens"), chunk["usage"].get("completion_tokens"))
        for choice in chunk.get("choices") or ():
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            if delta.get("content"):
                pieces.append(delta["content"])
            if delta.get("refusal"):
                refusal.append(delta["refusal"])
            for call in delta.get("tool_calls") or ():
                slot = calls.setdefault(call.get("index", 0), [None, "", ""])
                function = call.get("function") or {}
                slot[0] = call.get("id") or slot[0]
                slot[1] = function.get("name") or slot[1]
                slot[2] += function.get("arguments") or ""
            finish = choice.get("finish_reason") or finish
    if finish is None:
        raise UnreadableAnswer("the stream ended without a finish reason")
    text = "".join(pieces) if pieces or not calls else None
    return _step(
        text,
        pieces,
        [(calls[i][0], calls[i][1], calls[i][2]) for i in sorted(calls)],
        finish,
        usage,
        "".join(refusal) if refusal else None,
    )


# ----- Responses -----


def _responses_whole(response: Mapping[str, Any], pieces: list[str] | None = None) -> dict[str, Any]:
    texts: list[str] = []
    calls: list[tuple[str | None, str, str]] = []
    refusal: str | None = None
    for item in response.get("output") or ():
        if not isinstance(item, dict):
            continue
        if item.get("type") == "message":
            for part in item.get("content") or ():
                if part.get("type") == "output_text":
                    texts.append(part.get("text") or "")
                elif part.get("type") == "refusal":
                    refusal = part.get("refusal")
        elif item.get("type") == "function_call":
            calls.append((item.get("call_id"), item.get("name") or "", item.get("arguments") or ""))
    usage = response.get("usage") or {}
    reason = (response.get("incomplete_details") or {}).get("reason")
    finish = {"max_output_tokens": "length", "content_filter": "content_filter"}.get(reason or "")
    return _step(
        "".join(texts) if texts or not calls else None,
        pieces,
        calls,
        finish,
        _usage(usage.get("input_tokens"), usage.get("output_tokens")),
        refusal,
    )


def _responses_stream(body: bytes) -> dict[str, Any]:
    pieces: list[str] = []
    for name, event in sse_events(body):
        kind = event.get("type", name) if isinstance(event, dict) else name
        if kind == "response.output_text.delta":
            pieces.append(event.get("delta") or "")
        elif kind in ("response.completed", "response.incomplete") and isinstance(event.get("response"), dict):
            return _responses_whole(event["response"], pieces)
    raise UnreadableAnswer("the stream ended without response.completed")


# ----- Anthropic Messages -----


def _messages_whole(message: Mapping[str, Any], pieces: list[str] | None = None) -> dict[str, Any]:
    texts: list[str] = []
    calls: list[tuple[str | None, str, str]] = []
    for block in message.get("content") or ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            texts.append(block.get("text") or "")
        elif block.get("type") == "tool_use":
            arguments = block.get("input")
            text = block.get("partial_json")
            if text is None:
                text = json.dumps(arguments, ensure_ascii=False) if arguments else ""
            calls.append((block.get("id"), block.get("name") or "", text))
    usage = message.get("usage") or {}
    return _step(
        "".join(texts) if texts or not calls else None,
        pieces,
        calls,
        _ANTHROPIC_STOPS.get(message.get("stop_reason") or "", message.get("stop_reason")),
        _usage(usage.get("input_tokens"), usage.get("output_tokens")),
    )


def _messages_stream(body: bytes) -> dict[str, Any]:
    message: dict[str, Any] | None = None
    blocks: dict[int, dict[str, Any]] = {}
    pieces: list[str] = []
    for _name, event in sse_events(body):
        if not isinstance(event, dict):
            continue
        kind = event.get("type")
        if kind == "message_start":
            message = dict(event.get("message") or {})
            message["usage"] = dict(message.get("usage") or {})
        elif kind == "content_block_start":
            blocks[event.get("index", 0)] = dict(event.get("content_block") or {})
        elif kind == "content_block_delta":
            block = blocks.setdefault(event.get("index", 0), {"type": "text", "text": ""})
            delta = event.get("delta") or {}
            if delta.get("type") == "text_delta":
                block["text"] = (block.get("text") or "") + (delta.get("text") or "")
                pieces.append(delta.get("text") or "")
            elif delta.get("type") == "input_json_delta":
                block["partial_json"] = (block.get("partial_json") or "") + (delta.get("partial_json") or "")
        elif kind == "message_delta" and message is not None:
            message["stop_reason"] = (event.get("delta") or {}).get("stop_reason")
            message["usage"].update(event.get("usage") or {})
    if message is None or message.get("stop_reason") is None:
        raise UnreadableAnswer("the stream ended without message_start and its stop reason")
    message["content"] = [blocks[i] for i in sorted(blocks)]
    return _messages_whole(message, pieces)


# ----- entry points -----

_STREAM_READERS: dict[str, Callable[[bytes], dict[str, Any]]] = {
    "chat": _chat_stream,
    "responses": _responses_stream,
    "messages": _messages_stream,
}
_WHOLE_READERS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "chat": _chat_whole,
    "responses": lambda response: _responses_whole(response),
    "messages": lambda message: _messages_whole(message),
}


def read_success(api: str, body: bytes, streamed: bool) -> dict[str, Any]:
    """The step of an upstream's successful answer on ``api`` (``chat``, ``responses`` or ``messages``)."""
    if streamed:
        return _STREAM_READERS[api](body)
    try:
        parsed = json.loads(body)
    except ValueError:
        raise UnreadableAnswer("the answer is not JSON") from None
    if not isinstance(parsed, dict):
        raise UnreadableAnswer("the answer is not a JSON object")
    return _WHOLE_READERS[api](parsed)


def read_vectors(body: bytes) -> list[list[float]]:
    """The vectors of an embeddings answer, in input order (``float`` lists or ``base64`` little-endian float32)."""
    try:
        parsed = json.loads(body)
        items = sorted(parsed["data"], key=lambda item: item.get("index", 0))
        vectors = []
        for item in items:
            value = item["embedding"]
            if isinstance(value, str):
                raw = base64.b64decode(value)
                value = list(struct.unpack(f"<{len(raw) // 4}f", raw))
            vectors.append([float(v) for v in value])
        return vectors
    except (ValueError, KeyError, TypeError, AttributeError, struct.error) as exc:
        raise UnreadableAnswer(f"the embeddings answer cannot be read ({type(exc).__name__})") from None


def read_error(status: int, headers: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """The step of an upstream failure: its status, message, error fields and retry headers."""
    step: dict[str, Any] = {"status": status}
    kept = {name: headers[name] for name in headers if name.lower() in KEPT_HEADERS}
    if kept:
        step["headers"] = {name.title() if name.lower() == "retry-after" else name: v for name, v in kept.items()}
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("message"), str):
        return step | {"raw_body": body.decode("utf-8", errors="replace"), "negative": True}
    step["answer"] = error["message"]
    if parsed.get("type") != "error":  # OpenAI's error names code, type and param; Anthropic's type follows the status
        for name in ("code", "type", "param"):
            if isinstance(error.get(name), str):
                step[name] = error[name]
    return step
