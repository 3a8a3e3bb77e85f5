"""Agent frameworks against the stand: openai-agents on the Responses API (its default) and on chat
completions, pydantic-ai on chat completions and on Responses; each runs a scripted tool turn to its final
answer, streamed and not."""

from __future__ import annotations

from typing import Any

import pytest
from openai import AsyncOpenAI

from tests.llm.llm_support import MakeStand
from tests.requirements import require_module

agents = require_module("agents", "the openai-agents tests")
pydantic_ai = require_module("pydantic_ai", "the pydantic-ai tests")

SCRIPT: list[dict[str, Any]] = [
    {
        "name": "weather",
        "tools": ["get_weather"],
        "steps": [
            {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"tool_name": "get_weather", "tool_result": "sunny", "answer": "It is sunny in Paris."},
        ],
    }
]


def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


async def test_openai_agents_runs_a_tool_turn_on_the_responses_api(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=SCRIPT)
    client = AsyncOpenAI(base_url=stand.base_url, api_key="sk-x", max_retries=0)
    agent = agents.Agent(
        name="bot",
        instructions="You report the weather.",
        model=agents.OpenAIResponsesModel(model="gpt-4.1", openai_client=client),
        tools=[agents.function_tool(get_weather)],
    )
    result = await agents.Runner.run(agent, "Weather in Paris?", run_config=agents.RunConfig(tracing_disabled=True))
    await client.close()
    assert result.final_output == "It is sunny in Paris."
    entries = (await stand.log())["entries"]
    assert [(e["endpoint"], e["step"], e["status"]) for e in entries] == [
        ("/v1/responses", 0, 200),
        ("/v1/responses", 1, 200),
    ]
    assert entries[1]["messages"][-1] == {"content": "sunny in Paris", "role": "tool", "tool_call_id": "call_llmstub_1"}


async def test_openai_agents_streams_on_the_responses_api(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=SCRIPT, delay=0.001)
    client = AsyncOpenAI(base_url=stand.base_url, api_key="sk-x", max_retries=0)
    agent = agents.Agent(
        name="bot",
        model=agents.OpenAIResponsesModel(model="gpt-4.1", openai_client=client),
        tools=[agents.function_tool(get_weather)],
    )
    run = agents.Runner.run_streamed(agent, "Weather?", run_config=agents.RunConfig(tracing_disabled=True))
    kinds = {event.type async for event in run.stream_events()}
    await client.close()
    assert run.final_output == "It is sunny in Paris."
    assert "raw_response_event" in kinds


@pytest.mark.parametrize("stream", [False, True])
async def test_openai_agents_runs_a_tool_turn_on_chat_completions(make_llm: MakeStand, stream: bool) -> None:
    stand = await make_llm(rules=SCRIPT)
    client = AsyncOpenAI(base_url=stand.base_url, api_key="sk-x", max_retries=0)
    agent = agents.Agent(
        name="bot",
        model=agents.OpenAIChatCompletionsModel(model="gpt-4.1", openai_client=client),
        tools=[agents.function_tool(get_weather)],
    )
    config = agents.RunConfig(tracing_disabled=True)
    if stream:
        run = agents.Runner.run_streamed(agent, "Weather?", run_config=config)
        async for _ in run.stream_events():
            pass
        output = run.final_output
    else:
        output = (await agents.Runner.run(agent, "Weather?", run_config=config)).final_output
    await client.close()
    assert output == "It is sunny in Paris."
    entries = (await stand.log())["entries"]
    assert [(e.get("endpoint"), e["step"], e["stream"]) for e in entries] == [(None, 0, stream), (None, 1, stream)]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("api", ["chat", "responses"])
async def test_pydantic_ai_runs_a_tool_turn(make_llm: MakeStand, api: str, stream: bool) -> None:
    from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    stand = await make_llm(rules=SCRIPT)
    async with AsyncOpenAI(base_url=stand.base_url, api_key="sk-x", max_retries=0) as client:
        provider = OpenAIProvider(openai_client=client)
        model_class = OpenAIChatModel if api == "chat" else OpenAIResponsesModel
        agent = pydantic_ai.Agent(model_class("gpt-4o", provider=provider), tools=[get_weather])
        if stream:
            async with agent.run_stream("Weather in Paris?") as result:
                output = [piece async for piece in result.stream_output(debounce_by=None)][-1]
        else:
            output = (await agent.run("Weather in Paris?")).output
    assert output == "It is sunny in Paris."
    endpoint = None if api == "chat" else "/v1/responses"
    entries = (await stand.log())["entries"]
    assert [(e.get("endpoint"), e["step"], e["stream"]) for e in entries] == [(endpoint, n, stream) for n in (0, 1)]
