"""The official ``openai`` client, sync and async, is the oracle: it gets exactly the scripted answers."""

from __future__ import annotations

import asyncio
from typing import Any

import openai
import pytest
from openai import AsyncOpenAI, OpenAI

from tests.llm.llm_support import LlmStand, MakeStand

WEATHER = [
    {
        "match": "weather",
        "tool": {"name": "get_weather", "arguments": {"city": "Paris"}},
        "answer": "It is sunny in Paris.",
    },
]
WEATHER_TOOL: Any = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


def async_client(stand: LlmStand, **kwargs: Any) -> AsyncOpenAI:
    kwargs.setdefault("max_retries", 0)
    return AsyncOpenAI(base_url=stand.base_url, api_key="sk-anything", **kwargs)


def sync_client(stand: LlmStand) -> OpenAI:
    return OpenAI(base_url=stand.base_url, api_key="sk-anything", max_retries=0)


async def test_async_plain_call(llm: LlmStand) -> None:
    async with async_client(llm) as client:
        completion = await client.chat.completions.create(
            model="gpt-4o", messages=[{"role": "user", "content": "hi there"}]
        )
    assert completion.id == "chatcmpl-tgfake-1"
    assert completion.model == "tgfake-demo"
    assert completion.choices[0].message.content == "You said: hi there"
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (1, 4)


async def test_sync_plain_call_and_models(llm: LlmStand) -> None:
    def run() -> tuple[str | None, list[str]]:
        with sync_client(llm) as client:
            completion = client.chat.completions.create(
                model="any", messages=[{"role": "user", "content": "from a thread"}]
            )
            return completion.choices[0].message.content, [m.id for m in client.models.list()]

    text, models = await asyncio.to_thread(run)
    assert text == "You said: from a thread"
    assert models == ["tgfake-demo"]


async def test_async_stream_iteration(make_llm: MakeStand) -> None:
    stand = await make_llm(chunk_words=2)
    async with async_client(stand) as client:
        stream = await client.chat.completions.create(
            model="any",
            messages=[{"role": "user", "content": "one two three"}],
            stream=True,
            stream_options={"include_usage": True},
        )
        chunks = [chunk async for chunk in stream]
    pieces = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    assert pieces == ["You said: ", "one two ", "three"]
    assert chunks[-1].choices == []
    assert chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens == 5
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"


async def test_sync_stream_iteration(llm: LlmStand) -> None:
    def run() -> str:
        with sync_client(llm) as client:
            stream = client.chat.completions.create(
                model="any", messages=[{"role": "user", "content": "sync stream"}], stream=True
            )
            return "".join(c.choices[0].delta.content or "" for c in stream if c.choices)

    assert await asyncio.to_thread(run) == "You said: sync stream"


async def test_stream_helper_accumulates_a_streamed_tool_call(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=WEATHER)
    async with (
        async_client(stand) as client,
        client.chat.completions.stream(
            model="any", messages=[{"role": "user", "content": "What is the weather?"}], tools=[WEATHER_TOOL]
        ) as stream,
    ):
        events = [event async for event in stream]
        final = await stream.get_final_completion()
    done = [e for e in events if e.type == "tool_calls.function.arguments.done"]
    assert [(e.name, e.arguments, e.index) for e in done] == [("get_weather", '{"city": "Paris"}', 0)]
    message = final.choices[0].message
    assert final.choices[0].finish_reason == "tool_calls"
    assert message.tool_calls is not None
    call = message.tool_calls[0]
    assert call.type == "function"
    assert (call.id, call.function.name, call.function.arguments) == (
        "call_llmstub_1",
        "get_weather",
        '{"city": "Paris"}',
    )
    assert message.role == "assistant"


async def test_sync_stream_helper_with_a_tool_turn(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=WEATHER)

    def run() -> tuple[str, str | None]:
        with sync_client(stand) as client:
            messages: list[Any] = [{"role": "user", "content": "weather please"}]
            with client.chat.completions.stream(
                model="any", messages=messages, tools=[WEATHER_TOOL]
            ) as stream:
                first = stream.get_final_completion().choices[0].message
            assert first.tool_calls is not None
            call = first.tool_calls[0]
            messages += [
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.function.name, "arguments": call.function.arguments},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": call.id, "content": "sunny"},
            ]
            with client.chat.completions.stream(
                model="any", messages=messages, tools=[WEATHER_TOOL]
            ) as stream:
                second = stream.get_final_completion().choices[0].message
            return call.function.arguments, second.content

    arguments, answer = await asyncio.to_thread(run)
    assert arguments == '{"city": "Paris"}'
    assert answer == "It is sunny in Paris."


async def test_sequence_tool_turn_through_the_client(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "agent",
            "tools": ["get_weather"],
            "steps": [
                {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}]},
                {"tool_name": "get_weather", "tool_result": "snow", "answer": "It snows in Oslo."},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    async with async_client(stand) as client:
        messages: list[Any] = [{"role": "user", "content": "weather in Oslo?"}]
        first = await client.chat.completions.create(model="any", messages=messages, tools=[WEATHER_TOOL])
        message = first.choices[0].message
        assert message.tool_calls is not None
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": "heavy snow"})
        second = await client.chat.completions.create(model="any", messages=messages, tools=[WEATHER_TOOL])
    assert second.choices[0].message.content == "It snows in Oslo."


async def test_scripted_failures_raise_the_sdk_exceptions(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "limits",
            "steps": [
                {
                    "status": 429,
                    "negative": True,
                    "raw_body": '{"error":{"message":"quota","code":"rate_limit_exceeded"}}',
                },
                {"status": 401, "answer": "Incorrect API key provided"},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    async with async_client(stand) as client:
        with pytest.raises(openai.RateLimitError) as limited:
            await client.chat.completions.create(model="any", messages=[])
        assert limited.value.code == "rate_limit_exceeded"
        assert "quota" in str(limited.value)
        with pytest.raises(openai.AuthenticationError, match="Incorrect API key provided"):
            await client.chat.completions.create(model="any", messages=[])
        with pytest.raises(openai.ConflictError) as exhausted:
            await client.chat.completions.create(model="any", messages=[])
        assert exhausted.value.code == "sequence_exhausted"


async def test_sdk_retry_recovers_on_the_next_step(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "flaky",
            "steps": [
                {"status": 503, "headers": {"retry-after-ms": "1"}},
                {"answer": "recovered"},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    async with async_client(stand, max_retries=2) as client:
        completion = await client.chat.completions.create(model="any", messages=[])
        assert completion.choices[0].message.content == "recovered"
        with pytest.raises(openai.ConflictError):  # exhausted, and not retried: x-should-retry: false
            await client.chat.completions.create(model="any", messages=[])
    assert [e.status for e in stand.model.log()] == [503, 200, 409]
