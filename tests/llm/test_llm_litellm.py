"""litellm, unmodified, against the scripted model: its OpenAI provider on chat completions (whole and
streamed, a scripted tool turn, a scripted failure), Responses and embeddings, and its Anthropic provider
on ``/v1/messages`` (litellm's chat shape and its ``anthropic.messages`` pass-through)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.llm.llm_support import LlmStand, MakeStand

RULES: list[dict[str, Any]] = [
    {"match": "ping", "answer": "pong"},
    {"match": "count", "answer": "one two three"},
    {"name": "flaky", "match": "flaky", "steps": [{"status": 429, "answer": "slow down"}, {"answer": "recovered"}]},
    {
        "name": "weather",
        "match": "weather",
        "tools": ["get_weather"],
        "repeat_last": True,
        "steps": [{"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}],
    },
]
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]
OPENAI = "openai/gpt-4o-mini"
CLAUDE = "anthropic/claude-3-5-sonnet-20241022"
COST_MAP = "LITELLM_LOCAL_MODEL_COST_MAP"


@pytest.fixture(scope="module")
def litellm() -> Iterator[ModuleType]:
    """litellm, imported with its bundled model price map (it would fetch one from the network at import)."""
    before = os.environ.get(COST_MAP)
    os.environ[COST_MAP] = "True"
    import litellm

    litellm.suppress_debug_info = True
    yield litellm
    if before is None:
        del os.environ[COST_MAP]
    else:
        os.environ[COST_MAP] = before


def user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def openai_options(stand: LlmStand) -> dict[str, Any]:
    return {"api_base": stand.base_url, "api_key": "sk-anything", "max_retries": 0}


def anthropic_options(stand: LlmStand) -> dict[str, Any]:
    """litellm's Anthropic provider takes the origin and adds ``/v1/messages`` itself."""
    return {"api_base": str(stand.client.make_url("/")).rstrip("/"), "api_key": "sk-ant-anything"}


async def test_openai_chat_whole_and_streamed(litellm: ModuleType, make_llm: MakeStand) -> None:
    stand = await make_llm(rules=RULES)
    answer = await litellm.acompletion(model=OPENAI, messages=user("ping"), **openai_options(stand))
    assert answer.choices[0].message.content == "pong"
    stream = await litellm.acompletion(model=OPENAI, messages=user("count"), stream=True, **openai_options(stand))
    assert "".join([chunk.choices[0].delta.content or "" async for chunk in stream]) == "one two three"


@pytest.mark.parametrize("stream", [False, True])
async def test_openai_tool_turn(litellm: ModuleType, make_llm: MakeStand, stream: bool) -> None:
    stand = await make_llm(rules=RULES)
    options = openai_options(stand) | {"tools": TOOLS, "stream": stream}
    response = await litellm.acompletion(model=OPENAI, messages=user("weather?"), **options)
    if stream:
        chunks = [chunk async for chunk in response]
        response = litellm.stream_chunk_builder(chunks, messages=user("weather?"))
    call = response.choices[0].message.tool_calls[0]
    assert (call.function.name, json.loads(call.function.arguments)) == ("get_weather", {"city": "Paris"})
    assert response.choices[0].finish_reason == "tool_calls"


async def test_a_scripted_failure_is_litellms_rate_limit_error(litellm: ModuleType, make_llm: MakeStand) -> None:
    stand = await make_llm(rules=RULES)
    with pytest.raises(litellm.RateLimitError, match="slow down"):
        await litellm.acompletion(model=OPENAI, messages=user("flaky"), **openai_options(stand))
    answer = await litellm.acompletion(model=OPENAI, messages=user("flaky"), **openai_options(stand))
    assert answer.choices[0].message.content == "recovered"


async def test_openai_responses_and_embeddings(litellm: ModuleType, make_llm: MakeStand) -> None:
    stand = await make_llm(rules=RULES)
    response = await litellm.aresponses(model=OPENAI, input="ping", **openai_options(stand))
    assert response.output[0].content[0].text == "pong"
    stream = await litellm.aresponses(model=OPENAI, input="count", stream=True, **openai_options(stand))
    events = [event async for event in stream]
    text = "".join(getattr(e, "delta", "") for e in events if e.type == "response.output_text.delta")
    assert (text, events[-1].type) == ("one two three", "response.completed")
    vectors = await litellm.aembedding(
        model="openai/text-embedding-3-small", input=["red apple"], **openai_options(stand)
    )
    assert len(vectors.data[0]["embedding"]) == 1536
    assert [e.extra.get("endpoint") for e in stand.model.log()] == ["/v1/responses"] * 2


async def test_anthropic_provider_whole_streamed_and_tools(litellm: ModuleType, make_llm: MakeStand) -> None:
    stand = await make_llm(rules=RULES)
    answer = await litellm.acompletion(model=CLAUDE, messages=user("ping"), **anthropic_options(stand))
    assert answer.choices[0].message.content == "pong"
    stream = await litellm.acompletion(model=CLAUDE, messages=user("count"), stream=True, **anthropic_options(stand))
    assert "".join([chunk.choices[0].delta.content or "" async for chunk in stream]) == "one two three"
    called = await litellm.acompletion(model=CLAUDE, messages=user("weather?"), tools=TOOLS, **anthropic_options(stand))
    call = called.choices[0].message.tool_calls[0]
    assert (call.function.name, json.loads(call.function.arguments)) == ("get_weather", {"city": "Paris"})
    message = await litellm.anthropic.messages.acreate(
        model=CLAUDE, max_tokens=16, messages=user("ping"), **anthropic_options(stand)
    )
    assert message["content"] == [{"text": "pong", "type": "text"}]
    assert [e.extra.get("endpoint") for e in stand.model.log()] == ["/v1/messages"] * 4
