"""A person's profile photos and audios: set with POST /sim/profile, read with getUserProfilePhotos/Audios.

The refusals are Client.cpp's (``invalid user_id specified``, ``user not found``); offset and limit are clamped,
never refused, as ``get_integer_arg`` clamps them.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, wav_bytes


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def photo(n: int) -> dict[str, str]:
    return {"name": f"p{n}.png", "data": b64(image_bytes("PNG", (10 + n, 10 + n)))}


async def set_profile(wire: Wire, **body: Any) -> dict[str, Any]:
    status, answer = await wire.sim("POST", "/sim/profile", body)
    assert status == 200, answer
    return dict(answer)


async def test_a_fresh_person_has_no_profile_photos_or_audios(wire: Wire) -> None:
    await wire.say("hi")
    assert await wire.ok("getUserProfilePhotos", user_id=4242) == {"total_count": 0, "photos": []}
    assert await wire.ok("getUserProfileAudios", user_id=4242) == {"total_count": 0, "audios": []}


async def test_profile_photos_page_newest_first_with_their_sizes(wire: Wire) -> None:
    answer = await set_profile(wire, user="alice", photos=[photo(n) for n in range(3)])
    assert answer == {"user_id": 4242, "photos": ["file_1", "file_2", "file_3"], "audios": []}
    got = await wire.ok("getUserProfilePhotos", user_id=4242)
    assert got["total_count"] == 3
    assert got["photos"][0] == [
        {
            "file_id": "file_1",
            "file_unique_id": "ufile_1",
            "width": 10,
            "height": 10,
            "file_size": len(image_bytes("PNG", (10, 10))),
        }
    ]
    page = await wire.ok("getUserProfilePhotos", user_id=4242, offset=1, limit=1)
    assert (page["total_count"], [p[0]["file_id"] for p in page["photos"]]) == (3, ["file_2"])
    assert (await wire.ok("getUserProfilePhotos", user_id=4242, offset=5))["photos"] == []
    # the bot downloads one, and may re-send it as a photo
    file = await wire.ok("getFile", file_id="file_2")
    resp = await wire.client.get(f"/file/bot{wire.token}/{file['file_path']}")
    assert await resp.read() == image_bytes("PNG", (11, 11))
    sent = await wire.ok("sendPhoto", chat_id=4242, photo="file_2")
    assert sent["photo"][0]["file_id"] == "file_2"


@pytest.mark.parametrize(
    ("offset", "limit", "ids"),
    [
        ("-3", "2", ["file_1", "file_2"]),  # a negative offset is 0
        ("0", "0", ["file_1"]),  # a limit under 1 is 1
        ("1", "1000", ["file_2", "file_3"]),  # over 100 is 100
        ("x", "y", ["file_1"]),  # garbage reads as 0: offset 0, limit 1
        ("", "", ["file_1", "file_2", "file_3"]),  # absent: from the first, 100 of them
    ],
)
async def test_offset_and_limit_are_clamped_never_refused(wire: Wire, offset: str, limit: str, ids: list[str]) -> None:
    await set_profile(wire, user=4242, photos=[photo(n) for n in range(3)])
    params = {k: v for k, v in {"offset": offset, "limit": limit}.items() if v}
    got = await wire.ok("getUserProfilePhotos", user_id=4242, **params)
    assert [p[0]["file_id"] for p in got["photos"]] == ids


async def test_a_limit_of_100_out_of_150(wire: Wire) -> None:
    await set_profile(wire, user=4242, photos=[photo(0)])
    wire.stand.world.profiles.photos[4242] *= 150
    got = await wire.ok("getUserProfilePhotos", user_id=4242, limit=101)
    assert (got["total_count"], len(got["photos"])) == (150, 100)


async def test_profile_audios_are_audio_objects(wire: Wire) -> None:
    data = wav_bytes(2)
    await set_profile(wire, user="bob", audios=[{"name": "song.wav", "data": b64(data), "title": "Song"}])
    bob = wire.stand.world.profiles.audios
    assert list(bob) != []
    [uid] = bob
    got = await wire.ok("getUserProfileAudios", user_id=uid)
    assert got == {
        "total_count": 1,
        "audios": [
            {
                "duration": 2,
                "file_name": "song.wav",
                "mime_type": "audio/wave",
                "title": "Song",
                "file_id": "file_1",
                "file_unique_id": "ufile_1",
                "file_size": len(data),
            }
        ],
    }
    assert (await wire.ok("getUserProfilePhotos", user_id=uid))["total_count"] == 0


async def test_a_list_left_out_is_kept_and_an_empty_one_clears(wire: Wire) -> None:
    await set_profile(wire, user=4242, photos=[photo(0)], audios=[{"data": b64(wav_bytes(1))}])
    assert await set_profile(wire, user=4242, photos=[]) == {"user_id": 4242, "photos": [], "audios": ["file_2"]}
    assert (await wire.ok("getUserProfileAudios", user_id=4242))["total_count"] == 1
    assert (await wire.ok("getUserProfilePhotos", user_id=4242))["total_count"] == 0


async def test_bot_api_refusals_in_telegrams_words(wire: Wire) -> None:
    await wire.say("hi")
    for method in ("getUserProfilePhotos", "getUserProfileAudios"):
        await wire.refused(method, 400, "Bad Request: invalid user_id specified")
        await wire.refused(method, 400, "Bad Request: invalid user_id specified", user_id=0)
        await wire.refused(method, 400, "Bad Request: invalid user_id specified", user_id="-5")
        await wire.refused(method, 400, "Bad Request: user not found", user_id=999)
    bot = (await wire.ok("getMe"))["id"]
    assert await wire.ok("getUserProfilePhotos", user_id=bot) == {"total_count": 0, "photos": []}


PROFILE_REFUSALS = [
    ({"photos": [{"data": b64(b"not an image")}]}, 400, "photos[0]: photo is not a PNG, JPEG or GIF image"),
    ({"photos": [photo(0), {"data": ""}]}, 400, "photos[1]: photo is empty"),
    ({"audios": [{"data": "!!"}]}, 400, "audios[0].data is not valid base64"),
    ({"user": 0, "photos": []}, 400, "invalid JSON body: user: Input should be greater than or equal to 1"),
    ({"user": "", "photos": []}, 400, "a person needs a name or an id"),
    ({"photos": "cat.png"}, 400, "invalid JSON body: photos: Input should be a valid array"),
]


@pytest.mark.parametrize(("body", "status", "error"), PROFILE_REFUSALS)
async def test_sim_refusals_store_nothing(wire: Wire, body: Any, status: int, error: str) -> None:
    assert await wire.sim("POST", "/sim/profile", body) == (status, {"error": error})
    assert wire.stand.world.files == {}
    assert wire.stand.world.profiles.photos == {}


async def test_get_chat_of_a_person_shows_the_newest_profile_photo_and_audio(wire: Wire) -> None:
    await wire.say("hi")
    chat = await wire.ok("getChat", chat_id=4242)
    assert "photo" not in chat
    assert "first_profile_audio" not in chat
    await set_profile(
        wire, user=4242, photos=[photo(1), photo(2)], audios=[{"name": "a.wav", "data": b64(wav_bytes(1))}]
    )
    chat = await wire.ok("getChat", chat_id=4242)
    assert chat["photo"] == {
        "small_file_id": "file_1",
        "small_file_unique_id": "ufile_1",
        "big_file_id": "file_1",
        "big_file_unique_id": "ufile_1",
    }
    assert chat["first_profile_audio"] == (await wire.ok("getUserProfileAudios", user_id=4242))["audios"][0]
    keys = list(chat)
    assert keys.index("accepted_gift_types") < keys.index("first_profile_audio") < keys.index("photo")


async def test_a_persons_app_language_reaches_bots_in_every_user_of_them(wire: Wire) -> None:
    assert await set_profile(wire, user="alice", language_code="pt-br") == {
        "user_id": 4242, "photos": [], "audios": [], "language_code": "pt-br"
    }  # fmt: skip
    await wire.ok("setMyCommands", commands='[{"command":"ola","description":"Olá"}]', language_code="pt")
    await wire.say("/start")
    [update] = await wire.ok("getUpdates")
    assert update["message"]["from"]["language_code"] == "pt-br"
    member = await wire.ok("getChatMember", chat_id=4242, user_id=4242)
    assert member["user"]["language_code"] == "pt-br"
    assert (await set_profile(wire, user="alice", photos=[]))["photos"] == []  # left out: the language is kept
    await wire.say("again")
    [update] = await wire.ok("getUpdates", offset=update["update_id"] + 1)
    assert update["message"]["from"]["language_code"] == "pt-br"
    await set_profile(wire, user="alice", language_code="")
    await wire.say("none now")
    [update] = await wire.ok("getUpdates", offset=update["update_id"] + 1)
    assert "language_code" not in update["message"]["from"]


@pytest.mark.parametrize("code", ["RU", "english", "e", "en_US", "en-"])
async def test_a_language_code_that_is_no_language_tag_is_refused(wire: Wire, code: str) -> None:
    status, answer = await wire.sim("POST", "/sim/profile", {"user": "alice", "language_code": code})
    assert (status, answer["error"]) == (
        400, "invalid JSON body: language_code: String should match pattern '^([a-z]{2,3}(-[a-z0-9]{1,8})*)?$'"
    )  # fmt: skip
