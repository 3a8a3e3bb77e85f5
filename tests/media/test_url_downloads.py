"""Files by URL are read whole or refused, after the call's checks, and only from where ``--url-files`` allows.

Each server here is a loopback one of the test's own (tests/media/url_servers.py) that counts the connections it
accepted; names are resolved by a stub, so no test ever contacts an address the policy refuses.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import tracemalloc
from collections.abc import Callable

import aiohttp
import pytest
from aiohttp import web
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import Wire, WireFactory
from tests.media.url_servers import (
    Answer,
    StubResolver,
    declared,
    endless,
    head,
    png_of_size,
    raw_server,
    redirect,
    whole,
)
from tgfake.keys import URL_FETCHER
from tgfake.urlfiles import MAX_REDIRECTS, MAX_URL_FILE, UrlFetcher, address_allowed, download

FAILED = "Bad Request: failed to get HTTP URL content"
TOO_BIG = "Bad Request: file is too big"
PDF_3MB = b"%PDF-1.4\n" + bytes(i % 251 for i in range(3_145_728 - 9))
PNG_1MB = png_of_size(1_048_665)


def fetcher(wire: Wire) -> UrlFetcher:
    app = wire.client.app
    assert app is not None
    found: UrlFetcher = app[URL_FETCHER]
    return found


def chunked(body: bytes, ctype: str = "application/pdf") -> Answer:
    """The body in 64 KiB chunks with no Content-Length, each written as the client reads."""

    async def answer(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(head(None, ctype))
        for at in range(0, len(body), 64 << 10):
            part = body[at : at + (64 << 10)]
            writer.write(b"%x\r\n%s\r\n" % (len(part), part))
            await writer.drain()
        writer.write(b"0\r\n\r\n")

    return answer


async def served_back(wire: Wire, file_id: str) -> bytes:
    path = (await wire.ok("getFile", file_id=file_id))["file_path"]
    resp = await wire.client.get(f"/file/bot{wire.token}/{path}")
    assert resp.status == 200
    return await resp.read()


# --- read whole --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("framing", [whole, chunked])
async def test_a_3_mb_document_is_stored_whole(wire: Wire, framing: Callable[[bytes], Answer]) -> None:
    """POST sendDocument document=http://127.0.0.1:P/f.pdf (3,145,728 bytes, by Content-Length or chunked) ->
    200, file_size 3145728, and /file/bot<token>/<path> serves the very bytes."""
    async with raw_server({"/f.pdf": framing(PDF_3MB)}) as files:
        sent = await wire.ok("sendDocument", chat_id=4242, document=files.url("/f.pdf"))
    document = sent["document"]
    assert (document["file_size"], document["file_name"], document["mime_type"]) == (
        3_145_728,
        "f.pdf",
        "application/pdf",
    )
    assert await served_back(wire, document["file_id"]) == PDF_3MB


async def test_a_1_mb_png_is_stored_whole(wire: Wire) -> None:
    """POST sendPhoto photo=http://127.0.0.1:P/big.png (a 1,048,665-byte PNG) -> 200, file_size 1048665."""
    async with raw_server({"/big.png": whole(PNG_1MB, "image/png")}) as files:
        sent = await wire.ok("sendPhoto", chat_id=4242, photo=files.url("/big.png"))
    [size] = sent["photo"]
    assert (size["width"], size["height"], size["file_size"]) == (64, 48, 1_048_665)
    assert await served_back(wire, size["file_id"]) == PNG_1MB


# --- or refused --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "description"),
    [
        (endless(b"x" * (64 << 10)), TOO_BIG),  # chunk after chunk: refused once past 20 MB, counted
        (declared(25 << 20, b"%PDF-1.4\n"), TOO_BIG),  # a 25 MB document, refused by its Content-Length
        (chunked(b"%PDF-1.4\n" + bytes(25 << 20)), TOO_BIG),  # 25 MB with no length given, counted
        (declared(100_000, b"%PDF-1.4\n" + bytes(50_000)), FAILED),  # shorter than its Content-Length
        (declared(1_000, b"%PDF-1.4\n" + bytes(100_000)), FAILED),  # longer than its Content-Length
    ],
    ids=["endless", "25mb-declared", "25mb-chunked", "short", "lying-length"],
)
async def test_a_body_not_read_whole_is_refused(wire: Wire, answer: Answer, description: str) -> None:
    async with raw_server({"/f.pdf": answer}) as files:
        await wire.refused("sendDocument", 400, description, chat_id=4242, document=files.url("/f.pdf"))
    assert wire.stand.world.files == {}


async def test_broken_chunks_are_failed_to_get(wire: Wire) -> None:
    async def broken(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(head(None) + b"9\r\n%PDF-1.4\n\r\nzz\r\nnot a chunk")

    async with raw_server({"/f.pdf": broken}) as files:
        await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document=files.url("/f.pdf"))


async def test_a_body_that_stalls_is_failed_to_get_within_the_bound(wire: Wire) -> None:
    """One chunk, then nothing: the download's bound (here 0.5 s) ends it, as Telegram gives up on a slow URL."""
    fetcher(wire).timeout = 0.5
    async with raw_server({"/f.pdf": endless(b"%PDF-1.4\n", stall=True)}) as files:
        await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document=files.url("/f.pdf"))


async def test_more_than_five_redirects_are_failed_to_get(wire: Wire) -> None:
    async with raw_server({"/loop": redirect("/loop"), "/hop": redirect("/f.pdf"), "/f.pdf": whole(PDF_3MB)}) as files:
        await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document=files.url("/loop"))
        assert files.paths == ["/loop"] * (MAX_REDIRECTS + 1)
        sent = await wire.ok("sendDocument", chat_id=4242, document=files.url("/hop"))
    assert (sent["document"]["file_name"], sent["document"]["file_size"]) == ("hop", len(PDF_3MB))


async def test_a_20_mb_download_holds_the_body_once() -> None:
    """tracemalloc's peak over one 20 MB download is the body and little more (reported by the helper)."""
    body = b"%PDF-1.4\n" + bytes(MAX_URL_FILE - 9)

    async def paced(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(head(len(body)))
        view = memoryview(body)
        for at in range(0, len(body), 64 << 10):
            writer.write(view[at : at + (64 << 10)])
            await writer.drain()

    async with raw_server({"/f.pdf": paced}) as files, aiohttp.ClientSession() as session:
        tracemalloc.start()
        try:
            got = await download(session, files.url("/f.pdf"))
            _now, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert not isinstance(got, Exception)
    assert len(got.data) == MAX_URL_FILE
    print(f"peak {peak} bytes for a {MAX_URL_FILE}-byte body ({peak / MAX_URL_FILE:.2f}x)")
    assert peak < MAX_URL_FILE * 1.5


# --- the call's checks come first --------------------------------------------------------------------------------


async def test_a_wrong_token_never_connects(make_wire: WireFactory) -> None:
    """With --token 123:RIGHT, POST /bot123:WRONG/sendPhoto photo=http://127.0.0.1:P/slow -> 401 Unauthorized at
    once; the server never sees a connection. So with no chat_id, an unknown chat, a person who blocked the bot."""
    async with make_wire(token="123:RIGHT") as wire, raw_server({"/slow": endless(b"x", stall=True)}) as files:
        wire.token = "123:RIGHT"
        slow = files.url("/slow")
        status, body = await wire.call("sendPhoto", token="123:WRONG", chat_id=4242, photo=slow)
        assert (status, body["description"]) == (401, "Unauthorized")
        await wire.refused("sendPhoto", 400, "Bad Request: chat_id is empty", photo=slow)
        await wire.refused("sendPhoto", 400, "Bad Request: chat not found", chat_id="nobody", photo=slow)
        album = json.dumps([{"type": "photo", "media": slow}, {"type": "photo", "media": slow}])
        await wire.refused("sendMediaGroup", 400, "Bad Request: chat not found", chat_id=0, media=album)
        await wire.say("/start")
        status, answer = await wire.sim("POST", "/sim/block", {"user": "alice"})
        assert status == 200, answer
        await wire.refused("sendPhoto", 403, "Forbidden: bot was blocked by the user", chat_id=4242, photo=slow)
        edit = json.dumps({"type": "photo", "media": slow})
        await wire.refused(
            "editMessageMedia", 400, "Bad Request: message to edit not found", chat_id=-100123, message_id=9, media=edit
        )
        assert files.connections == 0
        fetcher(wire).timeout = 0.5  # the right call does connect (and then gives up on the stalled body)
        await wire.refused("sendPhoto", 400, FAILED, chat_id=-100123, photo=slow)
        assert files.connections == 1


async def test_a_webhook_answer_is_checked_before_its_download(wire: Wire) -> None:
    """A webhook's answer {"method": "sendPhoto", "chat_id": 0, "photo": <url>} is refused (chat not found)
    without a connection to the URL; the same answer to chat 4242 downloads it."""
    async with raw_server({"/cat.png": whole(PNG_1MB, "image/png")}) as files:
        chat = {"id": 0}

        async def hook(_request: web.Request) -> web.Response:
            return web.json_response({"method": "sendPhoto", "chat_id": chat["id"], "photo": files.url("/cat.png")})

        app = web.Application()
        app.router.add_post("/hook", hook)
        async with contextlib.AsyncExitStack() as stack:
            runner = web.AppRunner(app)
            await runner.setup()
            stack.push_async_callback(runner.cleanup)
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            await wire.ok("setWebhook", url=f"http://127.0.0.1:{port}/hook")
            await wire.say("one")
            status, view = await wire.sim("GET", "/sim/webhook/wait?delivered=1")
            assert status == 200, view
            assert [d.get("reply_status") for d in view["deliveries"]] == [400]
            assert files.connections == 0
            chat["id"] = 4242
            await wire.say("two")
            status, view = await wire.sim("GET", "/sim/webhook/wait?delivered=2")
            assert [d.get("reply_status") for d in view["deliveries"]] == [400, 200]
            assert files.connections == 1


# --- where the stand may connect (--url-files) -------------------------------------------------------------------


async def test_a_name_resolving_to_the_metadata_address_is_refused(wire: Wire) -> None:
    """metadata.test resolves (by the stub) to 169.254.169.254: refused before any connection; files.test to
    127.0.0.1 is fetched, so the stub is the resolver used."""
    stub = StubResolver({"metadata.test": "169.254.169.254", "files.test": "127.0.0.1", "ula.test": "fd00::1"})
    fetcher(wire).resolver = stub
    async with raw_server({"/f.pdf": whole(PDF_3MB), "/away": redirect("http://metadata.test/latest")}) as files:
        await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document="http://metadata.test/latest")
        await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document="http://ula.test/f.pdf")
        await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document=files.url("/away"))
        assert stub.asked == ["metadata.test", "ula.test", "metadata.test"]
        assert files.paths == ["/away"]  # the redirect's target is refused once resolved
        sent = await wire.ok("sendDocument", chat_id=4242, document=f"http://files.test:{files.port}/f.pdf")
    assert sent["document"]["file_size"] == len(PDF_3MB)


@pytest.mark.parametrize(
    "target",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/f.pdf",
        "http://[fe80::1]/f.pdf",
        "http://[::ffff:169.254.169.254]/f.pdf",
        "http://100.100.100.200/f.pdf",
        "http://224.0.0.1/f.pdf",
    ],
)
async def test_an_address_the_policy_refuses_is_never_requested(wire: Wire, target: str) -> None:
    """Given as an address (aiohttp resolves no address), checked before the request; also as a redirect's target."""
    await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document=target)
    async with raw_server({"/away": redirect(target)}) as files:
        await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document=files.url("/away"))
        assert files.paths == ["/away"]


async def test_the_unspecified_address_is_refused_though_it_reaches_this_machine(wire: Wire) -> None:
    async with raw_server({"/f.pdf": whole(PDF_3MB)}, host="0.0.0.0") as files:
        await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document=f"http://0.0.0.0:{files.port}/f.pdf")
        assert files.connections == 0
        await wire.ok("sendDocument", chat_id=4242, document=f"http://127.0.0.1:{files.port}/f.pdf")
        assert files.connections == 1


async def test_none_fetches_nothing(make_wire: WireFactory) -> None:
    async with make_wire(url_files="none") as wire, raw_server({"/f.pdf": whole(PDF_3MB)}) as files:
        await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document=files.url("/f.pdf"))
        assert files.connections == 0


def own_refused_address() -> str | None:
    """This machine's address on its way out, when the default policy refuses it (a private or documentation
    range); a UDP connect picks the route and sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address_allowed(address) else address


async def test_all_fetches_from_a_private_address_and_default_does_not(make_wire: WireFactory) -> None:
    address = own_refused_address()
    if address is None:
        pytest.skip("this machine has no non-public address of its own to serve from")
    async with raw_server({"/f.pdf": whole(PDF_3MB)}, host=address) as files:
        async with make_wire() as wire:
            await wire.refused("sendDocument", 400, FAILED, chat_id=4242, document=files.url("/f.pdf"))
        assert files.connections == 0
        async with make_wire(url_files="all") as wire:
            sent = await wire.ok("sendDocument", chat_id=4242, document=files.url("/f.pdf"))
        assert (sent["document"]["file_size"], files.connections) == (len(PDF_3MB), 1)


@pytest.mark.parametrize(
    ("address", "allowed"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("8.8.8.8", True),
        ("2606:4700:4700::1111", True),
        ("10.1.2.3", False),
        ("172.16.0.1", False),
        ("192.168.1.1", False),
        ("100.64.0.1", False),
        ("169.254.169.254", False),
        ("169.254.170.2", False),
        ("fe80::1%eth0", False),
        ("fd00:ec2::254", False),
        ("fc00::1", False),
        ("224.0.0.251", False),
        ("ff02::1", False),
        ("0.0.0.0", False),
        ("::", False),
        ("::ffff:10.0.0.1", False),
        ("::ffff:8.8.8.8", True),
        ("64:ff9b::a9fe:a9fe", False),
        ("2002:a9fe:a9fe::1", False),
        ("192.0.2.2", False),
        ("240.0.0.1", False),
        ("not an address", False),
    ],
)
def test_the_default_policy_by_address(address: str, allowed: bool) -> None:
    assert address_allowed(address) is allowed
    assert address_allowed(address, "all") is True
    assert address_allowed(address, "none") is False


@given(st.ip_addresses(v=4))
def test_an_ipv4_address_wrapped_in_ipv6_is_judged_as_itself(ip: object) -> None:
    assert address_allowed(f"::ffff:{ip}") is address_allowed(str(ip))
    assert address_allowed(f"64:ff9b::{ip}") is address_allowed(str(ip))


async def test_a_session_fetches_as_the_root_does(wire: Wire) -> None:
    """POST /s/<id>/bot<token>/sendDocument document=<url>: the same downloads, the same policy."""
    status, made = await wire.sim("POST", "/sim/sessions", {"id": "files"})
    assert status == 200, made
    async with raw_server({"/f.pdf": whole(PDF_3MB)}) as files:
        for url, status_wanted in ((files.url("/f.pdf"), 200), ("http://169.254.169.254/f.pdf", 400)):
            resp = await wire.client.post(
                f"/s/files/bot{wire.token}/sendDocument", data={"chat_id": "4242", "document": url}
            )
            body = await resp.json()
            assert resp.status == status_wanted, body
        assert body["description"] == FAILED
        assert files.connections == 1
