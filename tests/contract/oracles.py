"""The real libraries' bots, pointed at one stand: one place for how python-telegram-bot and aiogram are set up,
started polling and shut down, so every oracle test runs them the same way and only says what its bot does."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

import telegram
from aiogram import Bot as AiogramBot
from aiogram import Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from telegram.ext import Application, BaseHandler

from tests.conftest import Wire

PtbApp = Application[Any, Any, Any, Any, Any, Any]


@contextlib.asynccontextmanager
async def ptb_polling(
    wire: Wire, handlers: Sequence[BaseHandler[Any, Any, Any]], allowed_updates: Sequence[str] | None = None
) -> AsyncIterator[PtbApp]:
    """A python-telegram-bot Application with ``handlers``, long-polling the stand until the block ends."""
    app = Application.builder().token(wire.token).base_url(str(wire.client.make_url("/bot"))).build()
    app.add_handlers(handlers)
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=1, allowed_updates=allowed_updates)
    try:
        yield app
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()


@contextlib.asynccontextmanager
async def ptb_bot(wire: Wire) -> AsyncIterator[telegram.Bot]:
    """A bare python-telegram-bot Bot on the stand, for calls made straight from a test."""
    bot = telegram.Bot(wire.token, base_url=str(wire.client.make_url("/bot")))
    async with bot:
        yield bot


def aiogram_bot(wire: Wire, token: str | None = None) -> AiogramBot:
    """An aiogram Bot whose session talks to the stand through TelegramAPIServer (``token``: another bot's)."""
    server = TelegramAPIServer.from_base(str(wire.client.make_url("/")).rstrip("/"))
    return AiogramBot(token=wire.token if token is None else token, session=AiohttpSession(api=server))


@contextlib.asynccontextmanager
async def aiogram_polling(bot: AiogramBot, dp: Dispatcher, **options: Any) -> AsyncIterator[None]:
    """``dp`` long-polling the stand as ``bot`` until the block ends; then polling stops and the session closes."""
    polling = asyncio.create_task(dp.start_polling(bot, polling_timeout=1, handle_signals=False, **options))
    try:
        yield
    finally:
        await dp.stop_polling()
        with contextlib.suppress(asyncio.CancelledError):
            await polling
        await bot.session.close()
