"""``/v1/messages`` (Anthropic Messages) on the one engine, with the official ``anthropic`` SDK as the oracle:
``messages.create`` and ``messages.stream``, tool_use / tool_result turns, stop reasons, usage, errors."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import pytest
from anthropic import AsyncAnthropic

from tests.llm.llm_support import LlmStand, MakeStand, typed_events

WEATHER: Any = {"name": "get_weather", "description": "Weather", "input_schema": {"type": "object"}}
AGENT: list[dict[str, Any]] = [
    {
        "name": "claude-agent",
        "system": "weather bot",
        "tools": ["get_weather"],
        "steps": [
            {"answer": "Let me look.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"tool_name": "get_weather", "tool_result": "sunny", "answer": "Sunny in Paris."},
        ],
    }
]


def client(stand: LlmStand, **options: Any) -> AsyncAnthropic:
    options.setdefault("max_retries", 0)
    return AsyncAnthropic(base_url=str(stand.client.make_url("/")), api_key="sk-ant-x", **options)


async def post(stand: LlmStand, body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Any:
    response = await stand.client.post("/v1/messages", data=json.dumps(body), headers=headers)
    text = await response.text()
    assert response.status == status, text
    return json.loads(text) if response.content_type == "application/json" else text


def ask(text: str = "hello", **extra: Any) -> dict[str, Any]:
    return {"model": "claude-test", "max_tokens": 256, "messages": [{"role": "user", "content": text}], **extra}


async def test_a_message_through_the_wire(llm: LlmStand) -> None:
    body = await post(llm, ask("hi there", system="Be brief."), headers={"anthropic-version": "2023-06-01"})
    assert body == {
        "content": [{"text": "You said: hi there", "type": "text"}],
        "id": "msg_tgfake_1",
        "model": "tgfake-demo",
        "role": "assistant",
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "type": "message",
        "usage": {
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "input_tokens": 1,
            "output_tokens": 4,
        },
    }
    entry = (await llm.log())["entries"][0]
    assert entry["endpoint"] == "/v1/messages"
    assert entry["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi there"},
    ]


async def test_the_stream_has_anthropics_events_in_order(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "hello", "answer": "Hi there friend"}])
    got = typed_events(await post(stand, ask(stream=True)))
    assert [name for name, _ in got] == [
        "message_start",
        "ping",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    start = got[0][1]["message"]
    assert (start["id"], start["content"], start["stop_reason"]) == ("msg_tgfake_1", [], None)
    assert start["usage"]["input_tokens"] == 1
    assert got[2][1] == {"content_block": {"text": "", "type": "text"}, "index": 0, "type": "content_block_start"}
    assert [d["delta"] for n, d in got if n == "content_block_delta"] == [
        {"text": "Hi ", "type": "text_delta"},
        {"text": "there ", "type": "text_delta"},
        {"text": "friend", "type": "text_delta"},
    ]
    assert got[7][1] == {
        "delta": {"stop_reason": "end_turn", "stop_sequence": None},
        "type": "message_delta",
        "usage": {"output_tokens": 3},
    }


async def test_sdk_create_and_stream_get_the_scripted_tool_turn(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=AGENT, delay=0.001)
    async with client(stand) as claude:
        messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
        async with claude.messages.stream(
            model="claude", max_tokens=100, system="You are a weather bot.", messages=messages, tools=[WEATHER]
        ) as stream:
            texts = [t async for t in stream.text_stream]
            first = await stream.get_final_message()
        assert "".join(texts) == "Let me look."
        assert first.stop_reason == "tool_use"
        tool_use = first.content[1]
        assert tool_use.type == "tool_use"
        assert (tool_use.id, tool_use.name, tool_use.input) == ("call_llmstub_1", "get_weather", {"city": "Paris"})
        messages += [
            {"role": "assistant", "content": [block.model_dump() for block in first.content]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": tool_use.id, "content": "sunny, 24C"}],
            },
        ]
        second = await claude.messages.create(
            model="claude", max_tokens=100, system="You are a weather bot.", messages=messages, tools=[WEATHER]
        )
    assert second.content[0].type == "text"
    assert second.content[0].text == "Sunny in Paris."
    assert second.stop_reason == "end_turn"
    assert second.usage.input_tokens == 1
    entry = (await stand.log())["entries"][1]
    assert [m["role"] for m in entry["messages"]] == ["system", "user", "assistant", "tool"]
    assert entry["messages"][2]["tool_calls"][0]["function"] == {
        "arguments": '{"city": "Paris"}',
        "name": "get_weather",
    }
    assert entry["step"] == 1


async def test_tool_input_streams_as_input_json_deltas(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=AGENT)
    got = typed_events(await post(stand, ask("Weather?", system="weather bot", tools=[WEATHER], stream=True)))
    starts = [d["content_block"] for n, d in got if n == "content_block_start"]
    assert starts == [
        {"text": "", "type": "text"},
        {"id": "call_llmstub_1", "input": {}, "name": "get_weather", "type": "tool_use"},
    ]
    partial = [d["delta"]["partial_json"] for n, d in got if n == "content_block_delta" and d["index"] == 1]
    assert len(partial) > 1
    assert "".join(partial) == '{"city": "Paris"}'
    assert {d["delta"]["type"] for n, d in got if n == "content_block_delta" and d["index"] == 1} == {
        "input_json_delta"
    }
    assert [d["index"] for n, d in got if n == "content_block_stop"] == [0, 1]
    assert got[-2][1]["delta"]["stop_reason"] == "tool_use"


async def test_system_blocks_and_user_id_reach_the_filters(make_llm: MakeStand) -> None:
    rules = [{"name": "vip", "system": "premium", "user": "u-42", "repeat_last": True, "steps": [{"answer": "VIP"}]}]
    stand = await make_llm(rules=rules)
    body = ask(system=[{"type": "text", "text": "Premium support."}], metadata={"user_id": "u-42"})
    assert (await post(stand, body))["content"][0]["text"] == "VIP"
    assert (await post(stand, ask(metadata={"user_id": "u-1"})))["content"][0]["text"] == "You said: hello"


@pytest.mark.parametrize(
    ("status", "error_type", "exception"),
    [
        (400, "invalid_request_error", anthropic.BadRequestError),
        (401, "authentication_error", anthropic.AuthenticationError),
        (403, "permission_error", anthropic.PermissionDeniedError),
        (404, "not_found_error", anthropic.NotFoundError),
        (413, "request_too_large", anthropic.APIStatusError),
        (429, "rate_limit_error", anthropic.RateLimitError),
        (500, "api_error", anthropic.InternalServerError),
        (529, "overloaded_error", anthropic.OverloadedError),
        (422, "invalid_request_error", anthropic.UnprocessableEntityError),
    ],
)
async def test_scripted_failures_take_anthropics_shape(
    make_llm: MakeStand, status: int, error_type: str, exception: type[Exception]
) -> None:
    stand = await make_llm(rules=[{"name": "f", "repeat_last": True, "steps": [{"status": status, "answer": "nope"}]}])
    body = await post(stand, ask(), status=status)
    assert body == {"error": {"message": "nope", "type": error_type}, "type": "error"}
    async with client(stand) as claude:
        with pytest.raises(exception) as caught:
            await claude.messages.create(**ask(stream=True))
    assert isinstance(caught.value, anthropic.APIStatusError)
    assert caught.value.status_code == status


async def test_raw_bodies_and_our_own_conflicts(make_llm: MakeStand) -> None:
    rules = [{"name": "raw", "steps": [{"status": 503, "negative": True, "raw_body": '{"error":"as is"}'}]}]
    stand = await make_llm(rules=rules)
    response = await stand.client.post("/v1/messages", json=ask())
    assert (response.status, await response.text()) == (503, '{"error":"as is"}')
    exhausted = await post(stand, ask(), status=409)
    assert exhausted["type"] == "error"
    assert exhausted["error"]["type"] == "invalid_request_error"
    assert exhausted["error"]["message"].startswith("rules[0] ('raw') has no step left")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"max_tokens": 5, "messages": []}, "model: Field required"),
        ({"model": "c", "messages": []}, "max_tokens: Field required"),
        ({"model": "c", "max_tokens": 5}, "messages: Field required"),
        ({"model": "c", "max_tokens": 0, "messages": []}, "max_tokens: Input should be a positive integer"),
        ({"model": "c", "max_tokens": 5, "messages": {}}, "messages: Input should be a valid list, not an object"),
        (
            {"model": "c", "max_tokens": 5, "messages": [{"role": "system", "content": "x"}]},
            "messages.0.role: Input should be 'user' or 'assistant'",
        ),
        (
            {"model": "c", "max_tokens": 5, "messages": [], "system": 4},
            "system: Input should be a valid string or an array of text blocks",
        ),
        ([], "request body must be a JSON object"),
    ],
)
async def test_bad_requests_are_anthropic_400s(llm: LlmStand, body: Any, message: str) -> None:
    assert await post(llm, body, status=400) == {
        "error": {"message": message, "type": "invalid_request_error"},
        "type": "error",
    }


async def test_a_body_that_is_not_json_is_an_anthropic_400(llm: LlmStand) -> None:
    response = await llm.client.post("/v1/messages", data=b"{")
    assert response.status == 400
    assert await response.json() == {
        "error": {"message": "invalid JSON body", "type": "invalid_request_error"},
        "type": "error",
    }


async def test_sdk_sync_create(make_llm: MakeStand) -> None:
    import asyncio

    stand = await make_llm(rules=[{"match": "ping", "answer": "pong"}])

    def run() -> str:
        with anthropic.Anthropic(base_url=str(stand.client.make_url("/")), api_key="x", max_retries=0) as sync:
            message = sync.messages.create(
                model="claude", max_tokens=10, messages=[{"role": "user", "content": "ping"}]
            )
            block = message.content[0]
            assert block.type == "text"
            return block.text

    assert await asyncio.to_thread(run) == "pong"
