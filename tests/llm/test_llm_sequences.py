"""Independent named sequences, provider failures and latency, as the seed's sections describe them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from tests.llm.llm_support import LlmStand, MakeStand, content

GUARD_AGENT: list[dict[str, Any]] = [
    {"name": "guard", "model": "guard", "repeat_last": True, "steps": [{"answer": '{"allow":true}'}]},
    {
        "name": "agent",
        "model": "agent",
        "system": "assist",
        "tools": ["generate_image"],
        "steps": [
            {"answer": "Which style?"},
            {"tool_calls": [{"name": "generate_image", "arguments": {"style": "blue"}}]},
            {
                "tool_name": "generate_image",
                "tool_result": "ready",
                "answer": "Done",
                "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15},
            },
        ],
    },
]

PRIMARY_BACKUP: list[dict[str, Any]] = [
    {
        "name": "primary",
        "profile": "primary",
        "model": "provider-a",
        "steps": [
            {
                "status": 429,
                "headers": {"Retry-After": "3"},
                "negative": True,
                "raw_body": '{"error":{"message":"quota"}}',
            },
            {"answer": "recovered", "omit_usage": True},
        ],
    },
    {"name": "backup", "profile": "backup", "repeat_last": True, "steps": [{"answer": "backup result"}]},
]

TOOL = {"type": "function", "function": {"name": "generate_image", "parameters": {"type": "object"}}}


def tool_def(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}


def agent(*messages: dict[str, Any], tools: list[Any] | None = None) -> dict[str, Any]:
    return {
        "model": "agent",
        "tools": [TOOL] if tools is None else tools,
        "messages": [
            {"role": "system", "content": "You ASSIST people with images."},
            {"role": "user", "content": "draw a cat"},
            *messages,
        ],
    }


def guard() -> dict[str, Any]:
    return {"model": "guard", "messages": [{"role": "user", "content": "draw a cat"}]}


def called(call_id: str, name: str = "generate_image") -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}],
    }


def result(call_id: str, text: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def error_code(answer: dict[str, Any]) -> str:
    code: str = answer["error"]["code"]
    return code


async def test_guard_and_agent_sequences_from_the_seed(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=GUARD_AGENT, answers=["canned"])
    first_guard = await stand.chat_json(guard())
    assert content(first_guard) == '{"allow":true}'
    assert first_guard["usage"] == {"completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2}

    assert content(await stand.chat_json(agent())) == "Which style?"
    assert content(await stand.chat_json(guard())) == '{"allow":true}'  # never advances the agent

    call_answer = await stand.chat_json(agent({"role": "assistant", "content": "Which style?"}))
    choice = call_answer["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    call_id = f"call_llmstub_{call_answer['id'].removeprefix('chatcmpl-tgfake-')}"
    assert choice["message"]["tool_calls"] == [
        {
            "function": {"arguments": '{"style": "blue"}', "name": "generate_image"},
            "id": call_id,
            "type": "function",
        }
    ]

    # Validation failures are 409 and consume nothing.
    missing = await stand.chat_json(agent(called(call_id)), status=409)
    assert error_code(missing) == "tool_results_missing"
    unrelated = await stand.chat_json(agent(called(call_id), result("call_other", "ready")), status=409)
    assert error_code(unrelated) == "tool_results_missing"
    mismatch = await stand.chat_json(agent(called(call_id), result(call_id, "failed")), status=409)
    assert error_code(mismatch) == "tool_result_mismatch"

    done = await stand.chat_json(agent(called(call_id), result(call_id, "image READY? ready.")))
    assert content(done) == "Done"
    assert done["usage"] == {"completion_tokens": 3, "prompt_tokens": 12, "total_tokens": 15}

    exhausted = await stand.chat_json(agent(), status=409)
    assert error_code(exhausted) == "sequence_exhausted"
    assert "agent" in exhausted["error"]["message"]

    # Sequenced calls never moved the canned answers.
    assert content(await stand.say("hello")) == "canned"

    log = await stand.log()
    assert [(e["rule"], e["step"], e["status"]) for e in log["entries"]] == [
        ("guard", 0, 200),
        ("agent", 0, 200),
        ("guard", 0, 200),
        ("agent", 1, 200),
        ("agent", 2, 409),
        ("agent", 2, 409),
        ("agent", 2, 409),
        ("agent", 2, 200),
        ("agent", 3, 409),
        (None, -1, 200),
    ]


async def test_a_request_failing_a_filter_falls_through(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=GUARD_AGENT)
    assert content(await stand.chat_json(agent(tools=[]))) == "You said: draw a cat"
    assert content(await stand.chat_json(agent(tools=[tool_def("other")]))) == "You said: draw a cat"
    body = agent()
    body["messages"][0]["content"] = "unrelated system prompt"
    assert content(await stand.chat_json(body)) == "You said: draw a cat"
    body = agent(tools=[tool_def("other"), TOOL])  # extra tools are fine
    assert content(await stand.chat_json(body)) == "Which style?"


async def test_primary_and_backup_profiles_from_the_seed(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=PRIMARY_BACKUP)
    body = {"model": "provider-a", "messages": [{"role": "user", "content": "hi"}]}
    failed = await stand.chat(body, headers={"X-Tgfake-Profile": "primary"})
    assert failed.status == 429
    assert failed.headers["Retry-After"] == "3"
    assert await failed.read() == b'{"error":{"message":"quota"}}'

    for _ in range(2):
        backup = await stand.chat_json(body, headers={"X-Tgfake-Profile": "backup"})
        assert content(backup) == "backup result"

    recovered = await stand.chat_json(body, headers={"X-Tgfake-Profile": "primary"})
    assert content(recovered) == "recovered"
    assert "usage" not in recovered

    exhausted = await stand.chat_json(body, status=409, headers={"X-Tgfake-Profile": "primary"})
    assert error_code(exhausted) == "sequence_exhausted"
    log = await stand.log()
    assert [(e["profile"], e["rule"], e["step"], e["status"]) for e in log["entries"]] == [
        ("primary", "primary", 0, 429),
        ("backup", "backup", 0, 200),
        ("backup", "backup", 0, 200),
        ("primary", "primary", 1, 200),
        ("primary", "primary", 2, 409),
    ]


async def test_a_status_step_defaults_to_an_error_object(make_llm: MakeStand) -> None:
    stand = await make_llm(
        rules=[{"name": "down", "steps": [{"status": 503}, {"status": 401, "answer": "bad key"}]}]
    )
    answer = await stand.chat_json({"messages": []}, status=503)
    assert answer == {
        "error": {
            "code": "server_error",
            "message": "scripted failure with status 503",
            "param": None,
            "type": "server_error",
        }
    }
    answer = await stand.chat_json({"messages": []}, status=401)
    assert answer == {
        "error": {"code": "invalid_api_key", "message": "bad key", "param": None, "type": "invalid_request_error"}
    }


async def test_exhaustion_is_409_without_cycling_and_repeat_last_repeats(make_llm: MakeStand) -> None:
    rules = [
        {"name": "once", "match": "once", "steps": [{"answer": "a"}, {"answer": "b"}]},
        {"name": "again", "match": "again", "repeat_last": True, "steps": [{"answer": "a"}, {"answer": "b"}]},
    ]
    stand = await make_llm(rules=rules)
    assert [content(await stand.say("once")) for _ in range(2)] == ["a", "b"]
    exhausted = await stand.chat_json({"messages": [{"role": "user", "content": "once"}]}, status=409)
    assert exhausted["error"]["code"] == "sequence_exhausted"
    assert [content(await stand.say("again")) for _ in range(4)] == ["a", "b", "b", "b"]
    assert (await stand.log())["entries"][-1]["step"] == 1


async def test_exhaustion_409_tells_the_sdk_not_to_retry(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"name": "one", "steps": [{"answer": "a"}]}])
    await stand.say("x")
    response = await stand.chat({"messages": []})
    assert response.status == 409
    assert response.headers["x-should-retry"] == "false"


async def test_repeated_final_step_reading_a_tool_result_needs_a_new_call(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "loop",
            "tools": ["t"],
            "repeat_last": True,
            "steps": [{"tool_calls": [{"name": "t"}]}, {"tool_name": "t", "answer": "used"}],
        }
    ]
    stand = await make_llm(rules=rules)
    call = await stand.chat_json({"tools": [tool_def("t")], "messages": []})
    call_id = call["choices"][0]["message"]["tool_calls"][0]["id"]
    body = {"tools": [tool_def("t")], "messages": [called(call_id, "t"), result(call_id, "ok")]}
    assert content(await stand.chat_json(body)) == "used"
    again = await stand.chat_json(body, status=409)
    assert again["error"]["code"] == "tool_result_mismatch"


async def test_cursors_are_per_profile_and_client_key(make_llm: MakeStand) -> None:
    rules = [{"name": "seq", "steps": [{"answer": "one"}, {"answer": "two"}]}]
    stand = await make_llm(rules=rules)
    assert content(await stand.say("x", user="alice")) == "one"
    assert content(await stand.say("x", user="bob")) == "one"
    assert content(await stand.say("x", user="alice")) == "two"
    profiled = await stand.chat_json({"user": "alice", "messages": []}, headers={"X-Tgfake-Profile": "p"})
    assert content(profiled) == "one"
    assert content(await stand.say("x")) == "one"  # no key: the shared cursor
    entries = (await stand.log())["entries"]
    assert [(e["client"], e["profile"]) for e in entries] == [
        ("alice", ""),
        ("bob", ""),
        ("alice", ""),
        ("alice", "p"),
        ("", ""),
    ]


async def test_client_header_selects_the_key_and_the_user_filter(make_llm: MakeStand) -> None:
    rules = [
        {"name": "for-ann", "user": "ann", "steps": [{"answer": "hi ann"}]},
        {"name": "others", "repeat_last": True, "steps": [{"answer": "hi other"}]},
    ]
    stand = await make_llm(rules=rules, client_header="X-Test-Client")
    ann = await stand.chat_json({"user": "bob", "messages": []}, headers={"X-Test-Client": "ann"})
    assert content(ann) == "hi ann"
    bob = await stand.chat_json({"user": "ann", "messages": []}, headers={"X-Test-Client": "bob"})
    assert content(bob) == "hi other"  # the body's user is not the key once a header is configured
    entries = (await stand.log())["entries"]
    assert [e["client"] for e in entries] == ["ann", "bob"]


async def test_a_credential_like_client_header_is_answered_400(make_llm: MakeStand) -> None:
    stand = await make_llm(client_header="X-Api-Key")
    answer = await stand.chat_json({"messages": []}, status=400, headers={"X-Api-Key": "sk-secret"})
    assert "looks like a credential" in answer["error"]["message"]
    assert (await stand.log())["entries"] == []


async def test_has_tools_filter(make_llm: MakeStand) -> None:
    rules = [
        {"has_tools": True, "answer": "with tools"},
        {"has_tools": False, "answer": "without tools"},
    ]
    stand = await make_llm(rules=rules)
    assert content(await stand.chat_json({"tools": [tool_def("x")], "messages": []})) == "with tools"
    assert content(await stand.chat_json({"messages": []})) == "without tools"


async def test_filtered_rule_without_steps_answers_every_match(make_llm: MakeStand) -> None:
    rules = [
        {"name": "always-tool", "model": "tooly", "tool": {"name": "t", "arguments": {"a": 1}}},
        {"name": "always", "model": "m", "answer": "same"},
    ]
    stand = await make_llm(rules=rules, answers=["canned"])
    first = await stand.chat_json({"model": "tooly", "messages": [called("c", "t"), result("c", "x")]})
    assert first["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == '{"a": 1}'
    assert [content(await stand.chat_json({"model": "m"})) for _ in range(2)] == ["same", "same"]
    assert content(await stand.say("x")) == "canned"
    assert [e["step"] for e in (await stand.log())["entries"]] == [-1, -1, -1, -1]


async def test_headers_usage_and_omit_usage_on_positive_steps(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "s",
            "steps": [
                {"answer": "a", "headers": {"X-Request-Id": "req-1", "X-Ratelimit-Remaining-Requests": "9"}},
                {"answer": "b", "omit_usage": True},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    response = await stand.chat({"messages": []})
    assert response.headers["X-Request-Id"] == "req-1"
    assert response.headers["X-Ratelimit-Remaining-Requests"] == "9"
    assert (await response.json())["usage"] == {"completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2}
    assert "usage" not in await stand.chat_json({"messages": []})


async def test_negative_steps_send_what_they_say(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "bad",
            "steps": [
                {"negative": True, "raw_body": "{not json"},
                {"negative": True, "empty_choices": True},
                {
                    "negative": True,
                    "tool_calls": [{"name": "unoffered", "raw_arguments": '{"city": ', "id": "call_x"}],
                },
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    raw = await stand.chat({"messages": []})
    assert raw.status == 200
    assert await raw.read() == b"{not json"
    empty = await stand.chat_json({"messages": []})
    assert empty["choices"] == []
    assert empty["usage"] == {"completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2}
    broken = await stand.chat_json({"messages": []})
    assert broken["choices"][0]["message"]["tool_calls"] == [
        {"function": {"arguments": '{"city": ', "name": "unoffered"}, "id": "call_x", "type": "function"}
    ]


async def test_several_tool_calls_need_every_result(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "pair",
            "tools": ["a", "b"],
            "steps": [
                {"tool_calls": [{"name": "a"}, {"name": "b", "arguments": {"x": 1}}]},
                {"tool_name": "b", "tool_result": "B", "answer": "both"},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    tools = [tool_def("a"), tool_def("b")]
    answer = await stand.chat_json({"tools": tools, "messages": []})
    calls = answer["choices"][0]["message"]["tool_calls"]
    seq = answer["id"].removeprefix("chatcmpl-tgfake-")
    assert [c["id"] for c in calls] == [f"call_llmstub_{seq}", f"call_llmstub_{seq}_2"]
    assistant = {"role": "assistant", "content": None, "tool_calls": calls}
    one = {"tools": tools, "messages": [assistant, result(calls[0]["id"], "A")]}
    assert (await stand.chat_json(one, status=409))["error"]["code"] == "tool_results_missing"
    both = {"tools": tools, "messages": [assistant, result(calls[0]["id"], "A"), result(calls[1]["id"], "B")]}
    assert content(await stand.chat_json(both)) == "both"


async def test_a_failing_step_leaves_the_outstanding_calls(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "flaky",
            "tools": ["t"],
            "steps": [
                {"tool_calls": [{"name": "t", "id": "call_fixed"}]},
                {"status": 503},
                {"tool_name": "t", "tool_result": "ok", "answer": "after retry"},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    await stand.chat_json({"tools": [tool_def("t")], "messages": []})
    retry = {"tools": [tool_def("t")], "messages": [called("call_fixed", "t"), result("call_fixed", "ok")]}
    await stand.chat_json(retry, status=503)
    assert content(await stand.chat_json(retry)) == "after retry"


async def _time_out(stand: LlmStand, body: dict[str, Any]) -> None:
    """Send a request the client gives up on after 50 ms, and wait for the server to notice."""
    timeout = aiohttp.ClientTimeout(total=0.05)
    with pytest.raises(TimeoutError):
        await stand.client.post("/v1/chat/completions", data=json.dumps(body), timeout=timeout)
    await asyncio.wait_for(stand.model.wait_idle(), 2)


async def test_a_delayed_step_cancelled_by_the_client_is_499_and_consumed(make_llm: MakeStand) -> None:
    rules = [{"name": "slow", "steps": [{"answer": "late", "delay_ms": 10_000}, {"answer": "next"}]}]
    stand = await make_llm(rules=rules)
    started = asyncio.get_running_loop().time()
    await _time_out(stand, {"messages": []})
    assert asyncio.get_running_loop().time() - started < 5  # the server did not sit out the delay
    entry = (await stand.log())["entries"][0]
    assert (entry["status"], entry["cancelled"], entry["step"], entry["response"]) == (499, True, 0, "")
    assert content(await stand.chat_json({"messages": []})) == "next"


async def test_cancellation_keeps_the_calls_it_answered_and_drops_the_calls_it_made(
    make_llm: MakeStand,
) -> None:
    rules = [
        {
            "name": "tools",
            "tools": ["t"],
            "steps": [
                {"tool_calls": [{"name": "t", "id": "call_1"}]},
                {"tool_name": "t", "tool_calls": [{"name": "t", "id": "call_2"}], "delay_ms": 10_000},
                {"tool_name": "t", "tool_result": "first", "answer": "used the first result"},
            ],
        }
    ]
    stand = await make_llm(rules=rules)
    tools = [tool_def("t")]
    await stand.chat_json({"tools": tools, "messages": []})
    retry = {"tools": tools, "messages": [called("call_1", "t"), result("call_1", "first")]}
    await _time_out(stand, retry)
    # call_2 never reached the client, call_1 is still outstanding: the same results serve the next step.
    assert content(await stand.chat_json(retry)) == "used the first result"


async def test_a_cancelled_step_leaves_no_outstanding_calls(make_llm: MakeStand) -> None:
    rules = [
        {
            "name": "tools",
            "tools": ["t"],
            "steps": [{"tool_calls": [{"name": "t"}], "delay_ms": 10_000}, {"answer": "plain"}],
        }
    ]
    stand = await make_llm(rules=rules)
    await _time_out(stand, {"tools": [tool_def("t")], "messages": []})
    assert content(await stand.chat_json({"tools": [tool_def("t")], "messages": []})) == "plain"


async def test_a_delayed_step_does_not_hold_other_requests(make_llm: MakeStand) -> None:
    rules = [
        {"name": "slow", "model": "slow", "steps": [{"answer": "slow", "delay_ms": 300}]},
        {"name": "fast", "model": "fast", "repeat_last": True, "steps": [{"answer": "fast"}]},
    ]
    stand = await make_llm(rules=rules)
    slow = asyncio.create_task(stand.chat_json({"model": "slow"}))
    await stand.model.wait_calls(1)  # the slow request holds its reservation
    fast = await stand.chat_json({"model": "fast"})
    assert content(fast) == "fast"
    assert not slow.done()
    assert content(await slow) == "slow"
    entries = (await stand.log())["entries"]
    assert [e["rule"] for e in entries] == ["slow", "fast"]  # reservation order, not completion order
