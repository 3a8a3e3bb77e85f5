"""Photo sizes and thumbnails as Telegram makes them: a photo in its size classes, thumbnails really drawn.

Through the wire: the bot's multipart sends (and a real library's), the person's files, getFile and the download of
every drawn size. What Telegram draws is in docs/media.md ("Photo sizes and thumbnails").
"""

from __future__ import annotations

import base64
import io
import json
from typing import Any

from aiohttp import FormData
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image
from telegram import InputFile

from tests.clients import ptb_bot
from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, upload
from tests.plugin.test_client import bot_call
from tgfake.media import PHOTO_SIZE_BOXES, photo_size_plan
from tgfake.testing import StandClient


def picture(fmt: str, size: tuple[int, int], mode: str = "RGB") -> bytes:
    """A picture with detail in it (a gradient), so that a scaled copy is a different, smaller file."""
    img = Image.linear_gradient("L").resize(size).convert(mode)
    buf = io.BytesIO()
    img.save(buf, format=fmt)
    return buf.getvalue()


async def downloaded(wire: Wire, file_id: str) -> tuple[str, bytes]:
    """getFile, then the download: the path and the bytes the bot gets."""
    got = await wire.ok("getFile", file_id=file_id)
    resp = await wire.client.get(f"/file/bot{wire.token}/{got['file_path']}")
    assert resp.status == 200
    return got["file_path"], await resp.read()


def dimensions(data: bytes) -> tuple[str, tuple[int, int]]:
    with Image.open(io.BytesIO(data)) as img:
        return str(img.format), img.size


async def test_a_large_photo_is_kept_in_telegrams_size_classes_smallest_first(wire: Wire) -> None:
    status, body = await upload(wire, "sendPhoto", "photo", "wide.jpg", picture("JPEG", (1920, 1080)), chat_id=4242)
    assert status == 200, body
    sizes = body["result"]["photo"]
    # s, m, x, y: 90, 320, 800 and 1280 px on the longest side; the original is larger than all, so not kept
    assert [(s["width"], s["height"]) for s in sizes] == [(90, 51), (320, 180), (800, 450), (1280, 720)]
    assert [s["file_id"] for s in sizes] == ["file_2", "file_3", "file_4", "file_1"]  # the photo first, then drawn
    assert len({s["file_unique_id"] for s in sizes}) == 4
    assert [s["file_size"] for s in sizes] == sorted(s["file_size"] for s in sizes)  # td orders by size
    for size in sizes:  # each size a real JPEG of its dimensions, served under photos/
        path, data = await downloaded(wire, size["file_id"])
        assert path == f"photos/{size['file_id']}.jpg"
        assert (len(data), dimensions(data)) == (size["file_size"], ("JPEG", (size["width"], size["height"])))
    assert await wire.text() == "[1] bot: [photo wide.jpg 1280x720]\n"


async def test_a_photo_that_fits_a_class_is_its_largest_size_byte_for_byte(wire: Wire) -> None:
    png = picture("PNG", (800, 800))
    status, body = await upload(wire, "sendPhoto", "photo", "square.png", png, chat_id=4242)
    assert status == 200, body
    sizes = body["result"]["photo"]
    assert [(s["width"], s["height"]) for s in sizes] == [(90, 90), (320, 320), (800, 800)]
    assert (await downloaded(wire, sizes[-1]["file_id"]))[1] == png  # the upload itself, as the bot sent it
    assert dimensions((await downloaded(wire, sizes[0]["file_id"]))[1]) == ("JPEG", (90, 90))
    small = picture("PNG", (50, 40))  # smaller than the smallest class: one size, the photo itself
    status, body = await upload(wire, "sendPhoto", "photo", "tiny.png", small, chat_id=4242)
    assert [(s["file_id"], s["width"], s["height"]) for s in body["result"]["photo"]] == [("file_4", 50, 40)]


async def test_any_size_of_a_photo_sends_the_whole_photo_again(wire: Wire) -> None:
    status, body = await upload(wire, "sendPhoto", "photo", "a.jpg", picture("JPEG", (640, 480)), chat_id=4242)
    assert status == 200, body
    sizes = body["result"]["photo"]
    for size in sizes:
        again = await wire.ok("sendPhoto", chat_id=4242, photo=size["file_id"])
        assert again["photo"] == sizes
    assert (await upload(wire, "sendDocument", "document", "x.pdf", b"%PDF-1.4\n", chat_id=4242))[0] == 200
    resp = await wire.client.post(f"/bot{wire.token}/sendDocument", data={"chat_id": 4242, "document": "file_2"})
    assert (resp.status, (await resp.json())["description"]) == (400, "Bad Request: type of file mismatch")
    status, answer = await wire.sim("POST", "/sim/file", {"photo": {"file_id": sizes[0]["file_id"]}})
    assert (status, answer["file_id"]) == (200, sizes[-1]["file_id"])  # the person's client sends the photo too


async def test_a_persons_photo_reaches_the_bot_in_sizes_and_python_telegram_bot_reads_them(wire: Wire) -> None:
    status, _ = await wire.sim(
        "POST", "/sim/file", {"photo": {"name": "p.jpg", "data": b64(picture("JPEG", (400, 300)))}}
    )
    assert status == 200
    async with ptb_bot(wire) as bot:
        [update] = await bot.get_updates()
        assert update.message is not None
        got = update.message.photo
        assert [(p.width, p.height) for p in got] == [(90, 68), (320, 240), (400, 300)]
        smallest = await got[0].get_file()  # python-telegram-bot downloads the drawn size
        data = bytes(await smallest.download_as_bytearray())
        sent = await bot.send_photo(4242, photo=InputFile(io.BytesIO(data), filename="back.jpg"))
    assert dimensions(data) == ("JPEG", (90, 68))
    assert [(p.width, p.height) for p in sent.photo] == [(90, 68)]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def send_with_thumbnail(
    wire: Wire, method: str, field: str, name: str, data: bytes, thumbnail: bytes | str | None, **params: Any
) -> tuple[int, dict[str, Any]]:
    form = FormData()
    for key, value in {"chat_id": 4242, **params}.items():
        form.add_field(key, str(value))
    form.add_field(field, io.BytesIO(data), filename=name, content_type="application/octet-stream")
    if isinstance(thumbnail, bytes):
        form.add_field("thumbnail", io.BytesIO(thumbnail), filename="thumb.jpg", content_type="image/jpeg")
    elif thumbnail is not None:
        form.add_field("thumbnail", thumbnail)
    resp = await wire.client.post(f"/bot{wire.token}/{method}", data=form)
    return resp.status, await resp.json()


async def test_thumbnails_are_drawn_where_telegram_draws_them(wire: Wire) -> None:
    mp4 = b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2" + b"\x00" * 64  # brand isom: no "mp4" brand
    thumb = picture("JPEG", (50, 50))
    Case = tuple[str, str, str, bytes, bytes | None, str, tuple[str, tuple[int, int]]]
    cases: list[Case] = [  # method, field, name, bytes, the bot's thumbnail, the kind, what is drawn (format, size)
        ("sendDocument", "document", "pic.png", picture("PNG", (640, 400)), thumb, "document", ("JPEG", (320, 200))),
        ("sendSticker", "sticker", "s.webp", picture("WEBP", (510, 512), "RGBA"), None, "sticker",
         ("WEBP", (319, 320))),
        ("sendAnimation", "animation", "a.gif", picture("GIF", (640, 360)), thumb, "animation", ("JPEG", (320, 180))),
        ("sendAudio", "audio", "a.mp3", b"ID3" + b"\x00" * 64, thumb, "audio", ("JPEG", (50, 50))),
        ("sendVideo", "video", "v.mp4", mp4, picture("JPEG", (640, 360)), "video", ("JPEG", (320, 180))),
        ("sendVideoNote", "video_note", "n.mp4", mp4, thumb, "video_note", ("JPEG", (50, 50))),
    ]  # fmt: skip
    for method, field, name, data, given_thumb, kind, drawn in cases:
        status, body = await send_with_thumbnail(wire, method, field, name, data, given_thumb)
        assert status == 200, body
        obj = body["result"][kind]
        assert obj["thumbnail"] == obj["thumb"]
        path, got = await downloaded(wire, obj["thumbnail"]["file_id"])
        assert path.startswith("thumbnails/"), path
        assert dimensions(got) == drawn, method
        assert (obj["thumbnail"]["width"], obj["thumbnail"]["height"], obj["thumbnail"]["file_size"]) == (
            *drawn[1],
            len(got),
        )
    thumbnail_id = body["result"]["video_note"]["thumbnail"]["file_id"]
    assert body["result"]["video_note"]["file_id"] != thumbnail_id
    resp = await wire.client.post(f"/bot{wire.token}/sendDocument", data={"chat_id": 4242, "document": thumbnail_id})
    assert (resp.status, (await resp.json())["description"]) == (400, "Bad Request: type of file mismatch")
    status, answer = await wire.sim("POST", "/sim/file", {"document": {"file_id": thumbnail_id}})
    assert (status, answer) == (
        400,
        {"error": f"{thumbnail_id} is a thumbnail Telegram drew: it is never sent on its own"},
    )
    status, video = await send_with_thumbnail(wire, "sendVideo", "video", "v.mp4", mp4, None)
    assert video["result"]["video"]["mime_type"] == "video/mp4"  # any ISO BMFF brand is an MP4 to Telegram
    assert "thumbnail" not in video["result"]["video"]  # no frame the stand can draw, and none given


async def test_what_gets_no_thumbnail(wire: Wire) -> None:
    thumb = picture("JPEG", (50, 50))
    # a thumbnail named by URL or file id is ignored (only an upload is one); a voice has none
    cases: list[tuple[str, str, str, bytes, bytes | str | None, str]] = [
        ("sendAudio", "audio", "a.mp3", b"ID3" + b"\x00" * 64, "https://example.com/t.jpg", "audio"),
        ("sendAudio", "audio", "a.mp3", b"ID3" + b"\x00" * 64, "file_1", "audio"),
        ("sendDocument", "document", "r.pdf", b"%PDF-1.4\n", b"not a picture", "document"),
        ("sendVoice", "voice", "v.ogg", b"OggS\x00" + b"\x00" * 40, thumb, "voice"),
        ("sendSticker", "sticker", "a.tgs", b"\x1f\x8b" + b"\x00" * 20, None, "sticker"),
    ]
    for method, field, name, data, given_thumb, kind in cases:
        status, body = await send_with_thumbnail(wire, method, field, name, data, given_thumb)
        assert status == 200, body
        assert "thumbnail" not in body["result"][kind], (method, given_thumb)
        assert "thumb" not in body["result"][kind]
    status, body = await send_with_thumbnail(wire, "sendPhoto", "photo", "p.png", image_bytes("PNG"), None)
    assert "thumbnail" not in body["result"]["photo"][0]  # a photo has sizes, not a thumbnail


async def test_an_album_items_thumbnail_is_its_attached_part(wire: Wire) -> None:
    form = FormData()
    form.add_field("chat_id", "4242")
    media = [
        {"type": "document", "media": "attach://one", "thumbnail": "attach://t"},
        {"type": "document", "media": "attach://two"},
    ]
    form.add_field("media", json.dumps(media))
    for part, data in (("one", b"%PDF-1.4\n"), ("two", b"%PDF-1.5\n"), ("t", picture("JPEG", (400, 400)))):
        form.add_field(part, io.BytesIO(data), filename=f"{part}.bin", content_type="application/octet-stream")
    resp = await wire.client.post(f"/bot{wire.token}/sendMediaGroup", data=form)
    body = await resp.json()
    assert resp.status == 200, body
    first, second = (m["document"] for m in body["result"])
    assert (first["thumbnail"]["width"], first["thumbnail"]["height"]) == (320, 320)
    assert "thumbnail" not in second


@given(st.integers(1, 6000), st.integers(1, 6000))
def test_the_size_plan_keeps_the_shape_within_each_class(width: int, height: int) -> None:
    plan = photo_size_plan(width, height)
    boxes = dict(PHOTO_SIZE_BOXES)
    assert [t for t, _, _ in plan] == [t for t, _ in PHOTO_SIZE_BOXES][: len(plan)]  # the classes in order
    for size_type, w, h in plan:
        assert 1 <= w <= width
        assert 1 <= h <= height
        assert max(w, h) <= boxes[size_type]
        if max(width, height) > boxes[size_type]:  # scaled: the longest side fills the box, the shape is kept
            assert max(w, h) == boxes[size_type]
            assert abs(w * height - h * width) <= max(width, height)
    assert [w * h for _, w, h in plan] == sorted(w * h for _, w, h in plan)
    if max(width, height) <= 1280:
        assert plan[-1][1:] == (width, height)  # the photo itself is its largest size
    else:
        assert max(plan[-1][1:]) == 1280


async def test_profile_and_chat_photos_are_kept_in_a_profile_photos_sizes(wire: Wire) -> None:
    await wire.say("hi")
    jpeg = picture("JPEG", (1000, 1000))
    profile = {"user": 4242, "photos": [{"name": "me.jpg", "data": b64(jpeg)}]}
    status, answer = await wire.sim("POST", "/sim/profile", profile)
    assert status == 200, answer
    [sizes] = (await wire.ok("getUserProfilePhotos", user_id=4242))["photos"]
    assert [(s["width"], s["height"]) for s in sizes] == [(160, 160), (320, 320), (640, 640)]  # a, b, c
    assert answer["photos"] == [sizes[-1]["file_id"]]
    # the bot's own photo: listed first on its profile once set, gone once removed
    form = FormData()
    form.add_field("photo", json.dumps({"type": "static", "photo": "attach://pic"}))
    form.add_field("pic", io.BytesIO(picture("PNG", (300, 200))), filename="bot.png")
    resp = await wire.client.post(f"/bot{wire.token}/setMyProfilePhoto", data=form)
    assert (resp.status, (await resp.json())["result"]) == (200, True)
    me = (await wire.ok("getMe"))["id"]
    mine = await wire.ok("getUserProfilePhotos", user_id=me)
    assert mine["total_count"] == 1
    assert [(s["width"], s["height"]) for s in mine["photos"][0]] == [(160, 160), (200, 200)]  # cut square
    assert dimensions((await downloaded(wire, mine["photos"][0][-1]["file_id"]))[1]) == ("JPEG", (200, 200))
    assert await wire.ok("removeMyProfilePhoto") is True
    assert await wire.ok("getUserProfilePhotos", user_id=me) == {"total_count": 0, "photos": []}
    # a chat's photo: ChatPhoto's small file is the 160 px size, its big one the largest
    status, made = await wire.sim("POST", "/sim/chats", {"type": "supergroup", "title": "G", "admins": ["@tgfake_bot"]})
    assert status == 200, made
    form = FormData()
    form.add_field("chat_id", str(made["chat_id"]))
    form.add_field("photo", io.BytesIO(jpeg), filename="g.jpg")
    resp = await wire.client.post(f"/bot{wire.token}/setChatPhoto", data=form)
    assert (resp.status, (await resp.json())["result"]) == (200, True)
    photo = (await wire.ok("getChat", chat_id=made["chat_id"]))["photo"]
    small, big = (await downloaded(wire, photo["small_file_id"]))[1], (await downloaded(wire, photo["big_file_id"]))[1]
    assert (dimensions(small), dimensions(big)) == (("JPEG", (160, 160)), ("JPEG", (640, 640)))


async def test_a_botfather_game_shows_its_photo_sizes_and_animation(wire: Wire) -> None:
    await wire.say("hi")
    game = {"short_name": "runner", "title": "Runner", "description": "Run, jump, score.",
            "photo": {"name": "game.png", "data": b64(picture("PNG", (640, 360)))},
            "animation": {"name": "game.gif", "data": b64(picture("GIF", (320, 180)))}}  # fmt: skip
    me = (await wire.ok("getMe"))["id"]
    status, made = await wire.sim("POST", f"/sim/bots/{me}/games", game)
    assert status == 200, made
    async with ptb_bot(wire) as bot:  # python-telegram-bot reads the Game, its photo sizes and animation
        sent = await bot.send_game(4242, "runner")
    assert sent.game is not None
    assert (sent.game.title, sent.game.description) == ("Runner", "Run, jump, score.")
    assert [(p.width, p.height) for p in sent.game.photo] == [(90, 51), (320, 180), (640, 360)]
    assert sent.game.animation is not None
    assert (sent.game.animation.width, sent.game.animation.height) == (320, 180)
    assert sent.game.animation.thumbnail is not None  # drawn from the GIF's first frame
    assert made["game"] == sent.game.to_dict()
    other = await wire.ok("sendGame", chat_id=4242, game_short_name="unknown")
    assert other["game"] == {"title": "unknown", "description": "", "photo": []}  # a name BotFather never made
    bad = {**game, "photo": {"name": "x.png", "data": b64(b"not a picture")}}
    status, refused = await wire.sim("POST", f"/sim/bots/{me}/games", bad)
    assert (status, refused) == (400, {"error": "photo: photo is not a PNG, JPEG or GIF image"})
    status, refused = await wire.sim("POST", "/sim/bots/999/games", game)
    assert status == 404, refused


def test_the_testing_client_makes_a_game_and_a_personal_chat(tgfake: StandClient) -> None:
    status, me = bot_call(tgfake, "getMe")  # the bot bot_call plays (any token is a bot of its own here)
    assert status == 200, me
    made = tgfake.make_game("dash", "Dash", "Dash through.", picture("JPEG", (640, 360)), bot=me["result"]["id"])
    assert [(p["width"], p["height"]) for p in made["game"]["photo"]] == [(90, 51), (320, 180), (640, 360)]
    tgfake.send("hi")
    status, sent = bot_call(tgfake, "sendGame", chat_id=4242, game_short_name="dash")
    assert (status, sent["result"]["game"]) == (200, made["game"])
    channel = tgfake.create_chat("Alice's notes", type="channel")
    assert tgfake.set_profile("alice", personal_chat=channel.id)["personal_chat"] == channel.id
    status, chat = bot_call(tgfake, "getChat", chat_id=4242)
    assert (status, chat["result"]["personal_chat"]["id"]) == (200, channel.id)


async def test_a_photo_telegram_would_not_take_is_refused_in_its_words(wire: Wire) -> None:
    """The Bot API's rules: width and height add up to at most 10000, the longer at most 20 times the shorter."""
    for size in ((9600, 480), (2100, 100)):  # 10080 in all (at a ratio of 20); a ratio of 21
        status, body = await upload(wire, "sendPhoto", "photo", "p.png", image_bytes("PNG", size), chat_id=4242)
        assert (status, body["description"]) == (400, "Bad Request: PHOTO_INVALID_DIMENSIONS"), size
        sent = {"photo": {"name": "p.png", "data": b64(image_bytes("PNG", size))}}
        status, answer = await wire.sim("POST", "/sim/file", sent)
        rule = "width and height add up to at most 10000, the longer at most 20 times the shorter"
        assert (status, answer["error"]) == (400, f"photo is {size[0]}×{size[1]}: Telegram takes a photo whose {rule}")
    status, body = await upload(wire, "sendPhoto", "photo", "p.png", image_bytes("PNG", (2000, 100)), chat_id=4242)
    assert status == 200, body  # exactly 20 times: taken
    assert [(s["width"], s["height"]) for s in body["result"]["photo"]] == [(90, 4), (320, 16), (800, 40), (1280, 64)]
    assert await wire.text() == "[1] bot: [photo p.png 1280x64]\n"  # nothing stored for the refused ones
