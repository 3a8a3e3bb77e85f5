"""Unscripted answers respect the request: structured outputs, tool_choice, legacy functions, n,
and scripted finish reasons and refusals; the openai SDK's own parsing helpers and jsonschema judge."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

import jsonschema
import openai
import pytest
from openai import AsyncOpenAI
from pydantic import BaseModel

from tests.llm.llm_support import LlmStand, MakeStand, invalid_request, sse_events

HI: Any = [{"role": "user", "content": "plan a trip to Lisbon"}]


def client_for(stand: LlmStand) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=stand.base_url, api_key="sk-anything", max_retries=0)


class Mood(StrEnum):
    calm = "calm"
    busy = "busy"


class Stop(BaseModel):
    city: str
    nights: int
    mood: Mood


class Trip(BaseModel):
    title: str
    stops: list[Stop]
    budget: float | None
    next_trip: Trip | None


async def test_parse_with_a_pydantic_model_gets_a_valid_object(llm: LlmStand) -> None:
    async with client_for(llm) as client:
        first = await client.chat.completions.parse(model="m", messages=HI, response_format=Trip)
        again = await client.chat.completions.parse(model="m", messages=HI, response_format=Trip)
    parsed = first.choices[0].message.parsed
    assert isinstance(parsed, Trip)
    assert first.choices[0].message.content == again.choices[0].message.content  # deterministic


SCHEMAS: list[dict[str, Any]] = [
    {"type": "object", "properties": {"email": {"type": "string", "format": "email"},
     "when": {"type": "string", "format": "date-time"}, "id": {"type": "string", "format": "uuid"}},
     "required": ["email", "when", "id"], "additionalProperties": False},
    {"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]+$"},
     "count": {"type": "integer", "minimum": 5, "exclusiveMaximum": 7}, "ratio": {"type": "number", "minimum": 0.5,
     "maximum": 0.75}, "step": {"type": "integer", "multipleOf": 5, "minimum": 11, "maximum": 19}},
     "required": ["code", "count", "ratio", "step"], "additionalProperties": False},
    {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string", "minLength": 3,
     "maxLength": 5}, "minItems": 2, "maxItems": 2}, "kind": {"enum": ["a", "b"]}, "fixed": {"const": 7},
     "maybe": {"type": ["string", "null"]}}, "required": ["tags", "kind", "fixed", "maybe"],
     "additionalProperties": False},
    {"$defs": {"node": {"type": "object", "properties": {"value": {"type": "integer"}, "children": {"type": "array",
     "items": {"$ref": "#/$defs/node"}}}, "required": ["value", "children"], "additionalProperties": False}},
     "type": "object", "properties": {"root": {"$ref": "#/$defs/node"}}, "required": ["root"],
     "additionalProperties": False},
    {"type": "object", "properties": {"choice": {"anyOf": [{"type": "string"}, {"type": "object", "properties":
     {"x": {"type": "boolean"}}, "required": ["x"], "additionalProperties": False}]}}, "required": ["choice"],
     "additionalProperties": False},
]  # fmt: skip


@pytest.mark.parametrize("schema", SCHEMAS)
@pytest.mark.parametrize("seed", [None, 1, 2, 3])
async def test_json_schema_answers_validate(llm: LlmStand, schema: dict[str, Any], seed: int | None) -> None:
    body = {"messages": HI, "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}}
    if seed is not None:
        body["seed"] = seed
    answer = await llm.chat_json(body)
    jsonschema.validate(json.loads(answer["choices"][0]["message"]["content"]), schema)


async def test_json_object_is_an_object_wrapping_the_fallback(llm: LlmStand) -> None:
    answer = await llm.chat_json({"messages": HI, "response_format": {"type": "json_object"}})
    assert json.loads(answer["choices"][0]["message"]["content"]) == {"answer": "You said: plan a trip to Lisbon"}


async def test_a_scripted_answer_is_sent_as_written_whatever_the_format(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "trip", "answer": "not json"}])
    answer = await stand.chat_json({"messages": HI, "response_format": {"type": "json_object"}})
    assert answer["choices"][0]["message"]["content"] == "not json"


WEATHER: Any = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}},
                       "required": ["city", "unit"], "additionalProperties": False},
    },
}  # fmt: skip
TIME: Any = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}


@pytest.mark.parametrize(
    ("choice", "name"),
    [("required", "get_weather"), ({"type": "function", "function": {"name": "get_time"}}, "get_time")],
)
async def test_tool_choice_forces_a_call_with_valid_arguments(llm: LlmStand, choice: Any, name: str) -> None:
    async with client_for(llm) as client:
        answer = await client.chat.completions.create(model="m", messages=HI, tools=[WEATHER, TIME], tool_choice=choice)
    assert answer.choices[0].finish_reason == "tool_calls"
    calls = answer.choices[0].message.tool_calls or []
    assert [c.function.name for c in calls] == [name]  # type: ignore[union-attr]
    schema = (WEATHER if name == "get_weather" else TIME)["function"]["parameters"]
    jsonschema.validate(json.loads(calls[0].function.arguments), schema)  # type: ignore[union-attr]


async def test_tool_choice_none_answers_a_tool_rule_with_text(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "trip", "tool": {"name": "get_weather"}, "answer": "Sunny."}])
    answer = await stand.chat_json({"messages": HI, "tools": [WEATHER], "tool_choice": "none"})
    assert (answer["choices"][0]["message"]["content"], answer["choices"][0]["finish_reason"]) == ("Sunny.", "stop")


async def test_auto_with_no_rule_answers_text(llm: LlmStand) -> None:
    answer = await llm.chat_json({"messages": HI, "tools": [WEATHER], "tool_choice": "auto"})
    assert answer["choices"][0]["message"]["content"] == "You said: plan a trip to Lisbon"


FUNCTIONS = [{"name": "get_weather", "parameters": WEATHER["function"]["parameters"]}]


async def test_legacy_functions_get_a_function_call(make_llm: MakeStand) -> None:
    rule = {"match": "weather", "tool": {"name": "get_weather", "arguments": {"city": "Paris"}}}
    stand = await make_llm(rules=[rule])
    answer = await stand.chat_json(
        {"messages": [{"role": "user", "content": "weather?"}], "functions": FUNCTIONS}
    )
    choice = answer["choices"][0]
    assert choice["finish_reason"] == "function_call"
    assert choice["message"]["function_call"] == {"arguments": '{"city": "Paris"}', "name": "get_weather"}
    assert "tool_calls" not in choice["message"]
    forced = await stand.chat_json({"messages": HI, "functions": FUNCTIONS, "function_call": {"name": "get_weather"}})
    call = forced["choices"][0]["message"]["function_call"]
    jsonschema.validate(json.loads(call["arguments"]), FUNCTIONS[0]["parameters"])
    streamed = await stand.client.post(
        "/v1/chat/completions", json={"messages": [{"role": "user", "content": "weather"}], "functions": FUNCTIONS,
                                      "stream": True},
    )  # fmt: skip
    events = [json.loads(e) for e in sse_events(await streamed.text())[:-1]]
    assert events[0]["choices"][0]["delta"]["function_call"]["name"] == "get_weather"
    assert events[1]["choices"][0]["finish_reason"] == "function_call"


async def test_n_choices_plain_and_streamed(llm: LlmStand) -> None:
    async with client_for(llm) as client:
        plain = await client.chat.completions.create(model="m", messages=HI, n=3)
        async with client.chat.completions.stream(model="m", messages=HI, n=2) as stream:
            final = await stream.get_final_completion()
    assert [c.index for c in plain.choices] == [0, 1, 2]
    assert {c.message.content for c in plain.choices} == {"You said: plan a trip to Lisbon"}
    assert [(c.index, c.message.content) for c in final.choices] == [
        (0, "You said: plan a trip to Lisbon"),
        (1, "You said: plan a trip to Lisbon"),
    ]


@pytest.mark.parametrize(
    ("finish", "error"),
    [("length", openai.LengthFinishReasonError), ("content_filter", openai.ContentFilterFinishReasonError)],
)
async def test_a_scripted_finish_reason_reaches_the_sdks_checks(
    make_llm: MakeStand, finish: str, error: type[Exception]
) -> None:
    stand = await make_llm(rules=[{"match": "trip", "answer": '{"title": "cut', "finish_reason": finish}])
    async with client_for(stand) as client:
        plain = await client.chat.completions.create(model="m", messages=HI)
        with pytest.raises(error):
            await client.chat.completions.parse(model="m", messages=HI, response_format=Trip)
    assert plain.choices[0].finish_reason == finish


async def test_a_scripted_refusal(make_llm: MakeStand) -> None:
    stand = await make_llm(
        rules=[
            {"match": "trip", "refusal": "I can't help with that."},
            {"name": "s", "match": "seq", "steps": [{"refusal": "No.", "finish_reason": "content_filter"}]},
        ]
    )
    async with client_for(stand) as client:
        parsed = await client.chat.completions.parse(model="m", messages=HI, response_format=Trip)
        async with client.chat.completions.stream(model="m", messages=HI) as stream:
            streamed = await stream.get_final_completion()
        step = await client.chat.completions.create(model="m", messages=[{"role": "user", "content": "seq"}])
    message = parsed.choices[0].message
    assert (message.refusal, message.content, message.parsed) == ("I can't help with that.", None, None)
    assert streamed.choices[0].message.refusal == "I can't help with that."
    assert (step.choices[0].message.refusal, step.choices[0].finish_reason) == ("No.", "content_filter")


@pytest.mark.parametrize(
    ("extra", "message", "param"),
    [
        ({"response_format": {"type": "xml"}}, "response_format.type must be one of text, json_object, json_schema",
         "response_format"),
        ({"response_format": {"type": "json_schema", "json_schema": {}}},
         "response_format.json_schema.name is required", "response_format"),
        ({"n": 0}, "n must be an integer from 1 to 128", "n"),
        ({"tool_choice": "always"}, "tool_choice must be auto, none, required or a named function", "tool_choice"),
        ({"tool_choice": {"type": "function", "function": {"name": "nope"}}, "tools": [WEATHER]},
         "tool_choice names function 'nope', which the request does not offer", "tool_choice"),
        ({"functions": FUNCTIONS, "function_call": 3}, "function_call must be a string or an object", "function_call"),
    ],
)  # fmt: skip
async def test_bad_shape_demands_are_400(llm: LlmStand, extra: dict[str, Any], message: str, param: str) -> None:
    assert await llm.chat_json({"messages": HI, **extra}, status=400) == invalid_request(message, param)


async def test_shape_fields_are_validated_on_rules(llm: LlmStand) -> None:
    cases = {
        '[{"match": "a", "answer": "x", "refusal": "y"}]': "rules[0]: a refusal is the whole message: drop answer",
        '[{"match": "a", "finish_reason": "tool_calls"}]': "rules[0].finish_reason: Input should be 'stop', "
        "'length' or 'content_filter'",
        '[{"name": "s", "steps": [{"status": 500, "finish_reason": "length"}]}]': "rules[0] ('s').steps.0: status 500 "
        "answers with an error object; tool_calls, usage, refusal, finish_reason and empty_choices belong to a "
        "successful response",
    }
    for script, message in cases.items():
        response = await llm.client.put("/sim/llm/script", data=script)
        assert (response.status, await response.json()) == (400, {"error": message})
