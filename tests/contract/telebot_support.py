"""What pyTelegramBotAPI's example tests (``test_telebot_examples_*.py``) share: the ``complaints`` fixture
(telebot's logged errors fail the test; each test file takes it in as its autouse fixture), telebot pointed at the
stand, a sync or async bot polling it with the person, and the calls the stand refused."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import telebot
from telebot import TeleBot, apihelper, asyncio_helper
from telebot.async_telebot import AsyncTeleBot

from tests.conftest import Wire
from tests.contract.running import origin
from tgfake.testing import AsyncStandClient
from tgfake.world.people import user_id_for

ALICE = user_id_for("alice")


class Complaints(logging.Handler):
    """telebot's own errors while a bot runs: a handler that raised, a failed getUpdates, a refused call."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.logged = threading.Event()  # set by each record: a test awaits a complaint a worker thread logs

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.logged.set()

    def lines(self) -> list[str]:
        return [r.getMessage() for r in self.records]


@pytest.fixture(autouse=True)
def complaints() -> Iterator[Complaints]:
    """Fails the test when telebot logged an error (a test that expects one empties ``records``)."""
    handler = Complaints()
    telebot.logger.addHandler(handler)
    try:
        yield handler
    finally:
        telebot.logger.removeHandler(handler)
    assert handler.lines() == []


@contextlib.contextmanager
def pointed(wire: Wire) -> Iterator[None]:
    """telebot's module-level server addresses (both helpers) at the stand for the block, as a local Bot API
    server is configured (``apihelper.API_URL``), then put back."""
    api = origin(wire)
    saved = apihelper.API_URL, apihelper.FILE_URL, asyncio_helper.API_URL, asyncio_helper.FILE_URL
    apihelper.API_URL = api + "/bot{0}/{1}"  # type: ignore[assignment]  # typed None upstream
    apihelper.FILE_URL = api + "/file/bot{0}/{1}"  # type: ignore[assignment]
    asyncio_helper.API_URL = api + "/bot{0}/{1}"
    asyncio_helper.FILE_URL = api + "/file/bot{0}/{1}"  # type: ignore[assignment]
    try:
        yield
    finally:
        apihelper.API_URL, apihelper.FILE_URL, asyncio_helper.API_URL, asyncio_helper.FILE_URL = saved


@contextlib.asynccontextmanager
async def polling(
    wire: Wire, bot: TeleBot, run: str = "infinity_polling", **kw: Any
) -> AsyncIterator[AsyncStandClient]:
    """``bot.infinity_polling(**kw)`` (or ``run``: ``polling``) in a thread, as the example's last line runs it, and
    the person; the block starts once the bot polls and ends by ``stop_polling`` (the long poll returns within a
    second)."""
    kw = {"timeout": 5, "long_polling_timeout": 1, **kw}
    with pointed(wire):
        thread = threading.Thread(target=getattr(bot, run), kwargs=kw, daemon=True)
        thread.start()
        try:
            async with AsyncStandClient(origin(wire)) as person:
                status, body = await wire.sim("GET", "/sim/wait?polling=1")
                assert status == 200, body
                yield person
        finally:
            bot.stop_polling()
            await asyncio.to_thread(thread.join, 5)
            bot.stop_bot()
    assert not thread.is_alive()


@contextlib.asynccontextmanager
async def async_polling(wire: Wire, bot: AsyncTeleBot, **kw: Any) -> AsyncIterator[AsyncStandClient]:
    """``await bot.polling(**kw)`` as a task (``asyncio.run(bot.polling())`` in the example), and the person."""
    with pointed(wire):
        task = asyncio.create_task(bot.polling(**{"timeout": 1, "request_timeout": 5, **kw}))
        try:
            async with AsyncStandClient(origin(wire)) as person:
                status, body = await wire.sim("GET", "/sim/wait?polling=1")
                assert status == 200, body
                yield person
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await AsyncTeleBot.close_session()


def refusals(wire: Wire) -> list[tuple[str, int, str]]:
    """Every Bot API call the stand refused: (method, status, description)."""
    return [(c.method, c.status, str(c.response.get("description"))) for c in wire.stand.calls() if c.status != 200]


async def group(wire: Wire, **chat: Any) -> int:
    """A supergroup made through the sim API (``members``, ``admins``...), its id."""
    status, made = await wire.sim("POST", "/sim/chats", {"type": "supergroup", "title": "Club", **chat})
    assert status == 200, made
    return int(made["chat_id"])
