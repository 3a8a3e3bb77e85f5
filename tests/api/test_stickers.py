"""Sticker sets through the wire: upload, create (the ``_by_<bot>`` rule), edit, reorder, delete, custom emoji.

Descriptions are Client.cpp's, TDLib's (StickersManager.cpp) and the server's (``STICKERSET_INVALID``; the name
rules' words are the ones Client.cpp gives PACK_SHORT_NAME_INVALID / _OCCUPIED).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from aiohttp import FormData

from tests.conftest import Wire

NAME = "cats_by_tgfake_bot"


def one(emoji: str = "😺", **more: Any) -> dict[str, Any]:
    return {"sticker": "attach://s", "format": "static", "emoji_list": [emoji], **more}


async def multipart(wire: Wire, method: str, **params: str) -> tuple[int, dict[str, Any]]:
    """A call with a sticker file part named ``s``, as libraries upload InputSticker files."""
    form = FormData()
    for key, value in params.items():
        form.add_field(key, value)
    form.add_field("s", b"RIFF....WEBP", filename="s.webp", content_type="image/webp")
    resp = await wire.client.post(f"/bot{wire.token}/{method}", data=form)
    return resp.status, await resp.json()


async def make_set(wire: Wire, name: str = NAME, kind: str = "regular", count: int = 2) -> dict[str, Any]:
    stickers = json.dumps([one() for _ in range(count)])
    status, body = await multipart(
        wire, "createNewStickerSet", user_id="4242", name=name, title="Cats", stickers=stickers, sticker_type=kind
    )
    assert (status, body) == (200, {"ok": True, "result": True})
    return dict(await wire.ok("getStickerSet", name=name))


async def test_a_set_is_created_read_and_edited(wire: Wire) -> None:
    got = await make_set(wire)
    assert (got["name"], got["title"], got["sticker_type"], got["contains_masks"]) == (NAME, "Cats", "regular", False)
    first, second = got["stickers"]
    assert {k: first[k] for k in ("width", "height", "emoji", "set_name", "is_animated", "is_video", "type")} == {
        "width": 512,
        "height": 512,
        "emoji": "😺",
        "set_name": NAME,
        "is_animated": False,
        "is_video": False,
        "type": "regular",
    }
    assert first["file_size"] == 12
    assert await wire.ok("setStickerPositionInSet", sticker=second["file_id"], position=0) is True
    assert [s["file_id"] for s in (await wire.ok("getStickerSet", name=NAME.upper()))["stickers"]] == [
        second["file_id"],
        first["file_id"],
    ]
    await wire.ok("setStickerEmojiList", sticker=first["file_id"], emoji_list='["😸","😹"]')
    await wire.ok("setStickerKeywords", sticker=first["file_id"], keywords='["cat"]')
    await wire.ok("setStickerSetTitle", name=NAME, title="Kittens")
    got = await wire.ok("getStickerSet", name=NAME)
    assert (got["title"], got["stickers"][1]["emoji"]) == ("Kittens", "😸")
    status, body = await multipart(wire, "addStickerToSet", user_id="4242", name=NAME, sticker=json.dumps(one("🐈")))
    assert status == 200, body
    await wire.ok("deleteStickerFromSet", sticker=second["file_id"])
    assert [s["emoji"] for s in (await wire.ok("getStickerSet", name=NAME))["stickers"]] == ["😸", "🐈"]
    status, body = await multipart(
        wire,
        "replaceStickerInSet",
        user_id="4242",
        name=NAME,
        old_sticker=first["file_id"],
        sticker=json.dumps(one("🦁")),
    )
    assert status == 200, body
    assert [s["emoji"] for s in (await wire.ok("getStickerSet", name=NAME))["stickers"]] == ["🦁", "🐈"]
    assert await wire.ok("deleteStickerSet", name=NAME) is True
    await wire.refused("getStickerSet", 400, "Bad Request: STICKERSET_INVALID", name=NAME)


async def test_an_uploaded_file_makes_a_set_by_file_id(wire: Wire) -> None:
    form = FormData()
    form.add_field("user_id", "4242")
    form.add_field("sticker_format", "video")
    form.add_field("sticker", b"webm", filename="s.webm", content_type="video/webm")
    resp = await wire.client.post(f"/bot{wire.token}/uploadStickerFile", data=form)
    uploaded = (await resp.json())["result"]
    assert uploaded["file_size"] == 4
    sticker = {"sticker": uploaded["file_id"], "format": "video", "emoji_list": ["🎬"]}
    await wire.ok(
        "createNewStickerSet", user_id=4242, name="v_by_tgfake_bot", title="V", stickers=json.dumps([sticker])
    )
    got = await wire.ok("getStickerSet", name="v_by_tgfake_bot")
    assert (got["stickers"][0]["is_video"], got["stickers"][0]["file_size"]) == (True, 4)
    await wire.refused(
        "uploadStickerFile", 400, "Bad Request: invalid sticker format specified", user_id=4242, sticker_format="gif"
    )
    await wire.refused(
        "uploadStickerFile",
        400,
        "Bad Request: there is no sticker in the request",
        user_id=4242,
        sticker_format="static",
    )


async def test_custom_emoji_sets_give_ids_the_look_up_finds(wire: Wire) -> None:
    got = await make_set(wire, "emo_by_tgfake_bot", "custom_emoji", 1)
    emoji_id = got["stickers"][0]["custom_emoji_id"]
    found = await wire.ok("getCustomEmojiStickers", custom_emoji_ids=json.dumps([emoji_id, "123"]))
    assert [s["custom_emoji_id"] for s in found] == [emoji_id]
    assert (
        await wire.ok("setCustomEmojiStickerSetThumbnail", name="emo_by_tgfake_bot", custom_emoji_id=emoji_id) is True
    )


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({}, "Bad Request: there is no sticker file in the request"),
        ({"stickers": "["}, "Bad Request: can't parse stickers JSON object"),
        ({"stickers": "{}"}, "Bad Request: expected an Array of InputSticker"),
        ({"stickers": json.dumps([one()] * 51)}, "Bad Request: too many stickers specified"),
        ({"stickers": "[1]"}, "Bad Request: can't parse InputSticker: InputSticker must be an Object"),
        (
            {"stickers": '[{"sticker":"nope","emoji_list":["😺"]}]'},
            "Bad Request: can't parse InputSticker: sticker not found",
        ),
        (
            {"stickers": json.dumps([{**one(), "format": ""}])},
            "Bad Request: can't parse InputSticker: Invalid sticker format specified",
        ),
        (
            {"stickers": '[{"sticker":"attach://s","emoji_list":["😺"]}]'},
            "Bad Request: can't parse InputSticker: Can't find field \"format\"",
        ),
        (
            {"stickers": json.dumps([{"sticker": "attach://s", "format": "static"}])},
            "Bad Request: can't parse InputSticker: Can't find field \"emoji_list\"",
        ),
        (
            {"stickers": json.dumps([one(emoji_list=[])])},
            "Bad Request: can't parse InputSticker: emoji list must be non-empty",
        ),
        (
            {"stickers": json.dumps([one(emoji_list=["😺"] * 21)])},
            "Bad Request: can't parse InputSticker: too many emoji specified",
        ),
        (
            {"stickers": json.dumps([one(emoji_list=[1])])},
            "Bad Request: can't parse InputSticker: emoji must be a string",
        ),
        ({"stickers": json.dumps([one("cat")])}, "Bad Request: can't parse InputSticker: expected a Unicode emoji"),
        (
            {"stickers": json.dumps([one(keywords=[1])])},
            "Bad Request: can't parse InputSticker: keyword must be a string",
        ),
        (
            {"stickers": json.dumps([one(mask_position={"point": "nose", "x_shift": 0, "y_shift": 0, "scale": 1})])},
            "Bad Request: can't parse InputSticker: Wrong point specified in MaskPosition",
        ),
        ({"stickers": json.dumps([one()]), "sticker_type": "gif"}, "Bad Request: unsupported sticker type specified"),
        ({"stickers": json.dumps([one()]), "title": " "}, "Bad Request: sticker set title must be non-empty"),
        ({"stickers": json.dumps([one()]), "name": ""}, "Bad Request: sticker set name must be non-empty"),
        ({"stickers": "[]"}, "Bad Request: at least 1 sticker must be specified"),
        (
            {"stickers": json.dumps([one()]), "needs_repainting": "true"},
            "Bad Request: only custom emoji stickers support repainting",
        ),
        ({"stickers": json.dumps([one()]), "name": "cats"}, "Bad Request: invalid sticker set name is specified"),
        (
            {"stickers": json.dumps([one()]), "name": "1cats_by_tgfake_bot"},
            "Bad Request: invalid sticker set name is specified",
        ),
        (
            {"stickers": json.dumps([one()]), "name": "cats_by_other_bot"},
            "Bad Request: invalid sticker set name is specified",
        ),
    ],
)
async def test_bad_sets_are_refused(wire: Wire, params: dict[str, str], description: str) -> None:
    fields = {"user_id": "4242", "name": NAME, "title": "Cats", **params}
    status, body = await multipart(wire, "createNewStickerSet", **fields)
    assert (status, body.get("description")) == (400, description), body
    assert wire.stand.world.stickers.sets == {}


async def test_a_name_is_taken_once_and_other_bots_sets_are_not_ours(wire: Wire) -> None:
    await make_set(wire)
    status, body = await multipart(
        wire, "createNewStickerSet", user_id="4242", name=NAME.upper(), title="Again", stickers=json.dumps([one()])
    )
    assert (status, body["description"]) == (400, "Bad Request: sticker set name is already occupied")
    await wire.sim("POST", "/sim/bots", {"id": 77, "token": "77:other", "username": "other_bot"})
    status, body = await wire.call("deleteStickerSet", token="77:other", name=NAME)
    assert (status, body["description"]) == (400, "Bad Request: STICKERSET_INVALID")
    status, body = await wire.call("getStickerSet", token="77:other", name=NAME)
    assert status == 200


@pytest.mark.parametrize(
    ("method", "params", "description"),
    [
        ("setStickerPositionInSet", {"position": 0}, "Bad Request: sticker is not specified"),
        ("deleteStickerFromSet", {"sticker": "nope"}, "Bad Request: STICKERSET_INVALID"),
        (
            "setStickerEmojiList",
            {"sticker": "FIRST", "emoji_list": "["},
            "Bad Request: can't parse emoji list JSON array",
        ),
        (
            "setStickerEmojiList",
            {"sticker": "FIRST", "emoji_list": "{}"},
            "Bad Request: can't parse emoji list: expected an Array of string",
        ),
        ("setStickerKeywords", {"sticker": "FIRST", "keywords": "["}, "Bad Request: can't parse keywords JSON object"),
        (
            "setStickerKeywords",
            {"sticker": "FIRST", "keywords": "{}"},
            'Bad Request: Field "keywords" must be an Array',
        ),
        (
            "setStickerMaskPosition",
            {"sticker": "FIRST", "mask_position": "["},
            "Bad Request: can't parse mask position JSON object",
        ),
        (
            "setStickerMaskPosition",
            {"sticker": "FIRST", "mask_position": "[]"},
            "Bad Request: can't parse mask position: MaskPosition must be an Object",
        ),
        (
            "setStickerMaskPosition",
            {"sticker": "FIRST", "mask_position": '{"point":"eyes"}'},
            "Bad Request: can't parse mask position: Can't find field \"x_shift\"",
        ),
        ("setStickerSetTitle", {"name": NAME, "title": ""}, "Bad Request: sticker set title must be non-empty"),
        ("setStickerSetTitle", {"name": "", "title": "x"}, "Bad Request: sticker set name must be non-empty"),
        ("deleteStickerSet", {"name": " "}, "Bad Request: sticker set name must be non-empty"),
        (
            "setStickerSetThumbnail",
            {"user_id": 4242, "name": NAME, "format": "gif"},
            "Bad Request: invalid sticker format specified",
        ),
        (
            "getCustomEmojiStickers",
            {"custom_emoji_ids": "["},
            "Bad Request: can't parse custom emoji identifiers JSON object",
        ),
        (
            "getCustomEmojiStickers",
            {"custom_emoji_ids": "{}"},
            "Bad Request: expected an Array of custom emoji identifiers",
        ),
        (
            "getCustomEmojiStickers",
            {"custom_emoji_ids": "[1]"},
            "Bad Request: custom emoji identifier must be of type String",
        ),
        (
            "getCustomEmojiStickers",
            {"custom_emoji_ids": '["x"]'},
            "Bad Request: invalid custom emoji identifier specified",
        ),
        ("replaceStickerInSet", {"user_id": 4242, "name": NAME}, "Bad Request: sticker is not specified"),
    ],
)
async def test_edits_refuse_in_the_servers_words(
    wire: Wire, method: str, params: dict[str, Any], description: str
) -> None:
    got = await make_set(wire)
    first = got["stickers"][0]["file_id"]
    values = {k: (first if v == "FIRST" else v) for k, v in params.items()}
    await wire.refused(method, 400, description, **values)
    assert await wire.ok("getStickerSet", name=NAME) == got


async def test_a_mask_position_is_kept_on_mask_stickers(wire: Wire) -> None:
    got = await make_set(wire, "m_by_tgfake_bot", "mask", 1)
    first = got["stickers"][0]["file_id"]
    position = {"point": "Eyes ", "x_shift": 0.5, "y_shift": -1, "scale": 2}
    await wire.ok("setStickerMaskPosition", sticker=first, mask_position=json.dumps(position))
    sticker = (await wire.ok("getStickerSet", name="m_by_tgfake_bot"))["stickers"][0]
    assert sticker["mask_position"] == {"point": "eyes", "x_shift": 0.5, "y_shift": -1.0, "scale": 2.0}


async def legacy(wire: Wire, method: str, part: str, **params: str) -> tuple[int, dict[str, Any]]:
    """A legacy one-file call: the sticker uploaded as the part ``part`` itself (``png_sticker``, ...)."""
    form = FormData()
    for key, value in params.items():
        form.add_field(key, value)
    form.add_field(part, b"\x89PNG....", filename="s.png", content_type="image/png")
    resp = await wire.client.post(f"/bot{wire.token}/{method}", data=form)
    return resp.status, await resp.json()


async def test_the_legacy_one_file_form_still_makes_and_grows_a_set(wire: Wire) -> None:
    status, body = await legacy(
        wire, "createNewStickerSet", "png_sticker", user_id="4242", name=NAME, title="Cats", emojis="😍👨‍👩‍👧🇺🇸"
    )
    assert (status, body) == (200, {"ok": True, "result": True})
    status, body = await legacy(wire, "addStickerToSet", "tgs_sticker", user_id="4242", name=NAME, emojis="😊")
    assert (status, body) == (200, {"ok": True, "result": True})
    got = await wire.ok("getStickerSet", name=NAME)
    first, second = got["stickers"]
    assert (first["emoji"], first["is_animated"], first["file_size"]) == ("😍", False, 8)
    assert (second["emoji"], second["is_animated"]) == ("😊", True)
    assert wire.stand.world.stickers.sets[NAME].stickers[0].emojis == ["😍", "👨‍👩‍👧", "🇺🇸"]
    # A file id of one of the set's stickers names the file again (png_sticker is not upload-only).
    await wire.ok("addStickerToSet", user_id=4242, name=NAME, png_sticker=first["file_id"], emojis="🤔")
    assert len((await wire.ok("getStickerSet", name=NAME))["stickers"]) == 3


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"tgs_sticker": "file_9", "emojis": "😊"}, "Bad Request: animated sticker must be uploaded as an InputFile"),
        ({"webm_sticker": "file_9", "emojis": "😊"}, "Bad Request: video sticker must be uploaded as an InputFile"),
        ({"png_sticker": "no_such_file", "emojis": "😊"}, "Bad Request: wrong file identifier/HTTP URL specified"),
        ({"png_sticker": "attach://missing", "emojis": "😊"}, "Bad Request: there is no sticker file in the request"),
        ({"emojis": "😊"}, "Bad Request: there is no sticker file in the request"),
        (
            {"png_sticker": "https://example.com/s.png", "emojis": "😊", "mask_position": "{"},
            "Bad Request: can't parse mask position JSON object",
        ),
        ({"png_sticker": "https://example.com/s.png", "emojis": ""}, "Bad Request: invalid sticker emojis"),
        ({"png_sticker": "https://example.com/s.png", "emojis": "cat"}, "Bad Request: invalid sticker emojis"),
    ],
)
async def test_the_legacy_form_is_refused_in_telegrams_words(
    wire: Wire, params: dict[str, str], description: str
) -> None:
    await wire.refused("createNewStickerSet", 400, description, user_id=4242, name=NAME, title="Cats", **params)
    assert wire.stand.world.stickers.sets == {}
