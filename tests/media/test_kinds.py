"""Every file kind the bot sends (video, audio, voice, animation, sticker, video note) over HTTP.

Each kind's JSON is the one Telegram writes; durations come from the bytes when not stated; a file id is re-sent
only as its own kind; a URL is refused as unfetchable; getFile and the download serve every kind.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from aiohttp import FormData

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, mp4_bytes, upload, wav_bytes


async def test_video_keeps_stated_size_and_duration_clamped(wire: Wire) -> None:
    data = mp4_bytes()
    status, body = await upload(
        wire, "sendVideo", "video", "clip.mp4", data, chat_id=4242, width=640, height=99999, duration=3, caption="hi"
    )
    assert status == 200, body
    msg = body["result"]
    assert msg["video"] == {
        "duration": 3,
        "width": 640,
        "height": 10000,
        "file_name": "clip.mp4",
        "mime_type": "video/mp4",
        "file_id": "file_1",
        "file_unique_id": "ufile_1",
        "file_size": len(data),
    }
    assert msg["caption"] == "hi"
    assert "text" not in msg
    assert await wire.text() == "[1] bot: [video clip.mp4 3s] hi\n"
    view = (await wire.sim("GET", "/sim/chat/4242"))[1]["messages"][0]
    assert view["kind"] == "video"
    assert view["video"]["duration"] == 3


async def test_audio_duration_is_read_from_the_bytes(wire: Wire) -> None:
    data = wav_bytes(3)
    status, body = await upload(wire, "sendAudio", "audio", "tone.wav", data, chat_id=4242, performer="Band")
    assert status == 200, body
    assert body["result"]["audio"] == {
        "duration": 3,
        "file_name": "tone.wav",
        "mime_type": "audio/wave",
        "performer": "Band",
        "file_id": "file_1",
        "file_unique_id": "ufile_1",
        "file_size": len(data),
    }
    assert await wire.text() == "[1] bot: [audio tone.wav 3s]\n"


async def test_voice_video_note_animation_and_sticker_shapes(wire: Wire) -> None:
    ogg = b"OggS\x00" + b"\x00" * 40
    status, body = await upload(wire, "sendVoice", "voice", "v.ogg", ogg, chat_id=4242, duration=2)
    assert status == 200, body
    assert body["result"]["voice"] == {
        "duration": 2,
        "mime_type": "audio/ogg",
        "file_id": "file_1",
        "file_unique_id": "ufile_1",
        "file_size": 45,
    }
    status, body = await upload(
        wire, "sendVideoNote", "video_note", "n.mp4", mp4_bytes(), chat_id=4242, length=240, duration=5, caption="x"
    )
    assert status == 200, body
    note = body["result"]
    assert note["video_note"] == {
        "duration": 5,
        "length": 240,
        "file_id": "file_2",
        "file_unique_id": "ufile_2",
        "file_size": len(mp4_bytes()),
    }
    assert "caption" not in note  # a video note has none
    gif = image_bytes("GIF", (30, 20))
    status, body = await upload(wire, "sendAnimation", "animation", "a.gif", gif, chat_id=4242)
    assert status == 200, body
    anim = body["result"]
    drawn = anim["animation"]["thumbnail"]  # Telegram draws a GIF's thumbnail from its first frame: the next id
    assert drawn == {"file_id": "file_4", "file_unique_id": "ufile_4", "file_size": drawn["file_size"], "width": 30,
                     "height": 20}  # fmt: skip
    assert anim["animation"] == {
        "file_name": "a.gif",
        "mime_type": "image/gif",
        "duration": 0,
        "width": 30,
        "height": 20,
        "thumbnail": drawn,
        "thumb": drawn,
        "file_id": "file_3",
        "file_unique_id": "ufile_3",
        "file_size": len(gif),
    }
    assert anim["document"] == {
        "file_name": "a.gif",
        "mime_type": "image/gif",
        "thumbnail": drawn,
        "thumb": drawn,
        "file_id": "file_3",
        "file_unique_id": "ufile_3",
        "file_size": len(gif),
    }
    webp = image_bytes("WEBP", (512, 256))
    status, body = await upload(wire, "sendSticker", "sticker", "s.webp", webp, chat_id=4242, emoji="😀")
    assert status == 200, body
    drawn = body["result"]["sticker"]["thumbnail"]  # scaled into 320 px, a WEBP like Telegram's
    assert drawn == {"file_id": "file_6", "file_unique_id": "ufile_6", "file_size": drawn["file_size"], "width": 320,
                     "height": 160}  # fmt: skip
    assert body["result"]["sticker"] == {
        "width": 512,
        "height": 256,
        "emoji": "😀",
        "is_animated": False,
        "is_video": False,
        "type": "regular",
        "thumbnail": drawn,
        "thumb": drawn,
        "file_id": "file_5",
        "file_unique_id": "ufile_5",
        "file_size": len(webp),
    }
    assert await wire.text() == (
        "[1] bot: [voice 2s]\n[2] bot: [video_note 5s]\n[3] bot: [animation a.gif]\n[4] bot: [sticker 😀]\n"
    )


KINDS = [
    ("sendVideo", "video", "video"),
    ("sendAudio", "audio", "audio"),
    ("sendVoice", "voice", "voice"),
    ("sendAnimation", "animation", "animation"),
    ("sendSticker", "sticker", "sticker"),
    ("sendVideoNote", "video_note", "video note"),
]


@pytest.mark.parametrize(("method", "field", "what"), KINDS)
async def test_refusals_of_every_kind(wire: Wire, method: str, field: str, what: str) -> None:
    await wire.refused(method, 400, f"Bad Request: there is no {what} in the request", chat_id=4242)
    await wire.refused(method, 400, "Bad Request: chat_id is empty", **{field: "file_9"})
    await wire.refused(
        method, 400, "Bad Request: wrong file identifier/HTTP URL specified", chat_id=4242, **{field: "file_9"}
    )
    await wire.refused(
        method, 400, "Bad Request: failed to get HTTP URL content", chat_id=4242, **{field: "https://x.example/f"}
    )
    status, body = await upload(wire, method, field, "big.bin", b"\x00" * (50 * 1024 * 1024 + 1), chat_id=4242)
    assert (status, body["description"]) == (400, "Bad Request: file is too big")
    assert wire.stand.world.files == {}


@pytest.mark.parametrize(("method", "field", "what"), KINDS)
async def test_file_id_resends_as_its_own_kind_and_downloads(wire: Wire, method: str, field: str, what: str) -> None:
    data = image_bytes("WEBP") if field == "sticker" else wav_bytes(1)
    status, body = await upload(wire, method, field, "f.bin", data, chat_id=4242)
    assert status == 200, body
    again = await wire.ok(method, chat_id=4242, **{field: "file_1"})
    assert again[field]["file_id"] == "file_1"
    assert again[field] == body["result"][field]  # the same file, its fields kept
    # TDLib takes a file id of the document class in any document-class send; the message shows what the file is.
    as_document = await wire.ok("sendDocument", chat_id=4242, document="file_1")
    assert as_document[field] == body["result"][field]
    assert "document" not in as_document or field == "animation"
    await wire.refused("sendPhoto", 400, "Bad Request: type of file mismatch", chat_id=4242, photo="file_1")
    got = await wire.ok("getFile", file_id="file_1")
    assert got["file_path"].split("/")[0] in ("videos", "music", "voice", "animations", "stickers", "video_notes")
    resp = await wire.client.get(f"/file/bot{wire.token}/{got['file_path']}")
    assert resp.status == 200
    assert await resp.read() == data


async def test_attach_reference_uploads_the_named_part(wire: Wire) -> None:
    form = FormData()
    form.add_field("chat_id", "4242")
    form.add_field("video", "attach://clip")
    form.add_field("clip", io.BytesIO(mp4_bytes()), filename="c.mp4", content_type="video/mp4")
    resp = await wire.client.post(f"/bot{wire.token}/sendVideo", data=form)
    body: dict[str, Any] = await resp.json()
    assert resp.status == 200, body
    assert body["result"]["video"]["file_name"] == "c.mp4"


async def test_testing_client_message_exposes_the_kind(wire: Wire) -> None:
    from tgfake.testing import ChatMessage

    await wire.ok("sendMessage", chat_id=4242, text="hi")
    await upload(wire, "sendSticker", "sticker", "s.webp", image_bytes("WEBP"), chat_id=4242)
    messages = (await wire.sim("GET", "/sim/chat/4242"))[1]["messages"]
    assert [ChatMessage.from_json(m).kind for m in messages] == ["text", "sticker"]


async def test_a_document_class_id_in_another_send_shows_the_file_as_what_it_is(wire: Wire) -> None:
    """sendVideoNote with a video's id (node-telegram-bot-api's suite does it) sends the video: TDLib accepts any
    document-class id, and the server keeps the file's own kind; a kind without captions drops the caption."""
    status, body = await upload(wire, "sendVideo", "video", "clip.mp4", wav_bytes(1), chat_id=4242)
    assert status == 200, body
    video_id = body["result"]["video"]["file_id"]
    sent = await wire.ok("sendVideoNote", chat_id=4242, video_note=video_id, length=5)
    assert (sent["video"]["file_id"], "video_note" in sent) == (video_id, False)
    status, body = await upload(wire, "sendVideoNote", "video_note", "round.mp4", wav_bytes(1), chat_id=4242)
    note_id = body["result"]["video_note"]["file_id"]
    sent = await wire.ok("sendVideo", chat_id=4242, video=note_id, caption="no caption on a round video")
    assert (sent["video_note"]["file_id"], "caption" in sent, "video" in sent) == (note_id, False, False)
