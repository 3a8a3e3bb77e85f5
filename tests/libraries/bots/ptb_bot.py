"""The library-matrix dialog as a python-telegram-bot application; polling or PTB's own webhook server.

Environment: TELEGRAM_API (the stand's origin), BOT_TOKEN, BOT_MODE (``polling`` or ``webhook``) and, for a
webhook, WEBHOOK_URL, WEBHOOK_PORT and WEBHOOK_SECRET. The dialog is tests/libraries/dialog.py's.
"""

from __future__ import annotations

import os

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes, MessageHandler, filters


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Tap me", callback_data="tap")]])
    await update.message.reply_text("Choose:", reply_markup=keyboard)


async def tapped(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer("Tapped")
    await query.edit_message_text("You tapped it.")


async def photo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    file = await update.message.photo[-1].get_file()
    data = await file.download_as_bytearray()
    await update.message.reply_photo(bytes(data), caption="Your photo back")


async def formatted(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_html("<b>bold</b> and <i>italic</i>")


def main() -> None:
    api = os.environ["TELEGRAM_API"]
    app = (
        Application.builder()
        .token(os.environ["BOT_TOKEN"])
        .base_url(f"{api}/bot")
        .base_file_url(f"{api}/file/bot")
        .build()
    )
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CallbackQueryHandler(tapped, pattern="^tap$"))
    app.add_handler(MessageHandler(filters.PHOTO, photo))
    app.add_handler(MessageHandler(filters.Text(["fmt"]), formatted))
    if os.environ.get("BOT_MODE") == "webhook":
        app.run_webhook(
            listen="127.0.0.1",
            port=int(os.environ["WEBHOOK_PORT"]),
            url_path="hook",
            webhook_url=os.environ["WEBHOOK_URL"],
            secret_token=os.environ["WEBHOOK_SECRET"],
        )
    else:
        app.run_polling()


if __name__ == "__main__":
    main()
