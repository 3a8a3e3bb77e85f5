"""editMessageCaption, editMessageMedia and the live location edits over HTTP, with Telegram's refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, upload_parts
from tests.world.helpers import ALICE, BOT, add_bot, forget_updates, make_chat, pending
from tgfake.clock import ManualClock


def png(size: tuple[int, int] = (3, 2)) -> bytes:
    return image_bytes("PNG", size)


post = upload_parts


async def photo(wire: Wire, chat_id: int = ALICE, **params: Any) -> dict[str, Any]:
    status, body = await post(wire, "sendPhoto", {"photo": png()}, chat_id=chat_id, **params)
    assert status == 200, body
    return dict(body["result"])


async def test_edit_caption_and_its_refusals(wire: Wire) -> None:
    sent = await photo(wire, caption="old")
    edited = await wire.ok(
        "editMessageCaption",
        chat_id=ALICE,
        message_id=sent["message_id"],
        caption="<i>new</i>",
        parse_mode="HTML",
        show_caption_above_media="true",
    )
    assert edited["caption"] == "new"
    assert edited["caption_entities"] == [{"offset": 0, "length": 3, "type": "italic"}]
    assert edited["show_caption_above_media"] is True
    assert isinstance(edited["edit_date"], int)
    await wire.refused(
        "editMessageCaption",
        400,
        (
            "Bad Request: message is not modified: specified new message content and reply markup are exactly the "
            "same as a current content and reply markup of the message"
        ),
        chat_id=ALICE,
        message_id=sent["message_id"],
        caption="<i>new</i>",
        parse_mode="HTML",
        show_caption_above_media="true",
    )
    removed = await wire.ok("editMessageCaption", chat_id=ALICE, message_id=sent["message_id"])
    assert "caption" not in removed
    text = await wire.ok("sendMessage", chat_id=ALICE, text="plain")
    await wire.refused(
        "editMessageCaption",
        400,
        "Bad Request: there is no caption in the message to edit",
        chat_id=ALICE,
        message_id=text["message_id"],
        caption="x",
    )
    said = await wire.say("mine")
    await wire.refused(
        "editMessageCaption",
        400,
        "Bad Request: message can't be edited",
        chat_id=ALICE,
        message_id=said["message_id"],
        caption="x",
    )
    await wire.refused(
        "editMessageCaption", 400, "Bad Request: message to edit not found", chat_id=ALICE, message_id=99, caption="x"
    )
    await wire.refused(
        "editMessageCaption",
        400,
        "Bad Request: message caption is too long",
        chat_id=ALICE,
        message_id=sent["message_id"],
        caption="x" * 1025,
    )


@pytest.mark.parametrize("method", ["editMessageCaption", "editMessageLiveLocation", "stopMessageLiveLocation"])
async def test_the_inline_form_refuses_a_missing_or_malformed_id(wire: Wire, method: str) -> None:
    where = {"latitude": 1, "longitude": 1} if method == "editMessageLiveLocation" else {}
    await wire.refused(method, 400, "Bad Request: message identifier is not specified", **where)
    await wire.refused(
        method, 400, "Bad Request: invalid inline message identifier specified", inline_message_id="AgAAAB", **where
    )


async def test_an_edited_channel_post_reaches_the_other_admin_bots(wire: Wire) -> None:
    mod = await add_bot(wire)
    channel = await make_chat(wire, type="channel", title="News", admins=[BOT, mod])
    sent = await photo(wire, chat_id=channel, caption="v1")
    forget_updates(wire, BOT, mod)
    await wire.ok("editMessageCaption", chat_id=channel, message_id=sent["message_id"], caption="v2")
    [update] = await pending(wire, mod)
    assert update["edited_channel_post"]["caption"] == "v2"
    assert await pending(wire, BOT) == []


async def test_edit_media_uploads_reuses_and_turns_text_into_media(wire: Wire) -> None:
    sent = await photo(wire, caption="one")
    media = {"type": "photo", "media": "attach://pic", "caption": "two"}
    status, body = await post(
        wire,
        "editMessageMedia",
        {"pic": png((5, 4))},
        chat_id=ALICE,
        message_id=sent["message_id"],
        media=json.dumps(media),
    )
    assert status == 200, body
    new = body["result"]
    assert (new["photo"][0]["width"], new["caption"]) == (5, "two")
    doc_id = new["photo"][0]["file_id"]
    again = {"type": "photo", "media": doc_id, "caption": "two"}
    await wire.refused(
        "editMessageMedia",
        400,
        (
            "Bad Request: message is not modified: specified new message content and reply markup are exactly the "
            "same as a current content and reply markup of the message"
        ),
        chat_id=ALICE,
        message_id=sent["message_id"],
        media=json.dumps(again),
    )
    text = await wire.ok("sendMessage", chat_id=ALICE, text="soon a photo")
    turned = await wire.ok(
        "editMessageMedia",
        chat_id=ALICE,
        message_id=text["message_id"],
        media=json.dumps({"type": "photo", "media": doc_id}),
    )
    assert "text" not in turned
    assert turned["photo"][0]["file_id"] == doc_id
    assert "[photo" in (await wire.text()).splitlines()[-1]


@pytest.mark.parametrize(
    ("media", "description"),
    [
        (None, 'Bad Request: parameter "media" is required'),
        ("{", "Bad Request: can't parse input media JSON object"),
        ("[]", "Bad Request: can't parse InputMedia: expected an Object"),
        ('{"type": "photo"}', "Bad Request: can't parse InputMedia: media not found"),
        ('{"type": "sticker", "media": "x"}', 'Bad Request: can\'t parse InputMedia: type "sticker" is unsupported'),
        ('{"type": "photo", "media": "attach://gone"}', "Bad Request: can't parse InputMedia: media not found"),
    ],
)
async def test_edit_media_refusals(wire: Wire, media: str | None, description: str) -> None:
    sent = await photo(wire)
    params: dict[str, Any] = {"chat_id": ALICE, "message_id": sent["message_id"]}
    if media is not None:
        params["media"] = media
    await wire.refused("editMessageMedia", 400, description, **params)


async def test_edit_media_album_rules_and_kinds_that_cannot_change(wire: Wire) -> None:
    items = [{"type": "photo", "media": "attach://a"}, {"type": "photo", "media": "attach://b"}]
    status, body = await post(wire, "sendMediaGroup", {"a": png(), "b": png()}, chat_id=ALICE, media=json.dumps(items))
    assert status == 200, body
    first = body["result"][0]["message_id"]
    status, doc = await post(wire, "sendDocument", {"document": b"%PDF-1.4"}, chat_id=ALICE)
    doc_id = doc["result"]["document"]["file_id"]
    await wire.refused(
        "editMessageMedia",
        400,
        "Bad Request: can't change media type in the album",
        chat_id=ALICE,
        message_id=first,
        media=json.dumps({"type": "document", "media": doc_id}),
    )
    status, anim = await post(wire, "sendAnimation", {"animation": png()}, chat_id=ALICE)
    anim_id = anim["result"]["animation"]["file_id"]
    await wire.refused(
        "editMessageMedia",
        400,
        "Bad Request: message content type can't be used in an album",
        chat_id=ALICE,
        message_id=first,
        media=json.dumps({"type": "animation", "media": anim_id}),
    )
    loc = await wire.ok("sendLocation", chat_id=ALICE, latitude=1, longitude=2)
    await wire.refused(
        "editMessageMedia",
        400,
        "Bad Request: message media can't be edited",
        chat_id=ALICE,
        message_id=loc["message_id"],
        media=json.dumps({"type": "document", "media": doc_id}),
    )
    changed = await wire.ok(
        "editMessageMedia",
        chat_id=ALICE,
        message_id=doc["result"]["message_id"],
        media=json.dumps({"type": "animation", "media": anim_id}),
    )
    assert changed["animation"]["file_id"] == anim_id


async def test_a_live_location_moves_until_its_period_ends(wire: Wire, clock: ManualClock) -> None:
    live = await wire.ok("sendLocation", chat_id=ALICE, latitude=1, longitude=2, live_period=60)
    moved = await wire.ok(
        "editMessageLiveLocation",
        chat_id=ALICE,
        message_id=live["message_id"],
        latitude=3,
        longitude=4,
        heading=90,
        proximity_alert_radius=100,
        horizontal_accuracy=5,
    )
    assert moved["location"] == {
        "latitude": 3.0,
        "longitude": 4.0,
        "horizontal_accuracy": 5.0,
        "live_period": 60,
        "heading": 90,
        "proximity_alert_radius": 100,
    }
    clock.advance(60)
    await wire.refused(
        "editMessageLiveLocation",
        400,
        "Bad Request: message can't be edited",
        chat_id=ALICE,
        message_id=live["message_id"],
        latitude=5,
        longitude=6,
    )


async def test_stop_ends_a_live_location(wire: Wire, clock: ManualClock) -> None:
    live = await wire.ok("sendLocation", chat_id=ALICE, latitude=1, longitude=2, live_period=0x7FFFFFFF)
    clock.advance(30)
    stopped = await wire.ok("stopMessageLiveLocation", chat_id=ALICE, message_id=live["message_id"])
    assert stopped["location"]["live_period"] == 30
    await wire.refused(
        "stopMessageLiveLocation",
        400,
        "Bad Request: message can't be edited",
        chat_id=ALICE,
        message_id=live["message_id"],
    )


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"latitude": 91, "longitude": 1}, "Bad Request: invalid live location specified"),
        ({"latitude": 1, "longitude": 1, "heading": 361}, "Bad Request: wrong live location heading specified"),
        (
            {"latitude": 1, "longitude": 1, "proximity_alert_radius": 100001},
            "Bad Request: wrong live location proximity alert radius specified",
        ),
        ({"longitude": 1}, "Bad Request: latitude is empty"),
    ],
)
async def test_live_location_refusals(wire: Wire, params: dict[str, Any], description: str) -> None:
    live = await wire.ok("sendLocation", chat_id=ALICE, latitude=1, longitude=2, live_period=60)
    await wire.refused(
        "editMessageLiveLocation", 400, description, chat_id=ALICE, message_id=live["message_id"], **params
    )


async def test_only_live_locations_take_location_edits(wire: Wire) -> None:
    text = await wire.ok("sendMessage", chat_id=ALICE, text="hi")
    await wire.refused(
        "editMessageLiveLocation",
        400,
        "Bad Request: there is no live location in the message to edit",
        chat_id=ALICE,
        message_id=text["message_id"],
        latitude=1,
        longitude=1,
    )
    static = await wire.ok("sendLocation", chat_id=ALICE, latitude=1, longitude=2)
    await wire.refused(
        "stopMessageLiveLocation",
        400,
        "Bad Request: message can't be edited",
        chat_id=ALICE,
        message_id=static["message_id"],
    )


async def test_send_live_photo_writes_json_live_photo(wire: Wire) -> None:
    status, body = await post(
        wire,
        "sendLivePhoto",
        {"photo": png((4, 3)), "live_photo": b"\x00\x00\x00\x18ftypmp42"},
        chat_id=ALICE,
        caption="moving",
        show_caption_above_media="true",
    )
    assert status == 200, body
    msg = body["result"]
    live = msg["live_photo"]
    assert live["photo"] == msg["photo"]
    assert (msg["photo"][0]["width"], msg["photo"][0]["height"]) == (4, 3)
    assert live["file_id"] != msg["photo"][0]["file_id"]
    assert {"duration", "width", "height", "file_unique_id", "file_size"} <= set(live)
    assert (msg["caption"], msg["show_caption_above_media"]) == ("moving", True)
    assert (await wire.text()).startswith("[1] bot: [live photo photo.bin 4x3")
    again = await wire.ok("sendLivePhoto", chat_id=ALICE, photo=msg["photo"][0]["file_id"], live_photo=live["file_id"])
    assert again["live_photo"]["file_id"] == live["file_id"]
    _, view = await wire.sim("GET", f"/sim/chat/{ALICE}")
    assert view["messages"][0]["live_photo"]["video"]["file_id"] == live["file_id"]


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"photo": "x"}, "Bad Request: there is no live photo in the request"),
        ({"live_photo": "x"}, "Bad Request: there is no photo in the request"),
    ],
)
async def test_send_live_photo_refusals(wire: Wire, params: dict[str, Any], description: str) -> None:
    await wire.refused("sendLivePhoto", 400, description, chat_id=ALICE, **params)


async def test_an_edited_text_channel_post_reaches_the_other_admin_bots(wire: Wire) -> None:
    mod = await add_bot(wire)
    channel = await make_chat(wire, type="channel", title="News", admins=[BOT, mod])
    sent = await wire.ok("sendMessage", chat_id=channel, text="v1")
    forget_updates(wire, BOT, mod)
    await wire.ok("editMessageText", chat_id=channel, message_id=sent["message_id"], text="v2")
    [update] = await pending(wire, mod)
    assert update["edited_channel_post"]["text"] == "v2"


async def test_edit_media_reads_the_media_before_naming_an_inline_message(wire: Wire) -> None:
    media = json.dumps({"type": "photo", "media": "attach://pic"})
    await wire.refused("editMessageMedia", 400, "Bad Request: can't parse InputMedia: media not found", media=media)
    status, body = await post(wire, "editMessageMedia", {"pic": png()}, media=media, inline_message_id="x")
    assert (status, body["description"]) == (400, "Bad Request: invalid inline message identifier specified")
    assert wire.stand.world.files == {}  # a refused edit mints no file
