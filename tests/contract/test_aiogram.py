"""aiogram 3 as a second oracle: its session talks to the stand through TelegramAPIServer."""

from __future__ import annotations

from aiogram import Dispatcher
from aiogram.types import Message

from tests.clients import aiogram_bot, aiogram_polling
from tests.conftest import Wire


async def test_aiogram_bot_echoes(wire: Wire) -> None:
    bot = aiogram_bot(wire, "42:aiogram-token")
    dp = Dispatcher()

    @dp.message()
    async def echo(message: Message) -> None:
        await message.answer(f"You said: {message.text}")

    async with aiogram_polling(bot, dp):
        await wire.say("hi aiogram")
        calls = await wire.stand.wait_calls("sendMessage", 1, 5)
        assert calls[0].status == 200
        assert await wire.text() == "[1] alice: hi aiogram\n[2] bot: You said: hi aiogram\n"
        me = await bot.get_me()
        assert (me.username, me.is_bot) == ("tgfake_bot", True)
