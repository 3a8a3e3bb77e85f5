"""Named sequences answer streamed requests too (issue 13 overrides seed 002's "streamed request gets 409"):
text in pieces, tool calls opened then their arguments in fragments, parallel calls by index, failures as
the same error before any stream; the official SDK's stream helper accumulates the scripted turn."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai import AsyncOpenAI

from llmstub import wire
from llmstub.chunks import argument_fragments
from llmstub.surface import content_piece
from tests.llm.llm_support import LlmStand, MakeStand, content, sse_events

TOOLS: Any = [
    {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
    for name in ("get_weather", "get_time")
]

PARALLEL: list[dict[str, Any]] = [
    {
        "name": "agent",
        "tools": ["get_weather", "get_time"],
        "steps": [
            {"answer": "Let me check."},
            {
                "answer": "Checking both.",
                "tool_calls": [
                    {"name": "get_weather", "arguments": {"city": "Paris"}},
                    {"name": "get_time", "arguments": {"zone": "Europe/Paris"}, "id": "call_time"},
                ],
            },
            {"tool_name": "get_time", "answer": "Sunny, and it is noon."},
        ],
    }
]


def chunks(text: str) -> list[dict[str, Any]]:
    events = sse_events(text)
    assert events[-1] == "[DONE]"
    return [json.loads(e) for e in events[:-1]]


def results(*pairs: tuple[str, str]) -> list[dict[str, Any]]:
    calls = [{"id": call_id, "type": "function", "function": {"name": "f", "arguments": "{}"}} for call_id, _ in pairs]
    return [
        {"role": "assistant", "content": None, "tool_calls": calls},
        *({"role": "tool", "tool_call_id": call_id, "content": text} for call_id, text in pairs),
    ]


def body(*messages: dict[str, Any], stream: bool = True) -> dict[str, Any]:
    return {"stream": stream, "tools": TOOLS, "messages": [{"role": "user", "content": "weather?"}, *messages]}


async def test_a_streamed_text_step_is_pieces_and_consumes_the_step(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"name": "s", "steps": [{"answer": "first step here"}, {"answer": "second"}]}])
    response = await stand.chat({"stream": True, "messages": []})
    assert response.status == 200
    assert response.content_type == "text/event-stream"
    got = chunks(await response.text())
    assert got[0]["choices"][0]["delta"] == {"content": "", "role": "assistant"}
    assert [c["choices"][0]["delta"].get("content") for c in got[1:4]] == ["first ", "step ", "here"]
    assert got[4]["choices"][0] == {"delta": {}, "finish_reason": "stop", "index": 0}
    assert got[5]["choices"] == []
    assert got[5]["usage"] == {"completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2}
    assert content(await stand.chat_json({"messages": []})) == "second"
    assert [(e["stream"], e["step"]) for e in (await stand.log())["entries"]] == [(True, 0), (False, 1)]


async def test_parallel_tool_calls_stream_opened_then_in_fragments(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=PARALLEL)
    await stand.chat_json(body(stream=False))
    response = await stand.chat(body())
    got = chunks(await response.text())
    deltas = [c["choices"][0]["delta"] for c in got if c["choices"]]
    assert deltas[0] == {"content": "", "role": "assistant"}
    text = "".join(d.get("content") or "" for d in deltas)
    assert text == "Checking both."
    calls = [d["tool_calls"][0] for d in deltas if "tool_calls" in d]
    opened = [c for c in calls if "id" in c]
    assert opened == [
        {"function": {"arguments": "", "name": "get_weather"}, "id": "call_llmstub_2", "index": 0, "type": "function"},
        {"function": {"arguments": "", "name": "get_time"}, "id": "call_time", "index": 1, "type": "function"},
    ]
    fragments: dict[int, list[str]] = {0: [], 1: []}
    for call in calls:
        if "id" not in call:
            assert set(call) == {"function", "index"}
            fragments[call["index"]].append(call["function"]["arguments"])
    assert "".join(fragments[0]) == '{"city": "Paris"}'
    assert "".join(fragments[1]) == '{"zone": "Europe/Paris"}'
    assert len(fragments[0]) > 1
    assert len(fragments[1]) > 1
    assert got[-2]["choices"][0]["finish_reason"] == "tool_calls"
    # The streamed calls are outstanding: the next step needs both results.
    missing = await stand.chat_json(body(*results(("call_llmstub_2", "sunny")), stream=False), status=409)
    assert missing["error"]["code"] == "tool_results_missing"
    final = await stand.chat(body(*results(("call_llmstub_2", "sunny"), ("call_time", "12:00"))))
    deltas = [c["choices"][0]["delta"] for c in chunks(await final.text()) if c["choices"]]
    assert "".join(d.get("content") or "" for d in deltas) == "Sunny, and it is noon."


async def test_the_sdk_stream_helper_accumulates_the_scripted_tool_turn(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=PARALLEL, delay=0.001)
    async with AsyncOpenAI(base_url=stand.base_url, api_key="sk-x", max_retries=0) as client:
        messages: list[Any] = [{"role": "user", "content": "weather?"}]
        first = await client.chat.completions.create(model="m", messages=messages, tools=TOOLS, stream=True)
        assert "".join([c.choices[0].delta.content or "" async for c in first if c.choices]) == "Let me check."
        async with client.chat.completions.stream(model="m", messages=messages, tools=TOOLS) as stream:
            final = await stream.get_final_completion()
    message = final.choices[0].message
    assert message.content == "Checking both."
    assert final.choices[0].finish_reason == "tool_calls"
    assert [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls or []] == [
        ("call_llmstub_2", "get_weather", '{"city": "Paris"}'),
        ("call_time", "get_time", '{"zone": "Europe/Paris"}'),
    ]


async def test_a_streamed_failing_step_is_the_error_before_any_stream(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "flaky",
            "steps": [
                {"status": 429, "answer": "slow down", "headers": {"Retry-After": "3"}},
                {"answer": "recovered"},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    response = await stand.chat({"stream": True, "messages": []})
    assert (response.status, response.headers["Retry-After"]) == (429, "3")
    assert await response.json() == {
        "error": {"code": "rate_limit_exceeded", "message": "slow down", "param": None, "type": "requests"}
    }
    again = await stand.chat({"stream": True, "messages": []})
    deltas = [c["choices"][0]["delta"] for c in chunks(await again.text()) if c["choices"]]
    assert "".join(d.get("content") or "" for d in deltas) == "recovered"


async def test_negative_raw_body_and_empty_choices_stream_as_scripted(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "bad",
            "steps": [
                {"negative": True, "raw_body": "{not json"},
                {"negative": True, "empty_choices": True},
                {"negative": True, "tool_calls": [{"name": "x", "raw_arguments": '{"a":'}]},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    raw = await stand.chat({"stream": True, "messages": []})
    assert (raw.status, await raw.text()) == (200, "{not json")
    empty = chunks(await (await stand.chat({"stream": True, "messages": []})).text())
    assert [c["choices"] for c in empty] == [[], []]
    assert "usage" in empty[-1]
    broken = chunks(await (await stand.chat({"stream": True, "messages": []})).text())
    deltas = [c["choices"][0]["delta"] for c in broken if c["choices"]]
    calls = [d["tool_calls"][0] for d in deltas if "tool_calls" in d]
    assert "".join(c["function"]["arguments"] for c in calls) == '{"a":'


async def test_exhaustion_stays_409_for_streamed_requests(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"name": "once", "steps": [{"answer": "only"}]}])
    assert (await stand.chat({"stream": True, "messages": []})).status == 200
    response = await stand.chat({"stream": True, "messages": []})
    assert response.status == 409
    assert (await response.json())["error"]["code"] == "sequence_exhausted"


async def test_streamed_steps_keep_the_pace(make_llm: MakeStand) -> None:
    stand: LlmStand = await make_llm(rules=[{"name": "s", "steps": [{"answer": "a b c"}]}], delay=0.02)
    response = await stand.chat({"stream": True, "messages": []})
    arrivals = []
    async for line in response.content:
        if line.startswith(b"data: {") and b'"content":"' in line and b'"content":""' not in line:
            arrivals.append(line)
    assert len(arrivals) == 3  # each piece its own frame, each after the pause
    entry = (await stand.log())["entries"][0]
    assert entry["latency_ms"] >= 3 * 20 * 0.9


@given(st.text())
def test_argument_fragments_join_back_to_the_text(text: str) -> None:
    assert "".join(argument_fragments(text)) == text
    assert "".join(argument_fragments(text, 3)) == text


@pytest.mark.parametrize("per", [1, 2, 5])
def test_argument_fragments_group_tokens(per: int) -> None:
    pieces = argument_fragments('{"city": "Paris"}', per)
    assert "".join(pieces) == '{"city": "Paris"}'
    assert len(pieces) == -(-9 // per)  # { " city " : " Paris " } is nine tokens


@given(st.text())
def test_a_content_piece_reads_back_any_text(text: str) -> None:
    env = wire.Envelope("chatcmpl-tgfake-1", 1, "m")
    (frame,) = wire.sse_text_frames(lambda piece: wire.chat_chunk(env, delta={"content": piece}), [text])
    assert content_piece(frame) == text
    finished = wire.sse_frame(wire.chat_chunk(env, delta={"content": text}, finish_reason="stop"))
    assert content_piece(finished) is None
    assert content_piece(frame + frame) is None
