"""The library-matrix dialog as an aiogram 3 bot; polling, or aiogram's webhook handler on an aiohttp app.

Environment: TELEGRAM_API (the stand's origin), BOT_TOKEN, BOT_MODE (``polling`` or ``webhook``) and, for a
webhook, WEBHOOK_URL, WEBHOOK_PORT and WEBHOOK_SECRET. The dialog is tests/libraries/dialog.py's.
"""

from __future__ import annotations

import asyncio
import os

from aiogram import Bot, Dispatcher, F
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.filters import CommandStart
from aiogram.types import BufferedInputFile, CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

dp = Dispatcher()


@dp.message(CommandStart())
async def start(message: Message) -> None:
    keyboard = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="Tap me", callback_data="tap")]])
    await message.answer("Choose:", reply_markup=keyboard)


@dp.callback_query(F.data == "tap")
async def tapped(query: CallbackQuery) -> None:
    await query.answer("Tapped")
    if isinstance(query.message, Message):
        await query.message.edit_text("You tapped it.")


@dp.message(F.photo)
async def photo(message: Message, bot: Bot) -> None:
    assert message.photo is not None
    data = await bot.download(message.photo[-1])
    assert data is not None
    await message.answer_photo(BufferedInputFile(data.read(), "photo.png"), caption="Your photo back")


@dp.message(F.text == "fmt")
async def formatted(message: Message) -> None:
    await message.answer("<b>bold</b> and <i>italic</i>", parse_mode=ParseMode.HTML)


def make_bot() -> Bot:
    api = TelegramAPIServer.from_base(os.environ["TELEGRAM_API"])
    return Bot(os.environ["BOT_TOKEN"], session=AiohttpSession(api=api))


async def on_startup(bot: Bot) -> None:
    await bot.set_webhook(os.environ["WEBHOOK_URL"], secret_token=os.environ["WEBHOOK_SECRET"])


def main() -> None:
    bot = make_bot()
    if os.environ.get("BOT_MODE") == "webhook":
        dp.startup.register(on_startup)
        app = web.Application()
        SimpleRequestHandler(dispatcher=dp, bot=bot, secret_token=os.environ["WEBHOOK_SECRET"]).register(
            app, path="/hook"
        )
        setup_application(app, dp, bot=bot)
        web.run_app(app, host="127.0.0.1", port=int(os.environ["WEBHOOK_PORT"]), print=None)
    else:
        asyncio.run(dp.start_polling(bot))


if __name__ == "__main__":
    main()
