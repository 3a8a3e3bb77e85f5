"""Real clients as oracles: an aiogram 3 bot in webhook mode, and python-telegram-bot's webhook calls."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime

import pytest
from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.filters import CommandStart
from aiogram.methods import SendMessage
from aiogram.types import Message
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web
from aiohttp.test_utils import TestServer
from telegram import Bot as PtbBot
from telegram.error import BadRequest

from tests.conftest import Wire
from tests.webhooks.conftest import closed_port, wait_webhook


async def test_an_aiogram_webhook_bot_answers_through_the_stand(wire: Wire) -> None:
    api = TelegramAPIServer.from_base(str(wire.client.make_url("/")).rstrip("/"))
    bot = Bot(token="42:aiogram-token", session=AiohttpSession(api=api))
    dp = Dispatcher()

    @dp.message(CommandStart())
    async def start(message: Message) -> SendMessage:
        return message.answer("Hello from the webhook answer")  # served by the stand from the HTTP answer

    @dp.message()
    async def echo(message: Message) -> None:
        await message.answer(f"You said: {message.text}")  # a Bot API call while the delivery is held

    app = web.Application()
    handler = SimpleRequestHandler(dispatcher=dp, bot=bot, secret_token="s3cret", handle_in_background=False)
    handler.register(app, path="/hook")
    setup_application(app, dp, bot=bot)
    try:
        async with TestServer(app) as server:
            url = str(server.make_url("/hook"))
            assert await bot.set_webhook(url, secret_token="s3cret", allowed_updates=["message"]) is True
            info = await bot.get_webhook_info()
            assert (info.url, info.pending_update_count, info.allowed_updates) == (url, 0, ["message"])
            await wire.say("/start")
            await wait_webhook(wire, delivered=1)
            await wire.say("hi aiogram")
            view = await wait_webhook(wire, delivered=2)
            assert [(d["status"], d.get("reply_method"), d.get("reply_status")) for d in view["deliveries"]] == [
                (200, "sendMessage", 200),
                (200, None, None),
            ]
            assert await wire.text() == (
                "[1] alice: /start\n[2] bot: Hello from the webhook answer\n[3] alice: hi aiogram\n"
                "[4] bot: You said: hi aiogram\n"
            )
            assert await bot.delete_webhook() is True
    finally:
        with contextlib.suppress(Exception):
            await bot.session.close()


async def test_a_wrong_secret_is_rejected_by_aiogram_and_retried(wire: Wire) -> None:
    """The header really is the one aiogram checks: with another secret set, aiogram answers 401 and we retry."""
    api = TelegramAPIServer.from_base(str(wire.client.make_url("/")).rstrip("/"))
    bot = Bot(token="42:aiogram-token", session=AiohttpSession(api=api))
    dp = Dispatcher()
    app = web.Application()
    SimpleRequestHandler(dispatcher=dp, bot=bot, secret_token="right").register(app, path="/hook")
    try:
        async with TestServer(app) as server:
            await bot.set_webhook(str(server.make_url("/hook")), secret_token="wrong")
            await wire.say("hi")
            view = await wait_webhook(wire, attempts=1)
            assert view["deliveries"][0]["status"] == 401
            assert view["last_error_message"] == "Wrong response from the webhook: 401 Unauthorized"
    finally:
        await bot.session.close()


async def test_ptb_webhook_round_trip(wire: Wire) -> None:
    url = f"http://127.0.0.1:{closed_port()}/hook"
    async with PtbBot(wire.token, base_url=str(wire.client.make_url("/bot"))) as bot:
        assert await bot.set_webhook(url, secret_token="abc", allowed_updates=["message"], max_connections=5) is True
        await wire.say("x")
        await wait_webhook(wire, attempts=1)
        info = await bot.get_webhook_info()
        assert (info.url, info.max_connections, info.allowed_updates, info.has_custom_certificate) == (
            url,
            5,
            ("message",),
            False,
        )
        assert info.pending_update_count == 1
        assert info.last_error_message == "Connection refused"
        assert info.last_error_date == datetime.fromtimestamp(1_700_000_000, tz=UTC)
        with pytest.raises(BadRequest, match=r"^Bad webhook: an https url must be provided for webhook$"):
            await bot.set_webhook("http://example.com/hook")
        assert await bot.delete_webhook(drop_pending_updates=True) is True
        info = await bot.get_webhook_info()
        assert (info.url, info.pending_update_count, info.max_connections) == ("", 0, None)
