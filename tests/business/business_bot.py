"""A business bot written with python-telegram-bot: it answers a business account's customers on the owner's
behalf, marks their messages read, and manages the account within the rights the owner gave it.

Environment: TELEGRAM_API (the stand's origin) and BOT_TOKEN. What it does, per update:

- ``business_connection``: tells the owner in their private chat with the bot ("Connected: can_reply" /
  "Disconnected").
- ``business_message``: marks it read, then answers the customer as the owner: ``price`` gets the price list;
  ``rename`` renames the account to "Alice's Flowers"; ``bio`` sets the bio. A refused call is answered with the
  refusal's words, so the test sees Telegram's description.
- ``edited_business_message``: answers "Noted: <new text>".
- ``deleted_business_messages``: tells the owner how many messages the customer deleted.
"""

from __future__ import annotations

import os

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    BusinessConnectionHandler,
    BusinessMessagesDeletedHandler,
    ContextTypes,
    MessageHandler,
    filters,
)


async def connection(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    conn = update.business_connection
    assert conn is not None
    rights = conn.rights.to_dict() if conn.rights else {}
    text = f"Connected: {', '.join(sorted(rights))}" if conn.is_enabled else "Disconnected"
    await context.bot.send_message(conn.user_chat_id, text)


async def customer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.business_message
    assert msg is not None
    assert msg.business_connection_id is not None
    assert msg.text is not None
    bc = msg.business_connection_id
    try:
        await context.bot.read_business_message(bc, msg.chat.id, msg.message_id)
        if msg.text == "price":
            await msg.reply_text("Roses: 3 stars each")
        elif msg.text == "rename":
            await context.bot.set_business_account_name(bc, "Alice's Flowers")
            await msg.reply_text("Renamed")
        elif msg.text == "bio":
            await context.bot.set_business_account_bio(bc, "Fresh every morning")
            await msg.reply_text("Bio set")
    except TelegramError as exc:
        await context.bot.send_message(msg.chat.id, f"refused: {exc.message}", business_connection_id=bc)


async def edited(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.edited_business_message
    assert msg is not None
    await msg.reply_text(f"Noted: {msg.text}")


async def deleted(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    gone = update.deleted_business_messages
    assert gone is not None
    conn = await context.bot.get_business_connection(gone.business_connection_id)
    await context.bot.send_message(conn.user_chat_id, f"{gone.chat.first_name} deleted {len(gone.message_ids)}")


def main() -> None:
    api = os.environ["TELEGRAM_API"]
    app = Application.builder().token(os.environ["BOT_TOKEN"]).base_url(f"{api}/bot").build()
    app.add_handler(BusinessConnectionHandler(connection))
    app.add_handler(MessageHandler(filters.UpdateType.BUSINESS_MESSAGE & filters.TEXT, customer))
    app.add_handler(MessageHandler(filters.UpdateType.EDITED_BUSINESS_MESSAGE, edited))
    app.add_handler(BusinessMessagesDeletedHandler(deleted))
    app.run_polling(allowed_updates=Update.ALL_TYPES)


if __name__ == "__main__":
    main()
