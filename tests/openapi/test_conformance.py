"""What the schemathesis run found, pinned through the wire: a request the document forbids is refused, naming
the problem, instead of being served as something else."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from llmstub import Model
from tests.conftest import Wire
from tgfake.app import create_app
from tgfake.clock import ManualClock
from tgfake.options import Options


@pytest.mark.parametrize("shown", ["txt", "JSON", " text"])
async def test_a_chat_format_other_than_json_or_text_is_refused(wire: Wire, shown: str) -> None:
    """It used to answer JSON for any word but ``text``: a typo'd ``txt`` got JSON silently."""
    resp = await wire.client.get("/sim/chat/4242", params={"format": shown})
    assert (resp.status, await resp.json()) == (400, {"error": "format is json or text"})


@pytest.mark.parametrize(("query", "kind"), [("format=json", "application/json"), ("format=", "application/json")])
async def test_format_json_and_empty_are_the_json_view(wire: Wire, query: str, kind: str) -> None:
    await wire.say("hi")
    resp = await wire.client.get(f"/sim/chat/4242?{query}")
    assert (resp.status, resp.content_type) == (200, kind)
    assert [m["text"] for m in (await resp.json())["messages"]] == ["hi"]


@pytest.mark.parametrize("polling", ["yes", "2", "True"])
async def test_a_polling_value_other_than_a_flag_is_refused(wire: Wire, polling: str) -> None:
    """It used to wait for calls instead (any value but ``1``/``true``), so ``polling=yes`` timed out oddly."""
    resp = await wire.client.get("/sim/wait", params={"polling": polling, "timeout": "0"})
    assert (resp.status, await resp.json()) == (400, {"error": "polling is 1, true, 0 or false"})


async def test_a_malformed_since_is_refused_while_waiting_for_polling(wire: Wire) -> None:
    """It was read only when waiting for calls: ``polling=1&since=3x`` waited out its timeout instead."""
    resp = await wire.client.get("/sim/wait", params={"polling": "1", "since": "3x", "timeout": "5"})
    assert (resp.status, await resp.json()) == (400, {"error": "since must be an integer"})


@pytest.mark.parametrize("polling", ["0", "false", ""])
async def test_polling_off_waits_for_calls(wire: Wire, polling: str) -> None:
    resp = await wire.client.get("/sim/wait", params={"polling": polling, "timeout": "0"})
    assert (resp.status, await resp.json()) == (408, {"error": "timed out after 0s waiting for 1 calls (saw 0)"})


NOT_INT = "Input should be a valid integer"


@pytest.fixture
async def model_wire(clock: ManualClock) -> AsyncIterator[Wire]:
    async with TestClient(TestServer(create_app(Options(), model=Model(), clock=clock))) as client:
        yield Wire(client)


@pytest.mark.parametrize(
    ("rule", "error"),
    [
        ({"fault": {"kind": "cut", "after_chunks": False}}, f"rules[0].fault.after_chunks: {NOT_INT}"),
        ({"fault": {"kind": "cut", "after_chunks": "2"}}, f"rules[0].fault.after_chunks: {NOT_INT}"),
        ({"repeat_last": 1}, "rules[0].repeat_last: Input should be a valid boolean"),
    ],
)
async def test_script_fields_are_typed_strictly(model_wire: Wire, rule: dict[str, Any], error: str) -> None:
    """The rules used to coerce (``false`` as 0 chunks, ``1`` as true), which the document's types do not allow."""
    status, body = await model_wire.sim("PUT", "/sim/llm/script", [{"match": "", "answer": "x", **rule}])
    assert (status, body) == (400, {"error": error})


async def test_a_typed_script_is_taken(model_wire: Wire) -> None:
    rule = {"match": "", "answer": "x", "fault": {"kind": "cut", "after_chunks": 1}}
    assert await model_wire.sim("PUT", "/sim/llm/script", [rule]) == (200, {"ok": True, "rules": 1})


@pytest.mark.parametrize("ref", ["²", "-¹", "٣"])
async def test_a_bot_named_by_a_non_ascii_digit_is_not_found(wire: Wire, ref: str) -> None:
    """``str.isdigit`` takes ``²``, ``int`` does not: naming such a bot was a 500. A body's ``bot`` is a username
    or digits by the model's pattern, so there it is a 400 naming the field."""
    resp = await wire.client.get("/sim/chats", params={"bot": ref})
    assert (resp.status, await resp.json()) == (404, {"error": f"bot {ref} not found"})
    status, body = await wire.sim("POST", "/sim/message", {"text": "hi", "bot": ref})
    assert (status, body["error"].split(": String should")[0]) == (400, "invalid JSON body: bot")


async def test_a_bot_named_by_its_id_with_blanks_or_a_sign_is_found(wire: Wire) -> None:
    bot_id = wire.stand.default_bot.id
    for ref in (f" {bot_id} ", f"+{bot_id}", str(bot_id)):
        resp = await wire.client.get("/sim/chats", params={"bot": ref})
        assert resp.status == 200, (ref, await resp.text())
