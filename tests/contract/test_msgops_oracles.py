"""python-telegram-bot and aiogram as oracles of forwards, copies, caption and media edits, reactions and deletions:
their own models must parse every answer, and their errors must carry Telegram's words."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import telegram
from aiogram import Dispatcher, F
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import BufferedInputFile, InputMediaDocument, InputMediaPhoto, Message, ReactionTypeEmoji

from tests.clients import aiogram_bot, aiogram_polling, ptb_bot
from tests.conftest import Wire
from tests.media.media_helpers import image_bytes

ALICE = 4242


def png(size: tuple[int, int] = (3, 2)) -> bytes:
    return image_bytes("PNG", size)


@pytest_asyncio.fixture
async def ptb(wire: Wire) -> AsyncIterator[telegram.Bot]:
    async with ptb_bot(wire) as bot:
        yield bot


async def test_ptb_forwards_copies_and_edits(wire: Wire, ptb: telegram.Bot) -> None:
    await wire.say("hello")
    forwarded = await ptb.forward_message(ALICE, ALICE, 1)
    assert isinstance(forwarded.forward_origin, telegram.MessageOriginUser)
    assert forwarded.forward_origin.sender_user.id == ALICE
    assert forwarded.text == "hello"
    photo = await ptb.send_photo(ALICE, png(), caption="first")
    copied = await ptb.copy_message(ALICE, ALICE, photo.message_id, caption="<b>copy</b>", parse_mode="HTML")
    assert isinstance(copied, telegram.MessageId)
    edited = await ptb.edit_message_caption(ALICE, photo.message_id, caption="second")
    assert isinstance(edited, telegram.Message)
    assert edited.caption == "second"
    assert edited.edit_date is not None
    swapped = await ptb.edit_message_media(
        telegram.InputMediaPhoto(png((6, 5)), caption="third"), chat_id=ALICE, message_id=photo.message_id
    )
    assert isinstance(swapped, telegram.Message)
    assert (swapped.photo[-1].width, swapped.caption) == (6, "third")
    ids = await ptb.forward_messages(ALICE, ALICE, [1, photo.message_id])
    assert [type(i) for i in ids] == [telegram.MessageId, telegram.MessageId]
    assert await ptb.set_message_reaction(ALICE, 1, telegram.ReactionTypeEmoji("👍")) is True
    assert "reactions: 👍 1" in await wire.text()
    assert await ptb.delete_messages(ALICE, [ids[0].message_id, ids[1].message_id]) is True
    with pytest.raises(telegram.error.BadRequest, match="Message to forward not found"):
        await ptb.forward_message(ALICE, ALICE, 99)
    with pytest.raises(telegram.error.BadRequest, match="Message can't be edited"):
        await ptb.edit_message_caption(ALICE, forwarded.message_id, caption="x")
    plain = await ptb.send_message(ALICE, "plain")
    with pytest.raises(telegram.error.BadRequest, match="There is no caption in the message to edit"):
        await ptb.edit_message_caption(ALICE, plain.message_id, caption="x")


async def test_ptb_live_location_and_live_photo(wire: Wire, ptb: telegram.Bot) -> None:
    live = await ptb.send_location(ALICE, 1.0, 2.0, live_period=120)
    moved = await ptb.edit_message_live_location(ALICE, live.message_id, latitude=3.0, longitude=4.0, heading=10)
    assert isinstance(moved, telegram.Message)
    assert moved.location is not None
    assert (moved.location.latitude, moved.location.heading) == (3.0, 10)
    stopped = await ptb.stop_message_live_location(ALICE, live.message_id)
    assert isinstance(stopped, telegram.Message)
    with pytest.raises(telegram.error.BadRequest, match="Message can't be edited"):
        await ptb.stop_message_live_location(ALICE, live.message_id)
    sent = await ptb.send_live_photo(ALICE, live_photo=b"\x00\x00\x00\x18ftypmp42", photo=png(), caption="live")
    assert sent.live_photo is not None
    assert sent.live_photo.photo is not None
    assert sent.live_photo.photo[0].file_id == sent.photo[0].file_id


async def test_an_aiogram_media_bot_copies_what_it_gets_and_edits_its_copies(wire: Wire) -> None:
    bot = aiogram_bot(wire, "42:aiogram-token")
    dp = Dispatcher()
    done = asyncio.Event()
    seen: dict[str, object] = {}

    @dp.message(F.photo)
    async def on_photo(message: Message) -> None:
        assert message.photo is not None
        copy = await message.copy_to(message.chat.id, caption="copied")
        forward = await message.forward(message.chat.id)
        seen["origin"] = forward.forward_origin
        await message.react([ReactionTypeEmoji(emoji="🔥")])
        edited = await bot.edit_message_caption(chat_id=message.chat.id, message_id=copy.message_id, caption="edited")
        assert isinstance(edited, Message)
        seen["caption"] = edited.caption
        doc = BufferedInputFile(b"%PDF-1.4 tiny", filename="a.pdf")
        swapped = await bot.edit_message_media(
            InputMediaDocument(media=doc, caption="now a document"),
            chat_id=message.chat.id,
            message_id=copy.message_id,
        )
        assert isinstance(swapped, Message)
        seen["document"] = swapped.document
        try:
            await bot.edit_message_media(
                InputMediaPhoto(media=message.photo[-1].file_id),
                chat_id=message.chat.id,
                message_id=forward.message_id,
            )
        except TelegramBadRequest as exc:
            seen["refusal"] = exc.message
        done.set()

    async with aiogram_polling(bot, dp):
        body = {"photo": {"name": "cat.png", "data": base64.b64encode(png()).decode()}, "caption": "cat"}
        status, answer = await wire.sim("POST", "/sim/file", body)
        assert status == 200, answer
        await asyncio.wait_for(done.wait(), 10)
        assert seen["caption"] == "edited"
        assert getattr(seen["document"], "file_name", None) == "a.pdf"
        assert getattr(seen["origin"], "type", None) == "user"
        assert seen["refusal"] == "Bad Request: message media can't be edited"
        text = await wire.text()
        assert "[forwarded from alice] [photo cat.png 3x2] cat" in text
        assert "reactions: 🔥 1" in text
        assert "now a document" in text
