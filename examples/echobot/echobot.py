"""Echo bot: the smallest useful bot under test, on python-telegram-bot v22, configured only by environment.

It echoes text as a reply (cut to Telegram's 4096 characters), shows an inline keyboard on /start (Ping answers
the tap and edits the message, Help edits it to a help text, once: the same text again would be "message is not
modified"), answers /help, answers in groups only when mentioned, survives Telegram's flood control (429 with
retry_after) on sendMessage by waiting and sending again, and logs a person who blocked it in one line.
``tgfake explore -- python echobot.py`` finds nothing in it.

    TELEGRAM_API  origin of the Bot API (a tgfake stand, e.g. http://127.0.0.1:18790); default Telegram
    BOT_TOKEN     the bot's token (any token for a stand that accepts any)
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.error import Forbidden, RetryAfter
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

log = logging.getLogger("echobot")
T = TypeVar("T")

GREETING = "Hi! Send me anything, or tap a button."
HELP = "I repeat what you write. In a group, mention me. Tap Ping to see that I am alive."
KEYBOARD = InlineKeyboardMarkup(
    [[InlineKeyboardButton("Ping", callback_data="ping"), InlineKeyboardButton("Help", callback_data="help")]]
)
MAX_FLOOD_RETRIES = 3
MAX_TEXT = 4096  # Telegram's limit on a message's text, in characters
ECHO = "You said: "


async def with_flood_retry(call: Callable[[], Awaitable[T]]) -> T:
    """Run a Bot API call; on 429 wait the ``retry_after`` Telegram asked for and try again."""
    for attempt in range(MAX_FLOOD_RETRIES):
        try:
            return await call()
        except RetryAfter as e:
            wait = e.retry_after
            seconds = wait.total_seconds() if isinstance(wait, dt.timedelta) else float(wait)
            log.warning("flood control: retrying in %.1f s (attempt %d)", seconds, attempt + 1)
            await asyncio.sleep(seconds)
    return await call()


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.effective_message
    if msg is not None:
        await with_flood_retry(lambda: msg.reply_text(GREETING, reply_markup=KEYBOARD, do_quote=False))


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.effective_message
    if msg is not None:
        await with_flood_retry(lambda: msg.reply_text(HELP, do_quote=False))


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.effective_message
    if msg is None or msg.text is None:
        return
    text = msg.text
    if msg.chat.type != ChatType.PRIVATE:
        mention = f"@{context.bot.username}"
        if not text.startswith(mention):
            return  # in a group, only what is addressed to the bot
        text = text[len(mention) :].strip()
        if not text:
            return
    said = (ECHO + text)[:MAX_TEXT]
    reply: Message = await with_flood_retry(lambda: msg.reply_text(said, do_quote=True))
    log.info("echoed message %s as %s", msg.message_id, reply.message_id)


async def tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    if query.data == "ping":
        await query.answer("Pong!")
        await with_flood_retry(lambda: query.edit_message_text("Pong."))
    elif query.data == "help":
        await query.answer()
        shown = query.message
        if not isinstance(shown, Message) or shown.text != HELP:  # already the help text: nothing to change
            await with_flood_retry(lambda: query.edit_message_text(HELP, reply_markup=KEYBOARD))
    else:
        await query.answer("Unknown button")


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A person who blocked the bot is no error of the bot's: one line in the log; anything else is raised again."""
    if isinstance(context.error, Forbidden):
        log.warning("not delivered: %s", context.error.message)
        return
    log.error("update %s failed", update, exc_info=context.error)


def build(token: str, api: str) -> Application:  # type: ignore[type-arg]
    app = Application.builder().token(token).base_url(f"{api}/bot").base_file_url(f"{api}/file/bot").build()
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("help", help_command))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
    app.add_handler(CallbackQueryHandler(tap))
    app.add_error_handler(on_error)
    return app


def main() -> None:
    os.environ.setdefault("PTB_TIMEDELTA", "true")  # RetryAfter.retry_after as a timedelta, no warning
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    api = os.environ.get("TELEGRAM_API", "https://api.telegram.org").rstrip("/")
    token = os.environ["BOT_TOKEN"]
    log.info("echobot polling %s", api)
    build(token, api).run_polling(allowed_updates=["message", "callback_query"])


if __name__ == "__main__":
    main()
