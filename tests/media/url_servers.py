"""Servers for the files-by-URL tests: raw HTTP answers (bodies cut short, lying lengths, endless streams) over
loopback, each counting the connections it accepted, and a resolver stub that names hosts without any DNS."""

from __future__ import annotations

import asyncio
import socket
import struct
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from aiohttp.abc import AbstractResolver, ResolveResult

Answer = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
"""Writes the answer to a request (its head already read); the server closes the connection after it."""


@dataclass
class RawServer:
    """A loopback HTTP server of hand-written answers by path; ``connections`` counts every accepted one."""

    answers: dict[str, Answer]
    host: str = "127.0.0.1"
    connections: int = 0
    paths: list[str] = field(default_factory=list)
    port: int = 0

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            path = head.split(b" ", 2)[1].decode()
            self.paths.append(path)
            answer = self.answers.get(path)
            if answer is None:
                writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            else:
                await answer(reader, writer)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()


@asynccontextmanager
async def raw_server(answers: dict[str, Answer], host: str = "127.0.0.1") -> AsyncIterator[RawServer]:
    raw = RawServer(answers, host)
    server = await asyncio.start_server(raw.handle, host, 0)
    raw.port = server.sockets[0].getsockname()[1]
    try:
        yield raw
    finally:
        server.close()
        await server.wait_closed()


def head(length: int | None, ctype: str = "application/pdf", status: str = "200 OK") -> bytes:
    """A response head; ``length`` None is a chunked body."""
    framing = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\n{framing}\r\nConnection: close\r\n\r\n".encode()


def whole(body: bytes, ctype: str = "application/pdf") -> Answer:
    async def answer(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(head(len(body), ctype) + body)

    return answer


def declared(length: int, body: bytes) -> Answer:
    """A Content-Length that is not the body's: more (the connection ends short) or less (bytes follow it)."""

    async def answer(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(head(length) + body)

    return answer


def endless(chunk: bytes, *, stall: bool = False) -> Answer:
    """A chunked body that never ends: chunk after chunk until the client hangs up, or (``stall``) one chunk and
    then nothing until it does."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(head(None))
        frame = b"%x\r\n%s\r\n" % (len(chunk), chunk)
        while True:
            writer.write(frame)
            await writer.drain()
            if stall:
                await reader.read()  # the client's hang-up
                return

    return answer


def redirect(location: str) -> Answer:
    async def answer(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(f"HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n".encode())

    return answer


class StubResolver(AbstractResolver):
    """Names to addresses from a table (no DNS, no /etc/hosts); records every name asked."""

    def __init__(self, table: dict[str, str]) -> None:
        self.table = table
        self.asked: list[str] = []

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        self.asked.append(host)
        address = self.table.get(host)
        if address is None:
            raise OSError(f"stub: no address for {host}")
        fam = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [{"hostname": host, "host": address, "port": port, "family": fam, "proto": 0, "flags": 0}]

    async def close(self) -> None:
        return None


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_of_size(total: int, width: int = 64, height: int = 48) -> bytes:
    """A valid PNG of exactly ``total`` bytes: a small image, padded by a private ancillary chunk before IEND."""
    raw = b"".join(b"\x00" + bytes((x * 3 + y) % 256 for x in range(width * 3)) for y in range(height))
    ihdr = _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    idat = _chunk(b"IDAT", zlib.compress(raw))
    iend = _chunk(b"IEND", b"")
    base = b"\x89PNG\r\n\x1a\n" + ihdr + idat
    pad = total - len(base) - len(iend) - 12
    assert pad >= 0
    return base + _chunk(b"prVt", bytes(i % 251 for i in range(pad))) + iend
