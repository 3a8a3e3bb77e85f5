"""Helpers for the scripted model's tests: the stand handle and SSE/JSON helpers."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import ClientResponse, web
from aiohttp.test_utils import TestClient

from llmstub import Model


@dataclass
class LlmStand:
    """One served model and the ways a test talks to it."""

    model: Model
    client: TestClient[web.Request, web.Application]

    @property
    def base_url(self) -> str:
        """What an OpenAI client takes as its base URL."""
        return str(self.client.make_url("/v1"))

    async def chat(self, body: Any, headers: dict[str, str] | None = None) -> ClientResponse:
        data = body if isinstance(body, str | bytes) else json.dumps(body)
        return await self.client.post("/v1/chat/completions", data=data, headers=headers)

    async def chat_json(
        self, body: Any, status: int = 200, headers: dict[str, str] | None = None
    ) -> dict[str, Any]:
        response = await self.chat(body, headers)
        text = await response.text()
        assert response.status == status, text
        parsed: dict[str, Any] = json.loads(text)
        return parsed

    async def say(self, prompt: str, **extra: Any) -> dict[str, Any]:
        """A one-message completion; returns the parsed answer."""
        return await self.chat_json({"messages": [{"role": "user", "content": prompt}], **extra})

    async def log(self) -> dict[str, Any]:
        response = await self.client.get("/sim/llm/log")
        assert response.status == 200
        parsed: dict[str, Any] = await response.json()
        return parsed


MakeStand = Callable[..., Awaitable[LlmStand]]


def content(answer: dict[str, Any]) -> Any:
    """The message content of a non-streamed answer."""
    return answer["choices"][0]["message"]["content"]


def without_created(text: str) -> str:
    """Mask the wall-clock ``created`` field so an exchange compares byte for byte."""
    return re.sub(r'"created":\d+', '"created":0', text)


def sse_events(text: str) -> list[str]:
    """The ``data:`` payloads of an SSE body, checking the framing on the way."""
    assert text.endswith("\n\n"), text
    events = []
    for block in text.split("\n\n")[:-1]:
        assert block.startswith("data: "), block
        events.append(block.removeprefix("data: "))
    return events


def invalid_request(message: str, param: str | None = None, code: str | None = None) -> dict[str, Any]:
    """OpenAI's 400 envelope, all four keys, as the SDK reads ``e.code`` / ``e.param`` from it."""
    return {"error": {"code": code, "message": message, "param": param, "type": "invalid_request_error"}}


def typed_events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """``(type, data)`` pairs of a Responses or Messages stream, checking each ``event:`` line names its data."""
    out = []
    for block in text.split("\n\n")[:-1]:
        event_line, data_line = block.split("\n")
        data = json.loads(data_line.removeprefix("data: "))
        assert data["type"] == event_line.removeprefix("event: "), block
        out.append((data["type"], data))
    return out
