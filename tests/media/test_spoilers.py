"""Media under a spoiler and live photos as InputMedia, over HTTP: ``has_spoiler`` on sends, album items and
editMessageMedia shown back as ``has_media_spoiler``; a ``live_photo`` item (its ``media`` the motion part, its
``photo`` the still) in an album and as an edit; and Client.cpp's refusals of their fields."""

from __future__ import annotations

import json
from typing import Any

import pytest
from telegram import InputMediaLivePhoto, InputMediaPhoto, InputMediaVideo

from tests.clients import ptb_bot
from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, mp4_bytes, upload_parts
from tests.world.helpers import ALICE


async def sent(wire: Wire, method: str, files: dict[str, bytes], **params: Any) -> Any:
    status, body = await upload_parts(wire, method, files, chat_id=ALICE, **params)
    assert status == 200, body
    return body["result"]


@pytest.mark.parametrize(
    ("method", "field", "data"),
    [
        ("sendPhoto", "photo", image_bytes("PNG")),
        ("sendVideo", "video", mp4_bytes()),
        ("sendAnimation", "animation", image_bytes("GIF")),
    ],
)
async def test_a_send_with_has_spoiler_shows_has_media_spoiler(
    wire: Wire, method: str, field: str, data: bytes
) -> None:
    hidden = await sent(wire, method, {field: data}, has_spoiler="true", caption="look")
    assert hidden["has_media_spoiler"] is True
    plain = await sent(wire, method, {field: data}, has_spoiler="false")
    assert "has_media_spoiler" not in plain
    _, view = await wire.sim("GET", f"/sim/chat/{ALICE}")
    assert [m.get(field, {}).get("has_spoiler") for m in view["messages"]] == [True, None]


async def test_a_document_keeps_no_spoiler(wire: Wire) -> None:
    """sendDocument has no ``has_spoiler``: Client.cpp's document content carries none."""
    doc = await sent(wire, "sendDocument", {"document": b"%PDF-1.4"}, has_spoiler="true")
    assert "has_media_spoiler" not in doc


async def test_album_items_under_a_spoiler_and_a_live_photo_among_them(wire: Wire) -> None:
    media = [
        {
            "type": "photo",
            "media": "attach://a",
            "has_spoiler": True,
            "caption": "up",
            "show_caption_above_media": True,
        },
        {"type": "video", "media": "attach://v", "has_spoiler": True},
        {"type": "live_photo", "media": "attach://v", "photo": "attach://b"},
    ]
    files = {"a": image_bytes("PNG"), "b": image_bytes("PNG", (6, 4)), "v": mp4_bytes()}
    album = await sent(wire, "sendMediaGroup", files, media=json.dumps(media))
    assert [m.get("has_media_spoiler") for m in album] == [True, True, None]
    assert album[0]["show_caption_above_media"] is True
    assert len({m["media_group_id"] for m in album}) == 1
    live = album[2]
    assert live["live_photo"]["photo"] == live["photo"]
    assert (live["photo"][0]["width"], live["photo"][0]["height"]) == (6, 4)
    assert live["live_photo"]["file_id"] != live["photo"][0]["file_id"]


async def test_edit_media_to_a_live_photo_under_a_spoiler_and_back(wire: Wire) -> None:
    first = await sent(wire, "sendPhoto", {"photo": image_bytes("PNG")})
    media = {
        "type": "live_photo",
        "media": "attach://v",
        "photo": "attach://p",
        "caption": "alive",
        "has_spoiler": True,
    }
    status, body = await upload_parts(
        wire,
        "editMessageMedia",
        {"v": mp4_bytes(), "p": image_bytes("PNG", (7, 5))},
        chat_id=ALICE,
        message_id=first["message_id"],
        media=json.dumps(media),
    )
    assert status == 200, body
    live = body["result"]
    assert (live["caption"], live["has_media_spoiler"]) == ("alive", True)
    assert live["photo"][0]["width"] == 7
    video_id, still_id = live["live_photo"]["file_id"], live["photo"][0]["file_id"]
    again = {"type": "live_photo", "media": video_id, "photo": still_id, "caption": "alive", "has_spoiler": True}
    await wire.refused(
        "editMessageMedia",
        400,
        (
            "Bad Request: message is not modified: specified new message content and reply markup are exactly the "
            "same as a current content and reply markup of the message"
        ),
        chat_id=ALICE,
        message_id=first["message_id"],
        media=json.dumps(again),
    )
    shown = await wire.ok(
        "editMessageMedia",
        chat_id=ALICE,
        message_id=first["message_id"],
        media=json.dumps({**again, "has_spoiler": False}),
    )
    assert "has_media_spoiler" not in shown
    assert shown["live_photo"]["file_id"] == video_id
    back = await wire.ok(
        "editMessageMedia",
        chat_id=ALICE,
        message_id=first["message_id"],
        media=json.dumps({"type": "photo", "media": still_id}),
    )
    assert "live_photo" not in back


@pytest.mark.parametrize(
    ("item", "description"),
    [
        (
            {"type": "photo", "media": "attach://a", "has_spoiler": "yes"},
            'Bad Request: can\'t parse InputMedia: Field "has_spoiler" must be of type Boolean',
        ),
        (
            {"type": "photo", "media": "attach://a", "show_caption_above_media": 1},
            'Bad Request: can\'t parse InputMedia: Field "show_caption_above_media" must be of type Boolean',
        ),
        ({"type": "live_photo", "media": "attach://a"}, "Bad Request: can't parse InputMedia: photo not found"),
        (
            {"type": "live_photo", "media": "attach://a", "photo": "attach://gone"},
            "Bad Request: can't parse InputMedia: photo not found",
        ),
    ],
)
async def test_refusals_of_the_new_fields(wire: Wire, item: dict[str, Any], description: str) -> None:
    status, body = await upload_parts(
        wire, "sendMediaGroup", {"a": image_bytes("PNG")}, chat_id=ALICE, media=json.dumps([item, item])
    )
    assert (status, body["description"]) == (400, description)
    first = await sent(wire, "sendPhoto", {"photo": image_bytes("PNG")})
    edit = {"chat_id": ALICE, "message_id": first["message_id"], "media": json.dumps(item)}
    status, body = await upload_parts(wire, "editMessageMedia", {"a": image_bytes("PNG")}, **edit)
    assert (status, body["description"]) == (400, description)


async def test_python_telegram_bot_reads_the_spoilers_and_the_live_photo(wire: Wire) -> None:
    png, mp4 = image_bytes("PNG"), mp4_bytes()
    async with ptb_bot(wire) as bot:
        album = await bot.send_media_group(
            ALICE, [InputMediaPhoto(png, has_spoiler=True), InputMediaVideo(mp4, has_spoiler=True)]
        )
        assert album[1].video is not None
        # PTB 22.8's edit_message_media cannot upload a live photo's files (InputFile is not JSON serializable)
        live = InputMediaLivePhoto(
            album[1].video.file_id, album[0].photo[-1].file_id, caption="<b>live</b>", parse_mode="HTML"
        )
        edited = await bot.edit_message_media(live, chat_id=ALICE, message_id=album[0].message_id)
    assert all(m.has_media_spoiler for m in album)
    assert not isinstance(edited, bool)
    assert edited.live_photo is not None
    assert edited.caption == "live"
    assert not edited.has_media_spoiler
