"""Shared fixtures: a stand served over real HTTP on a free port, and a manual clock."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import ClientResponse, web
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import settings

from tgfake.app import create_app
from tgfake.clock import ManualClock
from tgfake.keys import STAND
from tgfake.options import Options
from tgfake.stand import Stand

# CI (.ci/run sets HYPOTHESIS_PROFILE=ci) replays the same examples every run and never times one: a landing must not
# hang on a random draw or a slow machine. Developers' runs keep exploring new examples.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The pytest plugin and the Gherkin steps, loaded here (pytest only reads pytest_plugins in the top-level
# conftest); addopts has -p no:tgfake so an installed copy's entry point does not register it twice.
pytest_plugins = ["pytester", "tgfake.pytest_plugin", "tgfake.bdd"]

SLOW = (
    "tests/explore/",
    "tests/load/test_bots.py",
    "tests/jsclient/",
    "tests/libraries/",
    "tests/openapi/test_schemathesis.py",
    "tests/plugin/test_readiness.py",
    "tests/record/test_snapshots.py",
    "tests/bench/",
    "tests/e2e/",
)
"""The slow tests (each 10-160 s: real bots in other processes, other libraries, Node, wrk, the fuzzer), marked
``slow`` here: ``pytest -m "not slow"`` skips them on a developer's machine; CI runs them all."""


LANES = 4
"""The workers' shares the slow tests are dealt to (pyproject's ``-n 4``): consecutive slow tests of one module go
to different shares."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the :data:`SLOW` tests and spread them evenly through the run's order.

    Under xdist's ``worksteal`` each worker starts on a contiguous share of that order; left together, the slow
    tests (most of them waiting on a bot, not using a core) would be one worker's share and end the run alone
    (22:44 against 12:58 spread). The order is the same on every worker, as xdist requires.
    """
    slow: list[pytest.Item] = []
    fast: list[pytest.Item] = []
    for item in items:
        path = item.path.relative_to(config.rootpath).as_posix() if item.path.is_relative_to(config.rootpath) else ""
        if path.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
            slow.append(item)
        else:
            fast.append(item)
    if not slow:
        return
    slow = [test for lane in range(LANES) for test in slow[lane::LANES]]  # a module's slow tests to every share
    every = len(items) / len(slow)
    spread: list[pytest.Item] = []
    fast_at = 0
    for k, item in enumerate(slow):
        until = round(k * every) - k  # fast tests before the k-th slow one
        spread.extend(fast[fast_at:until])
        fast_at = max(fast_at, until)
        spread.append(item)
    spread.extend(fast[fast_at:])
    items[:] = spread


class Wire:
    """A test's view of one stand: Bot API calls and sim calls through HTTP, plus the stand object itself."""

    def __init__(self, client: TestClient[Any, Any], token: str = "123:abc") -> None:
        self.client = client
        self.token = token

    @property
    def stand(self) -> Stand:
        app: web.Application | None = self.client.app
        assert app is not None
        return app[STAND]

    async def call(self, method: str, token: str | None = None, **params: Any) -> tuple[int, dict[str, Any]]:
        """A Bot API call sent as a form, the way python-telegram-bot and aiogram send them."""
        data = {k: str(v) for k, v in params.items()}
        resp = await self.client.post(f"/bot{self.token if token is None else token}/{method}", data=data)
        return resp.status, await resp.json()

    async def ok(self, method: str, **params: Any) -> Any:
        status, body = await self.call(method, **params)
        assert status == 200, body
        assert body["ok"] is True
        return body["result"]

    async def refused(self, method: str, status: int, description: str, **params: Any) -> dict[str, Any]:
        got, body = await self.call(method, **params)
        assert (got, body.get("description")) == (status, description), body
        assert body["ok"] is False
        assert body["error_code"] == status
        return body

    async def call_json(self, method: str, body: Any) -> tuple[int, dict[str, Any]]:
        """A Bot API call with a JSON body, the way Telegraf and grammY send them."""
        resp = await self.client.post(f"/bot{self.token}/{method}", json=body)
        return resp.status, await resp.json()

    async def outbox(self, method: str = "") -> list[dict[str, Any]]:
        status, body = await self.sim("GET", "/sim/outbox" + (f"?method={method}" if method else ""))
        assert status == 200, body
        return list(body["calls"])

    async def sim(self, verb: str, path: str, body: Any = None) -> tuple[int, Any]:
        resp: ClientResponse = await self.client.request(verb, path, json=body)
        return resp.status, await resp.json()

    async def say(self, text: str, **fields: Any) -> dict[str, Any]:
        status, body = await self.sim("POST", "/sim/message", {"text": text, **fields})
        assert status == 200, body
        return dict(body)

    async def text(self, chat_id: int = 4242) -> str:
        resp = await self.client.get(f"/sim/chat/{chat_id}", params={"format": "text"})
        return await resp.text()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def options() -> Options:
    return Options(poll_max=2.0)


@pytest_asyncio.fixture
async def wire(options: Options, clock: ManualClock) -> AsyncIterator[Wire]:
    async with TestClient(TestServer(create_app(options, clock=clock))) as client:
        yield Wire(client)


WireFactory = Callable[..., contextlib.AbstractAsyncContextManager[Wire]]


@pytest.fixture
def make_wire(clock: ManualClock) -> WireFactory:
    """Another stand with its own options (``make_wire(token="1:x")``), for tests that need two or a fixed token."""

    @contextlib.asynccontextmanager
    async def open_wire(**options: Any) -> AsyncIterator[Wire]:
        opts = Options(**{"poll_max": 2.0, **options})
        async with TestClient(TestServer(create_app(opts, clock=clock))) as client:
            yield Wire(client)

    return open_wire
