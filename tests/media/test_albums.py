"""sendMediaGroup over HTTP: an album's messages, Telegram's mixing rules and refusals, and real clients."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from aiohttp import FormData
from telegram import InputMediaPhoto, InputMediaVideo

from tests.clients import ptb_bot
from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, mp4_bytes


async def album(wire: Wire, media: Any, parts: dict[str, bytes] | None = None, **params: Any) -> tuple[int, Any]:
    form = FormData()
    form.add_field("chat_id", "4242")
    for key, value in params.items():
        form.add_field(key, str(value))
    form.add_field("media", media if isinstance(media, str) else json.dumps(media))
    for name, data in (parts or {}).items():
        form.add_field(name, io.BytesIO(data), filename=f"{name}.bin", content_type="application/octet-stream")
    resp = await wire.client.post(f"/bot{wire.token}/sendMediaGroup", data=form)
    return resp.status, await resp.json()


async def test_album_of_photos_and_a_video(wire: Wire) -> None:
    parts = {"a": image_bytes("PNG"), "b": image_bytes("JPEG", (8, 8)), "c": mp4_bytes()}
    media = [
        {"type": "photo", "media": "attach://a", "caption": "first"},
        {"type": "photo", "media": "attach://b"},
        {"type": "video", "media": "attach://c", "duration": 4, "width": 2, "height": 2},
    ]
    status, body = await album(wire, media, parts)
    assert status == 200, body
    sent = body["result"]
    assert [m["message_id"] for m in sent] == [1, 2, 3]
    groups = {m["media_group_id"] for m in sent}
    assert len(groups) == 1
    assert groups != {""}
    assert sent[0]["caption"] == "first"
    assert "caption" not in sent[1]
    assert sent[2]["video"]["duration"] == 4
    assert await wire.text() == "[1] bot: [album 3: photo, photo, video] first\n"
    view = (await wire.sim("GET", "/sim/chat/4242"))[1]["messages"]
    assert [m["kind"] for m in view] == ["photo", "photo", "video"]
    updates = wire.stand.calls("sendMediaGroup")
    assert len(updates) == 1


REFUSALS = [
    ("not json", "Bad Request: can't parse media JSON object"),
    ({"type": "photo"}, "Bad Request: expected an Array of InputMedia"),
    ([], "Bad Request: there are no messages to send"),
    ([{"type": "photo", "media": "attach://a"}] * 11, "Bad Request: too many messages to send as an album"),
    (["x"], "Bad Request: can't parse InputMedia: expected an Object"),
    ([{"type": "photo", "media": "attach://zz"}], "Bad Request: can't parse InputMedia: media not found"),
    (
        [{"type": "animation", "media": "attach://a"}],
        "Bad Request: can't parse InputMedia: type \"animation\" can't be used in sendMediaGroup",
    ),
    (
        [{"type": "sticker", "media": "attach://a"}],
        'Bad Request: can\'t parse InputMedia: type "sticker" is unsupported',
    ),
    (
        [{"type": "photo", "media": "attach://a"}, {"type": "document", "media": "attach://a"}],
        "Bad Request: document can't be mixed with other media types",
    ),
    (
        [{"type": "audio", "media": "attach://a"}, {"type": "photo", "media": "attach://a"}],
        "Bad Request: audio can't be mixed with other media types",
    ),
    (
        [{"type": "photo", "media": "attach://a"}, {"type": "photo", "media": "https://example.com/p.jpg"}],
        "Bad Request: failed to get HTTP URL content",
    ),
    (
        [{"type": "photo", "media": "attach://a", "caption": "x" * 1025}],
        "Bad Request: message caption is too long",
    ),
]


@pytest.mark.parametrize(("media", "description"), REFUSALS)
async def test_album_refusals(wire: Wire, media: Any, description: str) -> None:
    status, body = await album(wire, media, {"a": image_bytes("PNG")})
    assert (status, body["description"]) == (400, description)
    assert wire.stand.world.files == {}
    assert (await wire.text()) == ""


async def test_album_missing_media_and_documents_only(wire: Wire) -> None:
    await wire.refused("sendMediaGroup", 400, 'Bad Request: parameter "media" is required', chat_id=4242)
    docs = [{"type": "document", "media": "attach://a"}, {"type": "document", "media": "attach://b"}]
    status, body = await album(wire, docs, {"a": b"one", "b": b"two"})
    assert status == 200, body
    assert [m["document"]["file_name"] for m in body["result"]] == ["a.bin", "b.bin"]


async def test_python_telegram_bot_sends_an_album_and_resends_it_by_id(wire: Wire) -> None:
    png = image_bytes("PNG", (5, 4))
    async with ptb_bot(wire) as bot:
        first = await bot.send_media_group(
            4242,
            [InputMediaPhoto(png, caption="pics"), InputMediaVideo(mp4_bytes(), duration=2)],
        )
        assert first[1].video is not None
        again = await bot.send_media_group(
            4242, [InputMediaPhoto(first[0].photo[-1].file_id), InputMediaVideo(first[1].video.file_id)]
        )
    assert len(first) == 2
    assert first[0].media_group_id == first[1].media_group_id
    assert first[0].caption == "pics"
    assert again[0].media_group_id != first[0].media_group_id
    assert again[1].video is not None
    assert again[1].video.duration == 2
