"""Fixtures for the scripted model: an aiohttp app with only the model mounted, served on a free port."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from llmstub import Model, ModelOptions
from tests.llm.llm_support import LlmStand, MakeStand


@pytest_asyncio.fixture
async def make_llm() -> AsyncIterator[MakeStand]:
    """Build stands from ``ModelOptions`` keywords; all are closed at teardown."""
    clients: list[TestClient[web.Request, web.Application]] = []

    async def make(**options: Any) -> LlmStand:
        app = web.Application()
        model = Model(ModelOptions(**options))
        model.register(app)
        client = TestClient(TestServer(app))
        await client.start_server()
        clients.append(client)
        return LlmStand(model, client)

    yield make
    for client in clients:
        await client.close()


@pytest_asyncio.fixture
async def llm(make_llm: MakeStand) -> LlmStand:
    """A model with the library defaults (no rules, no answers, no pause)."""
    return await make_llm()
