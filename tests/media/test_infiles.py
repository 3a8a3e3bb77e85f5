"""Files from the person (POST /sim/file), getFile and /file/bot<token>/<path>, and re-sending by file id."""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest
from aiohttp import FormData

from tests.conftest import Wire, WireFactory
from tests.media.media_helpers import image_bytes, upload

PDF = b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n"
ANY_FILE = "a file is required: one of photo, document, video, audio, voice, animation, sticker, video_note"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def send_file(wire: Wire, body: Any) -> tuple[int, Any]:
    return await wire.sim("POST", "/sim/file", body)


async def send_form(wire: Wire, field: str, filename: str, data: bytes, **fields: Any) -> tuple[int, Any]:
    """A multipart form, as ``curl -F photo=@cat.png -F caption=hi`` sends it."""
    form = FormData()
    for key, value in fields.items():
        form.add_field(key, str(value))
    form.add_field(field, io.BytesIO(data), filename=filename, content_type="application/octet-stream")
    resp = await wire.client.post("/sim/file", data=form)
    return resp.status, await resp.json()


async def updates(wire: Wire) -> list[dict[str, Any]]:
    return list(await wire.ok("getUpdates", timeout=0))


# --- the person sends ------------------------------------------------------------------------------------------


async def test_a_photo_as_base64_json_reaches_the_bot_with_its_size_caption_and_command(wire: Wire) -> None:
    png = image_bytes("PNG", (16, 9))
    status, answer = await send_file(wire, {"photo": {"name": "cat.png", "data": b64(png)}, "caption": "/describe it"})
    assert (status, answer) == (200, {"message_id": 1, "update_id": 1, "file_id": "file_1"})
    [update] = await updates(wire)
    assert update["message"] == {
        "message_id": 1,
        "from": {"id": 4242, "is_bot": False, "first_name": "Alice", "username": "alice"},
        "chat": {"id": 4242, "type": "private", "first_name": "Alice", "username": "alice"},
        "date": update["message"]["date"],
        "caption": "/describe it",
        "photo": [{"file_id": "file_1", "file_unique_id": "ufile_1", "width": 16, "height": 9, "file_size": len(png)}],
        "caption_entities": [{"type": "bot_command", "offset": 0, "length": 9}],
    }
    assert await wire.text() == "[1] alice: [photo cat.png 16x9] /describe it\n"
    resp = await wire.client.get("/sim/file/file_1")
    assert (resp.status, resp.headers["Content-Type"], await resp.read()) == (200, "image/png", png)


async def test_a_document_as_a_multipart_form_with_the_sender_fields(wire: Wire) -> None:
    status, answer = await send_form(
        wire, "document", "report.pdf", PDF, caption="please summarise", user_id=77, username="bob", chat_type="group"
    )
    assert (status, answer) == (200, {"message_id": 1, "update_id": 1, "file_id": "file_1"})
    [update] = await updates(wire)
    msg = update["message"]
    assert msg["document"] == {
        "file_id": "file_1",
        "file_unique_id": "ufile_1",
        "file_name": "report.pdf",
        "mime_type": "application/pdf",
        "file_size": len(PDF),
    }
    assert (msg["from"]["id"], msg["chat"], msg["caption"]) == (
        77,
        {"id": -100000000077, "type": "group", "title": "Fake group"},
        "please summarise",
    )
    assert "text" not in msg
    assert "caption_entities" not in msg
    assert await wire.text(-100000000077) == "[1] bob: [document report.pdf] please summarise\n"


async def test_a_mention_prefixes_the_caption_and_a_file_may_answer_a_message(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="Send me a picture")
    jpeg = image_bytes("JPEG", (5, 7))
    status, _ = await send_file(
        wire, {"photo": {"data": b64(jpeg)}, "mention": True, "reply_to_message_id": 1, "caption": "here"}
    )
    assert status == 200
    [update] = await updates(wire)
    msg = update["message"]
    assert msg["caption"] == "@tgfake_bot here"
    assert msg["caption_entities"] == [{"type": "mention", "offset": 0, "length": 11}]
    assert msg["reply_to_message"]["text"] == "Send me a picture"
    assert await wire.text() == "[1] bot: Send me a picture\n[2] alice: [photo photo.jpg 5x7] @tgfake_bot here\n"


@pytest.mark.parametrize(
    ("kind", "data", "name"),
    [
        ("photo", image_bytes("GIF"), "photo.gif"),
        ("document", PDF, "document.pdf"),
        ("document", b"\x00", "document.bin"),
    ],
)
async def test_a_file_without_a_name_is_named_by_its_content(wire: Wire, kind: str, data: bytes, name: str) -> None:
    assert (await send_file(wire, {kind: {"data": b64(data)}}))[0] == 200
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["messages"][0][kind]["name"] == name


async def test_base64_may_be_url_safe_unpadded_wrapped_or_a_data_url(wire: Wire) -> None:
    data = bytes(range(256))
    encoded = base64.urlsafe_b64encode(data).decode().rstrip("=")
    for text in (encoded, encoded[:40] + "\n" + encoded[40:], "data:application/octet-stream;base64," + b64(data)):
        status, answer = await send_file(wire, {"document": {"name": "blob.bin", "data": text}})
        assert status == 200, answer
        resp = await wire.client.get(f"/sim/file/{answer['file_id']}")
        assert await resp.read() == data


REFUSALS = [
    ({}, ANY_FILE),
    ({"caption": "no file"}, ANY_FILE),
    ({"photo": {"data": "aGk="}, "document": {"data": "aGk="}}, "send one file, not photo and document"),
    ({"photo": {"data": "not base64!"}}, "photo.data is not valid base64"),
    ({"document": {"data": "abcde"}}, "document.data is not valid base64"),
    ({"document": {"data": ""}}, "document is empty"),
    ({"photo": {"data": b64(b"plain text")}}, "photo is not a PNG, JPEG or GIF image"),
    ({"photo": {"data": b64(image_bytes("BMP"))}}, "photo is not a PNG, JPEG or GIF image"),
    ({"document": {"data": "aGk="}, "caption": "c" * 1025}, "caption is longer than 1024 characters"),
    ({"photo": {"data": 5}}, "invalid JSON body: photo.data: Input should be a valid string"),
    ({"photo": "cat.png"}, "invalid JSON body: photo: Input should be an object"),
    ({"document": {"data": "aGk="}, "user_id": "7"}, "invalid JSON body: user_id: Input should be a valid integer"),
]


@pytest.mark.parametrize(("body", "error"), REFUSALS)
async def test_refusals_name_the_problem_and_store_nothing(wire: Wire, body: Any, error: str) -> None:
    assert await send_file(wire, body) == (400, {"error": error})
    assert wire.stand.world.files == {}
    assert await updates(wire) == []


async def test_an_empty_or_broken_json_body_is_refused(wire: Wire) -> None:
    resp = await wire.client.post("/sim/file", data=b"", headers={"Content-Type": "application/json"})
    assert (resp.status, await resp.json()) == (400, {"error": "invalid JSON body: EOF"})
    resp = await wire.client.post("/sim/file", data=b"{", headers={"Content-Type": "application/json"})
    assert resp.status == 400
    assert (await resp.json())["error"].startswith("invalid JSON body: ")


async def test_form_refusals(wire: Wire) -> None:
    form = FormData({"photo": "cat.png", "caption": "x"})
    resp = await wire.client.post("/sim/file", data=form)
    error = "photo must be a file part (curl -F photo=@file) or the file_id of a file the stand holds, not 'cat.png'"
    assert (resp.status, await resp.json()) == (400, {"error": error})
    status, body = await send_form(wire, "photo", "a.png", image_bytes("PNG"), user_id="seven")
    assert status == 400
    assert body["error"].startswith("invalid form field: user_id: Input should be a valid integer")
    assert await send_form(wire, "file", "a.png", image_bytes("PNG")) == (
        400,
        {"error": ANY_FILE},
    )
    assert wire.stand.world.files == {}


async def test_size_caps(wire: Wire) -> None:
    big_photo = image_bytes("PNG") + b"\x00" * (10 << 20)
    assert await send_form(wire, "photo", "big.png", big_photo) == (400, {"error": "photo is larger than 10 MiB"})
    assert await send_form(wire, "document", "big.bin", b"\x00" * ((50 << 20) + 1)) == (
        400,
        {"error": "document is larger than 50 MiB"},
    )
    assert wire.stand.world.files == {}


async def test_one_numbering_for_the_bots_and_the_persons_files(wire: Wire) -> None:
    _status, body = await upload(wire, "sendDocument", "document", "a.txt", b"bot", chat_id=4242)
    assert body["result"]["document"]["file_id"] == "file_1"
    assert (await send_file(wire, {"document": {"name": "b.txt", "data": b64(b"me")}}))[1]["file_id"] == "file_2"
    assert (await wire.sim("POST", "/sim/reset"))[0] == 200
    assert (await send_file(wire, {"document": {"name": "b.txt", "data": b64(b"me")}}))[1]["file_id"] == "file_1"


# --- getFile and downloads ---------------------------------------------------------------------------------------


async def test_get_file_and_download_the_same_bytes(wire: Wire) -> None:
    jpeg = image_bytes("JPEG", (8, 8))
    await send_file(wire, {"photo": {"name": "cat.jpeg", "data": b64(jpeg)}})
    await send_form(wire, "document", "Report.Final.PDF", PDF)
    await upload(wire, "sendDocument", "document", "notes", b"plain notes\n", chat_id=4242)
    await upload(wire, "sendPhoto", "photo", "chart.bin", image_bytes("GIF"), chat_id=4242)
    paths = {}
    for file_id in ("file_1", "file_2", "file_3", "file_4"):
        result = await wire.ok("getFile", file_id=file_id)
        stored = wire.stand.world.files[file_id]
        assert result == {
            "file_id": file_id,
            "file_unique_id": "u" + file_id,
            "file_size": stored.size,
            "file_path": result["file_path"],
        }
        paths[file_id] = result["file_path"]
        resp = await wire.client.get(f"/file/bot{wire.token}/{result['file_path']}")
        assert (resp.status, resp.headers["Content-Type"], await resp.read()) == (200, stored.mime_type, stored.data)
    assert paths == {
        "file_1": "photos/file_1.jpg",
        "file_2": "documents/file_2.pdf",
        "file_3": "documents/file_3.txt",
        "file_4": "photos/file_4.gif",
    }


@pytest.mark.parametrize(
    ("file_id", "description"),
    [
        ("file_9", "Bad Request: wrong file_id or the file is temporarily unavailable"),
        ("ufile_1", "Bad Request: wrong remote file identifier specified: wrong string length"),
        ("AgACAgIAAxkBAAIB", "Bad Request: wrong remote file identifier specified: wrong string length"),
        ("", "Bad Request: wrong remote file identifier specified: wrong string length"),
    ],
)
async def test_get_file_refusals(wire: Wire, file_id: str, description: str) -> None:
    await send_file(wire, {"document": {"name": "a.txt", "data": b64(b"a")}})
    await wire.refused("getFile", 400, description, file_id=file_id)


async def test_get_file_refuses_over_20_mib_but_not_at_it(wire: Wire) -> None:
    await send_form(wire, "document", "exact.bin", b"\x00" * (20 << 20))
    await send_form(wire, "document", "over.bin", b"\x00" * ((20 << 20) + 1))
    assert (await wire.ok("getFile", file_id="file_1"))["file_path"] == "documents/file_1.bin"
    await wire.refused("getFile", 400, "Bad Request: file is too big", file_id="file_2")
    resp = await wire.client.get(f"/file/bot{wire.token}/documents/file_2.bin")
    assert (resp.status, await resp.json()) == (404, {"ok": False, "error_code": 404, "description": "Not Found"})
    resp = await wire.client.get(f"/file/bot{wire.token}/documents/file_1.bin")
    assert (resp.status, len(await resp.read())) == (200, 20 << 20)


async def test_a_download_path_must_be_the_files_own(wire: Wire) -> None:
    await send_file(wire, {"photo": {"name": "a.png", "data": b64(image_bytes("PNG"))}})
    not_found = {"ok": False, "error_code": 404, "description": "Not Found"}
    for path in ("photos/file_1.jpg", "documents/file_1.png", "photos/file_2.png", "file_1.png", "photos/x/file_1.png"):
        resp = await wire.client.get(f"/file/bot{wire.token}/{path}")
        assert (resp.status, await resp.json()) == (404, not_found), path
    resp = await wire.client.get(f"/file/bot{wire.token}/photos/file_1.png")
    assert resp.status == 200
    assert wire.stand.calls() == []  # downloads are not Bot API calls


async def test_downloads_check_the_token_when_the_stand_has_one(make_wire: WireFactory) -> None:
    async with make_wire(token="42:fixed") as wire:
        await send_file(wire, {"document": {"name": "a.txt", "data": b64(b"secret")}})
        resp = await wire.client.get("/file/bot1:wrong/documents/file_1.txt")
        assert (resp.status, await resp.json()) == (
            401,
            {"ok": False, "error_code": 401, "description": "Unauthorized"},
        )
        resp = await wire.client.get("/file/bot42:fixed/documents/file_1.txt")
        assert (resp.status, await resp.read()) == (200, b"secret")
    async with make_wire() as wire:
        await send_file(wire, {"document": {"name": "a.txt", "data": b64(b"open")}})
        resp = await wire.client.get("/file/botanything/documents/file_1.txt")
        assert (resp.status, await resp.read()) == (200, b"open")


# --- re-sending by file id ---------------------------------------------------------------------------------------


async def test_the_bot_re_sends_the_persons_photo_by_its_id(wire: Wire) -> None:
    png = image_bytes("PNG", (6, 4))
    await send_file(wire, {"photo": {"name": "cat.png", "data": b64(png)}, "caption": "look"})
    msg = await wire.ok("sendPhoto", chat_id=4242, photo="file_1", caption="nice cat")
    assert msg["photo"] == [
        {"file_id": "file_1", "file_unique_id": "ufile_1", "width": 6, "height": 4, "file_size": len(png)}
    ]
    assert msg["caption"] == "nice cat"
    assert list(wire.stand.world.files) == ["file_1"]
    assert await wire.text() == "[1] alice: [photo cat.png 6x4] look\n[2] bot: [photo cat.png 6x4] nice cat\n"
    assert wire.stand.calls("sendPhoto")[0].params["photo"] == "file_1"


async def test_the_bot_re_sends_its_own_document_with_a_json_body(wire: Wire) -> None:
    await upload(wire, "sendDocument", "document", "report.pdf", PDF, chat_id=4242)
    status, body = await wire.call_json("sendDocument", {"chat_id": -5, "document": " file_1 "})
    assert status == 200, body
    assert body["result"]["document"] == {
        "file_id": "file_1",
        "file_unique_id": "ufile_1",
        "file_name": "report.pdf",
        "mime_type": "application/pdf",
        "file_size": len(PDF),
    }
    assert await wire.text(-5) == "[1] bot: [document report.pdf]\n"


async def test_a_file_id_is_re_sent_only_as_its_own_kind(wire: Wire) -> None:
    await send_file(wire, {"photo": {"name": "a.png", "data": b64(image_bytes("PNG"))}})
    await send_file(wire, {"document": {"name": "a.png", "data": b64(image_bytes("PNG"))}})
    await wire.refused("sendDocument", 400, "Bad Request: type of file mismatch", chat_id=4242, document="file_1")
    await wire.refused("sendPhoto", 400, "Bad Request: type of file mismatch", chat_id=4242, photo="file_2")


async def test_a_re_send_is_still_checked_for_chat_caption_keyboard_and_reply(wire: Wire) -> None:
    await send_file(wire, {"photo": {"name": "a.png", "data": b64(image_bytes("PNG"))}})
    await wire.refused("sendPhoto", 400, "Bad Request: chat_id is empty", photo="file_1")
    await wire.refused(
        "sendPhoto", 400, "Bad Request: message caption is too long", chat_id=4242, photo="file_1", caption="c" * 1025
    )
    bad_kb = '{"inline_keyboard":[[{"text":"x","callback_data":"' + "d" * 65 + '"}]]}'
    await wire.refused(
        "sendPhoto", 400, "Bad Request: BUTTON_DATA_INVALID", chat_id=4242, photo="file_1", reply_markup=bad_kb
    )
    await wire.refused(
        "sendPhoto",
        400,
        "Bad Request: message to be replied not found",
        chat_id=4242,
        photo="file_1",
        reply_to_message_id=9,
    )
    assert await wire.text() == "[1] alice: [photo a.png 4x3]\n"


async def test_a_form_field_that_is_not_utf8_is_refused_and_nothing_is_stored(wire: Wire) -> None:
    body = (
        b"--xx\r\nContent-Disposition: form-data; name=caption\r\n\r\nbad \xff\r\n"
        b'--xx\r\nContent-Disposition: form-data; name=document; filename="a.txt"\r\n\r\nhi\r\n--xx--\r\n'
    )
    resp = await wire.client.post("/sim/file", data=body, headers={"Content-Type": "multipart/form-data; boundary=xx"})
    assert (resp.status, await resp.json()) == (
        400,
        {"error": "invalid form field: caption: strings must be encoded in UTF-8"},
    )
    assert (await wire.sim("GET", "/sim/chats"))[1] == {"chats": []}


async def test_a_caption_over_1024_code_points_is_refused_from_a_form_too(wire: Wire) -> None:
    got = await send_form(wire, "document", "a.txt", b"hi", caption="я" * 1025)
    assert got == (400, {"error": "caption is longer than 1024 characters"})
