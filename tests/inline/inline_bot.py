"""A small inline bot on python-telegram-bot, for the Gherkin scenario: it offers the query in three cases.

TELEGRAM_API  origin of the Bot API (the stand); BOT_TOKEN  the bot's token
"""

from __future__ import annotations

import os

from telegram import InlineQueryResultArticle, InputTextMessageContent, Update
from telegram.ext import Application, ContextTypes, InlineQueryHandler


async def offer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.inline_query
    assert query is not None
    cases = {"Upper": query.query.upper(), "Lower": query.query.lower(), "Title": query.query.title()}
    await query.answer(
        [InlineQueryResultArticle(id=name.lower(), title=name, input_message_content=InputTextMessageContent(text))
         for name, text in cases.items()],
        cache_time=0,
    )  # fmt: skip


def main() -> None:
    api = os.environ.get("TELEGRAM_API", "https://api.telegram.org").rstrip("/")
    app = Application.builder().token(os.environ["BOT_TOKEN"]).base_url(f"{api}/bot").build()
    app.add_handler(InlineQueryHandler(offer))
    app.run_polling(allowed_updates=["inline_query"])


if __name__ == "__main__":
    main()
