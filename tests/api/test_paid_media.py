"""sendPaidMedia and the person buying it, through the wire and with python-telegram-bot and aiogram as oracles.

Refusals are Client.cpp's (``get_paid_media`` / ``get_input_paid_media``) and TDLib's (MessageContent.cpp); the
purchase gives the bot a ``paid_media_payment`` Star transaction and, with a payload, ``purchased_paid_media``.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from aiohttp import FormData
from PIL import Image
from telegram import Bot as PtbBot
from telegram import InputPaidMediaPhoto, InputPaidMediaVideo, PaidMediaPhoto, PaidMediaVideo, TransactionPartnerUser
from telegram.request import HTTPXRequest

from tests.api.test_refusal_only import aiogram_bot
from tests.conftest import Wire
from tests.world.helpers import ALICE, BOT, make_chat, sim_ok

PROBLEM = "Bad Request: can't parse InputPaidMedia: "


def png(size: tuple[int, int] = (30, 20)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (10, 120, 200)).save(buf, format="PNG")
    return buf.getvalue()


async def send(wire: Wire, media: Any, files: dict[str, bytes] | None = None, **params: Any) -> tuple[int, Any]:
    """sendPaidMedia as a multipart form: ``media`` JSON-encoded, each of ``files`` a part of that name."""
    form = FormData()
    form.add_field("chat_id", str(params.pop("chat_id", ALICE)))
    form.add_field("media", media if isinstance(media, str) else json.dumps(media))
    for key, value in params.items():
        form.add_field(key, str(value))
    for name, data in (files or {}).items():
        form.add_field(name, data, filename=f"{name}.bin", content_type="application/octet-stream")
    resp = await wire.client.post(f"/bot{wire.token}/sendPaidMedia", data=form)
    return resp.status, await resp.json()


async def refused(
    wire: Wire, description: str, media: Any, files: dict[str, bytes] | None = None, **params: Any
) -> None:
    status, body = await send(wire, media, files, **params)
    assert (status, body.get("description"), body["ok"]) == (400, description, False), body


PHOTO = {"type": "photo", "media": "attach://pic"}
VIDEO = {"type": "video", "media": "attach://clip", "width": 640, "height": 360, "duration": 7}


@pytest.mark.parametrize(
    ("media", "description"),
    [
        ("{oops", "Bad Request: can't parse paid media JSON object"),
        ("{}", "Bad Request: expected an Array of InputPaidMedia"),
        ([1], PROBLEM + "expected an Object"),
        ([{"type": "photo"}], PROBLEM + "media not found"),
        ([{"type": "photo", "media": "attach://missing"}], PROBLEM + "media not found"),
        ([{"media": "attach://pic"}], PROBLEM + 'Can\'t find field "type"'),
        ([{"type": "audio", "media": "attach://pic"}], PROBLEM + 'type "audio" is unsupported'),
        ([{"type": "live_photo", "media": "attach://pic"}], PROBLEM + "photo not found"),
        (
            [{"type": "photo", "media": "attach://pic", "width": "wide"}],
            PROBLEM + 'Field "width" must be a valid Number',
        ),
        ([PHOTO, {"type": "video", "media": []}], PROBLEM + 'Field "media" must be of type String'),
    ],
)
async def test_media_is_read_as_the_server_reads_it(wire: Wire, media: Any, description: str) -> None:
    await wire.say("hi")
    await refused(wire, description, media, {"pic": png()}, star_count=5)


async def test_price_count_and_files_are_tdlibs_checks(wire: Wire) -> None:
    await wire.say("hi")
    status, body = await wire.call("sendPaidMedia", chat_id=ALICE, star_count=5)
    assert (status, body["description"]) == (400, 'Bad Request: parameter "media" is required')
    price = "Bad Request: invalid media price specified"
    await refused(wire, price, [PHOTO], {"pic": png()})
    await refused(wire, price, [PHOTO], {"pic": png()}, star_count=0)
    await refused(wire, price, [PHOTO], {"pic": png()}, star_count="-3")
    await refused(wire, price, [PHOTO], {"pic": png()}, star_count=1_000_001)
    await refused(wire, price, [], star_count=0)  # the price is checked before the count
    count = "Bad Request: invalid number of paid media specified"
    await refused(wire, count, [], star_count=5)
    await refused(wire, count, [PHOTO] * 11, {"pic": png()}, star_count=5)
    await refused(wire, "Bad Request: IMAGE_PROCESS_FAILED", [PHOTO], {"pic": b"not an image"}, star_count=5)
    wrong = [{"type": "photo", "media": "no-such-file"}]
    await refused(wire, "Bad Request: wrong file identifier/HTTP URL specified", wrong, star_count=5)
    assert wire.stand.world.payments.paid_media == {}


async def test_the_bot_sees_its_media_the_person_a_preview_until_they_buy(wire: Wire) -> None:
    await wire.say("hi")
    status, body = await send(
        wire,
        [PHOTO, VIDEO],
        {"pic": png((30, 20)), "clip": b"\x00\x00\x00\x18ftypmp42"},
        star_count=25,
        payload="album-7",
        caption="*two* things",
        parse_mode="MarkdownV2",
    )
    assert status == 200, body
    sent = body["result"]
    assert (sent["caption"], sent["caption_entities"][0]["type"]) == ("two things", "bold")
    info = sent["paid_media"]
    assert info["star_count"] == 25
    photo, video = info["paid_media"]
    assert (photo["type"], photo["photo"][0]["width"], photo["photo"][0]["height"]) == ("photo", 30, 20)
    assert (video["type"], video["video"]["width"], video["video"]["duration"]) == ("video", 640, 7)
    view = (await messages(wire))[-1]
    assert view["kind"] == "paid_media"
    assert view["paid_media"] == {
        "star_count": 25,
        "paid_media": [
            {"type": "preview", "width": 30, "height": 20},
            {"type": "preview", "width": 640, "height": 360, "duration": 7},
        ],
        "purchased_by": [],
    }
    assert "[paid media 25⭐: photo, video]" in await wire.text()

    outcome = await sim_ok(wire, "/sim/pay", {"message_id": sent["message_id"]})
    assert (outcome["status"], outcome["star_count"], outcome["paid_media"]) == ("paid", 25, info["paid_media"])
    assert (await messages(wire))[-1]["paid_media"]["purchased_by"] == [ALICE]
    updates = await wire.ok("getUpdates", offset=-1)
    assert updates[-1]["purchased_paid_media"] == {
        "from": wire.stand.world.users[ALICE].json(),
        "paid_media_payload": "album-7",
    }
    assert await wire.ok("getMyStarBalance") == {"amount": 25}
    transaction = (await wire.ok("getStarTransactions"))["transactions"][0]
    assert transaction["id"] == outcome["transaction_id"]
    assert transaction["amount"] == 25
    assert transaction["source"] == {
        "type": "user",
        "transaction_type": "paid_media_payment",
        "user": wire.stand.world.users[ALICE].json(),
        "paid_media": info["paid_media"],
        "paid_media_payload": "album-7",
    }
    status, again = await wire.sim("POST", "/sim/pay", {"message_id": sent["message_id"]})
    assert (status, again) == (409, {"error": f"user {ALICE} already bought message {sent['message_id']}"})


async def messages(wire: Wire, chat_id: int = ALICE) -> list[dict[str, Any]]:
    status, view = await wire.sim("GET", f"/sim/chat/{chat_id}")
    assert status == 200, view
    return list(view["messages"])


async def test_no_payload_no_update_and_a_channel_keeps_its_stars(wire: Wire) -> None:
    await wire.say("hi")
    status, body = await send(wire, [PHOTO], {"pic": png()}, star_count=3)
    assert status == 200, body
    await wire.ok("getUpdates", offset=-1)
    before = len(wire.stand.bots[BOT].pending)
    await sim_ok(wire, "/sim/pay", {"message_id": body["result"]["message_id"]})
    assert len(wire.stand.bots[BOT].pending) == before  # no payload: no purchased_paid_media
    source = (await wire.ok("getStarTransactions"))["transactions"][0]["source"]
    assert "paid_media_payload" not in source

    channel = await make_chat(wire, type="channel", members=["bob"], admins=[BOT])
    status, body = await send(wire, [PHOTO], {"pic": png()}, star_count=9, payload="p", chat_id=channel)
    assert status == 200, body
    bought = await sim_ok(
        wire, "/sim/pay", {"chat_id": channel, "message_id": body["result"]["message_id"], "user_id": 4343}
    )
    assert bought["status"] == "paid"
    assert await wire.ok("getMyStarBalance") == {"amount": 3}  # a channel's proceeds are the channel's
    outsider = {"chat_id": channel, "message_id": body["result"]["message_id"], "user_id": 4646}
    status, refusal = await wire.sim("POST", "/sim/pay", outsider)
    assert (status, refusal) == (409, {"error": f"user 4646 is not in chat {channel}"})


async def test_a_file_id_and_a_live_photo_are_resent(wire: Wire) -> None:
    await wire.say("hi")
    status, body = await send(wire, [PHOTO], {"pic": png()}, star_count=1)
    assert status == 200, body
    file_id = body["result"]["paid_media"]["paid_media"][0]["photo"][0]["file_id"]
    live = {"type": "live_photo", "media": "attach://clip", "photo": file_id}
    status, body = await send(
        wire, [{"type": "photo", "media": file_id}, live], {"clip": b"\x00\x00\x00\x18ftypmp42"}, star_count=2
    )
    assert status == 200, body
    again, moving = body["result"]["paid_media"]["paid_media"]
    assert again["photo"][0]["file_id"] == file_id
    assert moving["type"] == "live_photo"
    assert moving["live_photo"]["photo"][0]["file_id"] == file_id
    assert moving["live_photo"]["file_id"] != file_id


async def test_python_telegram_bot_sends_paid_media_and_reads_the_purchase(wire: Wire) -> None:
    await wire.say("hi")
    bot = PtbBot(wire.token, base_url=str(wire.client.make_url("/bot")), request=HTTPXRequest())
    async with bot:
        sent = await bot.send_paid_media(
            ALICE,
            star_count=40,
            media=[InputPaidMediaPhoto(png((8, 6))), InputPaidMediaVideo(b"\x00\x00\x00\x18ftypmp42", duration=3)],
            payload="ptb-1",
            caption="pay me",
        )
        assert sent.paid_media is not None
        assert sent.paid_media.star_count == 40
        first, second = sent.paid_media.paid_media
        assert isinstance(first, PaidMediaPhoto)
        assert isinstance(second, PaidMediaVideo)
        assert (first.photo[0].width, second.video.duration) == (8, 3)
        await sim_ok(wire, "/sim/pay", {"message_id": sent.message_id})
        updates = await bot.get_updates(offset=-1)
        purchase = updates[-1].purchased_paid_media
        assert purchase is not None
        assert (purchase.from_user.id, purchase.paid_media_payload) == (ALICE, "ptb-1")
        transactions = await bot.get_star_transactions()
        partner = transactions.transactions[0].source
        assert isinstance(partner, TransactionPartnerUser)
        assert (partner.transaction_type, partner.paid_media_payload) == ("paid_media_payment", "ptb-1")
        assert len(partner.paid_media or ()) == 2


async def test_aiogram_parses_the_paid_media_message_and_its_refusals(wire: Wire) -> None:
    from aiogram.exceptions import TelegramBadRequest
    from aiogram.types import BufferedInputFile
    from aiogram.types import InputPaidMediaPhoto as AiogramPhoto

    await wire.say("hi")
    async with aiogram_bot(wire) as bot:
        picture = BufferedInputFile(png((12, 9)), filename="p.png")
        sent = await bot.send_paid_media(ALICE, star_count=7, media=[AiogramPhoto(media=picture)], payload="a-1")
        assert sent.paid_media is not None
        assert sent.paid_media.paid_media[0].type == "photo"
        with pytest.raises(TelegramBadRequest) as caught:
            await bot.send_paid_media(ALICE, star_count=0, media=[AiogramPhoto(media=picture)])
        assert caught.value.message == "Bad Request: invalid media price specified"
