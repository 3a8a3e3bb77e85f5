"""``--llm-record``: a model that forwards to an upstream and writes the rules file, replayed offline.

The upstream is a second scripted model on its own port. A conversation (streamed tool turn, a plain
answer, Responses, a 429 with Retry-After; Anthropic Messages streamed and whole) runs through the real
openai and anthropic SDKs against the recorder, then again against a plain model loaded from the file
with the upstream gone: the SDKs see the same answers, pieces, tool call ids and usage.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import openai
import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from anthropic import AsyncAnthropic
from openai import AsyncOpenAI

from llmstub import Model, ModelOptions
from llmstub.record import RecordingModel, RecordOptions
from llmstub.rules import load_rules_file

KEY = "sk-secret-key-123"
WEATHER_TOOL: Any = {
    "type": "function",
    "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
}
UPSTREAM_RULES: list[dict[str, Any]] = [
    {
        "name": "weather",
        "tools": ["get_weather"],
        "match": "weather",
        "steps": [
            {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"tool_name": "get_weather", "answer": "It is sunny in Paris today, enjoy it.",
             "usage": {"prompt_tokens": 30, "completion_tokens": 8, "total_tokens": 38}},
        ],
    },
    {"name": "busy", "match": "busy", "repeat_last": True,
     "steps": [{"status": 429, "headers": {"Retry-After": "3"}, "answer": "Rate limit reached for gpt-test."}]},
    {"match": "hello", "answer": "Hello there, my good friend."},
]

Serve = Callable[[Model], Awaitable[TestClient[web.Request, web.Application]]]


@pytest_asyncio.fixture
async def serve() -> AsyncIterator[Serve]:
    clients: list[TestClient[web.Request, web.Application]] = []

    async def start(model: Model) -> TestClient[web.Request, web.Application]:
        app = web.Application()
        model.register(app)
        client = TestClient(TestServer(app))
        await client.start_server()
        clients.append(client)
        return client

    yield start
    for client in clients:
        await client.close()


def openai_client(client: TestClient[web.Request, web.Application]) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=str(client.make_url("/v1")), api_key=KEY, max_retries=0)


async def openai_conversation(client: TestClient[web.Request, web.Application]) -> list[Any]:
    """What the openai SDK sees of a short conversation: every answer's text, pieces, calls and usage."""
    async with openai_client(client) as sdk:
        return await _openai_conversation(sdk)


async def _openai_conversation(sdk: AsyncOpenAI) -> list[Any]:
    seen: list[Any] = []
    messages: list[Any] = [{"role": "user", "content": "What is the weather in Paris?"}]
    for _turn in range(2):
        pieces: list[str] = []
        async with sdk.chat.completions.stream(
            model="gpt-test", messages=messages, tools=[WEATHER_TOOL], stream_options={"include_usage": True}
        ) as stream:
            async for event in stream:
                if event.type == "content.delta" and event.delta:
                    pieces.append(event.delta)
            final = await stream.get_final_completion()
        message = final.choices[0].message
        calls = [(c.id, c.function.name, c.function.arguments) for c in message.tool_calls or ()]
        seen.append((message.content, pieces, calls, final.choices[0].finish_reason, final.usage))
        if calls:
            messages += [message.model_dump(exclude_none=True)]
            messages += [{"role": "tool", "tool_call_id": calls[0][0], "content": "sunny, 24C"}]
    plain = await sdk.chat.completions.create(model="gpt-test", messages=[{"role": "user", "content": "hello"}])
    seen.append((plain.choices[0].message.content, plain.usage))
    response = await sdk.responses.create(model="gpt-test", input="hello from responses")
    seen.append((response.output_text, response.usage.input_tokens if response.usage else None))
    with pytest.raises(openai.RateLimitError) as refused:
        await sdk.chat.completions.create(model="gpt-test", messages=[{"role": "user", "content": "busy?"}])
    seen.append((refused.value.status_code, refused.value.response.headers.get("retry-after"), refused.value.message))
    return seen


async def anthropic_conversation(client: TestClient[web.Request, web.Application]) -> list[Any]:
    async with AsyncAnthropic(base_url=str(client.make_url("/")), api_key=KEY, max_retries=0) as sdk:
        return await _anthropic_conversation(sdk)


async def _anthropic_conversation(sdk: AsyncAnthropic) -> list[Any]:
    tool: Any = {"name": "get_weather", "description": "Weather", "input_schema": {"type": "object"}}
    ask: list[Any] = [{"role": "user", "content": "weather in Paris?"}]
    first = await sdk.messages.create(model="claude-test", max_tokens=100, messages=ask, tools=[tool])
    use = next(block for block in first.content if block.type == "tool_use")
    ask += [
        {"role": "assistant", "content": [block.model_dump() for block in first.content]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "sunny"}]},
    ]
    pieces: list[str] = []
    async with sdk.messages.stream(model="claude-test", max_tokens=100, messages=ask, tools=[tool]) as stream:
        async for text in stream.text_stream:
            pieces.append(text)
        final = await stream.get_final_message()
    return [(use.id, use.name, use.input, first.stop_reason), (pieces, final.stop_reason, final.usage.output_tokens)]


def recorder(path: Path, upstream: TestClient[web.Request, web.Application], **options: Any) -> RecordingModel:
    record = RecordOptions(
        file=path, openai=str(upstream.make_url("/v1")), anthropic=str(upstream.make_url("/")), **options
    )
    return RecordingModel(ModelOptions(), record)


async def test_recorded_through_the_sdks_replays_offline_with_the_same_answers(serve: Serve, tmp_path: Path) -> None:
    upstream_model = Model(ModelOptions(rules=UPSTREAM_RULES, chunk_words=2))
    upstream = await serve(upstream_model)
    path = tmp_path / "recorded.json"
    recorded = await openai_conversation(await serve(recorder(path, upstream)))
    upstream_model.reset()
    recorded_claude = await anthropic_conversation(await serve(recorder(tmp_path / "claude.json", upstream)))
    assert recorded[0][2][0][1:] == ("get_weather", '{"city": "Paris"}')
    assert recorded[1][:2] == ("It is sunny in Paris today, enjoy it.", ["It is ", "sunny in ", "Paris today, ",
                                                                       "enjoy it."])
    assert recorded[1][4].total_tokens == 38
    assert recorded[4] == (429, "3", "Error code: 429 - Rate limit reached for gpt-test.")
    text = path.read_text()
    assert KEY not in text
    assert "uthorization" not in text
    await upstream.close()

    replayed = await openai_conversation(await serve(Model(ModelOptions(rules=load_rules_file(path)))))
    claude = await anthropic_conversation(
        await serve(Model(ModelOptions(rules=load_rules_file(tmp_path / "claude.json"))))
    )
    assert replayed == recorded
    assert claude == recorded_claude


async def test_the_file_is_a_rules_file_matched_on_prompt_model_and_tools(serve: Serve, tmp_path: Path) -> None:
    upstream = await serve(Model(ModelOptions(rules=UPSTREAM_RULES)))
    path = tmp_path / "recorded.json"
    await openai_conversation(await serve(recorder(path, upstream)))
    rules = json.loads(path.read_text())
    weather = next(rule for rule in rules if rule["match"] == "What is the weather in Paris?")
    assert weather["model"] == "gpt-test"
    assert weather["tools"] == ["get_weather"]
    assert weather["steps"][0]["tool_calls"] == [
        {"name": "get_weather", "arguments": {"city": "Paris"}, "id": weather["steps"][0]["tool_calls"][0]["id"]}
    ]
    assert '"arguments": {"city": "Paris"}' in path.read_text()  # the upstream's text, byte for byte
    busy = next(rule for rule in rules if rule["match"] == "busy?")
    assert busy["steps"] == [
        {"status": 429, "headers": {"Retry-After": "3"}, "answer": "Rate limit reached for gpt-test.",
         "code": "rate_limit_exceeded", "type": "requests"}
    ]
    assert [rule["match"] for rule in rules] == sorted((rule["match"] for rule in rules), key=len, reverse=True)


async def test_a_call_with_a_recording_is_replayed_and_mode_all_forwards_it(serve: Serve, tmp_path: Path) -> None:
    upstream_model = Model(ModelOptions(rules=UPSTREAM_RULES))
    upstream = await serve(upstream_model)
    path = tmp_path / "recorded.json"
    first = openai_client(await serve(recorder(path, upstream)))
    said = await first.chat.completions.create(model="m", messages=[{"role": "user", "content": "hello"}])
    assert upstream_model.calls == 1

    again = openai_client(await serve(recorder(path, upstream)))  # a second run on the same file
    replayed = await again.chat.completions.create(model="m", messages=[{"role": "user", "content": "hello"}])
    assert replayed.choices[0].message.content == said.choices[0].message.content
    assert upstream_model.calls == 1  # not forwarded

    every = openai_client(await serve(recorder(path, upstream, mode="all")))
    await every.chat.completions.create(model="m", messages=[{"role": "user", "content": "hello"}])
    assert upstream_model.calls == 2
    for sdk in (first, again, every):
        await sdk.close()


async def test_a_reset_replays_what_this_run_recorded(serve: Serve, tmp_path: Path) -> None:
    upstream_model = Model(ModelOptions(rules=UPSTREAM_RULES))
    upstream = await serve(upstream_model)
    model = recorder(tmp_path / "recorded.json", upstream)
    sdk = openai_client(await serve(model))
    await sdk.chat.completions.create(model="m", messages=[{"role": "user", "content": "hello"}])
    model.reset()
    answer = await sdk.chat.completions.create(model="m", messages=[{"role": "user", "content": "hello"}])
    assert answer.choices[0].message.content == "Hello there, my good friend."
    assert upstream_model.calls == 1
    await sdk.close()


async def test_an_upstream_that_does_not_answer_is_a_502_naming_it(serve: Serve, tmp_path: Path) -> None:
    record = RecordOptions(file=tmp_path / "r.json", openai="http://127.0.0.1:9/v1", connect_timeout=5)
    client = await serve(RecordingModel(ModelOptions(), record))
    response = await client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "x"}]})
    body = await response.json()
    assert response.status == 502
    assert body["error"]["message"].startswith("the upstream http://127.0.0.1:9/v1/chat/completions did not answer")
    assert not (tmp_path / "r.json").exists()


async def test_a_stream_is_relayed_as_it_arrives_and_a_broken_one_is_not_recorded(
    serve: Serve, tmp_path: Path
) -> None:
    rules = [{"match": "", "fault": {"kind": "cut", "after_chunks": 2}, "answer": "one two three four"}]
    upstream = await serve(Model(ModelOptions(rules=rules)))
    model = recorder(tmp_path / "recorded.json", upstream)
    client = await serve(model)
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "count"}]}
    received = bytearray()

    async def read_all(response: aiohttp.ClientResponse) -> None:
        async for chunk in response.content.iter_any():
            received.extend(chunk)

    response = await client.post("/v1/chat/completions", json=body)
    assert response.status == 200
    with pytest.raises(aiohttp.ClientPayloadError):
        await read_all(response)
    # the two events the upstream sent before it cut the connection reached the caller: nothing was held back
    assert received.count(b"data: ") == 2
    assert b'"role":"assistant"' in received
    assert not (tmp_path / "recorded.json").exists()
    assert model.unrecorded == [
        f"{upstream.make_url('/v1/chat/completions')}: the upstream's answer broke off (ClientPayloadError)"
    ]


async def test_embeddings_are_recorded_as_vectors_and_replayed_from_the_file(serve: Serve, tmp_path: Path) -> None:
    upstream_model = Model(ModelOptions())
    upstream = await serve(upstream_model)
    path = tmp_path / "recorded.json"
    async with openai_client(await serve(recorder(path, upstream))) as sdk:  # base64, as the SDK asks by default
        recorded = await sdk.embeddings.create(model="text-embedding-3-small", input=["red apple", "blue sky"],
                                               dimensions=8)
    rules = json.loads(path.read_text())
    assert [(rule["match"], rule["model"], len(rule["embedding"])) for rule in rules] == [
        ("red apple", "text-embedding-3-small", 8), ("blue sky", "text-embedding-3-small", 8)
    ]
    rules[0]["embedding"] = [0.5] * 4  # what the file says is what a replay answers
    path.write_text(json.dumps(rules))
    await upstream.close()
    async with openai_client(await serve(Model(ModelOptions(rules=load_rules_file(path))))) as sdk:
        replayed = await sdk.embeddings.create(model="text-embedding-3-small", input=["red apple", "blue sky"],
                                               dimensions=8)
    assert replayed.data[0].embedding == [0.5] * 4
    assert replayed.data[1].embedding == recorded.data[1].embedding
