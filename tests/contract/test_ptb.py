"""python-telegram-bot as the oracle of our wire format: a real Application polls the stand unchanged."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import CallbackQueryHandler, CommandHandler, ContextTypes, MessageHandler, filters

from tests.clients import ptb_polling
from tests.conftest import Wire


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Ping", callback_data="ping")]])
    await update.message.reply_text("Hi! Tap a button.", reply_markup=keyboard)


async def tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer("Pong!")
    await query.edit_message_text("Pong.")


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    assert update.message.text is not None
    await update.message.reply_text(f"You said: {update.message.text}")


@pytest_asyncio.fixture
async def ptb_bot(wire: Wire) -> AsyncIterator[Wire]:
    handlers = [CommandHandler("start", start), CallbackQueryHandler(tap)]
    async with ptb_polling(wire, [*handlers, MessageHandler(filters.TEXT & ~filters.COMMAND, echo)]):
        yield wire


async def test_ptb_bot_starts_taps_and_echoes(ptb_bot: Wire) -> None:
    wire = ptb_bot
    await wire.say("/start")
    assert len(await wire.stand.wait_calls("sendMessage", 1, 5)) == 1
    status, _ = await wire.sim("POST", "/sim/callback", {"label": "Ping"})
    assert status == 200
    assert len(await wire.stand.wait_calls("editMessageText", 1, 5)) == 1
    await wire.say("hello there")
    assert len(await wire.stand.wait_calls("sendMessage", 2, 5)) == 2
    assert await wire.text() == (
        "[1] alice: /start\n[2] bot: Pong.\n[3] alice: hello there\n[4] bot: You said: hello there\n"
    )
    status, view = await wire.sim("GET", "/sim/chat/4242")
    assert view["callbacks"] == [{"id": "cbq-1", "text": "Pong!"}]
    assert all(c.status == 200 for c in wire.stand.calls())
