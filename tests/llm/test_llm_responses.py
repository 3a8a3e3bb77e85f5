"""``/v1/responses`` on the one engine: through the wire, and with the official ``openai`` SDK (sync and async,
``responses.create`` with and without ``stream``, ``responses.stream``) as the oracle."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import openai
import pytest
from openai import AsyncOpenAI, OpenAI

from tests.llm.llm_support import LlmStand, MakeStand, typed_events

WEATHER_TOOL: Any = {
    "type": "function",
    "name": "get_weather",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
}
AGENT: list[dict[str, Any]] = [
    {
        "name": "agent",
        "system": "weather bot",
        "tools": ["get_weather"],
        "steps": [
            {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"tool_name": "get_weather", "tool_result": "sunny", "answer": "It is sunny in Paris."},
        ],
    }
]


def client(stand: LlmStand) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=stand.base_url, api_key="sk-x", max_retries=0)


async def post(stand: LlmStand, body: Any, status: int = 200) -> Any:
    response = await stand.client.post("/v1/responses", json=body)
    text = await response.text()
    assert response.status == status, text
    return json.loads(text) if response.content_type == "application/json" else text


async def test_a_string_input_is_answered_as_chat_is(llm: LlmStand) -> None:
    body = await post(llm, {"model": "gpt-4o", "input": "hi there", "instructions": "Be brief."})
    assert body["id"] == "resp_tgfake_1"
    assert (body["object"], body["status"], body["model"]) == ("response", "completed", "tgfake-demo")
    assert body["instructions"] == "Be brief."
    assert body["output"] == [
        {
            "content": [{"annotations": [], "logprobs": [], "text": "You said: hi there", "type": "output_text"}],
            "id": "msg_tgfake_1",
            "role": "assistant",
            "status": "completed",
            "type": "message",
        }
    ]
    assert body["usage"]["input_tokens"] == 1
    assert body["usage"]["output_tokens"] == 4
    assert body["usage"]["total_tokens"] == 5
    entry = (await llm.log())["entries"][0]
    assert entry["endpoint"] == "/v1/responses"
    assert entry["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi there"},
    ]


async def test_the_stream_has_the_documented_events_in_order(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "hello", "answer": "Hi there friend"}])
    text = await post(stand, {"model": "m", "input": "hello", "stream": True})
    got = typed_events(text)
    assert [name for name, _ in got] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert [data["sequence_number"] for _, data in got] == list(range(len(got)))
    assert [d["delta"] for n, d in got if n == "response.output_text.delta"] == ["Hi ", "there ", "friend"]
    deltas = [d for n, d in got if n.startswith("response.output_text")]
    assert {(d["item_id"], d["output_index"], d["content_index"]) for d in deltas} == {("msg_tgfake_1", 0, 0)}
    assert got[0][1]["response"]["status"] == "in_progress"
    completed = got[-1][1]["response"]
    assert completed["status"] == "completed"
    assert completed["output"][0]["content"][0]["text"] == "Hi there friend"
    assert "data: [DONE]" not in text


async def test_async_sdk_create_stream_and_stream_helper(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "ping", "answer": "pong pong"}], delay=0.001)
    async with client(stand) as openai_client:
        response = await openai_client.responses.create(model="gpt-4.1", input="ping")
        assert response.output_text == "pong pong"
        assert response.usage is not None
        assert response.usage.output_tokens == 2
        stream = await openai_client.responses.create(model="gpt-4.1", input="ping", stream=True)
        deltas = [e.delta async for e in stream if e.type == "response.output_text.delta"]
        assert deltas == ["pong ", "pong"]
        async with openai_client.responses.stream(model="gpt-4.1", input="ping") as helper:
            texts = [e.delta async for e in helper if e.type == "response.output_text.delta"]
            final = await helper.get_final_response()
    assert texts == ["pong ", "pong"]
    assert final.output_text == "pong pong"
    assert final.id == "resp_tgfake_3"


async def test_sync_sdk_function_call_round_trip_with_previous_response_id(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=AGENT)

    def run() -> tuple[Any, Any, Any]:
        with OpenAI(base_url=stand.base_url, api_key="sk-x", max_retries=0) as sync:
            first = sync.responses.create(
                model="m", instructions="You are a weather bot.", input="Weather in Paris?", tools=[WEATHER_TOOL]
            )
            call = first.output[0]
            assert call.type == "function_call"
            second = sync.responses.create(
                model="m",
                instructions="You are a weather bot.",
                previous_response_id=first.id,
                input=[{"type": "function_call_output", "call_id": call.call_id, "output": "sunny, 24C"}],
                tools=[WEATHER_TOOL],
            )
            return first, call, second

    first, call, second = await asyncio.to_thread(run)
    assert (call.name, call.arguments, call.call_id) == ("get_weather", '{"city": "Paris"}', "call_llmstub_1")
    assert call.id == "fc_tgfake_1_1"
    assert second.output_text == "It is sunny in Paris."
    assert second.previous_response_id == first.id
    entry = (await stand.log())["entries"][1]
    assert [m["role"] for m in entry["messages"]] == ["system", "user", "assistant", "tool"]
    assert entry["messages"][2]["tool_calls"][0]["id"] == "call_llmstub_1"
    assert entry["step"] == 1


async def test_function_call_items_in_the_input_carry_the_turn_without_storage(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=AGENT)
    first = await post(stand, {"input": "Weather?", "instructions": "weather bot", "tools": [WEATHER_TOOL]})
    call = first["output"][0]
    second = await post(
        stand,
        {
            "instructions": "weather bot",
            "tools": [WEATHER_TOOL],
            "store": False,
            "input": [
                {"role": "user", "content": [{"type": "input_text", "text": "Weather?"}]},
                {k: call[k] for k in ("type", "call_id", "name", "arguments")},
                {"type": "function_call_output", "call_id": call["call_id"], "output": "sunny"},
            ],
        },
    )
    assert second["output"][0]["content"][0]["text"] == "It is sunny in Paris."
    assert second["store"] is False
    await post(stand, {"previous_response_id": second["id"], "input": "x"}, status=400)


async def test_streamed_function_calls_arrive_in_fragments(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=AGENT)
    got = typed_events(
        await post(stand, {"input": "Weather?", "instructions": "weather bot", "tools": [WEATHER_TOOL], "stream": True})
    )
    names = [name for name, _ in got]
    assert names[:3] == ["response.created", "response.in_progress", "response.output_item.added"]
    assert names[-4:] == [
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.completed",
    ]
    fragments = [d["delta"] for n, d in got if n == "response.function_call_arguments.delta"]
    assert len(fragments) > 1
    assert "".join(fragments) == '{"city": "Paris"}'
    done = next(d for n, d in got if n == "response.function_call_arguments.done")
    assert (done["arguments"], done["item_id"], done["output_index"]) == ('{"city": "Paris"}', "fc_tgfake_1_1", 0)
    added = got[2][1]["item"]
    assert (added["type"], added["name"], added["call_id"], added["arguments"]) == (
        "function_call",
        "get_weather",
        "call_llmstub_1",
        "",
    )


async def test_stream_helper_accumulates_parallel_function_calls(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "both",
            "tools": ["get_weather", "get_time"],
            "steps": [
                {
                    "answer": "Checking.",
                    "tool_calls": [
                        {"name": "get_weather", "arguments": {"city": "Paris"}},
                        {"name": "get_time", "arguments": {"zone": "CET"}},
                    ],
                }
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    tools = [WEATHER_TOOL, {"type": "function", "name": "get_time", "parameters": {"type": "object"}}]
    async with client(stand) as openai_client, openai_client.responses.stream(
        model="m", input="go", tools=tools
    ) as stream:
        final = await stream.get_final_response()
    assert [item.type for item in final.output] == ["message", "function_call", "function_call"]
    assert final.output_text == "Checking."
    calls = [(i.name, i.arguments, i.call_id) for i in final.output if i.type == "function_call"]
    assert calls == [
        ("get_weather", '{"city": "Paris"}', "call_llmstub_1"),
        ("get_time", '{"zone": "CET"}', "call_llmstub_1_2"),
    ]


async def test_stored_responses_get_delete_and_reset(llm: LlmStand) -> None:
    created = await post(llm, {"input": "remember me"})
    response_id = created["id"]
    got = await llm.client.get(f"/v1/responses/{response_id}")
    assert (got.status, await got.json()) == (200, created)
    follow = await post(llm, {"previous_response_id": response_id, "input": "and now?"})
    assert follow["output"][0]["content"][0]["text"] == "You said: and now?"
    entry = (await llm.log())["entries"][-1]
    assert [m.get("content") for m in entry["messages"]] == ["remember me", "You said: remember me", "and now?"]
    deleted = await llm.client.delete(f"/v1/responses/{response_id}")
    assert await deleted.json() == {"deleted": True, "id": response_id, "object": "response"}
    missing = await llm.client.get(f"/v1/responses/{response_id}")
    assert missing.status == 404
    assert await missing.json() == {
        "error": {
            "code": None,
            "message": f"Response with id '{response_id}' not found.",
            "param": None,
            "type": "invalid_request_error",
        }
    }
    assert (await llm.client.post("/sim/llm/reset")).status == 200
    assert (await llm.client.get(f"/v1/responses/{follow['id']}")).status == 404
    refused = await post(llm, {"previous_response_id": follow["id"], "input": "x"}, status=400)
    assert refused["error"]["message"] == f"Previous response with id '{follow['id']}' not found."


async def test_the_sdk_raises_not_found_for_a_forgotten_response(llm: LlmStand) -> None:
    async with client(llm) as openai_client:
        with pytest.raises(openai.NotFoundError) as caught:
            await openai_client.responses.retrieve("resp_nope")
        assert caught.value.body == {
            "code": None,
            "message": "Response with id 'resp_nope' not found.",
            "param": None,
            "type": "invalid_request_error",
        }
        with pytest.raises(openai.BadRequestError):
            await openai_client.responses.create(model="m", input="x", previous_response_id="resp_nope")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], "request body must be a JSON object"),
        ({"model": "m"}, "input is required"),
        ({"input": 5}, "input must be a string or an array of input items, not int"),
        ({"input": ["x"]}, "input[0] must be an object"),
        (
            {"input": [{"role": "robot", "content": "x"}]},
            "input[0].role must be one of user, assistant, system, developer",
        ),
        ({"input": [{"type": "function_call_output"}]}, "input[0].call_id must be a string"),
        ({"input": "x", "instructions": 3}, "instructions must be a string"),
        ({"input": "x", "tools": {}}, "tools must be an array"),
        ({"input": "x", "stream": "yes"}, "stream must be a boolean"),
    ],
)
async def test_bad_requests_are_400_naming_the_field(llm: LlmStand, body: Any, message: str) -> None:
    refused = await post(llm, body, status=400)
    assert refused["error"]["message"] == message
    assert refused["error"]["type"] == "invalid_request_error"


async def test_sequences_failures_and_journal_are_the_chat_ones(make_llm: MakeStand) -> None:
    rules = [{"name": "flaky", "steps": [{"status": 503, "answer": "busy"}, {"answer": "back"}]}]
    stand = await make_llm(rules=rules)
    async with client(stand) as openai_client:
        with pytest.raises(openai.InternalServerError) as caught:
            await openai_client.responses.create(model="m", input="x", stream=True)
        assert caught.value.status_code == 503
        assert (await openai_client.responses.create(model="m", input="x")).output_text == "back"
        with pytest.raises(openai.ConflictError):
            await openai_client.responses.create(model="m", input="x")
    entries = (await stand.log())["entries"]
    assert [(e["status"], e["step"], e["endpoint"]) for e in entries] == [
        (503, 0, "/v1/responses"),
        (200, 1, "/v1/responses"),
        (409, 2, "/v1/responses"),
    ]


async def test_length_finish_is_an_incomplete_response(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo", max_model_len=64)  # echo fills max_output_tokens: finish "length"
    body = await post(stand, {"input": "one two three four", "max_output_tokens": 4})
    assert body["status"] == "incomplete"
    assert body["incomplete_details"] == {"reason": "max_output_tokens"}
    got = typed_events(await post(stand, {"input": "one two three four", "max_output_tokens": 4, "stream": True}))
    assert got[-1][0] == "response.incomplete"


async def test_a_get_on_the_create_route_is_405(llm: LlmStand) -> None:
    response = await llm.client.get("/v1/responses")
    assert response.status == 405
    put = await llm.client.put("/v1/responses/resp_1")
    assert put.status == 405
