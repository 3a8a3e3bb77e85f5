"""Running a library's bot against the stand for the length of a test: python-telegram-bot's Application and
aiogram's Dispatcher, polling until the block ends, then stopped the way their own shutdown does."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from aiogram import Bot as AiogramBot
from aiogram import Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from telegram.ext import Application

from tests.conftest import Wire


def origin(wire: Wire) -> str:
    return str(wire.client.make_url("")).rstrip("/")


@contextlib.asynccontextmanager
async def ptb_polling(app: Application[Any, Any, Any, Any, Any, Any], **polling: Any) -> AsyncIterator[None]:
    """``app`` started and polling (``start_polling`` keywords: ``allowed_updates``...) inside the block."""
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1, **polling)
        try:
            yield
        finally:
            await app.updater.stop()
            await app.stop()


def aiogram_bot(wire: Wire, **bot: Any) -> AiogramBot:
    """An aiogram Bot on the stand (``default=`` and other Bot keywords pass through)."""
    return AiogramBot(wire.token, session=AiohttpSession(api=TelegramAPIServer.from_base(origin(wire))), **bot)


@contextlib.asynccontextmanager
async def aiogram_polling(dp: Dispatcher, bot: AiogramBot, **polling: Any) -> AsyncIterator[None]:
    """``dp`` polling for ``bot`` inside the block (``start_polling`` keywords: ``handle_as_tasks``...)."""
    task = asyncio.create_task(dp.start_polling(bot, polling_timeout=1, handle_signals=False, **polling))
    try:
        yield
    finally:
        await dp.stop_polling()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await bot.session.close()
