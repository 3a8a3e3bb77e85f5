"""aiogram 3 as a second oracle: its session talks to the stand through TelegramAPIServer."""

from __future__ import annotations

import asyncio
import contextlib

from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import Message

from tests.conftest import Wire


async def test_aiogram_bot_echoes(wire: Wire) -> None:
    server = TelegramAPIServer.from_base(str(wire.client.make_url("/")).rstrip("/"))
    bot = Bot(token="42:aiogram-token", session=AiohttpSession(api=server))
    dp = Dispatcher()

    @dp.message()
    async def echo(message: Message) -> None:
        await message.answer(f"You said: {message.text}")

    polling = asyncio.create_task(dp.start_polling(bot, polling_timeout=1, handle_signals=False))
    try:
        await wire.say("hi aiogram")
        calls = await wire.stand.wait_calls("sendMessage", 1, 5)
        assert calls[0].status == 200
        assert await wire.text() == "[1] alice: hi aiogram\n[2] bot: You said: hi aiogram\n"
        me = await bot.get_me()
        assert (me.username, me.is_bot) == ("tgfake_bot", True)
    finally:
        await dp.stop_polling()
        with contextlib.suppress(asyncio.CancelledError):
            await polling
        await bot.session.close()
