# mypy: disallow-untyped-decorators=False, disallow-untyped-calls=False
# (pyTelegramBotAPI's decorators carry no annotations: the library's idiom, as in tests/libraries/bots/telebot_bot.py)
"""A small pyTelegramBotAPI (``telebot``) bot with planted bugs (``PLANT``, comma-separated), or none: the twin.

/start greets by name (HTML) under [Ok] [Info] [Same]; /help; /long; /photo; other text is echoed. Handlers run
in telebot's polling thread, one update at a time.

    TELEGRAM_API, BOT_TOKEN   where the Bot API is and the bot's token
    PLANT                     crash, no_reply, unanswered_callback, dead_button, markup_injection, not_modified,
                              too_long, api_refused, retry_after_ignored, blocked_not_handled
"""

from __future__ import annotations

import html
import logging
import os
import time
from typing import Any

import telebot
from telebot import apihelper, types
from telebot.apihelper import ApiTelegramException

apihelper.API_URL = os.environ["TELEGRAM_API"] + "/bot{0}/{1}"  # type: ignore[assignment]  # typed None upstream
apihelper.FILE_URL = os.environ["TELEGRAM_API"] + "/file/bot{0}/{1}"  # type: ignore[assignment]
PLANTS = set(os.environ.get("PLANT", "").split(","))
bot = telebot.TeleBot(os.environ["BOT_TOKEN"], threaded=False)
LONG = "A long story. " * 400


def keyboard() -> types.InlineKeyboardMarkup:
    markup = types.InlineKeyboardMarkup()
    markup.row(
        types.InlineKeyboardButton("Ok", callback_data="ok"), types.InlineKeyboardButton("Info", callback_data="info")
    )
    markup.row(types.InlineKeyboardButton("Same", callback_data="same"))
    return markup


def send(chat_id: int, text: str, **kwargs: Any) -> None:
    """Send, waiting out a 429 as Telegram asks (the planted bug sends again at once); a blocked person is let go."""
    for _ in range(3):
        try:
            bot.send_message(chat_id, text, **kwargs)
            return
        except ApiTelegramException as exc:
            if exc.error_code == 429:
                if "retry_after_ignored" not in PLANTS:
                    time.sleep(int((exc.result_json.get("parameters") or {}).get("retry_after", 1)))
                continue
            if exc.error_code == 403 and "blocked_not_handled" not in PLANTS:
                return
            raise


@bot.message_handler(commands=["start"])
def start(message: types.Message) -> None:
    name = message.from_user.first_name if message.from_user else "there"
    shown = name if "markup_injection" in PLANTS else html.escape(name)
    send(message.chat.id, f"Hello, <b>{shown}</b>!", parse_mode="HTML", reply_markup=keyboard())


@bot.message_handler(commands=["help"])
def help_(message: types.Message) -> None:
    if "no_reply" not in PLANTS:
        send(message.chat.id, "Try /start, /long or /photo.")


@bot.message_handler(commands=["long"])
def long(message: types.Message) -> None:
    parts = [LONG] if "too_long" in PLANTS else [LONG[at : at + 4096] for at in range(0, len(LONG), 4096)]
    for part in parts:
        try:
            send(message.chat.id, part)
        except ApiTelegramException as exc:
            logging.warning("Bot API: %s", exc)


@bot.message_handler(commands=["photo"])
def photo(message: types.Message) -> None:
    if "api_refused" in PLANTS:
        try:
            bot.send_photo(message.chat.id, "not-a-file-id")
            return
        except ApiTelegramException:
            pass
    send(message.chat.id, "No photo today.")


@bot.message_handler(
    func=lambda message: True,
    content_types=["text", "photo", "document", "location", "contact", "poll", "new_chat_members", "left_chat_member"],
)
def every(message: types.Message) -> None:
    text = message.text.lower() if "crash" in PLANTS else message.text  # type: ignore[union-attr]
    if text and not text.startswith("/") and message.chat.type == "private":
        echoed = f"You said: {html.escape(text)}"
        send(message.chat.id, echoed if len(echoed) <= 4096 else "That is a long one.", parse_mode="HTML")


@bot.callback_query_handler(func=lambda query: True)
def tap(query: types.CallbackQuery) -> None:
    message = query.message
    if message is None:
        return
    if query.data == "ok":
        if "dead_button" not in PLANTS:
            bot.answer_callback_query(query.id, "Ok!")
    elif query.data == "info":
        if "unanswered_callback" not in PLANTS:
            bot.answer_callback_query(query.id)
        send(message.chat.id, "A bot that says hello.")
    elif query.data == "same":
        bot.answer_callback_query(query.id)
        if "not_modified" in PLANTS or getattr(message, "text", None) != "Nothing changed.":
            bot.edit_message_text("Nothing changed.", message.chat.id, message.message_id, reply_markup=keyboard())


class Quiet(telebot.ExceptionHandler):
    """The twin logs a refused call in one line (telebot would print a traceback and go on)."""

    def handle(self, exception: Exception) -> bool:
        if isinstance(exception, ApiTelegramException) and "blocked_not_handled" not in PLANTS:
            logging.warning("Bot API: %s", exception)
            return True
        return False


def main() -> None:
    bot.exception_handler = Quiet()
    bot.set_my_commands(
        [
            types.BotCommand("start", "Start"),
            types.BotCommand("help", "Help"),
            types.BotCommand("long", "A long story"),
            types.BotCommand("photo", "A photo"),
        ]
    )
    bot.infinity_polling(timeout=10, long_polling_timeout=10, logger_level=logging.ERROR)


if __name__ == "__main__":
    main()
