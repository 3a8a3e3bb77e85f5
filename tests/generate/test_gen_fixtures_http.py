"""The completion fixture routes over HTTP (seed 003): status and body for every parameter and error."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient

from .conftest import MovableClock

Client = TestClient[web.Request, web.Application]
LIST = "/api/llm-completions"
CHUNKS = "/api/llm-completions/chunks"
ID = re.compile(r"cmpl_[0-9a-z]+_[sltc][123]_[0-9a-f]{8}")
RECORD_KEYS = [
    "id",
    "model",
    "createdAt",
    "prompt",
    "message",
    "finishReason",
    "toolCalls",
    "usage",
    "latencyMs",
]


async def get_json(client: Client, path: str, status: int = 200) -> Any:
    response = await client.get(path)
    assert response.status == status, await response.text()
    assert response.content_type == "application/json"
    return await response.json()


async def bad(client: Client, path: str) -> str:
    body = await get_json(client, path, 400)
    assert set(body["error"]) == {"message", "type", "param", "code"}
    message: str = body["error"]["message"]
    return message


def words(text: str) -> int:
    return len(text.split())


# --------------------------------------------------------------------------- list route


async def test_seeded_list_envelope_and_meta(client: Client) -> None:
    body = await get_json(client, f"{LIST}?seed=42&count=3")
    assert list(body) == ["data", "meta"]
    assert [list(r) for r in body["data"]] == [RECORD_KEYS] * 3
    assert body["meta"] == {
        "seed": 42,
        "generatedAt": "2026-07-30T15:14:08.000Z",
        "params": {"maxTokens": 64, "asOf": "2026-07-30T23:59:59.999Z", "count": 3, "seed": 42},
        "query": "maxTokens=64&asOf=2026-07-30T23%3A59%3A59.999Z&count=3&seed=42",
    }
    for index, record in enumerate(body["data"]):
        assert ID.fullmatch(record["id"])
        assert record["id"].endswith(f"{index:04x}")
        assert record["model"] in {"demo-model-sm", "demo-model-md", "demo-model-lg"}
        assert record["message"]["role"] == "assistant"
    assert body == await get_json(client, f"{LIST}?seed=42&count=3")


async def test_meta_query_replays_an_unseeded_request(client: Client, clock: MovableClock) -> None:
    first = await get_json(client, f"{LIST}?count=5&finishReason=length&maxTokens=12")
    assert isinstance(first["meta"]["seed"], int)
    clock.now += timedelta(days=3)  # the echoed asOf pins createdAt even when "today" moved on
    again = await get_json(client, f"{LIST}?{first['meta']['query']}")
    assert again["data"] == first["data"]
    assert again["meta"]["params"] == first["meta"]["params"]


async def test_length_records_hit_the_budget_exactly(client: Client) -> None:
    body = await get_json(client, f"{LIST}?finishReason=length&maxTokens=32&count=5&seed=1")
    for record in body["data"]:
        content = record["message"]["content"]
        assert record["finishReason"] == "length"
        assert record["usage"]["completionTokens"] == words(content) == 32
        assert content[-1].isalnum()
        assert record["id"].startswith("cmpl_w_l")


async def test_tool_call_records_for_one_prompt(client: Client) -> None:
    body = await get_json(
        client, f"{LIST}?finishReason=tool_calls&prompt=What+is+the+weather+in+Berlin%3F&count=5&seed=7"
    )
    for record in body["data"]:
        assert record["prompt"] == "What is the weather in Berlin?"
        assert record["usage"]["promptTokens"] == 6
        assert record["message"] == {"role": "assistant", "content": ""}
        calls = record["toolCalls"]
        assert 1 <= len(calls) <= 2
        for call in calls:
            assert re.fullmatch(r"call_[0-9a-f]{8}", call["id"])
            assert isinstance(json.loads(call["arguments"]), dict)
        cost = sum(2 + -(-len(c["arguments"]) // 4) for c in calls)
        assert record["usage"]["completionTokens"] == cost
        assert record["usage"]["totalTokens"] == 6 + cost


async def test_tool_calls_below_the_cheapest_fixture(client: Client) -> None:
    assert await bad(client, f"{LIST}?finishReason=tool_calls&maxTokens=4") == (
        "finishReason=tool_calls needs maxTokens of at least 5 (the cheapest tool call costs 5 tokens), got 4"
    )
    body = await get_json(client, f"{LIST}?maxTokens=4&count=100&seed=3")
    reasons = {r["finishReason"] for r in body["data"]}
    assert "tool_calls" not in reasons
    assert {"stop", "length", "content_filter"} <= reasons
    mixed = await get_json(client, f"{LIST}?maxTokens=5&count=100&seed=3")
    assert "tool_calls" in {r["finishReason"] for r in mixed["data"]}


async def test_pinned_model_and_cache_hits(client: Client) -> None:
    body = await get_json(client, f"{LIST}?model=demo-model-lg&cached=true&count=20&seed=5")
    for record in body["data"]:
        assert record["model"] == "demo-model-lg"
        assert record["id"].split("_")[2][1] == "3"
        assert 1 <= record["usage"]["cachedPromptTokens"] <= record["usage"]["promptTokens"]
    cold = await get_json(client, f"{LIST}?cached=false&count=20&seed=5")
    assert {r["usage"]["cachedPromptTokens"] for r in cold["data"]} == {0}


async def test_as_of_bounds_created_at(client: Client) -> None:
    body = await get_json(client, f"{LIST}?asOf=2026-01-15&count=50&seed=9")
    assert body["meta"]["params"]["asOf"] == "2026-01-15T23:59:59.999Z"
    as_of = datetime(2026, 1, 15, 23, 59, 59, 999000, tzinfo=UTC)
    for record in body["data"]:
        created = datetime.fromisoformat(record["createdAt"])
        assert as_of - timedelta(days=7) < created <= as_of


async def test_default_as_of_is_the_end_of_the_clock_day(client: Client, clock: MovableClock) -> None:
    clock.now = datetime(2027, 2, 1, 0, 0, 1, tzinfo=UTC)
    body = await get_json(client, f"{LIST}?count=1&seed=1")
    assert body["meta"]["params"]["asOf"] == "2027-02-01T23:59:59.999Z"
    assert body["meta"]["generatedAt"] == "2027-02-01T00:00:01.000Z"


async def test_fields_exclude_pretty_unwrap(client: Client) -> None:
    only = await get_json(client, f"{LIST}?seed=1&count=2&fields=model,id&unwrap=true")
    assert [list(r) for r in only] == [["id", "model"]] * 2
    without = await get_json(client, f"{LIST}?seed=1&count=2&exclude=latencyMs,toolCalls")
    assert list(without["data"][0]) == [k for k in RECORD_KEYS if k not in ("latencyMs", "toolCalls")]
    assert without["meta"]["params"]["exclude"] == "latencyMs,toolCalls"
    pretty = await client.get(f"{LIST}?seed=1&count=1&pretty=true")
    assert (await pretty.text()).startswith('{\n  "data": [\n    {\n      "id": ')
    compact = await client.get(f"{LIST}?seed=1&count=1")
    assert "\n" not in await compact.text()


async def test_ndjson_and_csv(client: Client) -> None:
    reference = (await get_json(client, f"{LIST}?seed=11&count=4"))["data"]
    ndjson = await client.get(f"{LIST}?seed=11&count=4&format=ndjson")
    assert ndjson.status == 200
    assert ndjson.content_type == "application/x-ndjson"
    lines = (await ndjson.text()).splitlines()
    assert [json.loads(line) for line in lines] == reference
    response = await client.get(f"{LIST}?seed=11&count=4&format=csv&exclude=createdAt")
    assert response.status == 200
    assert response.content_type == "text/csv"
    rows = list(csv.DictReader(io.StringIO(await response.text())))
    assert list(rows[0]) == [
        "id", "model", "prompt", "message.role", "message.content", "finishReason", "toolCalls",
        "usage.promptTokens", "usage.completionTokens", "usage.cachedPromptTokens", "usage.totalTokens", "latencyMs",
    ]  # fmt: skip
    for row, record in zip(rows, reference, strict=True):
        assert row["id"] == record["id"]
        assert row["message.content"] == record["message"]["content"]
        assert row["usage.totalTokens"] == str(record["usage"]["totalTokens"])
        assert row["toolCalls"] == (
            "" if record["toolCalls"] is None else json.dumps(record["toolCalls"], separators=(",", ":"))
        )


async def test_list_errors_quote_the_bad_value(client: Client) -> None:
    cases = {
        "maxTokens=0": "maxTokens must be an integer from 1 to 200, got '0'",
        "maxTokens=201": "maxTokens must be an integer from 1 to 200, got '201'",
        "count=1.5": "count must be an integer from 1 to 100, got '1.5'",
        "count=101": "count must be an integer from 1 to 100, got '101'",
        "seed=-1": "seed must be an integer from 0 to 9007199254740991, got '-1'",
        "model=gpt-4o": "model must be one of demo-model-sm | demo-model-md | demo-model-lg, got 'gpt-4o'",
        "finishReason=done": "finishReason must be one of stop | length | tool_calls | content_filter, got 'done'",
        "cached=maybe": "cached must be true or false, got 'maybe'",
        "format=xml": "format must be one of json | ndjson | csv, got 'xml'",
        "prompt=a%0Ab": "prompt must not contain control characters: U+000A at position 1",
        "prompt=": "prompt must be 1 to 200 characters long, got 0",
        f"prompt={'x' * 201}": "prompt must be 1 to 200 characters long, got 201",
        "prompt=+++": "prompt must contain at least one word",
        "asOf=yesterday": "asOf must be an ISO 8601 date or date-time from 1970 to 9999 (UTC), such as "
        "2026-07-30T23:59:59.999Z, got 'yesterday'",
        "asOf=0001-01-01": "asOf must be an ISO 8601 date or date-time from 1970 to 9999 (UTC), such as "
        "2026-07-30T23:59:59.999Z, got '0001-01-01'",
        "asOf=9999-12-31T23:59:59.999-14:00": "asOf must be an ISO 8601 date or date-time from 1970 to 9999 "
        "(UTC), such as 2026-07-30T23:59:59.999Z, got '9999-12-31T23:59:59.999-14:00'",
        "maxTokens=%D9%A3": "maxTokens must be an integer from 1 to 200, got '\u0663'",
        "fields=id&exclude=model": "fields and exclude are mutually exclusive",
        "fields=id,cost": "fields: unknown field 'cost'; fields are id, model, createdAt, prompt, message, "
        "finishReason, toolCalls, usage, latencyMs",
        "max_tokens=5": "unknown parameter 'max_tokens'; this route accepts model, finishReason, maxTokens, "
        "prompt, cached, asOf, count, seed, fields, exclude, format, pretty, unwrap",
        "count=2&count=3": "parameter 'count' is given more than once",
    }
    for query, message in cases.items():
        assert await bad(client, f"{LIST}?{query}") == message, query


# --------------------------------------------------------------------------- chunks route


async def test_default_demo_stream(client: Client) -> None:
    body = await get_json(client, CHUNKS)
    data = body["data"]
    assert body["meta"] == {
        "params": {"tokens": 24, "finishReason": "stop", "model": "demo-model-md"},
        "query": "tokens=24&finishReason=stop&model=demo-model-md",
    }
    assert re.fullmatch(r"cmpl_o_s2_[0-9a-f]{8}", data["completionId"])
    assert list(data) == [
        "completionId", "model", "finishReason", "content", "chunkCount", "completionTokens",
        "timeToFirstChunkMs", "totalElapsedMs", "chunks",
    ]  # fmt: skip
    assert data["chunkCount"] == data["completionTokens"] == len(data["chunks"]) == 24
    assert data["content"].endswith(".")
    assert "".join(c["delta"] for c in data["chunks"]) == data["content"]
    assert data["timeToFirstChunkMs"] == data["chunks"][0]["elapsedMs"]
    assert data["totalElapsedMs"] == data["chunks"][-1]["elapsedMs"]
    assert [c["finishReason"] for c in data["chunks"]] == [None] * 23 + ["stop"]
    # The synthesized handle replays the very same stream, and is itself a re-issuable query.
    replay = await get_json(client, f"{CHUNKS}?completionId={data['completionId']}")
    assert replay["data"] == data
    assert replay["meta"]["params"] == {"completionId": data["completionId"]}


async def test_every_list_id_replays_its_record(client: Client) -> None:
    body = await get_json(client, f"{LIST}?seed=2026&count=30")
    replayed = 0
    for record in body["data"]:
        path = f"{CHUNKS}?completionId={record['id']}"
        if record["finishReason"] in ("stop", "length"):
            stream = (await get_json(client, path))["data"]
            assert stream["content"] == record["message"]["content"]
            assert stream["completionTokens"] == record["usage"]["completionTokens"]
            assert stream["totalElapsedMs"] == record["latencyMs"]
            assert (stream["model"], stream["finishReason"]) == (record["model"], record["finishReason"])
            replayed += 1
        else:
            reason = (
                "a tool-call completion"
                if record["finishReason"] == "tool_calls"
                else "a filtered completion"
            )
            assert reason in await bad(client, path)
    assert replayed >= 15


async def test_a_hand_written_id_replays(client: Client) -> None:
    body = await get_json(client, f"{CHUNKS}?completionId=cmpl_18_s2_5f3ac1d2&exclude=chunks")
    assert body["data"]["model"] == "demo-model-md"
    assert body["data"]["finishReason"] == "stop"
    assert (
        body["data"]["completionTokens"] == body["data"]["chunkCount"] == words(body["data"]["content"]) == 44
    )
    assert "chunks" not in body["data"]


async def test_length_stream_stops_mid_sentence(client: Client) -> None:
    data = await get_json(client, f"{CHUNKS}?tokens=24&finishReason=length&model=demo-model-lg&unwrap=true")
    assert re.fullmatch(r"cmpl_o_l3_[0-9a-f]{8}", data["completionId"])
    assert data["content"][-1].isalnum()
    assert data["chunks"][-1]["finishReason"] == "length"
    assert data["timeToFirstChunkMs"] >= 450  # the large model's profile starts slow


async def test_chunks_read_no_clock(client: Client, clock: MovableClock) -> None:
    first = await (await client.get(f"{CHUNKS}?tokens=9")).read()
    clock.now += timedelta(days=400)
    assert await (await client.get(f"{CHUNKS}?tokens=9")).read() == first
    assert b"generatedAt" not in first


async def test_chunks_errors_are_400_never_404(client: Client) -> None:
    cases = {
        "completionId=cmpl_o_s2_f048c398&tokens=3": "completionId is mutually exclusive with tokens, "
        "finishReason and model (the id already encodes them); got tokens",
        "completionId=nope": "completionId 'nope' is not a completion id: expected cmpl_<completionTokens base36>_"
        "<finish code s|l|t|c><model code 1|2|3>_<8 lowercase hex>, 5 to 32 characters",
        "completionId=cmpl_o_t2_a4cb0000": "completionId 'cmpl_o_t2_a4cb0000' decodes to a tool-call completion, "
        "which has no text to stream",
        "completionId=cmpl_0_c1_00000000": "completionId 'cmpl_0_c1_00000000' decodes to a filtered completion "
        "(content_filter), which has no text to stream",
        "completionId=cmpl_0_s1_00000000": "completionId 'cmpl_0_s1_00000000' decodes to an empty completion "
        "(0 tokens), which has no text to stream",
        "completionId=cmpl_5l_s1_00000000": "completionId 'cmpl_5l_s1_00000000' decodes to an over-long "
        "completion (201 tokens, more than the 200 a stream holds)",
        "tokens=0": "tokens must be an integer from 1 to 200, got '0'",
        "finishReason=tool_calls": "finishReason must be one of stop | length, got 'tool_calls'",
        "format=csv": "unknown parameter 'format'; this route accepts completionId, tokens, finishReason, "
        "model, fields, exclude, pretty, unwrap",
        "fields=chunks&exclude=model": "fields and exclude are mutually exclusive",
    }
    for query, message in cases.items():
        assert await bad(client, f"{CHUNKS}?{query}") == message, query
