"""A small python-telegram-bot bot with planted bugs (``PLANT``, comma-separated), or none: the correct twin.

/start greets by name (HTML) under [Like] [About] [Again]; /help; /long; /photo; unknown text is echoed.

    TELEGRAM_API, BOT_TOKEN   where the Bot API is and the bot's token
    MODE                      webhook: PTB's own webhook server (run_webhook) on a free loopback port, not polling
    PLANT                     crash, no_reply, unanswered_callback, dead_button, markup_injection, not_modified,
                              too_long, api_refused, retry_after_ignored, fault_not_recovered, blocked_not_handled,
                              slow_reply (/photo answers after 2 s)
"""

from __future__ import annotations

import asyncio
import html
import logging
import os
import socket

from telegram import BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes, MessageHandler, filters

PLANTS = set(os.environ.get("PLANT", "").split(","))
KEYBOARD = InlineKeyboardMarkup(
    [
        [InlineKeyboardButton("Like", callback_data="like"), InlineKeyboardButton("About", callback_data="about")],
        [InlineKeyboardButton("Again", callback_data="again")],
    ]
)
LONG = "A long story. " * 400
logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")


async def reply(update: Update, text: str, **kwargs: object) -> None:
    """Send, waiting out a 429 as Telegram asks (the planted bug sends again at once); a blocked person is let go."""
    message = update.effective_message
    assert message is not None
    for _ in range(3):
        try:
            await message.reply_text(text, do_quote=False, **kwargs)  # type: ignore[arg-type]
            return
        except RetryAfter as exc:
            if "retry_after_ignored" not in PLANTS:
                wait = exc.retry_after
                await asyncio.sleep(wait if isinstance(wait, int | float) else wait.total_seconds())
        except Forbidden:
            if "blocked_not_handled" in PLANTS:
                raise
            return


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user = update.effective_user
    name = user.first_name if user else "there"
    shown = name if "markup_injection" in PLANTS else html.escape(name)
    await reply(update, f"Hello, <b>{shown}</b>!", parse_mode="HTML", reply_markup=KEYBOARD)


async def help_(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if "no_reply" not in PLANTS:
        await reply(update, "Try /start, /long or /photo.")


async def long(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if "too_long" in PLANTS:
        await reply(update, LONG)
    else:
        for at in range(0, len(LONG), 4096):
            await reply(update, LONG[at : at + 4096])


async def photo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    assert message is not None
    if "slow_reply" in PLANTS:
        await asyncio.sleep(2.0)  # the bug: a slow lookup before the answer
    if "api_refused" in PLANTS:
        try:
            await message.reply_photo("not-a-file-id")
        except BadRequest:
            await reply(update, "No photo today.")
    else:
        await reply(update, "No photo today.")


async def every(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    if message is None:
        return
    text = message.text if "crash" not in PLANTS else message.text.lower()  # type: ignore[union-attr]
    if text and not text.startswith("/"):
        echoed = f"You said: {html.escape(text)}"
        await reply(update, echoed if len(echoed) <= 4096 else "That is a long one.", parse_mode="HTML")


async def tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    if query.data == "like":
        if "dead_button" in PLANTS:
            return
        await query.answer("Thanks!")
    elif query.data == "about":
        if "unanswered_callback" not in PLANTS:
            await query.answer()
        await edit(update, "A bot that says hello.")
    elif query.data == "again":
        await query.answer()
        await edit(update, "Hello again!")


async def edit(update: Update, text: str) -> None:
    """Edit the tapped message; the same text again is no change (the planted bug lets Telegram's refusal raise)."""
    query = update.callback_query
    assert query is not None
    message = query.message
    if "not_modified" not in PLANTS and message is not None and getattr(message, "text", None) == text:
        return
    await query.edit_message_text(text, reply_markup=KEYBOARD)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The twin logs a refused call in one line and raises any other error again (PTB logs its traceback). The
    planted fault bug stops the bot on the first server error (a 5xx, not a timeout); the planted block bug raises a
    403 again."""
    error = context.error
    server_error = isinstance(error, NetworkError) and not isinstance(error, BadRequest | TimedOut)  # PTB's 5xx
    if "fault_not_recovered" in PLANTS and server_error:
        logging.error("Stopping: %r", error)
        context.application.stop_running()
        return
    if isinstance(error, TelegramError) and not (isinstance(error, Forbidden) and "blocked_not_handled" in PLANTS):
        logging.warning("Bot API: %s", error)
        return
    raise error  # type: ignore[misc]


async def commands(app: Application) -> None:  # type: ignore[type-arg]
    await app.bot.set_my_commands(
        [
            BotCommand("start", "Start"),
            BotCommand("help", "Help"),
            BotCommand("long", "A long story"),
            BotCommand("photo", "A photo"),
        ]
    )


def main() -> None:
    api = os.environ["TELEGRAM_API"].rstrip("/")
    app = (
        Application.builder()
        .token(os.environ["BOT_TOKEN"])
        .base_url(f"{api}/bot")
        .base_file_url(f"{api}/file/bot")
        .post_init(commands)
        .build()
    )
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("help", help_))
    app.add_handler(CommandHandler("long", long))
    app.add_handler(CommandHandler("photo", photo))
    app.add_handler(CallbackQueryHandler(tap))
    app.add_handler(MessageHandler(filters.ALL, every))
    app.add_error_handler(on_error)
    if os.environ.get("MODE") == "webhook":
        with socket.socket() as probe:  # a free port for run_webhook, which takes a number
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        app.run_webhook(listen="127.0.0.1", port=port, url_path="hook", webhook_url=f"http://127.0.0.1:{port}/hook")
        return
    app.run_polling(poll_interval=0, timeout=10)


if __name__ == "__main__":
    main()
