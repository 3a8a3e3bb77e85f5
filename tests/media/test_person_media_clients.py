"""Real bots as oracles for what the person sends: a voice, a video and an album reach python-telegram-bot and
aiogram handlers chosen by filter, parse into their types, and download unchanged through getFile."""

from __future__ import annotations

import asyncio
import contextlib
import io

from aiogram import Dispatcher, F
from aiogram.types import Message
from telegram import Update
from telegram.ext import ContextTypes, MessageHandler, filters

from tests.clients import aiogram_bot, ptb_polling
from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, mp4_bytes
from tests.media.test_person_media import OGG, b64

VOICE = OGG + b"voice" * 20
VIDEO = mp4_bytes() + b"frames" * 20
PNG = image_bytes("PNG", (20, 10))


async def person_sends_voice_video_album(wire: Wire) -> str:
    """The person's three sends; answers the album's media_group_id."""
    status, _ = await wire.sim("POST", "/sim/file", {"voice": {"data": b64(VOICE)}, "duration": 3})
    assert status == 200
    assert len(await wire.stand.wait_calls("sendMessage", 1, 5)) == 1
    body = {"video": {"name": "clip.mp4", "data": b64(VIDEO)}, "duration": 4, "width": 320, "height": 240}
    status, _ = await wire.sim("POST", "/sim/file", body | {"caption": "watch"})
    assert status == 200
    assert len(await wire.stand.wait_calls("sendMessage", 2, 5)) == 2
    items = [
        {"type": "photo", "name": "a.png", "data": b64(PNG), "caption": "trip"},
        {"type": "video", "name": "b.mp4", "data": b64(VIDEO), "duration": 2},
    ]
    status, album = await wire.sim("POST", "/sim/album", {"items": items})
    assert status == 200, album
    assert len(await wire.stand.wait_calls("sendMessage", 4, 5)) == 4
    return str(album["media_group_id"])


async def test_a_ptb_bot_gets_a_voice_a_video_and_an_album(wire: Wire) -> None:
    downloads: list[bytes] = []

    async def on_voice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        assert update.message.voice is not None
        voice = update.message.voice
        downloads.append(bytes(await (await voice.get_file()).download_as_bytearray()))
        await update.message.reply_text(f"voice {voice.duration}s {voice.mime_type}")

    async def on_video(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        assert message is not None
        assert message.video is not None
        downloads.append(bytes(await (await message.video.get_file()).download_as_bytearray()))
        v = message.video
        album = f" in {message.media_group_id}" if message.media_group_id else ""
        await message.reply_text(f"video {v.width}x{v.height} {v.duration}s{album}")

    async def on_photo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        assert message is not None
        downloads.append(bytes(await (await message.photo[-1].get_file()).download_as_bytearray()))
        await message.reply_text(f"photo {message.caption} in {message.media_group_id}")

    handlers = [MessageHandler(f, on) for f, on in ((filters.VOICE, on_voice), (filters.VIDEO, on_video))]
    async with ptb_polling(wire, [*handlers, MessageHandler(filters.PHOTO, on_photo)]):
        group = await person_sends_voice_video_album(wire)
    assert downloads == [VOICE, VIDEO, PNG, VIDEO]
    assert await wire.text() == (
        "[1] alice: [voice 3s]\n"
        "[2] bot: voice 3s audio/ogg\n"
        "[3] alice: [video clip.mp4 4s] watch\n"
        "[4] bot: video 320x240 4s\n"
        "[5] alice: [album 2: photo, video] trip\n"
        f"[7] bot: photo trip in {group}\n"
        f"[8] bot: video 0x0 2s in {group}\n"
    )


async def test_an_aiogram_bot_gets_a_voice_a_video_and_an_album(wire: Wire) -> None:
    bot = aiogram_bot(wire)
    dp = Dispatcher()
    downloads: list[bytes] = []

    async def download(file_id: str) -> None:
        buf = await bot.download(file_id)
        assert isinstance(buf, io.BytesIO)
        downloads.append(buf.getvalue())

    @dp.message(F.media_group_id)
    async def on_album_item(message: Message) -> None:
        kind = "photo" if message.photo else "video"
        file_id = message.photo[-1].file_id if message.photo else message.video.file_id  # type: ignore[union-attr]
        await download(file_id)
        await message.answer(f"{kind} of album {message.media_group_id}")

    @dp.message(F.voice)
    async def on_voice(message: Message) -> None:
        assert message.voice is not None
        await download(message.voice.file_id)
        await message.answer(f"voice {message.voice.duration}s")

    @dp.message(F.video)
    async def on_video(message: Message) -> None:
        assert message.video is not None
        await download(message.video.file_id)
        await message.answer(f"video {message.video.file_name} {message.caption}")

    # one update at a time, so the downloads and replies keep the updates' order
    polling = asyncio.create_task(dp.start_polling(bot, polling_timeout=1, handle_signals=False, handle_as_tasks=False))
    try:
        group = await person_sends_voice_video_album(wire)
    finally:
        await dp.stop_polling()
        with contextlib.suppress(asyncio.CancelledError):
            await polling
        await bot.session.close()
    assert downloads == [VOICE, VIDEO, PNG, VIDEO]
    assert await wire.text() == (
        "[1] alice: [voice 3s]\n"
        "[2] bot: voice 3s\n"
        "[3] alice: [video clip.mp4 4s] watch\n"
        "[4] bot: video clip.mp4 watch\n"
        "[5] alice: [album 2: photo, video] trip\n"
        f"[7] bot: photo of album {group}\n"
        f"[8] bot: video of album {group}\n"
    )
