"""Inline bots on python-telegram-bot and aiogram as oracles: articles with paging, a chosen result, its buttons.

The bots have the shape of PTB's ``inlinebot.py`` example and aiogram's inline_query router: answer a query with
three articles a page (``next_offset`` for the next), edit the chosen inline message, and answer a tap on its
button by editing it again through ``inline_message_id``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from aiogram import Bot as AgBot
from aiogram import Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import CallbackQuery as AgCallback
from aiogram.types import ChosenInlineResult as AgChosen
from aiogram.types import InlineKeyboardButton as AgButton
from aiogram.types import InlineKeyboardMarkup as AgMarkup
from aiogram.types import InlineQuery as AgQuery
from aiogram.types import InlineQueryResultArticle as AgArticle
from aiogram.types import InputTextMessageContent as AgText
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ParseMode
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    ContextTypes,
    InlineQueryHandler,
)

from tests.conftest import Wire

TOKEN = "777:inline"
PAGE = 3


async def inline_bot(wire: Wire) -> None:
    body = {"token": TOKEN, "username": "finder_bot", "supports_inline_queries": True, "inline_feedback": 100}
    status, got = await wire.sim("POST", "/sim/bots", body)
    assert status == 200, got
    wire.token = TOKEN


def page(query: str, offset: str) -> tuple[list[tuple[str, str]], str]:
    start = int(offset or 0)
    items = [(str(i), f"{query} #{i}") for i in range(start, start + PAGE)]
    return items, str(start + PAGE) if start < PAGE else ""


async def shown(wire: Wire, **body: Any) -> dict[str, Any]:
    """The person types (or scrolls) and waits for the bot's answer."""
    path = "/sim/inline/more" if body.pop("more", False) else "/sim/inline"
    status, asked = await wire.sim("POST", path, {"bot": "finder_bot", **body})
    assert status == 200, asked
    status, view = await wire.sim("GET", f"/sim/inline?inline_query_id={asked['inline_query_id']}&timeout=5")
    assert status == 200, view
    assert view["answered"] is True, view
    return dict(view)


async def drive(wire: Wire) -> list[str]:
    """The person's side, the same for both libraries; returns the transcript lines."""
    first = await shown(wire, query="cat")
    assert [r["id"] for r in first["results"]] == ["0", "1", "2"]
    assert first["next_offset"] == "3"
    second = await shown(wire, more=True)
    assert (second["offset"], [r["title"] for r in second["results"]]) == ("3", ["cat #3", "cat #4", "cat #5"])
    assert second["next_offset"] == ""
    status, picked = await wire.sim("POST", "/sim/inline/choose", {"result_id": "4"})
    assert status == 200, picked
    await wire.stand.wait_calls("editMessageText", 1, 5)
    status, tap = await wire.sim("POST", "/sim/callback", {"label": "Like", "bot": "finder_bot"})
    assert status == 200, tap
    await wire.stand.wait_calls("editMessageText", 2, 5)
    await wire.stand.wait_calls("answerCallbackQuery", 1, 5)
    assert all(c.status == 200 for c in wire.stand.calls() if c.method != "getUpdates"), [
        (c.method, c.response) for c in wire.stand.calls() if c.status != 200
    ]
    chat = await wire.client.get("/sim/chat/4242", params={"format": "text", "bot": "finder_bot"})
    return (await chat.text()).splitlines()


async def test_ptb_inline_bot_pages_and_edits_the_chosen_message(wire: Wire) -> None:
    await inline_bot(wire)
    chosen: list[tuple[str, str | None]] = []

    async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.inline_query
        assert query is not None
        items, next_offset = page(query.query, query.offset)
        like = InlineKeyboardMarkup([[InlineKeyboardButton("Like", callback_data="like")]])
        results = [
            InlineQueryResultArticle(
                id=rid,
                title=title,
                input_message_content=InputTextMessageContent(f"<b>{title}</b>", parse_mode=ParseMode.HTML),
                reply_markup=like,
            )
            for rid, title in items
        ]
        await query.answer(results, next_offset=next_offset, cache_time=0)

    async def on_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        result = update.chosen_inline_result
        assert result is not None
        chosen.append((result.result_id, result.inline_message_id))
        like = InlineKeyboardMarkup([[InlineKeyboardButton("Like", callback_data="like")]])
        await context.bot.edit_message_text(
            f"you picked {result.result_id}", inline_message_id=result.inline_message_id, reply_markup=like
        )

    async def on_tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        assert query.message is None
        assert query.inline_message_id == chosen[0][1]
        await query.answer("liked")
        assert await query.edit_message_text("liked!") is True

    app = Application.builder().token(TOKEN).base_url(str(wire.client.make_url("/bot"))).build()
    app.add_handler(InlineQueryHandler(answer))
    app.add_handler(ChosenInlineResultHandler(on_chosen))
    app.add_handler(CallbackQueryHandler(on_tap))
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=1)
    try:
        lines = await drive(wire)
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
    assert chosen[0][0] == "4"
    assert chosen[0][1]
    assert lines == ["[1] alice via @finder_bot: liked!"]


async def test_aiogram_inline_bot_pages_and_edits_the_chosen_message(wire: Wire) -> None:
    await inline_bot(wire)
    server = TelegramAPIServer.from_base(str(wire.client.make_url("/")).rstrip("/"))
    bot = AgBot(token=TOKEN, session=AiohttpSession(api=server))
    dp = Dispatcher()
    like = AgMarkup(inline_keyboard=[[AgButton(text="Like", callback_data="like")]])

    @dp.inline_query()
    async def answer(query: AgQuery) -> None:
        items, next_offset = page(query.query, query.offset)
        results: list[Any] = [
            AgArticle(
                id=rid, title=title, input_message_content=AgText(message_text=f"*{title}*", parse_mode="Markdown"),
                reply_markup=like,
            )
            for rid, title in items
        ]  # fmt: skip
        await query.answer(results, next_offset=next_offset, cache_time=0)

    @dp.chosen_inline_result()
    async def on_chosen(result: AgChosen) -> None:
        assert result.inline_message_id is not None
        await bot.edit_message_text(
            text=f"you picked {result.result_id}", inline_message_id=result.inline_message_id, reply_markup=like
        )

    @dp.callback_query()
    async def on_tap(query: AgCallback) -> None:
        assert query.message is None
        assert query.inline_message_id is not None
        await query.answer("liked")
        assert await bot.edit_message_text(text="liked!", inline_message_id=query.inline_message_id) is True

    polling = asyncio.create_task(dp.start_polling(bot, polling_timeout=1, handle_signals=False))
    try:
        lines = await drive(wire)
    finally:
        await dp.stop_polling()
        with contextlib.suppress(asyncio.CancelledError):
            await polling
        await bot.session.close()
    assert lines == ["[1] alice via @finder_bot: liked!"]
