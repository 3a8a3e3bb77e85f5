"""The person sends every file kind (POST /sim/file) and albums (POST /sim/album) over HTTP.

The bot gets the JSON the bot's own send of the same bytes gets (one Media model, one writer); every refusal is
a 400 naming the problem and stores nothing; getFile and the download serve the person's file of every kind.
"""

from __future__ import annotations

import base64
import io
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from aiohttp import FormData
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, mp4_bytes, upload, wav_bytes
from tgfake.options import Options
from tgfake.testing import ThreadedStand

LESS = "Input should be less than or equal to {}"
GREATER = "Input should be greater than or equal to {}"
NOT_IN_ALBUM = " can't be in an album (photo, video, document or audio)"
OGG = b"OggS\x00" + b"\x00" * 40
PDF = b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def updates(wire: Wire) -> list[dict[str, Any]]:
    return list(await wire.ok("getUpdates", timeout=0))


# kind, file name, bytes, the fields a client states, the Bot API method the bot sends the same with
KINDS: list[tuple[str, str, bytes, dict[str, Any], str]] = [
    ("photo", "cat.png", image_bytes("PNG", (16, 9)), {}, "sendPhoto"),
    ("document", "paper.pdf", PDF, {}, "sendDocument"),
    ("video", "clip.mp4", mp4_bytes(), {"duration": 3, "width": 640, "height": 480}, "sendVideo"),
    ("audio", "tone.wav", wav_bytes(2), {"performer": "Band", "title": "Song"}, "sendAudio"),
    ("voice", "note.ogg", OGG, {"duration": 4}, "sendVoice"),
    ("animation", "loop.gif", image_bytes("GIF", (8, 6)), {}, "sendAnimation"),
    ("sticker", "s.webp", image_bytes("WEBP", (512, 256)), {"emoji": "😀"}, "sendSticker"),
    ("video_note", "round.mp4", mp4_bytes(), {"duration": 5, "length": 240}, "sendVideoNote"),
]
FOLDERS = {
    "photo": "photos/file_1.png",
    "document": "documents/file_1.pdf",
    "video": "videos/file_1.mp4",
    "audio": "music/file_1.wav",
    "voice": "voice/file_1.ogg",
    "animation": "animations/file_1.gif",
    "sticker": "stickers/file_1.webp",
    "video_note": "video_notes/file_1.mp4",
}


@pytest.mark.parametrize(("kind", "name", "data", "fields", "method"), KINDS, ids=[k[0] for k in KINDS])
async def test_every_kind_reaches_the_bot_as_the_bots_own_send_of_it_and_downloads(
    wire: Wire, kind: str, name: str, data: bytes, fields: dict[str, Any], method: str
) -> None:
    status, answer = await wire.sim("POST", "/sim/file", {kind: {"name": name, "data": b64(data)}, **fields})
    assert (status, answer) == (200, {"message_id": 1, "update_id": 1, "file_id": "file_1"})
    [update] = await updates(wire)
    got = update["message"]
    assert got["from"]["id"] == 4242
    file = await wire.ok("getFile", file_id="file_1")
    assert file == {
        "file_id": "file_1", "file_unique_id": "ufile_1", "file_size": len(data), "file_path": FOLDERS[kind],
    }  # fmt: skip
    resp = await wire.client.get(f"/file/bot{wire.token}/{file['file_path']}")
    assert (resp.status, await resp.read()) == (200, data)
    # the bot sends the same bytes with the same fields: the same object, under the bot's new file id
    status, sent = await upload(wire, method, kind, name, data, chat_id=4242, **fields)
    assert status == 200, sent
    mine = sent["result"]
    keys = [k for k in mine if k not in ("message_id", "from", "chat", "date")]
    assert [k for k in got if k not in ("message_id", "from", "chat", "date")] == keys
    first = mine[kind][-1]["file_id"] if kind == "photo" else mine[kind]["file_id"]
    shift = int(first.removeprefix("file_")) - 1  # the person's file and the sizes or thumbnail drawn from it
    for key in keys:  # the same object, each id (the file's, its drawn ones') that many files later
        assert re.sub(r"file_(\d+)", lambda m: f"file_{int(m[1]) + shift}", str(got[key])) == str(mine[key])


async def test_what_the_kind_shows_read_from_the_bytes_or_as_stated(wire: Wire) -> None:
    sends = [
        {"video": {"name": "clip.mp4", "data": b64(mp4_bytes())}, "duration": 3, "width": 640, "height": 480,
         "caption": "look /here"},
        {"audio": {"name": "tone.wav", "data": b64(wav_bytes(3))}, "performer": "Band", "title": "Song"},
        {"voice": {"data": b64(OGG)}, "duration": 2},
        {"animation": {"name": "a.gif", "data": b64(image_bytes("GIF", (8, 6)))}},
        {"sticker": {"data": b64(image_bytes("WEBP", (512, 512)))}, "emoji": "😀"},
        {"video_note": {"data": b64(mp4_bytes())}, "duration": 5, "length": 240},
    ]  # fmt: skip
    for body in sends:
        assert (await wire.sim("POST", "/sim/file", body))[0] == 200
    got = [u["message"] for u in await updates(wire)]
    assert got[0]["video"] == {
        "duration": 3, "width": 640, "height": 480, "file_name": "clip.mp4", "mime_type": "video/mp4",
        "file_id": "file_1", "file_unique_id": "ufile_1", "file_size": len(mp4_bytes()),
    }  # fmt: skip
    assert (got[0]["caption"], got[0]["caption_entities"]) == (
        "look /here",
        [{"type": "bot_command", "offset": 5, "length": 5}],
    )
    assert got[1]["audio"]["duration"] == 3  # read from the WAV header by mutagen
    assert (got[1]["audio"]["title"], got[1]["audio"]["performer"]) == ("Song", "Band")
    assert got[2]["voice"] == {
        "duration": 2, "mime_type": "audio/ogg", "file_id": "file_3", "file_unique_id": "ufile_3",
        "file_size": len(OGG),
    }  # fmt: skip
    assert (got[3]["animation"]["width"], got[3]["animation"]["height"]) == (8, 6)  # Pillow reads the GIF
    assert got[3]["document"]["file_id"] == "file_4"  # an animation is a document too, as Telegram writes it
    assert (got[4]["sticker"]["width"], got[4]["sticker"]["height"], got[4]["sticker"]["emoji"]) == (512, 512, "😀")
    assert got[4]["sticker"]["file_id"] == "file_6"  # after the animation and the thumbnail drawn from its GIF
    assert got[5]["video_note"] == {
        "duration": 5, "length": 240, "file_id": "file_8", "file_unique_id": "ufile_8", "file_size": len(mp4_bytes()),
    }  # fmt: skip
    assert "caption" not in got[5]
    assert await wire.text() == (
        "[1] alice: [video clip.mp4 3s] look /here\n"
        "[2] alice: [audio tone.wav 3s]\n"
        "[3] alice: [voice 2s]\n"
        "[4] alice: [animation a.gif]\n"
        "[5] alice: [sticker 😀]\n"
        "[6] alice: [video_note 5s]\n"
    )


async def test_a_video_as_a_multipart_form_with_its_fields(wire: Wire) -> None:
    form = FormData()
    for key, value in {"duration": "7", "width": "320", "height": "240", "caption": "clip", "user_id": "77"}.items():
        form.add_field(key, value)
    form.add_field("video", io.BytesIO(mp4_bytes()), filename="c.mp4", content_type="application/octet-stream")
    resp = await wire.client.post("/sim/file", data=form)
    assert resp.status == 200, await resp.text()
    [update] = await updates(wire)
    video = update["message"]["video"]
    assert (video["duration"], video["width"], video["height"], update["message"]["chat"]["id"]) == (7, 320, 240, 77)


async def test_an_animated_and_a_video_sticker_are_told_by_their_bytes(wire: Wire) -> None:
    await wire.sim("POST", "/sim/file", {"sticker": {"name": "a.tgs", "data": b64(b"\x1f\x8b" + b"\x00" * 20)}})
    await wire.sim("POST", "/sim/file", {"sticker": {"name": "v.webm", "data": b64(b"\x1a\x45\xdf\xa3" + b"\0" * 20)}})
    first, second = [u["message"]["sticker"] for u in await updates(wire)]
    assert (first["is_animated"], first["is_video"], second["is_animated"], second["is_video"]) == (
        True,
        False,
        False,
        True,
    )


REFUSALS = [
    ({"sticker": {"data": b64(b"hello")}}, "sticker is not a WEBP or PNG image, a .tgs animation or a WEBM video"),
    ({"sticker": {"data": b64(image_bytes("PNG"))}, "caption": "x"}, "a sticker has no caption"),
    ({"video_note": {"data": b64(mp4_bytes())}, "caption": "x"}, "a video_note has no caption"),
    ({"sticker": {"data": b64(image_bytes("PNG"))}, "mention": True}, "a sticker has no caption to mention the bot in"),
    ({"document": {"data": b64(PDF)}, "duration": 3}, "a document has no duration"),
    ({"photo": {"data": b64(image_bytes("PNG"))}, "width": 3}, "a photo has no width"),
    ({"voice": {"data": b64(OGG)}, "performer": "me"}, "a voice has no performer"),
    ({"audio": {"data": b64(OGG)}, "emoji": "😀"}, "an audio has no emoji"),
    ({"video": {"data": b64(mp4_bytes())}, "length": 3}, "a video has no length"),
    ({"voice": {"data": ""}}, "voice is empty"),
    ({"video": {"data": "%%"}}, "video.data is not valid base64"),
    ({"video": {"data": "aGk="}, "voice": {"data": "aGk="}}, "send one file, not video and voice"),
    ({"animation": {"data": "aGk="}, "caption": "c" * 1025}, "caption is longer than 1024 characters"),
    (
        {"video": {"data": "aGk="}, "duration": 86401},
        "invalid JSON body: duration: Input should be less than or equal to 86400",
    ),
    ({"video": {"data": "aGk="}, "width": -1}, "invalid JSON body: width: Input should be greater than or equal to 0"),
    ({"video_note": {"data": "aGk="}, "length": 10001}, "invalid JSON body: length: " + LESS.format(10000)),
]  # fmt: skip


@pytest.mark.parametrize(("body", "error"), REFUSALS)
async def test_refusals_name_the_problem_and_store_nothing(wire: Wire, body: Any, error: str) -> None:
    assert await wire.sim("POST", "/sim/file", body) == (400, {"error": error})
    assert wire.stand.world.files == {}
    assert await updates(wire) == []


async def test_a_refused_person_stores_no_file(wire: Wire) -> None:
    assert (await wire.sim("POST", "/sim/block", {"user": 4242}))[0] == 200
    status, body = await wire.sim("POST", "/sim/file", {"voice": {"data": b64(OGG)}})
    assert (status, body["error"]) == (403, "alice blocked @tgfake_bot: unblock it first (POST /sim/unblock)")
    assert wire.stand.world.files == {}


async def test_sizes_per_kind(wire: Wire) -> None:
    big = b"\x00" * ((50 << 20) + 1)
    form = FormData()
    form.add_field("voice", io.BytesIO(big), filename="v.ogg", content_type="application/octet-stream")
    resp = await wire.client.post("/sim/file", data=form)
    assert (resp.status, await resp.json()) == (400, {"error": "voice is larger than 50 MiB"})
    assert wire.stand.world.files == {}


# --- albums --------------------------------------------------------------------------------------------------------
PHOTO = {"type": "photo", "name": "a.png", "data": b64(image_bytes("PNG", (4, 3)))}
VIDEO = {"type": "video", "name": "v.mp4", "data": b64(mp4_bytes()), "duration": 2}
DOC = {"type": "document", "name": "d.pdf", "data": b64(PDF)}
AUDIO = {"type": "audio", "name": "t.wav", "data": b64(wav_bytes(1))}


async def test_an_album_is_one_message_per_item_with_one_media_group_id_in_order(wire: Wire) -> None:
    status, answer = await wire.sim(
        "POST", "/sim/album", {"items": [PHOTO | {"caption": "our trip #summer"}, VIDEO, PHOTO | {"caption": "me"}]}
    )
    assert status == 200, answer
    group = answer["media_group_id"]
    assert answer["messages"] == [
        {"message_id": 1, "update_id": 1, "file_id": "file_1"},
        {"message_id": 2, "update_id": 2, "file_id": "file_2"},
        {"message_id": 3, "update_id": 3, "file_id": "file_3"},
    ]
    got = await updates(wire)
    assert [u["update_id"] for u in got] == [1, 2, 3]
    messages = [u["message"] for u in got]
    assert [m["media_group_id"] for m in messages] == [group] * 3
    assert [m.get("caption") for m in messages] == ["our trip #summer", None, "me"]
    assert messages[0]["caption_entities"] == [{"type": "hashtag", "offset": 9, "length": 7}]
    assert ["photo" in messages[0], messages[1]["video"]["duration"], "photo" in messages[2]] == [True, 2, True]
    assert await wire.text() == "[1] alice: [album 3: photo, video, photo] our trip #summer\n"
    # a second album gets its own id
    status, again = await wire.sim("POST", "/sim/album", {"items": [DOC, DOC]})
    assert (status, again["media_group_id"] != group) == (200, True)


async def test_an_album_in_a_group_replies_and_mentions_once(wire: Wire) -> None:
    await wire.say("hello", chat_id=-100, chat_type="group")
    body = {"chat_id": -100, "chat_type": "group", "mention": True, "reply_to_message_id": 1, "items": [AUDIO, AUDIO]}
    status, answer = await wire.sim("POST", "/sim/album", body)
    assert status == 200, answer
    messages = [u["message"] for u in await updates(wire)][1:]
    assert [m["caption"] for m in messages if "caption" in m] == ["@tgfake_bot"]
    assert [m["reply_to_message"]["message_id"] for m in messages] == [1, 1]


ALBUM_REFUSALS = [
    ([PHOTO], "an album has 2 to 10 items, not 1"),
    ([], "an album has 2 to 10 items, not 0"),
    ([PHOTO] * 11, "an album has 2 to 10 items, not 11"),
    ([PHOTO, DOC], "a document can't be in an album with a photo: documents go only together"),
    ([AUDIO, VIDEO], "an audio can't be in an album with a video: audios go only together"),
    ([DOC, AUDIO], "a document can't be in an album with an audio: documents go only together"),
    ([PHOTO, {"type": "voice", "data": b64(OGG)}], "items[1]: a voice" + NOT_IN_ALBUM),
    ([PHOTO, {"type": "animation", "data": b64(OGG)}], "items[1]: an animation" + NOT_IN_ALBUM),
    ([{"data": "aGk="}, PHOTO], "items[0]: type ''" + NOT_IN_ALBUM),
    ([PHOTO, PHOTO | {"data": "!!"}], "items[1].data is not valid base64"),
    ([PHOTO, PHOTO | {"data": b64(PDF)}], "items[1]: photo is not a PNG, JPEG or GIF image"),
    ([PHOTO, VIDEO | {"performer": "x"}], "items[1]: a video has no performer"),
    ([PHOTO, PHOTO | {"caption": "c" * 1025}], "items[1]: caption is longer than 1024 characters"),
    ([PHOTO, VIDEO | {"duration": -1}], "invalid JSON body: items.1.duration: " + GREATER.format(0)),
]  # fmt: skip


@pytest.mark.parametrize(("items", "error"), ALBUM_REFUSALS)
async def test_album_refusals_name_the_problem_and_store_nothing(wire: Wire, items: Any, error: str) -> None:
    assert await wire.sim("POST", "/sim/album", {"items": items}) == (400, {"error": error})
    assert wire.stand.world.files == {}
    assert await updates(wire) == []


# --- album composition, every mix ----------------------------------------------------------------------------------
ITEM_OF = {
    "photo": PHOTO,
    "video": VIDEO,
    "document": DOC,
    "audio": AUDIO,
    "voice": {"type": "voice", "data": b64(OGG)},
    "animation": {"type": "animation", "data": b64(image_bytes("GIF"))},
    "sticker": {"type": "sticker", "data": b64(image_bytes("PNG"))},
    "video_note": {"type": "video_note", "data": b64(mp4_bytes())},
    "bogus": {"type": "bogus", "data": b64(PDF)},
}


def album_rule(kinds: list[str]) -> bool:
    """Telegram's rule, stated independently: 2-10 items; all photos/videos, or all documents, or all audio."""
    return 2 <= len(kinds) <= 10 and any(
        set(kinds) <= allowed for allowed in ({"photo", "video"}, {"document"}, {"audio"})
    )


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    with ThreadedStand(Options(poll_max=0.05)) as stand:
        yield stand.url


def post(url: str, body: Any) -> tuple[int, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(sorted(ITEM_OF)), max_size=12), st.booleans())
def test_any_album_is_sent_whole_or_refused_whole_with_a_clear_400(served: str, kinds: list[str], group: bool) -> None:
    assert post(served + "/sim/reset", {})[0] == 200
    where = {"chat_id": -200, "chat_type": "supergroup"} if group else {}
    status, answer = post(served + "/sim/album", {"items": [ITEM_OF[k] for k in kinds], **where})
    assert status == (200 if album_rule(kinds) else 400), answer
    if status == 400:
        assert answer["error"].startswith(("an album has", "items[", "a document", "an audio")), answer
        assert list(answer) == ["error"]
        return
    messages = answer["messages"]
    assert [m["message_id"] for m in messages] == list(range(1, len(kinds) + 1))
    assert len({m["file_id"] for m in messages}) == len(kinds)
    assert answer["media_group_id"]


# --- the client's formatting -----------------------------------------------------------------------------------------
async def test_caption_entities_the_client_sends_join_the_detected_ones(wire: Wire) -> None:
    bold = [{"type": "bold", "offset": 0, "length": 4}]
    body = {"video": {"data": b64(mp4_bytes())}, "caption": "bold see example.com /start", "caption_entities": bold}
    assert (await wire.sim("POST", "/sim/file", body))[0] == 200
    form = FormData()
    form.add_field("caption", "hey 👋 you")
    form.add_field("caption_entities", '[{"type":"italic","offset":4,"length":2}]')  # 👋 is two UTF-16 units
    form.add_field("photo", io.BytesIO(image_bytes("PNG")), filename="x.png", content_type="application/octet-stream")
    resp = await wire.client.post("/sim/file", data=form)
    assert resp.status == 200, await resp.text()
    album = [PHOTO | {"caption": "hi alice", "caption_entities": [{"type": "text_mention", "offset": 3, "length": 5,
             "user": {"id": 4242, "is_bot": False, "first_name": "x"}}]}, PHOTO]  # fmt: skip
    assert (await wire.sim("POST", "/sim/album", {"items": album}))[0] == 200
    got = [u["message"] for u in await updates(wire)]
    assert got[0]["caption_entities"] == [
        {"offset": 0, "length": 4, "type": "bold"},
        {"offset": 9, "length": 11, "type": "url"},
        {"offset": 21, "length": 6, "type": "bot_command"},
    ]
    assert got[1]["caption_entities"] == [{"offset": 4, "length": 2, "type": "italic"}]
    assert got[2]["caption_entities"] == [
        {
            "offset": 3,
            "length": 5,
            "type": "text_mention",
            "user": {"id": 4242, "is_bot": False, "first_name": "Alice", "username": "alice"},
        }
    ]


ENTITY = "caption_entities: can't parse MessageEntity: "
ENTITY_REFUSALS = [
    ([{"type": "nope", "offset": 0, "length": 1}], ENTITY + "Unsupported type specified"),
    ([{"offset": 0}], ENTITY + "Can't find field \"length\""),
    ([5], "invalid JSON body: caption_entities.0: Input should be an object"),
]  # fmt: skip


@pytest.mark.parametrize(("entities", "error"), ENTITY_REFUSALS)
async def test_caption_entities_are_checked_as_the_bot_apis(wire: Wire, entities: Any, error: str) -> None:
    body = {"photo": {"data": PHOTO["data"]}, "caption": "hi", "caption_entities": entities}
    assert await wire.sim("POST", "/sim/file", body) == (400, {"error": error})
    body = {"photo": {"data": PHOTO["data"]}, "caption": "hi", "caption_entities": [], "mention": True}
    assert await wire.sim("POST", "/sim/file", body) == (
        400,
        {"error": "caption_entities and mention don't go together: write the @username in the caption"},
    )
    assert wire.stand.world.files == {}


async def test_a_file_the_stand_holds_is_sent_again_by_its_file_id(wire: Wire) -> None:
    """The bot's sticker sent back by the person, by id (JSON and a form's text field), and an album of files sent
    before: the same file_id and file_unique_id, no new file; only the caption is the person's."""
    await wire.say("hi")
    status, sent = await upload(wire, "sendSticker", "sticker", "s.webp", image_bytes("WEBP", (512, 512)),
                                chat_id=4242, emoji="😺")  # fmt: skip
    assert status == 200, sent
    sticker = sent["result"]["sticker"]
    await updates(wire)
    status, answer = await wire.sim("POST", "/sim/file", {"sticker": {"file_id": sticker["file_id"]}})
    assert (status, answer["file_id"]) == (200, sticker["file_id"]), answer
    form = FormData()
    form.add_field("sticker", sticker["file_id"])
    resp = await wire.client.post("/sim/file", data=form)
    assert resp.status == 200, await resp.text()
    got = [u["message"]["sticker"] for u in await wire.ok("getUpdates", offset=-2)]
    assert got == [sticker, sticker]
    status, photo = await wire.sim("POST", "/sim/file", {"photo": {"name": "a.png", "data": b64(image_bytes("PNG"))}})
    assert status == 200
    await updates(wire)
    status, album = await wire.sim(
        "POST", "/sim/album", {"items": [{"type": "photo", "file_id": photo["file_id"], "caption": "again"}, PHOTO]}
    )
    assert status == 200, album
    assert album["messages"][0]["file_id"] == photo["file_id"]
    first, second = (u["message"] for u in await wire.ok("getUpdates", offset=-2))
    assert first["caption"] == "again"
    assert first["media_group_id"] == second["media_group_id"]
    assert first["photo"][-1]["file_unique_id"] != second["photo"][-1]["file_unique_id"]
    assert second["photo"][-1]["file_id"] == "file_4"  # the sticker, its thumbnail, the photo, the album's new one


NO_FILE = "no file 'file_99' in the stand (a file id comes from a sent file's message)"
BOTH = "sticker: send the file's data or its file_id, not both"
OWN = "emoji is the file's own: a file sent by file_id keeps what it was sent with"


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"sticker": {"file_id": "file_99"}}, 404, NO_FILE),
        ({"photo": {"file_id": "file_1"}}, 400, "file_1 is a sticker: it is sent again only as a sticker"),
        ({"sticker": {"file_id": "file_1", "data": "AAAA"}}, 400, BOTH),
        ({"sticker": {"file_id": "file_1"}, "emoji": "😀"}, 400, OWN),
        ({"sticker": {"file_id": "file_1"}, "caption": "hi"}, 400, "a sticker has no caption"),
    ],
)
async def test_a_file_id_sent_again_is_refused_when_it_names_no_file_of_that_kind(
    wire: Wire, body: dict[str, Any], status: int, error: str
) -> None:
    await wire.say("hi")
    sticker = image_bytes("WEBP", (512, 512))
    assert (await upload(wire, "sendSticker", "sticker", "s.webp", sticker, chat_id=4242))[0] == 200
    before = await wire.text()
    assert await wire.sim("POST", "/sim/file", body) == (status, {"error": error})
    assert await wire.text() == before
