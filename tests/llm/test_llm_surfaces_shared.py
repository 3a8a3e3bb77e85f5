"""What every completion surface shares (chat, Responses, Messages): the decoding edge, the error shapes,
byte-exact tool arguments and the streamed usage option (per-session serving is in test_llm_sessions.py)."""

from __future__ import annotations

import io
import json
from typing import Any

import anthropic
import pytest
from anthropic import AsyncAnthropic

from llmstub import PROFILE_HEADER
from llmstub.http import MAX_BODY
from llmstub.rules import parse_rules_json
from tests.llm.llm_support import LlmStand, MakeStand, sse_events, typed_events

ARGUMENTS = '{"seats":2,  "note" : "caf\\u00e9"}'
"""Tool arguments as a rules file writes them: spacing and escapes that a re-encoding would change."""
BOOK = (
    '[{"name": "book", "tools": ["book"], "repeat_last": true, "steps": [{"tool_calls": [{"name": "book", "arguments": '
    + ARGUMENTS
    + "}]}]}]"
)
MESSAGES_BODY: dict[str, Any] = {"model": "c", "max_tokens": 9, "messages": [{"role": "user", "content": "hi"}]}


BOOKING: dict[str, dict[str, Any]] = {
    "/v1/chat/completions": {
        "messages": [{"role": "user", "content": "book"}],
        "tools": [{"type": "function", "function": {"name": "book", "parameters": {"type": "object"}}}],
    },
    "/v1/responses": {"model": "m", "input": "book", "tools": [{"type": "function", "name": "book", "parameters": {}}]},
    "/v1/messages": MESSAGES_BODY
    | {"messages": [{"role": "user", "content": "book"}], "tools": [{"name": "book", "input_schema": {}}]},
}


def streamed_arguments(route: str, text: str) -> list[str]:
    """The argument fragments of a stream, as each route carries them."""
    if route == "/v1/chat/completions":
        chunks = [json.loads(e) for e in sse_events(text) if e != "[DONE]"]
        deltas = [choice["delta"] for chunk in chunks for choice in chunk["choices"]]
        calls = [call for delta in deltas for call in delta.get("tool_calls", ())]
        return [call["function"]["arguments"] for call in calls if call["function"]["arguments"]]
    events = typed_events(text)
    if route == "/v1/responses":
        done = [d["arguments"] for kind, d in events if kind == "response.function_call_arguments.done"]
        assert done == [ARGUMENTS]
        return [d["delta"] for kind, d in events if kind == "response.function_call_arguments.delta"]
    return [d["delta"]["partial_json"] for kind, d in events if d.get("delta", {}).get("type") == "input_json_delta"]


def whole_arguments(route: str, body: dict[str, Any]) -> Any:
    if route == "/v1/chat/completions":
        return body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    if route == "/v1/responses":
        return body["output"][0]["arguments"]
    return body["content"][0]["input"]  # an object, not text, in Anthropic's message


@pytest.mark.parametrize("route", list(BOOKING))
async def test_tool_arguments_keep_the_scripts_text_on_every_route_streamed_or_not(
    make_llm: MakeStand, route: str
) -> None:
    stand = await make_llm(rules=parse_rules_json(BOOK))
    whole = await stand.client.post(route, json=BOOKING[route], headers={PROFILE_HEADER: "1"})
    assert whole.status == 200, await whole.text()
    expected = json.loads(ARGUMENTS) if route == "/v1/messages" else ARGUMENTS
    assert whole_arguments(route, await whole.json()) == expected
    streamed = await stand.client.post(route, json=BOOKING[route] | {"stream": True}, headers={PROFILE_HEADER: "2"})
    fragments = streamed_arguments(route, await streamed.text())
    assert len(fragments) > 1
    assert "".join(fragments) == ARGUMENTS


@pytest.mark.parametrize(("include_usage", "sent"), [(None, False), (False, False), (True, True)])
async def test_streamed_steps_send_usage_only_when_asked_with_usage_on_request(
    make_llm: MakeStand, include_usage: bool | None, sent: bool
) -> None:
    stand = await make_llm(rules=[{"name": "s", "repeat_last": True, "steps": [{"answer": "two words"}]}],
                           usage_on_request=True)  # fmt: skip
    body: dict[str, Any] = {"stream": True, "messages": [{"role": "user", "content": "hi"}]}
    if include_usage is not None:
        body["stream_options"] = {"include_usage": include_usage}
    chunks = [json.loads(e) for e in sse_events(await (await stand.chat(body)).text()) if e != "[DONE]"]
    usage = [chunk["usage"] for chunk in chunks if "usage" in chunk]
    assert usage == ([{"completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2}] if sent else [])
    assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"]) == "two words"


async def test_responses_and_messages_streams_keep_their_usage_with_usage_on_request(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"name": "s", "repeat_last": True, "steps": [{"answer": "two words"}]}],
                           usage_on_request=True)  # fmt: skip
    events = typed_events(
        await (await stand.client.post("/v1/responses", json={"model": "m", "input": "hi", "stream": True})).text()
    )
    assert events[-1][1]["response"]["usage"]["total_tokens"] == 2
    events = typed_events(await (await stand.client.post("/v1/messages", json=MESSAGES_BODY | {"stream": True})).text())
    assert [d["usage"] for kind, d in events if kind == "message_delta"] == [{"output_tokens": 1}]


def anthropic_400(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error"}, "type": "error"}


@pytest.mark.parametrize(
    ("data", "answer"),
    [
        (b'{"model": "\\ud800"}', anthropic_400("request body holds a lone UTF-16 surrogate (\\ud800-\\udfff), "
                                                "which is not a character")),
        (b'{"max_tokens": NaN}', anthropic_400("request body holds NaN, which is not JSON")),
        (b'{"model": "\xff"}', anthropic_400("request body is not valid UTF-8 (byte 11)")),
        (b"[" * 100 + b"]" * 100, anthropic_400("request body nests arrays and objects deeper than 64 levels")),
        (b" " * (MAX_BODY + 1), {"error": {"message": f"request body is larger than {MAX_BODY} bytes",
                                           "type": "request_too_large"}, "type": "error"}),
    ],
 ids=["surrogate", "nan", "utf-8", "depth", "size"],
)  # fmt: skip
async def test_messages_bodies_go_through_the_decoding_edge_and_fail_in_anthropics_shape(
    llm: LlmStand, data: bytes, answer: dict[str, Any]
) -> None:
    response = await llm.client.post("/v1/messages", data=io.BytesIO(data))
    assert (response.status, await response.json()) == (413 if len(data) > MAX_BODY else 400, answer)
    assert response.headers["request-id"].startswith("req_")
    assert "x-request-id" not in response.headers


async def test_responses_bodies_go_through_the_decoding_edge_in_openais_full_shape(llm: LlmStand) -> None:
    response = await llm.client.post("/v1/responses", data=b'{"input": "\\ud800"}')
    assert response.status == 400
    assert await response.json() == {
        "error": {
            "code": None,
            "message": "request body holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is not a character",
            "param": None,
            "type": "invalid_request_error",
        }
    }
    assert response.headers["x-request-id"].startswith("req_")


async def test_a_messages_quota_refusal_is_anthropics_429(make_llm: MakeStand) -> None:
    stand = await make_llm(rpm=1, clock=lambda: 1000.0)
    async with AsyncAnthropic(base_url=str(stand.client.make_url("/")), api_key="k", max_retries=0) as claude:
        await claude.messages.create(**MESSAGES_BODY)
        with pytest.raises(anthropic.RateLimitError) as caught:
            await claude.messages.create(**MESSAGES_BODY)
    refused = caught.value.response
    assert refused.headers["retry-after"] == "60"
    assert refused.headers["request-id"] == caught.value.request_id
    assert "x-request-id" not in refused.headers
    body = refused.json()
    assert (body["type"], body["error"]["type"]) == ("error", "rate_limit_error")
    assert body["error"]["message"].startswith("Rate limit reached for tgfake-demo")
    assert len(stand.model.log()) == 1  # the refusal reached no rule
