"""A small aiogram 3 bot with planted bugs (``PLANT``, comma-separated), or none: the correct twin.

aiogram handles each update as a task of its own (it polls again before a handler ends; its webhook handler answers
before the handler ends), which the explorer's quiet window after each act has to cover. /start greets by name
(HTML) under [Yes] [No] [Same]; /help; /long; /photo; other text is echoed.

    TELEGRAM_API, BOT_TOKEN   where the Bot API is and the bot's token
    MODE                      webhook: aiogram's aiohttp webhook handler on a free loopback port instead of polling
    PLANT                     crash, no_reply, unanswered_callback, dead_button, markup_injection, not_modified,
                              too_long, api_refused, retry_after_ignored, blocked_not_handled, fault_not_recovered
                              (a breaker that opens on a 5xx from the Bot API and never closes: no update is
                              handled after it)
"""

from __future__ import annotations

import asyncio
import html
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot, Dispatcher, F
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.session.middlewares.base import NextRequestMiddlewareType
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramRetryAfter, TelegramServerError
from aiogram.filters import Command, CommandStart
from aiogram.methods import TelegramMethod
from aiogram.methods.base import Response
from aiogram.types import BotCommand, CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, TelegramObject
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

PLANTS = set(os.environ.get("PLANT", "").split(","))
KEYBOARD = InlineKeyboardMarkup(
    inline_keyboard=[
        [InlineKeyboardButton(text="Yes", callback_data="yes"), InlineKeyboardButton(text="No", callback_data="no")],
        [InlineKeyboardButton(text="Same", callback_data="same")],
    ]
)
LONG = "A long story. " * 400
logging.basicConfig(level=logging.WARNING)
dp = Dispatcher()
broken = asyncio.Event()
"""The planted fault bug's breaker: open after a 5xx from the Bot API, never closed again."""


async def breaker(make_request: NextRequestMiddlewareType[Any], bot: Bot, method: TelegramMethod[Any]) -> Response[Any]:
    """Every Bot API call passes here (getUpdates too): the planted bug opens the breaker on a server error."""
    try:
        return await make_request(bot, method)
    except TelegramServerError:
        if "fault_not_recovered" in PLANTS:
            broken.set()
        raise


async def unless_broken(
    handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]], event: TelegramObject, data: dict[str, Any]
) -> Any:
    if broken.is_set():
        return None
    return await handler(event, data)


dp.update.outer_middleware.register(unless_broken)


async def reply(message: Message, text: str, **kwargs: Any) -> None:
    """Answer, waiting out a 429 as Telegram asks (the planted bug sends again at once); a blocked person is let go."""
    for _ in range(3):
        try:
            await message.answer(text, **kwargs)
            return
        except TelegramRetryAfter as exc:
            if "retry_after_ignored" not in PLANTS:
                await asyncio.sleep(exc.retry_after)
        except TelegramForbiddenError:
            if "blocked_not_handled" in PLANTS:
                raise
            return


@dp.message(CommandStart())
async def start(message: Message) -> None:
    name = message.from_user.first_name if message.from_user else "there"
    shown = name if "markup_injection" in PLANTS else html.escape(name)
    await reply(message, f"Hello, <b>{shown}</b>!", parse_mode="HTML", reply_markup=KEYBOARD)


@dp.message(Command("help"))
async def help_(message: Message) -> None:
    if "no_reply" not in PLANTS:
        await reply(message, "Try /start, /long or /photo.")


@dp.message(Command("long"))
async def long(message: Message) -> None:
    parts = [LONG] if "too_long" in PLANTS else [LONG[at : at + 4096] for at in range(0, len(LONG), 4096)]
    for part in parts:
        await reply(message, part)


@dp.message(Command("photo"))
async def photo(message: Message) -> None:
    if "api_refused" in PLANTS:
        try:
            await message.answer_photo("not-a-file-id")
            return
        except TelegramBadRequest:
            pass
    await reply(message, "No photo today.")


@dp.message()
async def every(message: Message) -> None:
    text = message.text.lower() if "crash" in PLANTS else message.text  # type: ignore[union-attr]
    if text and not text.startswith("/"):
        echoed = f"You said: {html.escape(text)}"
        await reply(message, echoed if len(echoed) <= 4096 else "That is a long one.", parse_mode="HTML")


@dp.callback_query(F.data == "yes")
async def yes(query: CallbackQuery) -> None:
    if "dead_button" not in PLANTS:
        await query.answer("Yes!")


@dp.callback_query(F.data == "no")
async def no(query: CallbackQuery) -> None:
    if "unanswered_callback" not in PLANTS:
        await query.answer()
    if isinstance(query.message, Message):
        await query.message.answer("Why not?")


@dp.callback_query(F.data == "same")
async def same(query: CallbackQuery) -> None:
    await query.answer()
    message = query.message
    if not isinstance(message, Message):
        return
    if "not_modified" in PLANTS or message.text != "Nothing changed.":
        await message.edit_text("Nothing changed.", reply_markup=KEYBOARD)


async def serve_webhook(bot: Bot) -> None:
    """aiogram's webhook handler on an aiohttp app on a free loopback port, then setWebhook to it."""
    app = web.Application()
    SimpleRequestHandler(dispatcher=dp, bot=bot).register(app, path="/hook")
    setup_application(app, dp, bot=bot)
    runner = web.AppRunner(app)
    await runner.setup()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    await web.SockSite(runner, sock).start()
    await bot.set_webhook(f"http://127.0.0.1:{sock.getsockname()[1]}/hook")
    await asyncio.Event().wait()


async def main() -> None:
    api = TelegramAPIServer.from_base(os.environ["TELEGRAM_API"])
    bot = Bot(os.environ["BOT_TOKEN"], session=AiohttpSession(api=api))
    bot.session.middleware(breaker)
    await bot.set_my_commands(
        [
            BotCommand(command="start", description="Start"),
            BotCommand(command="help", description="Help"),
            BotCommand(command="long", description="A long story"),
            BotCommand(command="photo", description="A photo"),
        ]
    )
    if os.environ.get("MODE") == "webhook":
        await serve_webhook(bot)
    else:
        await dp.start_polling(bot, polling_timeout=10)


if __name__ == "__main__":
    asyncio.run(main())
