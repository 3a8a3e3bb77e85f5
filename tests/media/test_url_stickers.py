"""Stickers and thumbnails by HTTP URL: sendSticker's .WEBP, an InputSticker's file and a sticker set's thumbnail are
downloaded as Telegram downloads them; a send's ``thumbnail`` never is (only an upload is a thumbnail)."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from PIL import Image

from tests.conftest import Wire

UNREACHABLE = "http://127.0.0.1:9/s.webp"  # the discard port: nothing answers there
FAILED = "Bad Request: failed to get HTTP URL content"


def picture(fmt: str, size: tuple[int, int]) -> bytes:
    buf = io.BytesIO()
    Image.linear_gradient("L").resize(size).convert("RGBA").save(buf, format=fmt)
    return buf.getvalue()


WEBP = picture("WEBP", (512, 480))
PNG = picture("PNG", (100, 100))


class Files:
    """A file server of the test's own, counting what it was asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.server: TestServer | None = None

    def url(self, path: str) -> str:
        assert self.server is not None
        return str(self.server.make_url(path))


@pytest.fixture
async def files() -> AsyncIterator[Files]:
    served = Files()

    async def one(request: web.Request) -> web.Response:
        served.asked.append(request.path)
        name = request.match_info["name"]
        return web.Response(body=WEBP if name.endswith(".webp") else PNG, content_type="application/octet-stream")

    app = web.Application()
    app.router.add_get("/f/{name}", one)
    served.server = TestServer(app)
    await served.server.start_server()
    try:
        yield served
    finally:
        await served.server.close()


async def test_a_webp_sticker_by_url_is_downloaded_and_drawn(wire: Wire, files: Files) -> None:
    sent = await wire.ok("sendSticker", chat_id=4242, sticker=files.url("/f/cat.webp"), emoji="😺")
    sticker = sent["sticker"]
    assert (sticker["width"], sticker["height"], sticker["file_size"]) == (512, 480, len(WEBP))
    assert (sticker["thumbnail"]["width"], sticker["thumbnail"]["height"]) == (320, 300)
    got = await wire.client.get(f"/sim/file/{sticker['file_id']}")
    assert (got.status, await got.read()) == (200, WEBP)
    await wire.refused("sendSticker", 400, "Bad Request: wrong type of the web page content",
                       chat_id=4242, sticker=files.url("/f/cat.png"))  # fmt: skip
    await wire.refused("sendSticker", 400, FAILED, chat_id=4242, sticker=UNREACHABLE)
    assert files.asked == ["/f/cat.webp", "/f/cat.png"]


async def test_an_input_sticker_and_a_set_thumbnail_by_url(wire: Wire, files: Files) -> None:
    await wire.say("hi")
    name = "web_by_tgfake_bot"
    item = {"sticker": files.url("/f/one.webp"), "format": "static", "emoji_list": ["😺"]}
    made = {"user_id": 4242, "name": name, "title": "Web", "stickers": json.dumps([item])}
    assert await wire.ok("createNewStickerSet", **made) is True
    [sticker] = (await wire.ok("getStickerSet", name=name))["stickers"]
    assert sticker["file_size"] == len(WEBP)  # what the URL gave
    unreachable = {**item, "sticker": UNREACHABLE}
    await wire.refused("addStickerToSet", 400, FAILED, user_id=4242, name=name, sticker=json.dumps(unreachable))
    assert await wire.ok("setStickerSetThumbnail", name=name, user_id=4242, format="static",
                         thumbnail=files.url("/f/thumb.png")) is True  # fmt: skip
    thumbnail = (await wire.ok("getStickerSet", name=name))["thumbnail"]
    assert (thumbnail["width"], thumbnail["height"], thumbnail["file_size"]) == (100, 100, len(PNG))
    got = await wire.client.get(f"/sim/file/{thumbnail['file_id']}")
    assert (got.status, await got.read()) == (200, PNG)
    await wire.refused("setStickerSetThumbnail", 400, FAILED, name=name, user_id=4242, format="static",
                       thumbnail=UNREACHABLE)  # fmt: skip
    assert files.asked == ["/f/one.webp", "/f/thumb.png"]


async def test_a_sends_thumbnail_by_url_is_never_fetched(wire: Wire, files: Files) -> None:
    form = {"chat_id": "4242", "document": files.url("/f/doc.webp"), "thumbnail": files.url("/f/t.png")}
    resp = await wire.client.post(f"/bot{wire.token}/sendDocument", data=form)
    body = await resp.json()
    assert resp.status == 400  # a document by URL must be a GIF, PDF or ZIP
    assert body["description"] == "Bad Request: wrong type of the web page content"
    sent = await wire.ok("sendSticker", chat_id=4242, sticker=files.url("/f/s.webp"), thumbnail=files.url("/f/t.png"))
    assert sent["sticker"]["thumbnail"]["width"] == 320  # drawn from the sticker itself
    assert files.asked == ["/f/doc.webp", "/f/s.webp"]  # the thumbnails' URLs never
