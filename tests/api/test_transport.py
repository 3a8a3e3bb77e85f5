"""What aiohttp refuses before any route runs, answered in the surface's envelope, over a raw socket.

A request line or header over aiohttp's 8,190 bytes (the limit is kept) is 431 with td's words on the Bot API,
``{"error": ...}`` under /sim and the model's error object under its routes; other unparsable requests are 400.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from llmstub import Model, ModelOptions
from tgfake.app import create_app
from tgfake.server import serve

LONG = "a" * 9000


@pytest_asyncio.fixture
async def port() -> AsyncIterator[int]:
    runner, bound = await serve(create_app(model=Model(ModelOptions(delay=0.0))), "127.0.0.1", 0)
    try:
        yield bound
    finally:
        await runner.cleanup()


async def exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], Any]:
    """Send ``raw`` as is; the status, headers and JSON body of the one answer (the connection is closed)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), timeout=10)
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in header_lines)
    return int(status_line.split()[1]), headers, json.loads(body)


def bot(status: int, description: str) -> dict[str, Any]:
    return {"ok": False, "error_code": status, "description": description}


TOO_LARGE = bot(431, "Request Header Fields Too Large: total headers size exceeded")
SIM_TOO_LARGE = {"error": "request line or header longer than 8190 bytes"}
MODEL_TOO_LARGE = {"error": {"message": "request line or header longer than 8190 bytes"}}
CHUNKED = "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"


@pytest.mark.parametrize(
    ("raw", "status", "body"),
    [
        (f"GET /bot1:a/getMe?x={LONG} HTTP/1.1\r\nHost: x\r\n\r\n", 431, TOO_LARGE),
        (f"POST /bot1:a/sendMessage HTTP/1.1\r\nHost: x\r\nX-Pad: {LONG}\r\n\r\n", 431, TOO_LARGE),
        (f"GET /sim/chats?x={LONG} HTTP/1.1\r\nHost: x\r\n\r\n", 431, SIM_TOO_LARGE),
        (f"GET /sim/outbox HTTP/1.1\r\nHost: x\r\nCookie: {LONG}\r\n\r\n", 431, SIM_TOO_LARGE),
        (f"POST /v1/chat/completions?x={LONG} HTTP/1.1\r\nHost: x\r\n\r\n", 431, MODEL_TOO_LARGE),
        (f"GET /x{LONG} HTTP/1.1\r\nHost: x\r\n\r\n", 431, TOO_LARGE),  # anything else is the Bot API's catch-all
        ("G@T /bot1:a/getMe HTTP/1.1\r\nHost: x\r\n\r\n", 400, bot(400, "Bad Request: wrong request line")),
        ("GET /bot1:a/getMe HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400, bot(400, "Bad Request")),
        ("GET /sim/chats HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400, {"error": "malformed HTTP request"}),
        (f"POST /bot1:a/sendMessage HTTP/1.1\r\nHost: x\r\n{CHUNKED}", 400, bot(400, "Bad Request")),
    ],
    ids=lambda value: value[:30] if isinstance(value, str) else None,
)
async def test_an_unparsable_request_gets_its_surfaces_envelope(port: int, raw: str, status: int, body: Any) -> None:
    got_status, headers, got_body = await exchange(port, raw.encode())
    assert (got_status, got_body) == (status, body)
    assert headers["Content-Type"] == "application/json"
    assert headers.get("Connection") != "keep-alive"


async def test_a_raw_byte_in_the_path_is_a_wrong_request_line(port: int) -> None:
    status, _, body = await exchange(port, b"GET /bot1:a/get\xffMe HTTP/1.1\r\nHost: x\r\n\r\n")
    assert (status, body["description"]) == (400, "Bad Request: wrong request line")


@pytest.mark.parametrize(("length", "status"), [(8190, 200), (8191, 431)])
async def test_the_limit_is_aiohttps_8190_bytes_of_target(port: int, length: int, status: int) -> None:
    target = "/bot1:a/getMe?x="
    target += "a" * (length - len(target))
    got, _, body = await exchange(port, f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    assert (got, body["ok"]) == (status, status == 200)
