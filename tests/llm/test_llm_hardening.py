"""Hostile bodies meet one decoding edge: each class is a 400 in OpenAI's shape, and nothing is stored.

Issue 14 found JSON nested ~1000 deep answered 500 (RecursionError), a lone surrogate in a prompt
answered 500 and, in ``model``, poisoning every later ``GET /sim/llm/log``. Each case here goes
through the wire and then checks the journal still reads.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.llm.llm_support import LlmStand, MakeStand, invalid_request

DEEP = "[" * 1000 + "]" * 1000
CHAT = "/v1/chat/completions"
LEGACY = "/v1/completions"


def chat_with(value: str | bytes) -> bytes:
    """A chat body whose prompt is ``value`` spliced in as raw JSON text."""
    raw = value.encode() if isinstance(value, str) else value
    return b'{"messages":[{"role":"user","content":' + raw + b"}]}"


def legacy_with(value: bytes) -> bytes:
    return b'{"prompt":' + value + b"}"


LONE = "request body holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is not a character"
PROMPTS: list[tuple[bytes, str]] = [
    (DEEP.encode(), "request body nests arrays and objects deeper than 64 levels"),
    (b'"\\ud800"', LONE),
    (b'"a\\udfffb"', LONE),
    (b'"\\ud83d"', LONE),  # a high surrogate with no low one after it
    (b'"caf\xe9"', "request body is not valid UTF-8 (byte {at})"),
    (b"NaN", "request body holds NaN, which is not JSON"),
    (b"-Infinity", "request body holds -Infinity, which is not JSON"),
    (b"1e999", "request body holds a number too large for a double: 1e999"),
    (b"9" * 5000, "invalid JSON body"),
]


@pytest.mark.parametrize("build", [chat_with, legacy_with], ids=["chat", "legacy"])
@pytest.mark.parametrize(("value", "message"), PROMPTS)
async def test_hostile_bodies_are_400_and_the_journal_still_reads(
    llm: LlmStand, build: Any, value: bytes, message: str
) -> None:
    body = build(value)
    path = CHAT if build is chat_with else LEGACY
    response = await llm.client.post(path, data=body, headers={"Content-Type": "application/json"})
    assert response.status == 400, await response.text()
    expected = message.format(at=body.find(b"\xe9"))
    assert await response.json() == invalid_request(expected)
    assert response.headers["x-request-id"].startswith("req_")
    log = await llm.log()
    assert (log["calls"], log["count"]) == (0, 0)


async def test_a_surrogate_in_a_journaled_field_is_refused_and_the_log_reads(llm: LlmStand) -> None:
    response = await llm.client.post(CHAT, data=b'{"model":"\\udfff","messages":[]}')
    assert response.status == 400
    assert await response.json() == invalid_request(LONE)
    await llm.say("after")
    assert [e["model"] for e in (await llm.log())["entries"]] == [""]


@pytest.mark.parametrize(("depth", "status"), [(61, 200), (62, 400)])
async def test_nesting_up_to_64_levels_is_served(llm: LlmStand, depth: int, status: int) -> None:
    content = "[" * depth + '"deep"' + "]" * depth  # inside the body, messages and the message: 3 levels
    response = await llm.client.post(CHAT, data=chat_with(content))
    assert response.status == status, await response.text()


async def test_a_surrogate_pair_is_a_character_and_round_trips(llm: LlmStand) -> None:
    answer = await llm.chat_json(chat_with('"\\ud83d\\ude00"').decode())
    assert answer["choices"][0]["message"]["content"] == "You said: \U0001f600"
    assert (await llm.log())["entries"][0]["messages"][0]["content"] == "\U0001f600"


async def test_an_escaped_backslash_before_u_is_not_a_surrogate(llm: LlmStand) -> None:
    answer = await llm.chat_json(chat_with('"\\\\ud800"').decode())
    assert answer["choices"][0]["message"]["content"] == "You said: \\ud800"


async def test_the_script_route_refuses_the_same_classes(llm: LlmStand) -> None:
    cases = {
        DEEP.encode(): "invalid JSON: the script nests arrays and objects deeper than 64 levels",
        b'[{"match":"\\ud800","answer":"x"}]': "invalid JSON: the script holds a lone UTF-16 surrogate "
        "(\\ud800-\\udfff), which is not a character",
        b'[{"match":"\xff","answer":"x"}]': "invalid JSON: the script is not valid UTF-8 (byte 11)",
        b'[{"match":"a","answer":"x","n":Infinity}]': "invalid JSON: the script holds Infinity, which is not JSON",
    }
    for body, message in cases.items():
        response = await llm.client.put("/sim/llm/script", data=body)
        assert response.status == 400
        assert await response.json() == {"error": message}
    assert llm.model.rules == []


async def raw_request(llm: LlmStand, head: bytes, body: bytes) -> tuple[int, bytes]:
    """Send bytes aiohttp's client would refuse to build (a header that is not UTF-8)."""
    server = llm.client.server
    reader, writer = await asyncio.open_connection(server.host, server.port)
    writer.write(head + b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    status = int(answer.split(b" ", 2)[1])
    return status, answer.partition(b"\r\n\r\n")[2]


async def test_a_profile_header_that_is_not_utf8_is_400(llm: LlmStand) -> None:
    head = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Tgfake-Profile: caf\xe9\r\n"
    status, body = await raw_request(llm, head, b'{"messages":[]}')
    assert status == 400
    assert json.loads(body) == invalid_request("header X-Tgfake-Profile is not valid UTF-8")
    assert (await llm.log())["count"] == 0


async def test_a_client_header_that_is_not_utf8_is_400(make_llm: MakeStand) -> None:
    stand = await make_llm(client_header="X-Test-Client")
    head = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Test-Client: \xff\xfe\r\n"
    status, body = await raw_request(stand, head, b'{"messages":[]}')
    assert status == 400
    assert json.loads(body) == invalid_request("header X-Test-Client is not valid UTF-8")


async def test_a_rules_file_keeps_tool_arguments_byte_for_byte(llm: LlmStand) -> None:
    script = b'[{"match": "book", "tool": {"name": "book", "arguments": {"seats":2,  "note" : "caf\\u00e9"}}}]'
    response = await llm.client.put("/sim/llm/script", data=script)
    assert response.status == 200
    answer: dict[str, Any] = await llm.say("book a table")
    call = answer["choices"][0]["message"]["tool_calls"][0]
    assert call["function"]["arguments"] == '{"seats":2,  "note" : "caf\\u00e9"}'
    assert json.loads(call["function"]["arguments"]) == {"seats": 2, "note": "café"}
