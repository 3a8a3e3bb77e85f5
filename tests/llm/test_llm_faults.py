"""Scripted transport faults (``fault`` on a rule or a step): validated with errors that name the field, carried
out on every surface, journaled, and each kind seen through a real client (the exception the SDK raises)."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import anthropic
import httpx2
import openai
import pytest
from anthropic import AsyncAnthropic
from hypothesis import given
from hypothesis import strategies as st
from openai import AsyncOpenAI

from llmstub.faults import malformed, split_events
from tests.llm.llm_support import LlmStand, MakeStand, sse_events

ANSWER = "one two three four"
TIMEOUT = 0.15  # the client's for the slow faults, which last twice that
PATIENT = 30.0
"""The client's for every other fault: what it checks is the error, and a busy machine may take more than
:data:`TIMEOUT` to connect."""
SLOW = 300


def faulty(fault: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"match": "", "answer": ANSWER, "fault": fault}]


def openai_client(stand: LlmStand, **options: Any) -> AsyncOpenAI:
    options.setdefault("max_retries", 0)
    return AsyncOpenAI(base_url=stand.base_url, api_key="sk-x", **options)


def claude(stand: LlmStand, **options: Any) -> AsyncAnthropic:
    options.setdefault("max_retries", 0)
    return AsyncAnthropic(base_url=str(stand.client.make_url("/")), api_key="x", **options)


async def chat_stream(stand: LlmStand, timeout: httpx2.Timeout) -> Any:
    async with openai_client(stand, timeout=timeout) as client:
        stream = await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}], stream=True
        )
        return [chunk async for chunk in stream]


async def responses_stream(stand: LlmStand, timeout: httpx2.Timeout) -> Any:
    async with openai_client(stand, timeout=timeout) as client, client.responses.stream(model="m", input="x") as s:
        async for _ in s:
            pass
        return await s.get_final_response()


async def messages_stream(stand: LlmStand, timeout: httpx2.Timeout) -> Any:
    async with (
        claude(stand, timeout=timeout) as client,
        client.messages.stream(model="c", max_tokens=9, messages=[{"role": "user", "content": "x"}]) as s,
    ):
        async for _ in s:
            pass
        return await s.get_final_message()


SURFACES: dict[str, Callable[[LlmStand, httpx2.Timeout], Awaitable[Any]]] = {
    "chat": chat_stream,
    "responses": responses_stream,
    "messages": messages_stream,
}

# What each official SDK raises (None: it returns normally) for each fault, on each surface.
Raised = type[BaseException] | tuple[type[BaseException], ...]
CASES: list[tuple[dict[str, Any], str, Raised | None]] = [
    ({"kind": "drop"}, "chat", openai.APIConnectionError),
    ({"kind": "drop"}, "responses", openai.APIConnectionError),
    ({"kind": "drop"}, "messages", anthropic.APIConnectionError),
    ({"kind": "delay", "duration_ms": SLOW}, "chat", openai.APITimeoutError),
    ({"kind": "delay", "duration_ms": SLOW}, "responses", openai.APITimeoutError),
    ({"kind": "delay", "duration_ms": SLOW}, "messages", anthropic.APITimeoutError),
    ({"kind": "cut", "after_chunks": 2}, "chat", openai.APIConnectionError),
    ({"kind": "cut", "after_chunks": 2}, "responses", openai.APIConnectionError),
    # anthropic 2.17 wraps a broken stream's transport error in its own (the transport error stays the cause).
    ({"kind": "cut", "after_chunks": 2}, "messages", (httpx2.RemoteProtocolError, anthropic.APIConnectionError)),
    ({"kind": "stall", "after_chunks": 2, "duration_ms": SLOW}, "chat", openai.APITimeoutError),
    ({"kind": "stall", "after_chunks": 2, "duration_ms": SLOW}, "responses", openai.APITimeoutError),
    (
        {"kind": "stall", "after_chunks": 2, "duration_ms": SLOW},
        "messages",
        (httpx2.ReadTimeout, anthropic.APITimeoutError),
    ),
    ({"kind": "no_done"}, "chat", None),
    ({"kind": "no_done"}, "responses", RuntimeError),  # "Didn't receive a `response.completed` event."
    ({"kind": "no_done"}, "messages", None),
    ({"kind": "error_event", "after_chunks": 2, "message": "boom"}, "chat", openai.APIError),
    ({"kind": "error_event", "after_chunks": 2, "message": "boom"}, "responses", RuntimeError),
    ({"kind": "error_event", "after_chunks": 2, "message": "boom"}, "messages", anthropic.APIStatusError),
    ({"kind": "malformed", "after_chunks": 2}, "chat", json.JSONDecodeError),
    ({"kind": "malformed", "after_chunks": 2}, "responses", json.JSONDecodeError),
    ({"kind": "malformed", "after_chunks": 2}, "messages", json.JSONDecodeError),
]


@pytest.mark.parametrize(("fault", "surface", "raised"), CASES, ids=[f"{f['kind']}-{s}" for f, s, _ in CASES])
async def test_each_fault_through_the_official_sdks(
    make_llm: MakeStand, fault: dict[str, Any], surface: str, raised: Raised | None
) -> None:
    stand = await make_llm(rules=faulty(fault))
    slow = fault["kind"] in ("delay", "stall")  # only reading may time out: connecting on a busy machine is slow
    timeout = httpx2.Timeout(TIMEOUT, connect=PATIENT) if slow else httpx2.Timeout(PATIENT)
    if raised is None:
        await SURFACES[surface](stand, timeout)
    else:
        with pytest.raises(raised) as caught:
            await SURFACES[surface](stand, timeout)
        if isinstance(raised, tuple):  # an SDK's own error wraps the transport's: the transport's is its cause
            chain = [caught.value]
            while chain[-1].__cause__ is not None:
                chain.append(chain[-1].__cause__)
            assert any(isinstance(error, raised[0]) for error in chain), chain
    await stand.model.wait_idle()
    (entry,) = (await stand.log())["entries"]
    assert entry["fault"]["kind"] == fault["kind"]
    assert entry["fault"]["injected"] is True
    assert entry.get("endpoint") == (None if surface == "chat" else f"/v1/{surface}")


async def test_error_events_are_each_surfaces_own(make_llm: MakeStand) -> None:
    fault = {"kind": "error_event", "after_chunks": 1, "message": "overloaded", "error_type": "overloaded_error"}
    stand = await make_llm(rules=faulty(fault))
    chat = await stand.chat({"stream": True, "messages": []})
    assert sse_events(await chat.text())[-1] == '{"error":{"message":"overloaded","type":"overloaded_error"}}'
    responses = await (await stand.client.post("/v1/responses", json={"input": "x", "stream": True})).text()
    assert responses.split("\n\n")[-2] == (
        'event: error\ndata: {"code":"overloaded_error","message":"overloaded","param":null,'
        '"sequence_number":1,"type":"error"}'
    )
    body = {"model": "c", "max_tokens": 5, "messages": [{"role": "user", "content": "x"}], "stream": True}
    messages = await (await stand.client.post("/v1/messages", json=body)).text()
    assert messages.split("\n\n")[-2] == (
        'event: error\ndata: {"error":{"message":"overloaded","type":"overloaded_error"},"type":"error"}'
    )
    async with claude(stand) as client:
        stream = await client.messages.create(
            model="c", max_tokens=5, messages=[{"role": "user", "content": "x"}], stream=True
        )
        with pytest.raises(anthropic.APIStatusError) as caught:
            _ = [event async for event in stream]
    assert caught.value.body == {"error": {"message": "overloaded", "type": "overloaded_error"}, "type": "error"}


async def test_responses_create_yields_the_error_event(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=faulty({"kind": "error_event", "after_chunks": 3, "message": "boom"}))
    async with openai_client(stand) as client:
        stream = await client.responses.create(model="m", input="x", stream=True)
        got = [event async for event in stream]
    assert [e.type for e in got] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "error",
    ]
    error = got[-1]
    assert error.type == "error"
    assert (error.message, error.code, error.sequence_number) == ("boom", "server_error", 3)


async def test_cut_sends_exactly_the_first_events(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=faulty({"kind": "cut", "after_chunks": 3}))
    response = await stand.chat({"stream": True, "messages": []})
    with pytest.raises(aiohttp.ClientPayloadError):
        await response.read()
    await stand.model.wait_idle()
    (entry,) = (await stand.log())["entries"]
    assert entry["fault"] == {"after_chunks": 3, "events_sent": 3, "injected": True, "kind": "cut"}
    assert len(sse_events(entry["response"])) == 3
    assert entry["status"] == 200


async def test_no_done_drops_only_the_closing_event(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=faulty({"kind": "no_done"}))
    chat = sse_events(await (await stand.chat({"stream": True, "messages": []})).text())
    assert "[DONE]" not in chat
    assert json.loads(chat[-1])["usage"]["completion_tokens"] == 4
    responses = await (await stand.client.post("/v1/responses", json={"input": "x", "stream": True})).text()
    assert "response.completed" not in responses
    assert responses.split("\n\n")[-2].startswith("event: response.output_item.done")
    body = {"model": "c", "max_tokens": 5, "messages": [{"role": "user", "content": "x"}], "stream": True}
    messages = await (await stand.client.post("/v1/messages", json=body)).text()
    assert "message_stop" not in messages
    assert messages.split("\n\n")[-2].startswith("event: message_delta")


async def test_malformed_breaks_one_event_and_the_stream_goes_on(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=faulty({"kind": "malformed", "after_chunks": 1}))
    events = sse_events(await (await stand.chat({"stream": True, "messages": []})).text())
    json.loads(events[0])
    with pytest.raises(json.JSONDecodeError):
        json.loads(events[1])
    assert events[-1] == "[DONE]"
    (entry,) = (await stand.log())["entries"]
    assert entry["fault"]["events_sent"] == len(events)


async def test_a_stall_pauses_between_two_events(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=faulty({"kind": "stall", "after_chunks": 2, "duration_ms": 120}))
    response = await stand.chat({"stream": True, "messages": []})
    arrivals = []
    async for line in response.content:
        if line.startswith(b"data: "):
            arrivals.append(time.monotonic())
    assert len(arrivals) == 8
    gaps = [b - a for a, b in itertools.pairwise(arrivals)]
    assert gaps[1] >= 0.1  # between the second and the third event
    assert max(gaps[:1] + gaps[2:]) < 0.1


async def test_a_dropped_first_attempt_is_retried_by_the_sdk_into_the_next_step(make_llm: MakeStand) -> None:
    rules = [{"name": "flaky", "steps": [{"answer": "lost", "fault": {"kind": "drop"}}, {"answer": "second try"}]}]
    stand = await make_llm(rules=rules)
    async with openai_client(stand, max_retries=1) as client:
        completion = await client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    assert completion.choices[0].message.content == "second try"
    entries = (await stand.log())["entries"]
    assert [(e["status"], e["step"], e.get("fault", {}).get("kind")) for e in entries] == [
        (0, 0, "drop"),
        (200, 1, None),
    ]


async def test_a_broken_answer_delivers_no_tool_calls(make_llm: MakeStand) -> None:
    tool = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
    rules = [
        {
            "name": "tooly",
            "tools": ["f"],
            "steps": [
                {"tool_calls": [{"name": "f", "id": "c1"}]},
                {"tool_calls": [{"name": "f", "id": "c2"}], "fault": {"kind": "cut", "after_chunks": 2}},
                {"answer": "done"},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    await stand.chat_json({"tools": [tool], "messages": [{"role": "user", "content": "go"}]})
    answered = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]
    cut = await stand.chat({"stream": True, "tools": [tool], "messages": answered})
    with pytest.raises(aiohttp.ClientPayloadError):
        await cut.read()
    await stand.model.wait_idle()
    # c2 never reached the client: the retry with c1's result is enough for the next step.
    final = await stand.chat_json({"tools": [tool], "messages": answered})
    assert final["choices"][0]["message"]["content"] == "done"


async def test_stream_faults_leave_whole_answers_alone(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=faulty({"kind": "cut", "after_chunks": 0}))
    answer = await stand.say("x")
    assert answer["choices"][0]["message"]["content"] == ANSWER
    (entry,) = (await stand.log())["entries"]
    assert entry["fault"] == {"after_chunks": 0, "events_sent": 0, "injected": False, "kind": "cut"}


async def test_a_step_fault_takes_the_place_of_the_rules(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "s",
            "fault": {"kind": "no_done"},
            "steps": [{"answer": "a"}, {"answer": "b", "fault": {"kind": "error_event", "after_chunks": 0}}],
        }
    ]
    stand = await make_llm(rules=rules)
    first = sse_events(await (await stand.chat({"stream": True, "messages": []})).text())
    second = sse_events(await (await stand.chat({"stream": True, "messages": []})).text())
    assert "[DONE]" not in first
    assert second == ['{"error":{"message":"scripted stream error","type":"server_error"}}']


async def test_legacy_completions_take_faults_too(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=faulty({"kind": "no_done"}))
    response = await stand.client.post("/v1/completions", json={"prompt": "x", "stream": True})
    events = sse_events(await response.text())
    assert "[DONE]" not in events
    assert json.loads(events[0])["object"] == "text_completion"


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (
            {"kind": "cut"},
            "rules[0].fault: fault 'cut' needs after_chunks: the connection is closed after that many events",
        ),
        ({"kind": "stall", "after_chunks": 1}, "rules[0].fault: fault 'stall' needs duration_ms (milliseconds)"),
        ({"kind": "delay"}, "rules[0].fault: fault 'delay' needs duration_ms (milliseconds)"),
        ({"kind": "drop", "after_chunks": 1}, "rules[0].fault: fault 'drop' takes no after_chunks"),
        ({"kind": "no_done", "duration_ms": 5}, "rules[0].fault: fault 'no_done' takes no duration_ms"),
        (
            {"kind": "cut", "after_chunks": 1, "message": "x"},
            "rules[0].fault: message and error_type belong to fault 'error_event', not 'cut'",
        ),
        (
            {"kind": "cut", "after_chunks": -1},
            "rules[0].fault.after_chunks: Input should be greater than or equal to 0",
        ),
        (
            {"kind": "stall", "after_chunks": 0, "duration_ms": 0},
            "rules[0].fault.duration_ms: Input should be greater than or equal to 1",
        ),
        ({"kind": "drop", "after": 1}, "rules[0].fault.after: Extra inputs are not permitted"),
        (
            {"kind": "explode"},
            "rules[0].fault.kind: Input should be 'cut', 'stall', 'no_done', 'error_event', 'malformed', "
            "'delay' or 'drop'",
        ),
    ],
)
async def test_bad_faults_are_refused_naming_the_field(llm: LlmStand, fault: dict[str, Any], message: str) -> None:
    response = await llm.client.put("/sim/llm/script", json=[{"answer": "a", "fault": fault}])
    assert response.status == 400
    assert await response.json() == {"error": message}


async def test_a_stream_fault_on_a_step_that_is_never_streamed_is_refused(llm: LlmStand) -> None:
    rules = [{"name": "s", "steps": [{"status": 429, "fault": {"kind": "cut", "after_chunks": 1}}]}]
    response = await llm.client.put("/sim/llm/script", json=rules)
    assert await response.json() == {
        "error": "rules[0] ('s').steps.0: fault 'cut' acts on a streamed answer, "
        "and an error status (429) is never streamed"
    }
    raw = [{"name": "s", "steps": [{"negative": True, "raw_body": "x", "fault": {"kind": "no_done"}}]}]
    response = await llm.client.put("/sim/llm/script", json=raw)
    assert (await response.json())["error"].endswith("and a raw_body is never streamed")
    delayed = [{"name": "s", "steps": [{"status": 429, "fault": {"kind": "delay", "duration_ms": 5}}]}]
    assert (await llm.client.put("/sim/llm/script", json=delayed)).status == 200


@given(st.lists(st.binary().map(lambda b: b.replace(b"\n", b"")), max_size=8))
def test_split_events_gives_back_each_event(payloads: list[bytes]) -> None:
    events = [b"data: " + p + b"\n\n" for p in payloads]
    assert split_events(b"".join(events)) == events


@given(st.dictionaries(st.text(), st.text(), min_size=1))
def test_malformed_events_are_never_json(value: dict[str, str]) -> None:
    event = b"event: x\ndata: " + json.dumps(value).encode() + b"\n\n"
    broken = malformed(event)
    assert broken.startswith(b"event: x\ndata: ")
    assert broken.endswith(b"\n\n")
    with pytest.raises(ValueError):  # noqa: PT011 - any decode error will do
        json.loads(broken.removeprefix(b"event: x\ndata: "))
