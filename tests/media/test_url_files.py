"""Files sent by HTTP URL: Telegram downloads them and sends what it got; the stand downloads what it can reach
(here, a file server of the test's own) and refuses, in Telegram's words, what it cannot."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from telegram import Bot, InputMediaPhoto
from telegram.request import HTTPXRequest

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes

PNG = image_bytes("PNG", (40, 30))
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n"


@pytest.fixture
async def files() -> AsyncIterator[TestServer]:
    """A web server with a picture, a PDF, a text page, a redirect and a missing file."""

    async def picture(_request: web.Request) -> web.Response:
        return web.Response(body=PNG, content_type="image/png")

    async def pdf(_request: web.Request) -> web.Response:
        return web.Response(body=PDF, content_type="application/pdf")

    async def page(_request: web.Request) -> web.Response:
        return web.Response(text="<html>not a picture</html>", content_type="text/html")

    async def moved(_request: web.Request) -> web.Response:
        raise web.HTTPFound("/img/cat%20face.png")

    async def hook(request: web.Request) -> web.Response:  # a webhook answering with a photo by URL
        own = str(request.url.origin().with_path("/img/from-hook.png"))
        return web.json_response({"method": "sendPhoto", "chat_id": 4242, "photo": own, "caption": "hooked"})

    app = web.Application()
    app.router.add_post("/hook", hook)
    app.router.add_get("/img/{name}", picture)
    app.router.add_get("/docs/report.pdf", pdf)
    app.router.add_get("/page.html", page)
    app.router.add_get("/moved", moved)
    server = TestServer(app)
    await server.start_server()
    try:
        yield server
    finally:
        await server.close()


def url(server: TestServer, path: str) -> str:
    return str(server.make_url(path))


async def test_a_photo_by_url_is_downloaded_and_sent(wire: Wire, files: TestServer) -> None:
    sent = await wire.ok("sendPhoto", chat_id=4242, photo=url(files, "/img/cat.png"), caption="from the web")
    [size] = sent["photo"]
    assert (size["width"], size["height"], size["file_size"]) == (40, 30, len(PNG))
    assert sent["caption"] == "from the web"
    download = await wire.client.get(f"/sim/file/{size['file_id']}")
    assert (download.status, await download.read()) == (200, PNG)
    [call] = [c for c in wire.stand.world.calls if c.method == "sendPhoto"]
    assert call.params["photo"] == url(files, "/img/cat.png")  # the outbox keeps what the bot sent


async def test_a_redirect_is_followed_and_the_file_named_by_its_url(wire: Wire, files: TestServer) -> None:
    sent = await wire.ok("sendDocument", chat_id=4242, document=url(files, "/docs/report.pdf"))
    assert (sent["document"]["file_name"], sent["document"]["mime_type"]) == ("report.pdf", "application/pdf")
    photo = await wire.ok("sendPhoto", chat_id=4242, photo=url(files, "/moved"))
    assert photo["photo"][0]["width"] == 40


@pytest.mark.parametrize(
    ("method", "field", "path", "description"),
    [
        ("sendPhoto", "photo", "/nowhere.png", "Bad Request: failed to get HTTP URL content"),
        ("sendPhoto", "photo", "/page.html", "Bad Request: wrong type of the web page content"),
        ("sendDocument", "document", "/page.html", "Bad Request: wrong type of the web page content"),
        ("sendDocument", "document", "/img/cat.png", "Bad Request: wrong type of the web page content"),
    ],
)
async def test_what_telegram_could_not_send_from_a_url_is_refused(
    wire: Wire, files: TestServer, method: str, field: str, path: str, description: str
) -> None:
    """A missing page cannot be downloaded; a photo must be a picture, and a document by URL only a GIF, PDF or
    ZIP (the Bot API's documented rule)."""
    await wire.refused(method, 400, description, chat_id=4242, **{field: url(files, path)})
    assert wire.stand.world.files == {}


async def test_an_unreachable_host_is_failed_to_get(wire: Wire) -> None:
    await wire.refused(
        "sendPhoto",
        400,
        "Bad Request: failed to get HTTP URL content",
        chat_id=4242,
        photo="http://127.0.0.1:9/cat.png",  # the discard port: nothing listens
    )


async def test_an_album_and_an_edit_take_urls_too(wire: Wire, files: TestServer) -> None:
    media = [{"type": "photo", "media": url(files, f"/img/{n}.png")} for n in ("a", "b")]
    album = await wire.ok("sendMediaGroup", chat_id=4242, media=json.dumps(media))
    assert [m["photo"][0]["width"] for m in album] == [40, 40]
    edited = await wire.ok(
        "editMessageMedia",
        chat_id=4242,
        message_id=album[0]["message_id"],
        media=json.dumps({"type": "photo", "media": url(files, "/img/new.png"), "caption": "new"}),
    )
    assert (edited["photo"][0]["file_size"], edited["caption"]) == (len(PNG), "new")


async def test_python_telegram_bot_sends_a_photo_by_url(wire: Wire, files: TestServer) -> None:
    base = str(wire.client.make_url("/bot"))
    async with Bot("123:abc", base_url=base, request=HTTPXRequest()) as bot:
        message = await bot.send_photo(4242, url(files, "/img/kitten.png"))
        assert message.photo[-1].width == 40
        album = await bot.send_media_group(4242, [InputMediaPhoto(url(files, "/img/x.png"))])
        assert album[0].photo[-1].height == 30


async def test_a_webhook_reply_sends_a_photo_by_url(wire: Wire, files: TestServer) -> None:
    await wire.ok("setWebhook", url=url(files, "/hook"))
    await wire.say("show me")
    status, view = await wire.sim("GET", "/sim/webhook/wait?delivered=1")
    assert status == 200, view
    assert [(d.get("reply_method"), d.get("reply_status")) for d in view["deliveries"]] == [("sendPhoto", 200)]
    [call] = await wire.outbox("sendPhoto")
    assert call["response"]["result"]["photo"][0]["width"] == 40
