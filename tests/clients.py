"""The real libraries' clients, pointed at one stand: one place for how python-telegram-bot and aiogram are set up,
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


def origin(wire: Wire) -> str:
    """The stand's base address, without a trailing slash (``/bot...`` and ``/file/bot...`` hang off it)."""
    return str(wire.client.make_url("")).rstrip("/")


@contextlib.asynccontextmanager
async def ptb_polling(
    wire: Wire,
    handlers: Sequence[BaseHandler[Any, Any, Any]],
    allowed_updates: Sequence[str] | None = None,
    token: str | None = None,
) -> AsyncIterator[PtbApp]:
    """A python-telegram-bot Application with ``handlers`` (downloads from the stand too), long-polling it until
    the block ends; ``token``: another bot's."""
    api = origin(wire)
    builder = Application.builder().token(wire.token if token is None else token)
    app = builder.base_url(f"{api}/bot").base_file_url(f"{api}/file/bot").build()
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
    """A bare python-telegram-bot Bot on the stand (downloads too), for calls made straight from a test."""
    api = origin(wire)
    async with telegram.Bot(wire.token, base_url=f"{api}/bot", base_file_url=f"{api}/file/bot") as bot:
        yield bot


def aiogram_bot(wire: Wire, token: str | None = None) -> AiogramBot:
    """An aiogram Bot whose session talks to the stand through TelegramAPIServer (``token``: another bot's).
    The caller closes ``bot.session`` (or lets :func:`aiogram_polling` do it)."""
    server = TelegramAPIServer.from_base(origin(wire))
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
