"""Sessions over the wire: ``/sim/sessions`` and every route again under ``/s/<id>/``, each with its own world."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import llmstub
from tests.conftest import Wire, WireFactory
from tgfake.app import create_app
from tgfake.clock import ManualClock
from tgfake.keys import SESSIONS
from tgfake.options import Options

TOKEN = "123:abc"
GONE = "session {} not found (ended, expired or never created)"


async def open_session(wire: Wire, **body: Any) -> dict[str, Any]:
    status, got = await wire.sim("POST", "/sim/sessions", body or None)
    assert status == 200, got
    return dict(got)


def under(session: dict[str, Any], path: str) -> str:
    return f"/s/{session['id']}{path}"


async def call(wire: Wire, prefix: str, method: str, **params: Any) -> tuple[int, dict[str, Any]]:
    resp = await wire.client.post(f"{prefix}/bot{TOKEN}/{method}", data={k: str(v) for k, v in params.items()})
    return resp.status, await resp.json()


async def test_a_session_answers_its_id_and_base_urls(wire: Wire) -> None:
    got = await open_session(wire)
    origin = str(wire.client.make_url("/")).rstrip("/")
    url = f"{origin}/s/1"
    assert got == {
        "id": "1",
        "url": url,
        "bot_api_url": url + "/bot",
        "file_url": url + "/file/bot",
        "sim_url": url + "/sim",
        "model_url": None,  # this stand serves no model
        "pinned": False,
        "idle": 0.0,
    }
    assert (await open_session(wire))["id"] == "2"
    status, listed = await wire.sim("GET", "/sim/sessions")
    assert status == 200
    assert [s["id"] for s in listed["sessions"]] == ["1", "2"]
    assert (listed["max_sessions"], listed["idle_expiry"]) == (256, 600.0)


async def test_each_session_has_its_own_world_outbox_and_faults(wire: Wire) -> None:
    one, two = under(await open_session(wire), ""), under(await open_session(wire), "")
    assert (await wire.sim("POST", one + "/sim/message", {"text": "in one"}))[0] == 200
    fault = {"method": "sendMessage", "code": 429, "retry_after": 3}
    assert (await wire.sim("POST", one + "/sim/fault", fault))[0] == 200
    status, body = await call(wire, one, "sendMessage", chat_id=4242, text="reply")
    assert (status, body["description"]) == (429, "Too Many Requests: retry after 3")
    status, body = await call(wire, two, "sendMessage", chat_id=4242, text="reply")
    assert status == 200
    # the root (the default session) saw none of it
    assert await wire.outbox() == []
    assert await wire.text() == ""
    resp = await wire.client.get(one + "/sim/chat/4242", params={"format": "text"})
    assert await resp.text() == "[1] alice: in one\n"
    resp = await wire.client.get(two + "/sim/chat/4242", params={"format": "text"})
    assert await resp.text() == "[1] bot: reply\n"
    status, calls = await wire.sim("GET", two + "/sim/outbox?method=sendMessage")
    assert [c["params"]["text"] for c in calls["calls"]] == ["reply"]
    status, updates = await call(wire, one, "getUpdates", timeout=0)
    assert [u["message"]["text"] for u in updates["result"]] == ["in one"]


async def test_a_reset_touches_only_its_session(wire: Wire) -> None:
    one = under(await open_session(wire), "")
    await wire.say("at the root")
    await wire.sim("POST", one + "/sim/message", {"text": "in the session"})
    assert (await wire.sim("POST", one + "/sim/reset"))[0] == 200
    assert await wire.text() == "[1] alice: at the root\n"
    resp = await wire.client.get(one + "/sim/chat/4242", params={"format": "text"})
    assert await resp.text() == ""
    await wire.sim("POST", one + "/sim/message", {"text": "again"})
    assert (await wire.sim("POST", "/sim/reset"))[0] == 200
    resp = await wire.client.get(one + "/sim/chat/4242", params={"format": "text"})
    assert await resp.text() == "[1] alice: again\n"


async def test_files_download_under_the_session_prefix(wire: Wire) -> None:
    one = under(await open_session(wire), "")
    form = aiohttp.FormData({"chat_id": "4242"})
    form.add_field("document", b"hello", filename="hello.txt")
    resp = await wire.client.post(f"{one}/bot{TOKEN}/sendDocument", data=form)
    sent = await resp.json()
    assert resp.status == 200, sent
    file_id = sent["result"]["document"]["file_id"]
    status, got = await call(wire, one, "getFile", file_id=file_id)
    assert status == 200
    resp = await wire.client.get(f"{one}/file/bot{TOKEN}/{got['result']['file_path']}")
    assert (resp.status, await resp.read()) == (200, b"hello")
    resp = await wire.client.get(f"/file/bot{TOKEN}/{got['result']['file_path']}")  # not the root's file
    assert resp.status == 404


async def test_the_session_clock_moves_alone(wire: Wire) -> None:
    one = under(await open_session(wire), "")
    status, got = await wire.sim("POST", one + "/sim/clock", {"advance": 3600})
    assert (status, got["offset"]) == (200, 3600.0)
    assert (await wire.sim("GET", "/sim/clock"))[1]["offset"] == 0.0


async def test_the_chat_page_is_served_under_the_prefix(wire: Wire) -> None:
    one = under(await open_session(wire), "")
    for path in (one, one + "/"):
        resp = await wire.client.get(path)
        assert resp.status == 200
        assert resp.content_type == "text/html"


async def test_delete_ends_a_session_and_its_routes(wire: Wire) -> None:
    session = await open_session(wire)
    one = under(session, "")
    assert await wire.sim("DELETE", "/sim/sessions/1") == (200, {"ok": True})
    assert await wire.sim("GET", one + "/sim/state") == (404, {"error": GONE.format(1)})
    status, body = await call(wire, one, "getMe")
    assert (status, body) == (404, {"ok": False, "error_code": 404, "description": "Not Found"})
    resp = await wire.client.get(f"{one}/file/bot{TOKEN}/documents/file_1")
    assert resp.status == 404
    assert (await resp.json())["description"] == "Not Found"
    assert await wire.sim("DELETE", "/sim/sessions/1") == (404, {"error": "session 1 not found"})
    assert (await wire.sim("GET", "/sim/sessions"))[1]["sessions"] == []


async def test_ending_a_session_answers_its_held_poll_at_once(make_wire: WireFactory) -> None:
    async with make_wire(poll_max=60.0) as wire:
        one = under(await open_session(wire), "")
        poll = asyncio.create_task(call(wire, one, "getUpdates", timeout=50))
        status, got = await wire.sim("GET", one + "/sim/wait?polling=1&timeout=5")
        assert (status, got) == (200, {"polling": True})
        assert (await wire.sim("DELETE", "/sim/sessions/1"))[0] == 200
        status, body = await asyncio.wait_for(poll, 5)
        assert (status, body) == (200, {"ok": True, "result": []})


async def test_a_named_session(wire: Wire) -> None:
    got = await open_session(wire, id="echo-bot_1")
    assert got["url"].endswith("/s/echo-bot_1")
    assert await wire.sim("POST", "/sim/sessions", {"id": "echo-bot_1"}) == (
        409,
        {"error": "session echo-bot_1 already exists"},
    )
    assert await wire.sim("POST", "/sim/sessions", {"id": "a/b"}) == (
        400,
        {"error": "session id 'a/b' must be 1-64 letters, digits, '-' or '_'"},
    )
    assert await wire.sim("POST", "/sim/sessions", {"id": 7}) == (
        400,
        {"error": "invalid JSON body: id: Input should be a valid string"},
    )


async def test_the_cap_refuses_with_429_until_one_ends(make_wire: WireFactory) -> None:
    async with make_wire(max_sessions=2) as wire:
        await open_session(wire)
        await open_session(wire)
        assert await wire.sim("POST", "/sim/sessions") == (
            429,
            {"error": "too many sessions (2 open): end one with DELETE /sim/sessions/{id}"},
        )
        assert (await wire.sim("DELETE", "/sim/sessions/2"))[0] == 200
        assert (await open_session(wire))["id"] == "3"


async def test_an_idle_session_expires_and_a_used_one_does_not(make_wire: WireFactory, clock: ManualClock) -> None:
    async with make_wire(session_idle=60.0, sessions=("kept",)) as wire:
        idle, used = under(await open_session(wire), ""), under(await open_session(wire), "")
        clock.advance(59)
        assert (await wire.sim("GET", used + "/sim/state"))[0] == 200  # a request is a use
        _, listed = await wire.sim("GET", "/sim/sessions")
        assert {s["id"]: s["idle"] for s in listed["sessions"]} == {"kept": 59.0, "1": 59.0, "2": 0.0}
        clock.advance(1)
        assert await wire.sim("GET", idle + "/sim/state") == (404, {"error": GONE.format(1)})
        assert (await wire.sim("GET", used + "/sim/state"))[0] == 200
        clock.advance(600)
        _, listed = await wire.sim("GET", "/sim/sessions")
        assert [(s["id"], s["pinned"]) for s in listed["sessions"]] == [("kept", True)]  # --session never expires
        assert (await wire.sim("GET", "/s/kept/sim/state"))[0] == 200


async def test_unknown_sessions_and_odd_paths(wire: Wire) -> None:
    assert await wire.sim("GET", "/s/nope/sim/state") == (404, {"error": GONE.format("nope")})
    assert await wire.sim("GET", "/s//sim/state") == (404, {"error": GONE.format("")})
    await open_session(wire)
    status, body = await wire.sim("GET", "/s/1/sim/nothing-here")
    assert (status, body["description"]) == (404, "Not Found")  # the same catch-all as at the root
    status, body = await wire.sim("GET", "/s/1/sim/message")  # wrong verb: the Bot API 404, as at the root
    assert (status, body["description"]) == (404, "Not Found")
    assert (await wire.sim("POST", "/s/1/sim/message", {}))[1] == {"error": "text is empty"}  # sim errors too


async def test_a_session_delivers_its_own_webhook() -> None:
    hits: list[tuple[str, Any]] = []
    arrived = asyncio.Event()

    async def hook(request: web.Request) -> web.Response:
        hits.append((request.path, await request.json()))
        arrived.set()
        return web.json_response({})

    receiver = web.Application()
    receiver.router.add_post("/{name}", hook)
    async with TestServer(receiver) as target, TestClient(TestServer(create_app(Options()))) as client:
        wire = Wire(client)
        one = under(await open_session(wire), "")
        status, body = await call(wire, one, "setWebhook", url=str(target.make_url("/one")))
        assert (status, body["result"]) == (200, True)
        await wire.say("to the root, which has no webhook")
        await wire.sim("POST", one + "/sim/message", {"text": "to the session"})
        await asyncio.wait_for(arrived.wait(), 5)
        assert [(path, update["message"]["text"]) for path, update in hits] == [("/one", "to the session")]
        status, view = await wire.sim("GET", one + "/sim/webhook/wait?delivered=1&timeout=5")
        assert (status, view["pending_update_count"]) == (200, 0)
        root = (await wire.sim("GET", "/sim/webhook"))[1]
        assert root["pending_update_count"] == 1  # the root has no webhook: its update waits for getUpdates
        assert (await wire.sim("DELETE", "/sim/sessions/1"))[0] == 200


@contextlib.asynccontextmanager
async def model_stand(**options: Any) -> AsyncIterator[Wire]:
    model = llmstub.Model(llmstub.ModelOptions(**options))
    async with TestClient(TestServer(create_app(Options(), model=model))) as client:
        yield Wire(client)


async def test_a_session_gets_a_model_built_from_the_root_options() -> None:
    async with model_stand(rules=[{"match": "ping", "answer": "pong"}]) as wire:
        got = await open_session(wire)
        assert got["model_url"] == got["url"] + "/v1"
        app = wire.client.app
        assert app is not None
        session_model = app[SESSIONS].open["1"].model
        assert session_model is not None
        assert [r.answer for r in session_model.rules] == ["pong"]
        resp = await wire.client.get("/s/1/v1/models")
        assert resp.status == 200
        assert (await resp.json())["data"][0]["id"] == llmstub.DEFAULT_MODEL


@pytest.mark.skipif(
    getattr(llmstub, "REQUEST_MODEL", None) is None,
    reason="llmstub does not serve a request's own model yet (llmstub.REQUEST_MODEL lands with the llmstub branch)",
)
async def test_a_session_model_has_its_own_script_and_journal() -> None:
    async with model_stand(rules=[{"match": "ping", "answer": "pong"}]) as wire:
        await open_session(wire)
        status, _ = await wire.sim("PUT", "/s/1/sim/llm/script", [{"match": "ping", "answer": "session pong"}])
        assert status == 200
        for prefix, answer in (("", "pong"), ("/s/1", "session pong")):
            resp = await wire.client.post(
                prefix + "/v1/chat/completions", json={"model": "m", "messages": [{"role": "user", "content": "ping"}]}
            )
            assert resp.status == 200
            assert (await resp.json())["choices"][0]["message"]["content"] == answer
        await wire.client.post("/s/1/v1/chat/completions", json={"messages": [{"role": "user", "content": "x"}]})
        root_log = (await wire.sim("GET", "/sim/llm/log"))[1]
        session_log = (await wire.sim("GET", "/s/1/sim/llm/log"))[1]
        assert (root_log["count"], session_log["count"]) == (1, 2)
        assert (await wire.sim("POST", "/s/1/sim/reset"))[0] == 200  # the session's reset resets its model only
        assert (await wire.sim("GET", "/s/1/sim/llm/log"))[1]["count"] == 0
        assert (await wire.sim("GET", "/sim/llm/log"))[1]["count"] == 1


async def test_a_session_model_answers_with_openai_headers_and_holds_its_own_quota() -> None:
    """A session's ``/v1`` request gets what a root one gets: ``x-request-id``, ``openai-processing-ms``, the
    ``x-ratelimit-*`` headers and the 429 past its quota (the session's model keeps its own window)."""
    chat = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    async with model_stand(answers=["ok"], rpm=1) as wire:
        await open_session(wire)
        for prefix in ("/s/1", ""):
            first = await wire.client.post(prefix + "/v1/chat/completions", json=chat)
            assert first.status == 200
            assert first.headers["x-request-id"].startswith("req_")
            assert int(first.headers["openai-processing-ms"]) >= 0
            assert first.headers["x-ratelimit-remaining-requests"] == "0"
            second = await wire.client.post(prefix + "/v1/chat/completions", json=chat)
            assert second.status == 429
            assert (await second.json())["error"]["code"] == "rate_limit_exceeded"
            assert second.headers["x-request-id"] != first.headers["x-request-id"]
        message = {"model": "claude", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
        anthropic = await wire.client.post("/s/1/v1/messages", json=message)
        assert anthropic.status == 429  # the session's window is spent
        assert anthropic.headers["request-id"].startswith("req_")
        assert (await anthropic.json())["type"] == "error"
