"""sendPhoto and sendDocument over HTTP: results, refusals in the reference's order, files served back."""

from __future__ import annotations

import gzip
from typing import Any

import pytest

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, upload, upload_parts

KEYBOARD = '{"inline_keyboard":[[{"text":"Like","callback_data":"like"}]]}'


def refused(reply: tuple[int, dict[str, Any]], description: str) -> None:
    status, body = reply
    assert (status, body) == (400, {"ok": False, "error_code": 400, "description": description})


@pytest.mark.parametrize(("fmt", "mime"), [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("GIF", "image/gif")])
async def test_photo_is_kept_with_its_real_size(wire: Wire, fmt: str, mime: str) -> None:
    data = image_bytes(fmt, (4, 3))
    status, body = await upload(wire, "sendPhoto", "photo", "shot.img", data, chat_id=4242, caption="shot")
    assert status == 200, body
    msg = body["result"]
    assert msg["photo"] == [
        {"file_id": "file_1", "file_unique_id": "ufile_1", "width": 4, "height": 3, "file_size": len(data)}
    ]
    assert msg["caption"] == "shot"
    assert "text" not in msg
    assert msg["from"]["is_bot"] is True
    view = (await wire.sim("GET", "/sim/chat/4242"))[1]["messages"][0]
    assert view["photo"] == {
        "file_id": "file_1",
        "file_unique_id": "ufile_1",
        "name": "shot.img",
        "mime_type": mime,
        "size": len(data),
        "width": 4,
        "height": 3,
    }
    assert await wire.text() == "[1] bot: [photo shot.img 4x3] shot\n"
    resp = await wire.client.get("/sim/file/file_1")
    assert resp.status == 200
    assert resp.headers["Content-Type"] == mime
    assert await resp.read() == data


async def test_photo_upload_is_summarised_in_the_outbox(wire: Wire) -> None:
    data = image_bytes("PNG")
    await upload(wire, "sendPhoto", "photo", "shot.png", data, chat_id=4242)
    call = wire.stand.calls("sendPhoto")[0].json()
    assert call["params"] == {"chat_id": "4242", "photo": f"shot.png ({len(data)} bytes)"}
    assert call["status"] == 200


DOCUMENTS = [
    ("notes.txt", b"just some notes\n", "text/plain"),
    ("page.bin", b"<!DOCTYPE html><html></html>", "text/html"),
    ("feed", b"<?xml version='1.0'?><feed/>", "text/xml"),
    ("report.png", b"%PDF-1.7\n", "application/pdf"),
    ("pic.txt", image_bytes("PNG"), "image/png"),
    ("archive.txt", gzip.compress(b"x", mtime=0), "application/x-gzip"),  # mtime 0: the same id on every worker
    ("zip.doc", b"PK\x03\x04rest", "application/zip"),
    ("blob.txt", b"\x00\x01\x02\x03", "application/octet-stream"),
]


@pytest.mark.parametrize(("name", "data", "mime"), DOCUMENTS)
async def test_document_mime_type_comes_from_the_content_not_the_name(
    wire: Wire, name: str, data: bytes, mime: str
) -> None:
    status, body = await upload(wire, "sendDocument", "document", name, data, chat_id=4242, caption="see")
    assert status == 200, body
    document = dict(body["result"]["document"])
    thumbnail, thumb = document.pop("thumbnail", None), document.pop("thumb", None)
    assert thumb == thumbnail  # written under both names, as Client.cpp writes it
    if mime == "image/png":  # a picture sent as a document: Telegram draws its thumbnail (the next file id)
        assert thumbnail == {"file_id": "file_2", "file_unique_id": "ufile_2", "file_size": thumbnail["file_size"],
                             "width": 4, "height": 3}  # fmt: skip
    else:
        assert thumbnail is None
    assert document == {
        "file_id": "file_1",
        "file_unique_id": "ufile_1",
        "file_name": name,
        "mime_type": mime,
        "file_size": len(data),
    }
    assert body["result"]["caption"] == "see"
    assert await wire.text() == f"[1] bot: [document {name}] see\n"
    resp = await wire.client.get("/sim/file/file_1")
    assert (resp.status, resp.headers["Content-Type"], await resp.read()) == (200, mime, data)


async def test_file_ids_count_up_and_restart_after_reset(wire: Wire) -> None:
    png = image_bytes("PNG")
    for expected in ("file_1", "file_2"):
        status, body = await upload(wire, "sendPhoto", "photo", "a.png", png, chat_id=4242)
        assert body["result"]["photo"][0]["file_id"] == expected
    status, body = await upload(wire, "sendDocument", "document", "b.txt", b"hi", chat_id=-100)
    assert body["result"]["document"]["file_id"] == "file_3"
    assert (await wire.sim("POST", "/sim/reset"))[0] == 200
    assert (await wire.sim("GET", "/sim/file/file_1")) == (404, {"error": "no such file"})
    status, body = await upload(wire, "sendDocument", "document", "b.txt", b"hi", chat_id=4242)
    assert (status, body["result"]["document"]["file_unique_id"]) == (200, "ufile_1")


async def test_unknown_file_is_404(wire: Wire) -> None:
    assert await wire.sim("GET", "/sim/file/file_9") == (404, {"error": "no such file"})


async def test_media_carry_a_keyboard_and_a_reply(wire: Wire) -> None:
    first = await wire.say("send me a picture")
    status, body = await upload(
        wire,
        "sendPhoto",
        "photo",
        "p.gif",
        image_bytes("GIF", (7, 5)),
        chat_id=4242,
        reply_markup=KEYBOARD,
        reply_to_message_id=first["message_id"],
        parse_mode="HTML",
        caption="<b>hi</b>",
    )
    assert status == 200, body
    msg = body["result"]
    assert msg["reply_markup"] == {"inline_keyboard": [[{"text": "Like", "callback_data": "like"}]]}
    assert msg["reply_to_message"]["text"] == "send me a picture"
    assert await wire.text() == "[1] alice: send me a picture\n[2] bot: [photo p.gif 7x5] **hi**\n    [Like]\n"
    view = (await wire.sim("GET", "/sim/chat/4242"))[1]["messages"][1]
    assert view["parse_mode"] == "HTML"
    assert view["reply_to_message_id"] == 1


async def test_captions_count_code_points(wire: Wire) -> None:
    png = image_bytes("PNG")
    status, _ = await upload(wire, "sendPhoto", "photo", "a.png", png, chat_id=4242, caption="я" * 1024)
    assert status == 200
    reply = await upload(wire, "sendDocument", "document", "a.txt", b"x", chat_id=4242, caption="я" * 1025)
    refused(reply, "Bad Request: message caption is too long")


# --- refusals, in the order they are checked -------------------------------------------------------------------


async def test_chat_id_first(wire: Wire) -> None:
    refused(await upload(wire, "sendPhoto", "photo", "a", b"junk"), "Bad Request: chat_id is empty")
    refused(await upload(wire, "sendDocument", "document", "a", b"x", chat_id="@chan"), "Bad Request: chat not found")


@pytest.mark.parametrize(("method", "kind"), [("sendPhoto", "photo"), ("sendDocument", "document")])
async def test_no_file_is_refused(wire: Wire, method: str, kind: str) -> None:
    description = f"Bad Request: there is no {kind} in the request"
    await wire.refused(method, 400, description, chat_id=4242)
    await wire.refused(method, 400, description, chat_id=4242, **{kind: ""})
    # A file part under another name.
    refused(await upload(wire, method, "file", "a.png", image_bytes("PNG"), chat_id=4242), description)


@pytest.mark.parametrize(("method", "kind"), [("sendPhoto", "photo"), ("sendDocument", "document")])
async def test_a_string_the_stand_holds_no_file_for_is_refused(wire: Wire, method: str, kind: str) -> None:
    """A real Telegram file id, an unknown one, a unique id; a URL the stand cannot download (test_url_files.py
    has ones it can)."""
    description = "Bad Request: wrong file identifier/HTTP URL specified"
    for value in ("AgACAgIAAxkBAAIB", "file_1", "ufile_1", "attach://nothing", "http:/no-host"):
        await wire.refused(method, 400, description, chat_id=4242, **{kind: value})
    for url in ("https://example.com/a.png", "HTTP://127.0.0.1:9/x?y=1"):  # no network; nothing listens on 9
        await wire.refused(method, 400, "Bad Request: failed to get HTTP URL content", chat_id=4242, **{kind: url})
    assert wire.stand.world.files == {}


async def test_too_big(wire: Wire) -> None:
    big_photo = image_bytes("PNG") + b"\x00" * (10 * 1024 * 1024)
    refused(
        await upload(wire, "sendPhoto", "photo", "big.png", big_photo, chat_id=4242), "Bad Request: file is too big"
    )
    exactly = b"a" * (10 * 1024 * 1024)
    status, _ = await upload(wire, "sendDocument", "document", "ten.txt", exactly, chat_id=4242)
    assert status == 200


async def test_document_limit_is_50_mib(wire: Wire) -> None:
    over = b"\x00" * (50 * 1024 * 1024 + 1)
    refused(
        await upload(wire, "sendDocument", "document", "big.bin", over, chat_id=4242), "Bad Request: file is too big"
    )


async def test_size_before_caption_before_keyboard_before_image(wire: Wire) -> None:
    not_image = b"plain text, not an image"
    long_caption = "c" * 1025
    bad_kb = '{"inline_keyboard":[[{"text":"x","callback_data":"' + "d" * 65 + '"}]]}'
    too_big = b"\x00" * (10 * 1024 * 1024 + 1)
    big_call = await upload(
        wire, "sendPhoto", "photo", "a", too_big, chat_id=4242, caption=long_caption, reply_markup=bad_kb
    )
    refused(big_call, "Bad Request: file is too big")
    refused(
        await upload(
            wire, "sendPhoto", "photo", "a", not_image, chat_id=4242, caption=long_caption, reply_markup=bad_kb
        ),
        "Bad Request: message caption is too long",
    )
    refused(
        await upload(wire, "sendPhoto", "photo", "a", not_image, chat_id=4242, reply_markup=bad_kb),
        "Bad Request: BUTTON_DATA_INVALID",
    )
    refused(
        await upload(wire, "sendPhoto", "photo", "a", not_image, chat_id=4242, reply_to_message_id=99),
        "Bad Request: IMAGE_PROCESS_FAILED",
    )


@pytest.mark.parametrize("fmt", ["BMP", "WEBP", "TIFF"])
async def test_photo_must_be_png_jpeg_or_gif(wire: Wire, fmt: str) -> None:
    refused(
        await upload(wire, "sendPhoto", "photo", f"a.{fmt.lower()}", image_bytes(fmt), chat_id=4242),
        "Bad Request: IMAGE_PROCESS_FAILED",
    )


async def test_documents_need_no_image(wire: Wire) -> None:
    status, body = await upload(wire, "sendDocument", "document", "a.bmp", image_bytes("BMP"), chat_id=4242)
    assert status == 200
    assert body["result"]["document"]["mime_type"] == "image/bmp"


async def test_reply_refusal_is_last_and_a_refused_call_mints_nothing(wire: Wire) -> None:
    png = image_bytes("PNG")
    refused(
        await upload(wire, "sendPhoto", "photo", "a.png", png, chat_id=555, reply_to_message_id=3),
        "Bad Request: message to be replied not found",
    )
    refused(
        await upload(wire, "sendDocument", "document", "a.txt", b"x", chat_id=555, reply_parameters="{bad"),
        "Bad Request: can't parse reply parameters JSON object",
    )
    # The chat exists (created before the reply check), but holds nothing, and no file was minted.
    chats = (await wire.sim("GET", "/sim/chats"))[1]["chats"]
    assert chats == [{"chat_id": 555, "type": "private", "messages": 0}]
    assert wire.stand.world.files == {}
    status, body = await upload(
        wire, "sendPhoto", "photo", "a.png", png, chat_id=555, reply_to_message_id=3, allow_sending_without_reply="true"
    )
    assert status == 200
    assert body["result"]["photo"][0]["file_id"] == "file_1"
    assert "reply_to_message" not in body["result"]


async def test_web_app_button_on_a_photo_in_a_group_is_refused(wire: Wire) -> None:
    kb = '{"inline_keyboard":[[{"text":"Open","web_app":{"url":"https://app.example.com/"}}]]}'
    refused(
        await upload(wire, "sendPhoto", "photo", "a.png", image_bytes("PNG"), chat_id=-42, reply_markup=kb),
        "Bad Request: BUTTON_TYPE_INVALID",
    )


async def test_a_fault_answers_before_the_upload_is_looked_at(wire: Wire) -> None:
    status, _ = await wire.sim("POST", "/sim/fault", {"method": "sendPhoto", "code": 429, "retry_after": 3, "times": 1})
    assert status == 200
    status, body = await upload(wire, "sendPhoto", "photo", "a.png", image_bytes("PNG"), chat_id=4242)
    assert (status, body["description"], body["parameters"]) == (
        429,
        "Too Many Requests: retry after 3",
        {"retry_after": 3},
    )
    status, body = await upload(wire, "sendPhoto", "photo", "a.png", image_bytes("PNG"), chat_id=4242)
    assert status == 200
    assert body["result"]["photo"][0]["file_id"] == "file_1"


INERT = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox; default-src 'none'",
}
PAGE = b"<!DOCTYPE html><html><script>fetch('/sim/reset', {method: 'POST'})</script></html>"


@pytest.mark.parametrize(
    ("name", "disposition"),
    [
        ("page.html", "attachment; filename=\"page.html\"; filename*=UTF-8''page.html"),
        (
            'отчёт "q".html',
            "attachment; filename=\"_____ _q_.html\"; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82%20%22q%22.html",
        ),
        ("100%\\.html", "attachment; filename=\"100__.html\"; filename*=UTF-8''100%25%5C.html"),
    ],
)  # fmt: skip
async def test_a_served_html_document_is_an_inert_attachment_on_both_routes(
    wire: Wire, name: str, disposition: str
) -> None:
    quoted = name.replace("\\", "\\\\").replace('"', '\\"')
    raw = (
        b"--xx\r\nContent-Disposition: form-data; name=chat_id\r\n\r\n4242\r\n"
        b'--xx\r\nContent-Disposition: form-data; name=document; filename="' + quoted.encode() + b'"\r\n\r\n'
        + PAGE + b"\r\n--xx--\r\n"
    )  # fmt: skip
    resp = await wire.client.post(
        f"/bot{wire.token}/sendDocument", data=raw, headers={"Content-Type": "multipart/form-data; boundary=xx"}
    )
    assert resp.status == 200, await resp.text()
    assert (await resp.json())["result"]["document"]["file_name"] == name
    path = (await wire.ok("getFile", file_id="file_1"))["file_path"]
    for url in ("/sim/file/file_1", f"/file/bot{wire.token}/{path}"):
        resp = await wire.client.get(url)
        assert resp.status == 200, url
        assert await resp.read() == PAGE
        assert resp.headers["Content-Type"] == "text/html"  # the sniffed type stays: clients read it
        assert resp.headers["Content-Disposition"] == disposition
        assert {k: resp.headers[k] for k in INERT} == INERT


async def test_a_served_photo_is_inert_too(wire: Wire) -> None:
    png = image_bytes("PNG")
    await upload(wire, "sendPhoto", "photo", "a.png", png, chat_id=4242)
    resp = await wire.client.get("/sim/file/file_1")
    assert (resp.headers["Content-Type"], resp.headers["X-Content-Type-Options"]) == ("image/png", "nosniff")
    assert resp.headers["Content-Disposition"].startswith("attachment")


@pytest.mark.parametrize(
    ("method", "field"),
    [
        ("sendPhoto", "photo"),
        ("sendDocument", "document"),
        ("sendAnimation", "animation"),
        ("sendAudio", "audio"),
        ("sendVideo", "video"),
        ("sendVideoNote", "video_note"),
        ("sendVoice", "voice"),
        ("sendSticker", "sticker"),
    ],
)
async def test_an_empty_upload_is_refused_as_td_refuses_it(wire: Wire, method: str, field: str) -> None:
    """A file part of 0 bytes (python-telegram-bot sending os.devnull) never reaches the chat."""
    refused(await upload(wire, method, field, "null", b"", chat_id=4242), "Bad Request: file must be non-empty")
    assert wire.stand.world.files == {}
    assert await wire.text() == ""


async def test_an_empty_album_item_is_refused(wire: Wire) -> None:
    media = '[{"type":"document","media":"attach://a"},{"type":"document","media":"attach://b"}]'
    status, body = await upload_parts(
        wire, "sendMediaGroup", {"a": image_bytes("PNG"), "b": b""}, chat_id=4242, media=media
    )
    refused((status, body), "Bad Request: file must be non-empty")
    assert wire.stand.world.files == {}
