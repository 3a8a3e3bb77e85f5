"""An aiogram bot against a test's stand: a Dispatcher whose handlers the tests write, fed the updates the bot's
getUpdates answers (no polling task, no sleep: each ``drain`` reads what is queued and runs the handlers)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiogram import Bot, Dispatcher, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from tests.conftest import Wire
from tests.world.helpers import make_chat

KINDS = [
    "message",
    "channel_post",
    "chat_boost",
    "removed_chat_boost",
    "managed_bot",
    "guest_message",
    "subscription",
    "chat_join_request",
    "pre_checkout_query",
]


class AiogramBot:
    """The bot, its dispatcher and router, and what its handlers saw (``seen[kind]``)."""

    def __init__(self, wire: Wire, token: str) -> None:
        base = str(wire.client.make_url("")).rstrip("/")
        self.bot = Bot(token, session=AiohttpSession(api=TelegramAPIServer.from_base(base)))
        self.dp = Dispatcher()
        self.router = Router()
        self.dp.include_router(self.router)
        self.seen: dict[str, list[Any]] = {}
        self.offset = 0

    def saw(self, kind: str, event: Any) -> None:
        self.seen.setdefault(kind, []).append(event)

    async def drain(self, wait: int = 0) -> int:
        """Feed every queued update to the dispatcher; how many there were. ``wait``: hold the poll up to that many
        seconds for a first update (the stand answers as soon as one is queued)."""
        updates = await self.bot.get_updates(offset=self.offset, timeout=wait, allowed_updates=KINDS)
        for update in updates:
            self.offset = update.update_id + 1
            await self.dp.feed_update(self.bot, update)
        return len(updates)


@asynccontextmanager
async def aiogram_bot(wire: Wire, token: str | None = None) -> AsyncIterator[AiogramBot]:
    made = AiogramBot(wire, token or wire.token)
    try:
        yield made
    finally:
        await made.bot.session.close()


async def channel(wire: Wire, **body: Any) -> int:
    """alice's channel News with the stand's bot as its administrator."""
    return await make_chat(wire, type="channel", title="News", admins=["@tgfake_bot"], **body)
