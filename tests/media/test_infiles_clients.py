"""Real bots read what the person sends: python-telegram-bot and aiogram download it unchanged through getFile."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io

from aiogram import Dispatcher, F
from aiogram.types import Message
from telegram import Update
from telegram.ext import ContextTypes, MessageHandler, filters

from tests.clients import aiogram_bot, ptb_polling
from tests.conftest import Wire
from tests.media.media_helpers import image_bytes


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def test_a_ptb_bot_downloads_the_persons_photo_and_document(wire: Wire) -> None:
    received: list[bytes] = []

    async def on_photo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        photo = update.message.photo[-1]
        data = bytes(await (await context.bot.get_file(photo.file_id)).download_as_bytearray())
        received.append(data)
        await update.message.reply_text(f"{photo.width}x{photo.height}, {len(data)} bytes: {update.message.caption}")

    async def on_document(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        assert update.message.document is not None
        data = bytes(await (await update.message.document.get_file()).download_as_bytearray())
        received.append(data)
        await update.message.reply_text(f"{update.message.document.mime_type}, {len(data)} bytes")

    handlers = [MessageHandler(filters.PHOTO, on_photo), MessageHandler(filters.Document.ALL, on_document)]
    png = image_bytes("PNG", (32, 24))
    pdf = b"%PDF-1.4\n" + bytes(range(256)) * 40
    async with ptb_polling(wire, handlers):
        status, _ = await wire.sim(
            "POST",
            "/sim/file",
            {"photo": {"name": "cat.png", "data": b64(png)}, "caption": "what is it?"},
        )
        assert status == 200
        assert len(await wire.stand.wait_calls("sendMessage", 1, 5)) == 1
        status, _ = await wire.sim("POST", "/sim/file", {"document": {"name": "paper.pdf", "data": b64(pdf)}})
        assert status == 200
        assert len(await wire.stand.wait_calls("sendMessage", 2, 5)) == 2
    assert received == [png, pdf]
    assert await wire.text() == (
        "[1] alice: [photo cat.png 32x24] what is it?\n"
        f"[2] bot: 32x24, {len(png)} bytes: what is it?\n"
        "[3] alice: [document paper.pdf]\n"
        f"[4] bot: application/pdf, {len(pdf)} bytes\n"
    )
    assert [(c.params["file_id"], c.status) for c in wire.stand.calls("getFile")] == [("file_1", 200), ("file_2", 200)]


async def test_an_aiogram_bot_downloads_a_document_and_re_sends_a_photo_by_id(wire: Wire) -> None:
    bot = aiogram_bot(wire)
    dp = Dispatcher()
    received: list[bytes] = []

    @dp.message(F.document)
    async def on_document(message: Message) -> None:
        assert message.document is not None
        buf = await bot.download(message.document)
        assert isinstance(buf, io.BytesIO)
        received.append(buf.getvalue())
        await message.answer(f"{len(received[-1])} bytes")

    @dp.message(F.photo)
    async def on_photo(message: Message) -> None:
        assert message.photo is not None
        await message.answer_photo(message.photo[-1].file_id, caption="right back at you")

    notes = "заметки\n".encode() * 100
    gif = image_bytes("GIF", (3, 3))
    polling = asyncio.create_task(dp.start_polling(bot, polling_timeout=1, handle_signals=False))
    try:
        status, _ = await wire.sim("POST", "/sim/file", {"document": {"name": "notes.txt", "data": b64(notes)}})
        assert status == 200
        assert len(await wire.stand.wait_calls("sendMessage", 1, 5)) == 1
        status, _ = await wire.sim("POST", "/sim/file", {"photo": {"name": "dot.gif", "data": b64(gif)}})
        assert status == 200
        [sent] = await wire.stand.wait_calls("sendPhoto", 1, 5)
        assert sent.status == 200
    finally:
        await dp.stop_polling()
        with contextlib.suppress(asyncio.CancelledError):
            await polling
        await bot.session.close()
    assert received == [notes]
    assert sent.response["result"]["photo"][0]["file_id"] == "file_2"
    assert list(wire.stand.world.files) == ["file_1", "file_2"]
    assert await wire.text() == (
        "[1] alice: [document notes.txt]\n"
        f"[2] bot: {len(notes)} bytes\n"
        "[3] alice: [photo dot.gif 3x3]\n"
        "[4] bot: [photo dot.gif 3x3] right back at you\n"
    )
