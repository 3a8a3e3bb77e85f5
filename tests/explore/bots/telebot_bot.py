# mypy: disallow-untyped-decorators=False, disallow-untyped-calls=False
# (pyTelegramBotAPI's decorators carry no annotations: the library's idiom, as in tests/libraries/bots/telebot_bot.py)
"""A small pyTelegramBotAPI (``telebot``) bot with planted bugs (``PLANT``, comma-separated), or none: the twin.

/start greets by name (HTML) under [Ok] [Info] [Same]; /help; /long; /photo; other text is echoed. Handlers run
in telebot's polling thread, one update at a time (in webhook mode, in the webhook's request, before its answer).

    TELEGRAM_API, BOT_TOKEN   where the Bot API is and the bot's token
    MODE                      webhook: updates by a webhook on the standard library's HTTP server (as telebot's
                              webhook examples do) on a free loopback port, instead of polling
    PLANT                     crash, no_reply, unanswered_callback, dead_button, markup_injection, not_modified,
                              too_long, api_refused, retry_after_ignored, blocked_not_handled, fault_not_recovered
                              (the bot stops on the first 5xx from the Bot API: polling ends and the process
                              with it; the webhook handles no update after it)
"""

from __future__ import annotations

import html
import http.server
import logging
import os
import threading
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
stopped = threading.Event()
"""The planted fault bug: set on the first 5xx, after which no update is handled."""


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
        server_error = isinstance(exception, ApiTelegramException) and exception.error_code >= 500
        if server_error and "fault_not_recovered" in PLANTS:
            stopped.set()
            bot.stop_polling()
        if isinstance(exception, ApiTelegramException) and "blocked_not_handled" not in PLANTS:
            logging.warning("Bot API: %s", exception)
            return True
        return False


class Hook(http.server.BaseHTTPRequestHandler):
    """Webhook mode: each update is handled before the answer (one at a time), then 200; an exception telebot's
    handler let through is logged with its traceback."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        update = types.Update.de_json(body.decode())
        with LOCK:
            if update is not None and not stopped.is_set():
                try:
                    bot.process_new_updates([update])
                except Exception:
                    logging.exception("Webhook exception")
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


LOCK = threading.Lock()


def serve_webhook() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    bot.set_webhook(url=f"http://127.0.0.1:{server.server_address[1]}/hook")
    server.serve_forever()


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
    if os.environ.get("MODE") == "webhook":
        serve_webhook()
        return
    bot.infinity_polling(timeout=10, long_polling_timeout=10, logger_level=logging.ERROR)


if __name__ == "__main__":
    main()
