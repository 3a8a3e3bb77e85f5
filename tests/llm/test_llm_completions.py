"""``POST /v1/completions`` (legacy text completions): shapes, scripted rules on it, errors, journal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.llm.llm_support import MakeStand, invalid_request, sse_events, without_created


async def post(stand: Any, body: Any, status: int = 200) -> dict[str, Any]:
    data = body if isinstance(body, str) else json.dumps(body)
    response = await stand.client.post("/v1/completions", data=data)
    text = await response.text()
    assert response.status == status, text
    parsed: dict[str, Any] = json.loads(text)
    return parsed


async def test_script_mode_answers_you_said_as_a_text_completion(make_llm: MakeStand) -> None:
    stand = await make_llm()
    response = await stand.client.post("/v1/completions", json={"model": "x", "prompt": "  hi there "})
    assert response.status == 200
    assert response.content_type == "application/json"
    assert without_created(await response.text()) == (
        '{"choices":[{"finish_reason":"stop","index":0,"logprobs":null,"text":"You said: hi there"}],'
        '"created":0,"id":"cmpl-tgfake-1","model":"tgfake-demo","object":"text_completion",'
        '"usage":{"completion_tokens":4,"prompt_tokens":1,"total_tokens":5}}\n'
    )


async def test_streamed_text_completion_framing(make_llm: MakeStand) -> None:
    stand = await make_llm()
    response = await stand.client.post("/v1/completions", json={"prompt": "a b", "stream": True})
    assert response.status == 200
    assert response.content_type == "text/event-stream"
    events = sse_events(await response.text())
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert {c["object"] for c in chunks} == {"text_completion"}
    assert [c["choices"][0]["text"] for c in chunks[:-1]] == ["You ", "said: ", "a ", "b", ""]
    assert [c["choices"][0]["finish_reason"] for c in chunks[:-1]] == [None, None, None, None, "stop"]
    assert chunks[-1]["choices"] == []
    assert chunks[-1]["usage"] == {"completion_tokens": 4, "prompt_tokens": 1, "total_tokens": 5}


async def test_plain_rules_and_canned_answers_apply_to_the_prompt(make_llm: MakeStand) -> None:
    stand = await make_llm(
        rules=[
            {"match": "weather", "tool": {"name": "get_weather"}, "answer": "sunny"},
            {"name": "seq", "match": "step", "steps": [{"answer": "first step"}]},
            {"match": "ping", "answer": "pong"},
            {"match": "", "model": "special", "answer": "for special"},
        ],
        answers=["canned"],
    )
    assert (await post(stand, {"prompt": "PING me"}))["choices"][0]["text"] == "pong"
    assert (await post(stand, {"prompt": "x", "model": "special"}))["choices"][0]["text"] == "for special"
    # Tool rules and sequences never match a text completion: the canned answer comes next.
    assert (await post(stand, {"prompt": "weather?"}))["choices"][0]["text"] == "canned"
    assert (await post(stand, {"prompt": "step"}))["choices"][0]["text"] == "canned"
    # ...and they still answer chat.
    chat = await stand.chat_json({"messages": [{"role": "user", "content": "step"}]})
    assert chat["choices"][0]["message"]["content"] == "first step"


async def test_a_one_string_prompt_list_is_the_prompt(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo")
    assert (await post(stand, {"prompt": ["just this"]}))["choices"][0]["text"] == "just this"


@pytest.mark.parametrize(
    ("body", "message", "param"),
    [
        ({}, "prompt is required", "prompt"),
        ({"prompt": None}, "prompt is required", "prompt"),
        ({"prompt": 5}, "prompt must be a string (or an array of one string)", "prompt"),
        ({"prompt": ["a", "b"]}, "prompt must be a string (or an array of one string)", "prompt"),
        ({"prompt": "a", "stream": "yes"}, "stream must be a boolean", "stream"),
        ({"prompt": "a", "model": 3}, "model must be a string", "model"),
        ([], "request body must be a JSON object", None),
    ],
)
async def test_bad_requests_are_400_naming_the_problem(
    make_llm: MakeStand, body: Any, message: str, param: str | None
) -> None:
    stand = await make_llm()
    assert await post(stand, body, status=400) == invalid_request(message, param)


async def test_not_json_and_wrong_method(make_llm: MakeStand) -> None:
    stand = await make_llm()
    assert await post(stand, "{", status=400) == invalid_request("invalid JSON body")
    response = await stand.client.get("/v1/completions")
    assert response.status == 405
    assert response.headers["Allow"] == "POST"


async def test_journal_marks_text_completions(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo")
    await post(stand, {"prompt": "hello", "user": "u1"})
    await stand.say("chat")
    entries = (await stand.log())["entries"]
    assert entries[0]["endpoint"] == "/v1/completions"
    assert entries[0]["prompt"] == "hello"
    assert entries[0]["client"] == "u1"
    assert entries[0]["messages"] == [{"role": "user", "content": "hello"}]
    assert "endpoint" not in entries[1]
    assert [e["seq"] for e in entries] == [1, 2]  # one counter for both routes
