"""The official openai Node SDK (tests/llm/node, pinned exactly and locked) gets the scripted answers on every
OpenAI route, streamed and not: tests/llm/node/openai_client.mjs runs against a stand and prints what it got.

Without Node or ``npm ci`` at the repository root the test is skipped on a developer's machine and fails in CI.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.llm.llm_support import MakeStand
from tests.node_support import registry_hosts_in_lock, require_node, workspace_lock

NODE_DIR = Path(__file__).parent / "node"
RULES: list[dict[str, Any]] = [
    {"match": "ping", "answer": "pong"},
    {"match": "count", "answer": "one two three"},
    {"match": "knife", "flag": ["violence"]},
    {"match": "order", "transcript": "two pizzas please"},
    {"name": "flaky", "match": "flaky", "steps": [{"status": 429, "answer": "slow down"}, {"answer": "recovered"}]},
    {
        "name": "weather",
        "match": "weather",
        "tools": ["get_weather"],
        "steps": [
            {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"tool_name": "get_weather", "tool_result": "sunny", "answer": "Sunny in Paris."},
        ],
    },
]


def test_the_node_sdk_is_pinned_exactly_and_locked() -> None:
    package = json.loads((NODE_DIR / "package.json").read_text())
    pins: dict[str, str] = package["dependencies"]
    assert list(pins) == ["openai"]
    assert re.fullmatch(r"6\.\d+\.\d+", pins["openai"]), pins  # 6.x: 7.x needs Node 22, Debian's is older
    assert workspace_lock(NODE_DIR) == (pins, pins)  # the root lockfile installs exactly the pin
    assert not registry_hosts_in_lock()  # npm ci resolves by name


@pytest.mark.node
async def test_the_openai_node_sdk_on_every_route(make_llm: MakeStand) -> None:
    require_node(NODE_DIR, "the openai Node SDK test")
    stand = await make_llm(rules=RULES)
    process = await asyncio.create_subprocess_exec(
        "node",
        str(NODE_DIR / "openai_client.mjs"),
        cwd=NODE_DIR,
        env={"OPENAI_BASE_URL": stand.base_url, "PATH": "/usr/local/bin:/usr/bin:/bin"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, stderr.decode()
    got = json.loads(stdout)
    ids = {entry.seq: entry.request_id for entry in stand.model.log()}
    assert got.pop("chat") == {"content": "pong", "requestId": ids[1]}
    assert got.pop("chatStream") == "one two three"
    assert got.pop("chatTool") == {"name": "get_weather", "arguments": '{"city": "Paris"}', "answer": "Sunny in Paris."}
    response = got.pop("responses")
    assert response["text"] == "pong"
    assert response["id"].startswith("resp_tgfake_")
    assert got.pop("responsesStored") == "pong"
    stream = got.pop("responsesStream")
    assert stream == {"text": "one two three", "first": "response.created", "last": "response.completed"}
    assert got.pop("responsesTool") == {
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
        "answer": "Sunny in Paris.",
    }
    assert got.pop("completions") == "pong"
    assert got.pop("completionsStream") == "one two three"
    assert got.pop("embeddings") == [1536, 1536]
    assert got.pop("moderation") is True
    assert got.pop("model") == "gpt-x"
    assert got.pop("image") == "PNG"
    assert got.pop("speech") == "RIFF"
    assert got.pop("transcript") == "two pizzas please"
    failure = got.pop("failure")
    assert failure == {
        "rateLimit": True,
        "status": 429,
        "code": "rate_limit_exceeded",
        "type": "requests",
        "requestId": failure["requestId"],
    }
    assert failure["requestId"] in ids.values()
    assert got.pop("recovered") == "recovered"
    assert got == {}
    endpoints = [entry.extra.get("endpoint") for entry in stand.model.log()]
    assert endpoints.count("/v1/responses") == 4
