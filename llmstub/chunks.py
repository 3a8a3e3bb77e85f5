"""A ``chat.completion`` object streamed the way OpenAI streams it: role chunk, content pieces, tool calls
whose arguments arrive in fragments, finish chunks, the usage chunk.

Scripted steps are built once as the whole completion; a streamed request gets this rendering of the
same object, so a step answers streamed and non-streamed requests with the same content.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import wire
from .generate.tokens import tokenize

__all__ = ["argument_fragments", "completion_stream"]


def argument_fragments(arguments: str, per_fragment: int = 1) -> list[str]:
    """Tool-call arguments cut into fragments of ``per_fragment`` tokens (a word or one punctuation mark,
    as :func:`~llmstub.generate.tokens.tokenize` counts them); the fragments join to the exact text."""
    tokens = tokenize(arguments)
    if "".join(tokens) != arguments:  # blank text has no tokens
        return [arguments] if arguments else []
    step = max(1, per_fragment)
    return ["".join(tokens[i : i + step]) for i in range(0, len(tokens), step)]


def completion_stream(
    body: Mapping[str, Any], split: Callable[[str], list[str]], per_fragment: int = 1, *, usage: bool = True
) -> tuple[bytes, list[bytes], list[dict[str, Any]]]:
    """``(head, pieces, tail)`` of the stream of a ``chat.completion``: the head is the first choice's role
    chunk, each piece one chunk (a text piece from ``split``, a tool call's opening, an arguments fragment),
    the tail the finish chunks and, when the object has usage and ``usage`` asks for it, the usage chunk
    (``[DONE]`` is the caller's)."""
    env = wire.Envelope(body["id"], body["created"], body["model"])
    head = b""
    pieces: list[bytes] = []
    tail: list[dict[str, Any]] = []
    choices = body.get("choices") or []
    if not choices:
        tail.append({"choices": [], **env.fields(), "object": "chat.completion.chunk"})
    for choice in choices:
        index = choice.get("index", 0)
        message = choice.get("message") or {}
        content = message.get("content")

        def chunk(delta: Mapping[str, Any], finish_reason: str | None = None, index: int = index) -> dict[str, Any]:
            return wire.chat_chunk(env, delta=delta, finish_reason=finish_reason, index=index)

        opening = wire.sse_frame(chunk({"content": "" if content is not None else None, "role": "assistant"}))
        if head:
            pieces.append(opening)
        else:
            head = opening
        for key in ("content", "refusal"):
            text = message.get(key)
            if isinstance(text, str) and text:

                def text_chunk(piece: str, key: str = key) -> dict[str, Any]:
                    return chunk({key: piece})

                pieces += wire.sse_text_frames(text_chunk, split(text))
        for number, call in enumerate(message.get("tool_calls") or ()):
            function = call.get("function") or {}
            opened = {"function": {"arguments": "", "name": function.get("name")}, "id": call.get("id")}
            pieces.append(wire.sse_frame(chunk({"tool_calls": [opened | {"index": number, "type": "function"}]})))

            def fragment_chunk(piece: str, number: int = number) -> dict[str, Any]:
                return chunk({"tool_calls": [{"function": {"arguments": piece}, "index": number}]})

            pieces += wire.sse_text_frames(
                fragment_chunk, argument_fragments(function.get("arguments") or "", per_fragment)
            )
        tail.append(chunk({}, choice.get("finish_reason")))
    if usage and body.get("usage") is not None:
        tail.append(wire.usage_chunk(env, usage=body["usage"]))
    return head, pieces, tail
