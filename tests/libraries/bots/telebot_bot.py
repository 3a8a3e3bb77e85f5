"""The library-matrix dialog as a pyTelegramBotAPI (``telebot``) bot; infinity polling, or a webhook served by
the standard library's HTTP server as telebot's own webhook examples do (no Flask).

Environment: TELEGRAM_API (the stand's origin), BOT_TOKEN, BOT_MODE (``polling`` or ``webhook``) and, for a
webhook, WEBHOOK_URL, WEBHOOK_PORT and WEBHOOK_SECRET. The dialog is tests/libraries/dialog.py's.
"""

from __future__ import annotations

import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import telebot
from telebot import apihelper, types

apihelper.API_URL = os.environ["TELEGRAM_API"] + "/bot{0}/{1}"  # type: ignore[assignment]  # typed None upstream
apihelper.FILE_URL = os.environ["TELEGRAM_API"] + "/file/bot{0}/{1}"  # type: ignore[assignment]
bot = telebot.TeleBot(os.environ["BOT_TOKEN"])


@bot.message_handler(commands=["start"])
def start(message: types.Message) -> None:
    keyboard = types.InlineKeyboardMarkup()
    keyboard.add(types.InlineKeyboardButton("Tap me", callback_data="tap"))
    bot.send_message(message.chat.id, "Choose:", reply_markup=keyboard)


@bot.callback_query_handler(func=lambda call: call.data == "tap")
def tapped(call: types.CallbackQuery) -> None:
    bot.answer_callback_query(call.id, "Tapped")
    assert call.message is not None
    bot.edit_message_text("You tapped it.", call.message.chat.id, call.message.message_id)


@bot.message_handler(content_types=["photo"])
def photo(message: types.Message) -> None:
    assert message.photo is not None
    info = bot.get_file(message.photo[-1].file_id)
    assert info.file_path is not None
    data = bot.download_file(info.file_path)
    bot.send_photo(message.chat.id, data, caption="Your photo back")


@bot.message_handler(func=lambda message: message.text == "fmt")
def formatted(message: types.Message) -> None:
    bot.send_message(message.chat.id, "<b>bold</b> and <i>italic</i>", parse_mode="HTML")


class WebhookHandler(BaseHTTPRequestHandler):
    """POST /hook with the secret header: hand the update to telebot, answer 200; anything else is refused."""

    def do_POST(self) -> None:
        secret = self.headers.get("X-Telegram-Bot-Api-Secret-Token")
        if self.path != "/hook" or secret != os.environ["WEBHOOK_SECRET"]:
            self.send_error(403)
            return
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        update = types.Update.de_json(body.decode())
        if update is not None:
            bot.process_new_updates([update])
        self.send_response(200)
        self.end_headers()


def main() -> None:
    if os.environ.get("BOT_MODE") == "webhook":
        server = ThreadingHTTPServer(("127.0.0.1", int(os.environ["WEBHOOK_PORT"])), WebhookHandler)
        bot.remove_webhook()
        bot.set_webhook(url=os.environ["WEBHOOK_URL"], secret_token=os.environ["WEBHOOK_SECRET"])
        server.serve_forever()
    else:
        bot.infinity_polling()


if __name__ == "__main__":
    main()
