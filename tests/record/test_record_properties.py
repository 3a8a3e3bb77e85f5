"""Property tests of the readers a recording goes through: a stream read back into a step, the file's text, the
normalised lines."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from llmstub import wire
from llmstub.chunks import completion_stream
from llmstub.record import RawJson, dumps_rules, read_success
from llmstub.rules import parse_rules_json
from tgfake.normalise import VOLATILE, call_lines

pieces_st = st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=8)
arguments_st = st.dictionaries(st.text(max_size=6), st.one_of(st.integers(), st.text(max_size=8)), max_size=3)


def streamed(pieces: list[str], arguments: dict[str, Any] | None, usage: bool) -> bytes:
    """A chat completion streamed as the engine streams one, text in ``pieces`` (and one tool call)."""
    calls = [wire.tool_call_entry("call_1", "lookup", json.dumps(arguments))] if arguments is not None else []
    body = wire.chat_completion(
        wire.Envelope("chatcmpl-1", 0, "m"),
        content="".join(pieces),
        tool_calls=calls,
        finish_reason="tool_calls" if calls else "stop",
        usage=wire.usage_object(3, 4) if usage else None,
    )
    head, frames, tail = completion_stream(body, lambda _text: list(pieces))
    return head + b"".join(frames) + wire.sse_frames(tail) + wire.SSE_DONE


@given(pieces_st, st.one_of(st.none(), arguments_st), st.booleans())
def test_a_stream_reads_back_as_the_step_that_replays_it(
    pieces: list[str], arguments: dict[str, Any] | None, usage: bool
) -> None:
    step = read_success("chat", streamed(pieces, arguments, usage), streamed=True)
    assert step["answer"] == "".join(pieces)
    assert step.get("pieces", pieces) == pieces
    if arguments is None:
        assert "tool_calls" not in step
    else:
        (call,) = step["tool_calls"]
        assert call["id"] == "call_1"
        parsed = json.loads(call["arguments"].text) if "arguments" in call else {}
        assert parsed == arguments
    assert step.get("usage") == ({"completion_tokens": 4, "prompt_tokens": 3, "total_tokens": 7} if usage else None)
    rules = [{"match": "x", "tools": ["lookup"], "steps": [step]}]
    (rule,) = parse_rules_json(dumps_rules(rules))  # what the file holds loads as rules
    assert rule.steps is not None
    assert rule.steps[0].pieces == step.get("pieces")


@given(st.text(max_size=40))
def test_arguments_are_written_byte_for_byte(text: str) -> None:
    raw = json.dumps({"value": text}, ensure_ascii=False, separators=(",", ":"))
    written = dumps_rules([{"match": "", "steps": [{"tool_calls": [{"name": "f", "arguments": RawJson(raw)}]}],
                            "tools": ["f"]}])
    assert raw in written
    (rule,) = parse_rules_json(written)
    assert rule.steps is not None
    assert rule.steps[0].tool_calls is not None
    assert rule.steps[0].tool_calls[0].arguments_json() == raw


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8,
)


@given(
    st.dictionaries(st.sampled_from(sorted(VOLATILE)), st.integers()),
    st.dictionaries(st.text(max_size=5), json_values),
)
def test_volatile_fields_never_make_two_calls_differ(volatile: dict[str, int], other: dict[str, Any]) -> None:
    params = {k: json.dumps(v) for k, v in other.items() if k not in VOLATILE}
    first = {"method": "sendMessage", "params": params | {k: str(v) for k, v in volatile.items()}}
    second = {"method": "sendMessage", "params": params | {k: str(v + 1) for k, v in volatile.items()}}
    assert call_lines([first]) == call_lines([second])
