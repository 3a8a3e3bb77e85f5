"""One app, several models: a host's middleware picks the model per request (one per test session)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from llmstub import REQUEST_MODEL, Model, ModelOptions
from tests.llm.llm_support import LlmStand

Client = TestClient[web.Request, web.Application]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def fixed(day: int) -> ModelOptions:
    return ModelOptions(
        rules=[{"match": "", "answer": f"model {day}"}],
        fixture_clock=lambda: datetime(2026, 7, day, 12, tzinfo=UTC),
    )


@pytest_asyncio.fixture
async def sessions() -> AsyncIterator[tuple[Client, dict[str, Model]]]:
    models = {"a": Model(fixed(1)), "b": Model(fixed(2))}
    host = Model(fixed(3))

    @web.middleware
    async def pick(request: web.Request, handler: Handler) -> web.StreamResponse:
        session = request.headers.get("X-Session")
        if session:
            request[REQUEST_MODEL] = models[session]
        return await handler(request)

    app = web.Application(middlewares=[pick])
    host.register(app)
    models["host"] = host
    async with TestClient(TestServer(app)) as client:
        yield client, models


async def ask(client: Client, session: str | None, prompt: str = "hi") -> str:
    headers = {"X-Session": session} if session else {}
    response = await client.post(
        "/v1/chat/completions", json={"messages": [{"role": "user", "content": prompt}]}, headers=headers
    )
    assert response.status == 200
    text: str = (await response.json())["choices"][0]["message"]["content"]
    return text


async def test_each_session_answers_from_its_own_script(sessions: tuple[Client, dict[str, Model]]) -> None:
    client, models = sessions
    assert [await ask(client, s) for s in ("a", "b", None, "a")] == ["model 1", "model 2", "model 3", "model 1"]
    assert [len(models[name].log()) for name in ("a", "b", "host")] == [2, 1, 1]
    assert [models[name].calls for name in ("a", "b", "host")] == [2, 1, 1]


async def test_the_sim_routes_reach_the_session_model(sessions: tuple[Client, dict[str, Model]]) -> None:
    client, models = sessions
    await ask(client, "a")
    script = await client.put("/sim/llm/script", json=[{"match": "", "answer": "new b"}], headers={"X-Session": "b"})
    assert script.status == 200
    assert [await ask(client, s) for s in ("a", "b")] == ["model 1", "new b"]
    log = await (await client.get("/sim/llm/log", headers={"X-Session": "a"})).json()
    assert [e["response"].count("model 1") for e in log["entries"]] == [1, 1]
    reset = await client.post("/sim/llm/reset", headers={"X-Session": "a"})
    assert reset.status == 200
    assert (len(models["a"].log()), len(models["b"].log())) == (0, 1)


async def test_the_fixtures_read_the_session_models_clock(sessions: tuple[Client, dict[str, Model]]) -> None:
    client, _ = sessions
    days = []
    for session in ("a", "b", None):
        headers = {"X-Session": session} if session else {}
        response = await client.get("/api/llm-completions?count=1&seed=1", headers=headers)
        days.append((await response.json())["meta"]["params"]["asOf"][:10])
    assert days == ["2026-07-01", "2026-07-02", "2026-07-03"]


async def test_quotas_and_request_ids_are_per_session() -> None:
    app = web.Application()
    host = Model(ModelOptions(rpm=1))
    guest = Model(ModelOptions(rpm=1))

    @web.middleware
    async def pick(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.headers.get("X-Session"):
            request[REQUEST_MODEL] = guest
        return await handler(request)

    app.middlewares.append(pick)
    host.register(app)
    async with TestClient(TestServer(app)) as client:
        stand = LlmStand(host, client)
        assert (await stand.chat({"messages": []})).status == 200
        assert (await stand.chat({"messages": []}, headers={"X-Session": "g"})).status == 200
        assert (await stand.chat({"messages": []})).status == 429
        assert (await stand.chat({"messages": []}, headers={"X-Session": "g"})).status == 429
        assert len(host.log()) == len(guest.log()) == 1
        assert host.log()[0].request_id != guest.log()[0].request_id


def text_of(route: str, body: dict[str, Any]) -> str:
    """The answer's text as each route carries it."""
    if route == "/v1/responses":
        return str(body["output"][0]["content"][0]["text"])
    return str(body["content"][0]["text"])


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("/v1/responses", {"model": "m", "input": "hi"}),
        ("/v1/messages", {"model": "c", "max_tokens": 9, "messages": [{"role": "user", "content": "hi"}]}),
    ],
)
async def test_responses_and_messages_are_served_by_the_session_model(
    sessions: tuple[Client, dict[str, Model]], route: str, body: dict[str, Any]
) -> None:
    client, models = sessions
    answers = []
    for session in ("a", "b", None):
        response = await client.post(route, json=body, headers={"X-Session": session} if session else {})
        assert response.status == 200, await response.text()
        answers.append(text_of(route, await response.json()))
    assert answers == ["model 1", "model 2", "model 3"]
    assert [[e.extra["endpoint"] for e in models[n].log()] for n in ("a", "b", "host")] == [[route]] * 3


async def test_stored_responses_belong_to_the_session_model(sessions: tuple[Client, dict[str, Model]]) -> None:
    client, models = sessions
    created = await client.post("/v1/responses", json={"model": "m", "input": "hi"}, headers={"X-Session": "a"})
    response_id = (await created.json())["id"]

    async def status(session: str) -> int:
        answer = await client.get(f"/v1/responses/{response_id}", headers={"X-Session": session})
        return answer.status

    assert [await status("a"), await status("b"), await status("host")] == [200, 404, 404]
    follow = {"model": "m", "input": "more", "previous_response_id": response_id}
    elsewhere = await client.post("/v1/responses", json=follow, headers={"X-Session": "b"})
    assert elsewhere.status == 400
    assert (await elsewhere.json())["error"]["message"] == f"Previous response with id '{response_id}' not found."
    models["b"].reset()
    assert await status("a") == 200  # another model's reset leaves it
    models["a"].reset()
    assert await status("a") == 404
