"""OpenAI's error bodies, request ids, processing time and quotas, read back through the openai SDK."""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest
from openai import AsyncOpenAI

from llmstub.cli import ConfigError, model_from_args
from tests.llm.llm_support import LlmStand, MakeStand, sse_events
from tests.llm.test_llm_cli import parse

HI: Any = [{"role": "user", "content": "hi"}]


class Clock:
    """The model's clock, moved by hand: the quota window never needs a sleep."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def client_for(stand: LlmStand) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=stand.base_url, api_key="sk-anything", max_retries=0)


async def test_every_answer_has_a_unique_request_id_the_journal_keeps(llm: LlmStand) -> None:
    async with client_for(llm) as client:
        first = await client.chat.completions.with_raw_response.create(model="m", messages=HI)
        second = await client.chat.completions.with_raw_response.create(model="m", messages=HI, stream=True)
        async for _ in second.parse():
            pass
        models = await client.models.with_raw_response.list()
    ids = [r.headers["x-request-id"] for r in (first, second, models)]
    assert len(set(ids)) == 3
    assert all(i.startswith("req_") and len(i) == 36 for i in ids)
    assert first.parse()._request_id == ids[0]
    assert int(first.headers["openai-processing-ms"]) >= 0
    assert [e["request_id"] for e in (await llm.log())["entries"]] == ids[:2]


async def test_a_404_and_a_405_carry_a_request_id_too(llm: LlmStand) -> None:
    for method, path in (("GET", "/v1/nope"), ("GET", "/v1/chat/completions")):
        response = await llm.client.request(method, path)
        assert response.status in (404, 405)
        assert response.headers["x-request-id"].startswith("req_")
    assert "x-request-id" not in (await llm.client.get("/sim/llm/log")).headers


async def test_a_scripted_header_request_id_wins_and_is_journaled(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"name": "s", "steps": [{"answer": "a", "headers": {"x-request-id": "req_mine"}}]}])
    response = await stand.chat({"messages": HI})
    assert response.headers.getall("x-request-id") == ["req_mine"]
    assert (await stand.log())["entries"][0]["request_id"] == "req_mine"


async def test_anthropic_paths_get_request_id_instead(llm: LlmStand) -> None:
    response = await llm.client.post("/v1/messages", data=b"{}")
    assert response.headers["request-id"].startswith("req_")
    assert "x-request-id" not in response.headers
    assert "openai-processing-ms" not in response.headers


@pytest.mark.parametrize(
    ("step", "error", "kind", "code"),
    [
        ({"status": 401}, openai.AuthenticationError, "invalid_request_error", "invalid_api_key"),
        ({"status": 404}, openai.NotFoundError, "invalid_request_error", "model_not_found"),
        ({"status": 429}, openai.RateLimitError, "requests", "rate_limit_exceeded"),
        ({"status": 429, "code": "insufficient_quota"}, openai.RateLimitError, "insufficient_quota",
         "insufficient_quota"),
        ({"status": 500}, openai.InternalServerError, "server_error", "server_error"),
        ({"status": 400, "code": "context_length_exceeded", "param": "messages"}, openai.BadRequestError,
         "invalid_request_error", "context_length_exceeded"),
        ({"status": 403, "type": "request_forbidden", "code": "unsupported_country_region_territory"},
         openai.PermissionDeniedError, "request_forbidden", "unsupported_country_region_territory"),
    ],
)  # fmt: skip
async def test_scripted_failures_carry_openais_code(
    make_llm: MakeStand, step: dict[str, Any], error: type[openai.APIStatusError], kind: str, code: str
) -> None:
    stand = await make_llm(rules=[{"name": "fail", "steps": [step]}])
    async with client_for(stand) as client:
        with pytest.raises(error) as caught:
            await client.chat.completions.create(model="m", messages=HI)
    assert (caught.value.status_code, caught.value.type, caught.value.code) == (step["status"], kind, code)
    assert caught.value.param == step.get("param")
    assert str(caught.value.request_id).startswith("req_")
    if step.get("code") == "insufficient_quota":
        assert caught.value.message.startswith("Error code: 429 - ")
        assert "You exceeded your current quota" in caught.value.message


async def test_code_type_and_param_belong_to_error_steps(make_llm: MakeStand) -> None:
    response = await (await make_llm()).client.put(
        "/sim/llm/script", json=[{"name": "x", "steps": [{"answer": "ok", "code": "nope"}]}]
    )
    assert response.status == 400
    assert (await response.json())["error"] == (
        "rules[0] ('x').steps.0: code belong to the error object of a status of 400 or above (raw_body sends its own)"
    )


async def test_requests_per_minute_answer_429_with_openais_headers(make_llm: MakeStand) -> None:
    clock = Clock()
    stand = await make_llm(rpm=2, clock=clock)
    async with client_for(stand) as client:
        first = await client.chat.completions.with_raw_response.create(model="m", messages=HI)
        clock.now += 15
        second = await client.chat.completions.with_raw_response.create(model="m", messages=HI)
        with pytest.raises(openai.RateLimitError) as caught:
            await client.chat.completions.create(model="m", messages=HI)
        clock.now += 45  # the first request leaves the window
        third = await client.chat.completions.with_raw_response.create(model="m", messages=HI)
    assert [r.headers["x-ratelimit-remaining-requests"] for r in (first, second, third)] == ["1", "0", "0"]
    assert first.headers["x-ratelimit-limit-requests"] == "2"
    assert first.headers["x-ratelimit-reset-requests"] == "1m0s"
    assert second.headers["x-ratelimit-reset-requests"] == "45s"
    refused = caught.value
    assert (refused.code, refused.type, refused.param) == ("rate_limit_exceeded", "requests", None)
    assert refused.response.headers["retry-after"] == "45"
    assert refused.body == {
        "code": "rate_limit_exceeded",
        "message": "Rate limit reached for tgfake-demo in organization org-tgfake on requests per min (RPM): "
        "Limit 2, Used 2, Requested 1. Please try again in 45s.",
        "param": None,
        "type": "requests",
    }
    assert [e["status"] for e in (await stand.log())["entries"]] == [200, 200, 200]  # a refusal reaches no rule


async def test_tokens_per_minute_count_a_quarter_of_the_body(make_llm: MakeStand) -> None:
    clock = Clock()
    stand = await make_llm(tpm=100, clock=clock)
    body = json.dumps({"messages": [{"role": "user", "content": "x" * 293}]})
    assert len(body) == 340  # so the request is charged 85 tokens
    first = await stand.chat(body)
    assert (first.status, first.headers["x-ratelimit-remaining-tokens"]) == (200, "15")
    second = await stand.chat(body)
    assert second.status == 429
    error = (await second.json())["error"]
    assert error["message"] == (
        "Rate limit reached for tgfake-demo in organization org-tgfake on tokens per min (TPM): Limit 100, "
        "Used 85, Requested 85. Please try again in 1m0s."
    )
    assert (error["type"], second.headers["retry-after"]) == ("tokens", "60")
    huge = await stand.chat(json.dumps({"messages": [{"role": "user", "content": "x" * 489}]}))  # 536 bytes
    assert (await huge.json())["error"]["message"].startswith(
        "Request too large for tgfake-demo in organization org-tgfake on tokens per min (TPM): Limit 100, "
        "Requested 134."
    )
    clock.now += 60
    assert (await stand.chat(body)).status == 200


async def test_a_reset_empties_the_quota_window(make_llm: MakeStand) -> None:
    stand = await make_llm(rpm=1, clock=Clock())
    assert (await stand.chat({"messages": HI})).status == 200
    assert (await stand.chat({"messages": HI})).status == 429
    await stand.client.post("/sim/llm/reset")
    assert (await stand.chat({"messages": HI})).status == 200


def test_quota_flags_build_the_quota() -> None:
    model = model_from_args(parse("--llm-rpm", "3", "--llm-tpm", "4000"))
    assert (model.quota.rpm, model.quota.tpm) == (3, 4000)
    with pytest.raises(ConfigError, match=r'^invalid value "0" for flag --llm-rpm: must be at least 1$'):
        model_from_args(parse("--llm-rpm", "0"))
    with pytest.raises(ConfigError, match=r'^invalid value "x" for flag --llm-tpm: parse error$'):
        model_from_args(parse("--llm-tpm", "x"))


# ----- item 9: the usage chunk only when asked -----


async def stream_events(stand: LlmStand, path: str, body: dict[str, Any]) -> list[Any]:
    response = await stand.client.post(path, json={"stream": True, **body})
    return [json.loads(e) if e != "[DONE]" else e for e in sse_events(await response.text())]


@pytest.mark.parametrize(
    ("usage", "options", "sent"),
    [("always", None, True), ("requested", None, False), ("requested", {"include_usage": True}, True),
     ("requested", {"include_usage": False}, False)],
)  # fmt: skip
async def test_the_usage_chunk_follows_the_option(
    make_llm: MakeStand, usage: str, options: Any, sent: bool
) -> None:
    stand = await make_llm(usage_on_request=usage == "requested", rules=[{"match": "tool", "tool": {"name": "t"}}])
    extra = {} if options is None else {"stream_options": options}
    for path, body in (
        ("/v1/chat/completions", {"messages": HI}),
        ("/v1/chat/completions", {"messages": [{"role": "user", "content": "tool"}]}),
        ("/v1/completions", {"prompt": "hi"}),
    ):
        events = await stream_events(stand, path, body | extra)
        assert events[-1] == "[DONE]"
        assert (events[-2]["choices"] == [] and "usage" in events[-2]) is sent
        assert all("usage" not in e for e in events[:-2])


async def test_the_sdks_own_streaming_snippet_runs_with_usage_on_request(make_llm: MakeStand) -> None:
    stand = await make_llm(usage_on_request=True)
    async with client_for(stand) as client:
        stream = await client.chat.completions.create(model="m", messages=HI, stream=True)
        text = "".join([chunk.choices[0].delta.content or "" async for chunk in stream])
    assert text == "You said: hi"


def test_the_stream_usage_flag() -> None:
    assert model_from_args(parse("--llm-stream-usage", "requested")).options.usage_on_request is True
    assert model_from_args(parse()).options.usage_on_request is False
    with pytest.raises(ConfigError, match="choose always or requested"):
        model_from_args(parse("--llm-stream-usage", "sometimes"))


# ----- GET /v1/models/{id} -----


async def test_models_retrieve_answers_any_id(llm: LlmStand) -> None:
    async with client_for(llm) as client:
        own = await client.models.retrieve("tgfake-demo")
        other = await client.models.retrieve("ft:gpt-4o-mini:org/x")
    assert (own.id, own.object, own.owned_by) == ("tgfake-demo", "model", "tgfake")
    assert other.id == "ft:gpt-4o-mini:org/x"
    assert (await llm.client.post("/v1/models/x")).status == 405
