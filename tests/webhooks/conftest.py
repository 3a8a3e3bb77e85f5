"""A small aiohttp app standing in for a bot's webhook endpoint: it records every POST and answers as told."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import os
import socket
import ssl
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.conftest import Wire


@dataclass
class Hit:
    headers: dict[str, str]
    update: dict[str, Any]


@dataclass
class Receiver:
    """``answers`` are used in order (status, headers, JSON body), then ``200 {}``; ``hang`` holds the next request."""

    server: TestServer | None = None
    hits: list[Hit] = field(default_factory=list)
    answers: list[tuple[int, dict[str, str], Any]] = field(default_factory=list)
    hang: bool = False
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def url(self) -> str:
        assert self.server is not None
        return str(self.server.make_url("/hook"))

    def texts(self) -> list[str]:
        return [h.update["message"]["text"] for h in self.hits]

    async def handle(self, request: web.Request) -> web.Response:
        self.hits.append(Hit(dict(request.headers), await request.json()))
        self.arrived.set()
        if self.hang:
            self.hang = False
            await self.release.wait()
        status, headers, body = self.answers.pop(0) if self.answers else (200, {}, {})
        return web.json_response(body, status=status, headers=headers)


@pytest_asyncio.fixture
async def receiver() -> AsyncIterator[Receiver]:
    rec = Receiver()
    app = web.Application()
    app.router.add_post("/hook", rec.handle)
    rec.server = TestServer(app)
    await rec.server.start_server()
    try:
        yield rec
    finally:
        rec.release.set()
        await rec.server.close()


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


async def webhook_view(wire: Wire) -> dict[str, Any]:
    status, body = await wire.sim("GET", "/sim/webhook")
    assert status == 200, body
    return dict(body)


async def wait_webhook(wire: Wire, **query: Any) -> dict[str, Any]:
    """``GET /sim/webhook/wait`` (``delivered=N`` or ``attempts=N``), asserting it did not time out."""
    params = "&".join(f"{k}={v}" for k, v in query.items())
    status, body = await wire.sim("GET", f"/sim/webhook/wait?{params}")
    assert status == 200, body
    return dict(body)


@dataclass(frozen=True)
class SelfSigned:
    """A self-signed certificate for 127.0.0.1 (PEM) and a server TLS context serving it."""

    certificate: bytes
    server: ssl.SSLContext


def self_signed(host: str = "127.0.0.1") -> SelfSigned:
    """What the webhook_ssl example's owner makes with ``openssl req -x509``: a key and a certificate naming the
    address the webhook listens on (made with ``cryptography``; nothing is checked in)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    pem = cert.public_bytes(serialization.Encoding.PEM)
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    with tempfile.TemporaryDirectory() as tmp:
        cert_path, key_path = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
        with open(cert_path, "wb") as out:
            out.write(pem)
        with open(key_path, "wb") as out:
            out.write(key_pem)
        server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.load_cert_chain(cert_path, key_path)
    return SelfSigned(pem, server)
