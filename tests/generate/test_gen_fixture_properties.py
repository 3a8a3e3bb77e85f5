"""Every invariant of seed 003, as properties over many seeds and parameter sets (hypothesis)."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmstub.generate import Generated, generate_answer
from llmstub.generate.fixtures import (
    CHEAPEST_TOOL_COST,
    FixtureError,
    build_stream,
    decode_id,
    generate_records,
    parse_chunks_query,
    parse_list_query,
)

NOW = datetime(2026, 7, 30, 15, 14, 8, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[2]
MODEL_CODE = {"demo-model-sm": "1", "demo-model-md": "2", "demo-model-lg": "3"}
FINISH_CODE = {"stop": "s", "length": "l", "tool_calls": "t", "content_filter": "c"}

prompts = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=200).filter(
    lambda p: bool(p.split())
)


@st.composite
def list_queries(draw: st.DrawFn) -> list[tuple[str, str]]:
    pairs = [("seed", str(draw(st.integers(0, 2**53 - 1)))), ("count", str(draw(st.integers(1, 25))))]
    optional: dict[str, st.SearchStrategy[str]] = {
        "model": st.sampled_from(list(MODEL_CODE)),
        "finishReason": st.sampled_from(list(FINISH_CODE)),
        "maxTokens": st.integers(1, 200).map(str),
        "prompt": prompts,
        "cached": st.sampled_from(["true", "false"]),
        "asOf": st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2100, 1, 1)).map(
            lambda d: d.isoformat() + "Z"
        ),
    }
    for name, strategy in optional.items():
        if draw(st.booleans()):
            pairs.append((name, draw(strategy)))
    return pairs


def check_stream(stream: dict[str, Any]) -> None:
    chunks = stream["chunks"]
    assert "".join(c["delta"] for c in chunks) == stream["content"]
    assert stream["chunkCount"] == len(chunks) == stream["completionTokens"] == len(stream["content"].split())
    assert [c["index"] for c in chunks] == list(range(len(chunks)))
    assert chunks[0]["delta"] == chunks[0]["delta"].strip() != ""
    for chunk in chunks[1:]:
        assert chunk["delta"].startswith(" ")
        assert chunk["delta"][1:] == chunk["delta"][1:].strip() != ""
    times = [c["elapsedMs"] for c in chunks]
    assert all(a < b for a, b in itertools.pairwise(times))
    assert stream["timeToFirstChunkMs"] == times[0] > 0
    assert stream["totalElapsedMs"] == times[-1]
    assert [c["finishReason"] for c in chunks] == [None] * (len(chunks) - 1) + [stream["finishReason"]]
    if stream["finishReason"] == "stop":
        assert stream["content"].endswith(".")
        assert stream["content"].count(".") >= 1
    else:
        assert stream["content"][-1].isalnum()


@settings(max_examples=80, deadline=None, database=None)
@given(list_queries())
def test_every_record_is_coherent(pairs: list[tuple[str, str]]) -> None:
    params = dict(pairs)
    max_tokens = int(params.get("maxTokens", 64))
    if params.get("finishReason") == "tool_calls" and max_tokens < CHEAPEST_TOOL_COST:
        with pytest.raises(FixtureError, match="needs maxTokens of at least"):
            parse_list_query(pairs, NOW)
        return
    query = parse_list_query(pairs, NOW)
    records = generate_records(query)
    assert records == generate_records(parse_list_query(pairs, NOW))  # same seed, same records
    assert len(records) == int(params["count"])
    assert len({r["id"] for r in records}) == len(records)
    for index, record in enumerate(records):
        usage, finish, content = record["usage"], record["finishReason"], record["message"]["content"]
        handle = decode_id(record["id"])
        assert record["id"].endswith(f"{index:04x}")
        assert (handle.tokens, handle.finish_reason, handle.model) == (
            usage["completionTokens"],
            finish,
            record["model"],
        )
        assert record["model"] == params.get("model", record["model"])
        assert finish == params.get("finishReason", finish)
        assert record["prompt"] == params.get("prompt", record["prompt"])
        assert usage["promptTokens"] == len(record["prompt"].split()) >= 1
        assert 0 <= usage["cachedPromptTokens"] <= usage["promptTokens"]
        if params.get("cached") == "true":
            assert usage["cachedPromptTokens"] >= 1
        if params.get("cached") == "false":
            assert usage["cachedPromptTokens"] == 0
        assert usage["totalTokens"] == usage["promptTokens"] + usage["completionTokens"]
        assert 0 <= usage["completionTokens"] <= max_tokens
        as_of = query.as_of
        created = datetime.fromisoformat(record["createdAt"])
        assert as_of - timedelta(days=7) < created <= as_of
        assert (record["toolCalls"] is not None) == (finish == "tool_calls")
        if finish == "tool_calls":
            assert max_tokens >= CHEAPEST_TOOL_COST
            assert content == ""
            assert 1 <= len(record["toolCalls"]) <= 2
            for call in record["toolCalls"]:
                assert isinstance(json.loads(call["arguments"]), dict)
            cost = sum(2 + math.ceil(len(c["arguments"]) / 4) for c in record["toolCalls"])
            assert usage["completionTokens"] == cost
        elif finish == "content_filter":
            assert content == ""
            assert usage["completionTokens"] == 0
        else:
            words = len(content.split())
            assert words == usage["completionTokens"]
            if finish == "length":
                assert words == max_tokens
                assert content[-1].isalnum()
            else:
                assert content.endswith(".")
                assert words < max_tokens or max_tokens == 1
            stream = build_stream(handle)
            check_stream(stream)
            assert stream["content"] == content
            assert stream["totalElapsedMs"] == record["latencyMs"]
        assert record["latencyMs"] > 0


@settings(max_examples=60, deadline=None, database=None)
@given(list_queries())
def test_the_mix_drops_tool_calls_below_the_cheapest_fixture(pairs: list[tuple[str, str]]) -> None:
    pairs = [(k, v) for k, v in pairs if k not in ("finishReason", "maxTokens", "count")]
    pairs += [("maxTokens", str(CHEAPEST_TOOL_COST - 1)), ("count", "100")]
    records = generate_records(parse_list_query(pairs, NOW))
    assert all(r["finishReason"] != "tool_calls" for r in records)


@settings(max_examples=80, deadline=None, database=None)
@given(
    tokens=st.integers(1, 200),
    finish=st.sampled_from(["stop", "length"]),
    model=st.sampled_from(list(MODEL_CODE)),
    tail=st.from_regex(r"[0-9a-f]{8}", fullmatch=True),
)
def test_any_handle_replays_deterministically(tokens: int, finish: str, model: str, tail: str) -> None:
    def base36(n: int) -> str:
        digits = ""
        while True:
            n, r = divmod(n, 36)
            digits = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + digits
            if n == 0:
                return digits

    handle_id = f"cmpl_{base36(tokens)}_{FINISH_CODE[finish]}{MODEL_CODE[model]}_{tail}"
    stream = build_stream(parse_chunks_query([("completionId", handle_id)]).handle)
    check_stream(stream)
    assert (stream["completionTokens"], stream["finishReason"], stream["model"]) == (tokens, finish, model)
    assert stream == build_stream(decode_id(handle_id))
    trio = parse_chunks_query([("tokens", str(tokens)), ("finishReason", finish), ("model", model)])
    check_stream(build_stream(trio.handle))
    assert decode_id(trio.handle.id) == trio.handle


def test_same_seed_same_records_in_another_process() -> None:
    pairs = [("seed", "42"), ("count", "20"), ("asOf", "2026-07-30")]
    here = generate_records(parse_list_query(pairs, NOW))
    here_stream = build_stream(decode_id("cmpl_18_s2_5f3ac1d2"))
    here_answer = generate_answer(mode="random", prompt="Hi there", max_tokens=150, seed=7)
    script = (
        "import json, sys\n"
        "from datetime import UTC, datetime\n"
        "from llmstub.generate import generate_answer\n"
        "from llmstub.generate.fixtures import build_stream, decode_id, generate_records, parse_list_query\n"
        f"pairs = {pairs!r}\n"
        "now = datetime(2001, 1, 1, tzinfo=UTC)\n"
        "json.dump([generate_records(parse_list_query(pairs, now)), "
        "build_stream(decode_id('cmpl_18_s2_5f3ac1d2')),\n"
        "generate_answer(mode='random', prompt='Hi there', max_tokens=150, seed=7).text], sys.stdout)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={"PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)},
    )
    assert isinstance(here_answer, Generated)
    assert json.loads(done.stdout) == [here, here_stream, here_answer.text]


@settings(max_examples=50, deadline=None, database=None)
@given(seed=st.integers(0, 2**53 - 1), prompt=prompts, finish=st.sampled_from(list(FINISH_CODE)))
def test_the_prompt_never_changes_the_completion(seed: int, prompt: str, finish: str) -> None:
    base = [("seed", str(seed)), ("count", "5"), ("finishReason", finish)]
    plain = generate_records(parse_list_query(base, NOW))
    prompted = generate_records(parse_list_query([*base, ("prompt", prompt)], NOW))
    for a, b in zip(plain, prompted, strict=True):
        assert b["prompt"] == prompt
        assert (a["id"], a["message"], a["toolCalls"], a["latencyMs"]) == (
            b["id"], b["message"], b["toolCalls"], b["latencyMs"],
        )  # fmt: skip
