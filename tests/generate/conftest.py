"""Shared fixtures: the fixture routes on a bare app with a movable clock, and a built example dataset."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from llmstub.generate import Dataset, register_fixtures
from llmstub.generate.conversations import EXAMPLE_SOURCE, build


class MovableClock:
    """A clock tests set by hand, so dates in bodies are predictable without sleeping."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock(datetime(2026, 7, 30, 15, 14, 8, tzinfo=UTC))


@pytest.fixture
async def client(clock: MovableClock) -> AsyncIterator[TestClient[web.Request, web.Application]]:
    app = web.Application()
    register_fixtures(app, clock=clock)
    async with TestClient(TestServer(app)) as test_client:
        yield test_client


@pytest.fixture
def example_dataset(tmp_path: Path) -> Iterator[Dataset]:
    path = tmp_path / "example.sqlite"
    build(json.loads(EXAMPLE_SOURCE.read_text(encoding="utf-8")), path)
    dataset = Dataset(path)
    yield dataset
    dataset.close()
