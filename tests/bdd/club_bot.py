"""A bot for the group and payment steps, on urllib: it welcomes people who join, bans on ``/ban <name>`` (then says
so), sells a Stars boost on ``/buy`` and thanks for the payment."""

from __future__ import annotations

import json
import os
import urllib.parse
import urllib.request
from typing import Any

API = f"{os.environ['TELEGRAM_API']}/bot{os.environ['BOT_TOKEN']}/"
PRICES = json.dumps([{"label": "Boost", "amount": 50}])


def call(method: str, **params: Any) -> Any:
    data = urllib.parse.urlencode({k: str(v) for k, v in params.items()}).encode()
    with urllib.request.urlopen(API + method, data=data, timeout=30) as f:
        return json.loads(f.read())["result"]


def main() -> None:
    known: dict[str, int] = {}  # first name (lower case) -> user id, of the people the bot has seen
    offset = 0
    allowed = json.dumps(["message", "pre_checkout_query"])
    while True:
        for update in call("getUpdates", offset=offset, timeout=10, allowed_updates=allowed):
            offset = update["update_id"] + 1
            if "pre_checkout_query" in update:
                call("answerPreCheckoutQuery", pre_checkout_query_id=update["pre_checkout_query"]["id"], ok="true")
                continue
            message = update.get("message") or {}
            chat = message.get("chat", {}).get("id")
            text = message.get("text") or ""
            for person in message.get("new_chat_members") or []:
                if not person["is_bot"]:
                    known[person["first_name"].lower()] = person["id"]
                    call("sendMessage", chat_id=chat, text=f"Welcome, {person['first_name']}!")
            if text.startswith("/ban ") and text[5:].strip().lower() in known:
                name = text[5:].strip()
                call("banChatMember", chat_id=chat, user_id=known[name.lower()])
                call("sendMessage", chat_id=chat, text=f"Banned {name.capitalize()}.")
            elif text == "/buy":
                call("sendInvoice", chat_id=chat, title="Boost", description="A boost", payload="b", currency="XTR",
                     prices=PRICES)  # fmt: skip
            elif "successful_payment" in message:
                call("sendMessage", chat_id=chat, text="Thanks for the boost!")


if __name__ == "__main__":
    main()
