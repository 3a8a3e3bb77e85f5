"""``langchain-openai``'s ChatOpenAI, unmodified, talks to the scripted model: invoke, stream, bind_tools."""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

from tests.llm.llm_support import LlmStand, MakeStand

WEATHER = [
    {
        "match": "weather",
        "tool": {"name": "get_weather", "arguments": {"city": "Paris"}},
        "answer": "It is sunny in Paris.",
    },
]


@tool
def get_weather(city: str) -> str:
    """Return the weather in a city."""
    return "sunny"


def chat_model(stand: LlmStand, **kwargs: Any) -> ChatOpenAI:
    return ChatOpenAI(
        model="gpt-4o-mini", base_url=stand.base_url, api_key="sk-anything", max_retries=0, **kwargs
    )


async def test_invoke_sync_and_async(llm: LlmStand) -> None:
    model = chat_model(llm)
    answer = await model.ainvoke("hi there")
    assert answer.content == "You said: hi there"
    threaded = await asyncio.to_thread(model.invoke, [HumanMessage("from a thread")])
    assert threaded.content == "You said: from a thread"
    assert isinstance(answer, AIMessage)
    assert answer.usage_metadata is not None
    assert answer.usage_metadata["output_tokens"] == 4


async def test_stream_yields_the_pieces(make_llm: MakeStand) -> None:
    stand = await make_llm(answers=["one two three four"])
    model = chat_model(stand)
    pieces = [chunk.content async for chunk in model.astream("count")]
    assert [p for p in pieces if p] == ["one ", "two ", "three ", "four"]
    sync_pieces = await asyncio.to_thread(lambda: [c.content for c in model.stream("again")])
    assert "".join(str(p) for p in sync_pieces) == "one two three four"


async def test_bind_tools_gets_the_tool_call_and_then_the_answer(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=WEATHER)
    model = chat_model(stand).bind_tools([get_weather])
    question = HumanMessage("What is the weather?")
    first = await model.ainvoke([question])
    assert isinstance(first, AIMessage)
    assert first.tool_calls == [
        {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_llmstub_1", "type": "tool_call"}
    ]
    result = ToolMessage("sunny", tool_call_id=first.tool_calls[0]["id"])
    second = await model.ainvoke([question, first, result])
    assert second.content == "It is sunny in Paris."


async def test_bind_tools_streamed_tool_call_accumulates(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=WEATHER)
    model = chat_model(stand).bind_tools([get_weather])
    merged: AIMessageChunk | None = None
    async for chunk in model.astream("weather?"):
        assert isinstance(chunk, AIMessageChunk)
        merged = chunk if merged is None else merged + chunk
    assert merged is not None
    assert merged.tool_calls == [
        {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_llmstub_1", "type": "tool_call"}
    ]


async def test_the_responses_api_invoke_stream_and_tools(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "count", "answer": "one two three"}, *WEATHER])
    model = chat_model(stand, use_responses_api=True)
    answer = await model.ainvoke("count")
    assert answer.text == "one two three"
    pieces = [chunk.text async for chunk in model.astream("count")]
    assert len([p for p in pieces if p]) == 3
    assert "".join(pieces) == "one two three"
    called = await model.bind_tools([get_weather]).ainvoke("weather?")
    assert called.tool_calls[0]["name"] == "get_weather"
    assert called.tool_calls[0]["args"] == {"city": "Paris"}
    assert [e["endpoint"] for e in (await stand.log())["entries"]] == ["/v1/responses"] * 3
