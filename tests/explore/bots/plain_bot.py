"""A small bot on plain HTTP (the standard library only) with one planted bug, chosen by ``PLANT``, or none.

Without ``PLANT`` it is the correct twin. It registers /start, /help, /menu, /about and /stats; /start greets the
person by name (HTML, escaped) under an inline keyboard [Count] [Info] [Refresh]; /menu shows a reply keyboard
with a Mini App button [Shop] (its data is JSON).
It handles updates one by one, and survives a 429 (waits retry_after), a 5xx and a person who blocked it.

    TELEGRAM_API, BOT_TOKEN   where the Bot API is and the bot's token
    MODE                      webhook: take updates by a webhook on a loopback port instead of polling
    PLANT                     the bugs, comma-separated: crash, no_reply, unanswered_callback, dead_button,
                              markup_injection, not_modified, too_long, api_refused, retry_after_ignored,
                              fault_not_recovered, blocked_not_handled, slow_reply (/stats answers after 2 s);
                              broadcast: /stats also tells everyone,
                              and goes on sending to a person who blocked the bot; announce: /stats tells everyone
                              and forgets who blocked the bot (a correct broadcast)
"""

from __future__ import annotations

import html
import http.server
import json
import os
import sys
import threading
import time
import traceback
import urllib.error
import urllib.request
from typing import Any

API = f"{os.environ['TELEGRAM_API'].rstrip('/')}/bot{os.environ['BOT_TOKEN']}"
PLANTS = set(os.environ.get("PLANT", "").split(","))
MAIN = [
    [{"text": "Count", "callback_data": "count"}, {"text": "Info", "callback_data": "info"}],
    [{"text": "Refresh", "callback_data": "refresh"}],
]
BACK = [[{"text": "Back", "callback_data": "back"}, {"text": "Docs", "url": "https://example.com/docs"}]]
SHOP = {"text": "Shop", "web_app": {"url": "https://example.com/shop"}}
COMMANDS = [("start", "Start"), ("help", "Help"), ("menu", "A menu"), ("about", "About"), ("stats", "Stats")]
SLOW = 2.0
"""How long the planted slow_reply makes /stats wait before answering (over the explorer's 1 s threshold)."""
ABOUT = "About this bot. " + "Lorem ipsum dolor sit amet. " * 200  # over 4096 characters


class ApiError(Exception):
    def __init__(self, code: int, description: str, retry_after: int = 0) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.retry_after = retry_after


def call(method: str, **params: Any) -> Any:
    body = json.dumps(params).encode()
    req = urllib.request.Request(f"{API}/{method}", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return json.loads(resp.read())["result"]
    except urllib.error.HTTPError as exc:
        answer = json.loads(exc.read() or b"{}")
        retry = int((answer.get("parameters") or {}).get("retry_after", 0))
        raise ApiError(exc.code, str(answer.get("description", "")), retry) from None


def send(chat_id: int, text: str, **params: Any) -> Any:
    """sendMessage, waiting out a 429 as Telegram asks (the planted bug retries at once)."""
    for _ in range(3):
        try:
            return call("sendMessage", chat_id=chat_id, text=text, **params)
        except ApiError as exc:
            if exc.code != 429:
                raise
            if "retry_after_ignored" not in PLANTS:
                time.sleep(exc.retry_after)
    return None


counts: dict[int, int] = {}
people: set[int] = set()


def on_message(msg: dict[str, Any]) -> None:
    chat = msg["chat"]["id"]
    if "web_app_data" in msg:
        order = json.loads(msg["web_app_data"]["data"])
        send(chat, f"Your order: {html.escape(str(order))}", parse_mode="HTML")
        return
    text = msg["text"] if "crash" in PLANTS else msg.get("text")  # the bug: a photo has no text
    if text is None:
        return
    people.add(chat)
    command = text.split()[0].split("@")[0] if text.startswith("/") else ""
    name = msg["from"]["first_name"]
    if command == "/start":
        shown = name if "markup_injection" in PLANTS else html.escape(name)
        send(chat, f"Hello, <b>{shown}</b>!", parse_mode="HTML", reply_markup={"inline_keyboard": MAIN})
    elif command == "/help":
        if "no_reply" not in PLANTS:
            send(chat, "I count taps. /menu shows a keyboard, /about tells about me.")
    elif command == "/menu":
        send(
            chat,
            "Pick a colour.",
            reply_markup={"keyboard": [[{"text": "Red"}, {"text": "Blue"}], [SHOP]], "resize_keyboard": True},
        )
    elif command == "/about":
        if "too_long" in PLANTS:
            send(chat, ABOUT)
        else:
            for at in range(0, len(ABOUT), 4096):
                send(chat, ABOUT[at : at + 4096])
    elif command == "/stats":
        if "slow_reply" in PLANTS:
            time.sleep(SLOW)  # the bug: a slow lookup before the answer
        if "api_refused" in PLANTS:
            call("sendPhoto", chat_id=chat, photo="no-such-file-id")
        else:
            send(chat, f"{len(people)} people, {sum(counts.values())} taps.")
        if PLANTS & {"blocked_not_handled", "broadcast", "announce"}:
            broadcast("Someone asked for the stats.")
    elif command:
        send(chat, "I do not know that command.")
    elif text in ("Red", "Blue"):
        send(chat, f"{text} it is.", reply_markup={"remove_keyboard": True})
    else:
        reply = f"You said: {html.escape(text)}"
        send(chat, reply if len(reply) <= 4096 else "That is a long one.", parse_mode="HTML")


def broadcast(text: str) -> None:
    for person in sorted(people):
        try:
            send(person, text)
        except ApiError as exc:
            if exc.code != 403 or "blocked_not_handled" in PLANTS:
                raise
            if "broadcast" not in PLANTS:  # the planted bug goes on sending to whoever blocked the bot
                people.discard(person)


def on_callback(query: dict[str, Any]) -> None:
    data = query.get("data")
    msg = query["message"]
    chat, message_id = msg["chat"]["id"], msg["message_id"]
    if data == "count":
        counts[chat] = counts.get(chat, 0) + 1
        call(
            "editMessageText",
            chat_id=chat,
            message_id=message_id,
            text=f"Count: {counts[chat]}",
            reply_markup={"inline_keyboard": MAIN},
        )
        if "unanswered_callback" not in PLANTS:
            call("answerCallbackQuery", callback_query_id=query["id"])
    elif data == "info":
        if "dead_button" in PLANTS:
            return
        call("answerCallbackQuery", callback_query_id=query["id"], text="Info")
        call(
            "editMessageText",
            chat_id=chat,
            message_id=message_id,
            text="This bot counts taps.",
            reply_markup={"inline_keyboard": BACK},
        )
    elif data == "back":
        call("answerCallbackQuery", callback_query_id=query["id"])
        call(
            "editMessageText",
            chat_id=chat,
            message_id=message_id,
            text="Main menu",
            reply_markup={"inline_keyboard": MAIN},
        )
    elif data == "refresh":
        call("answerCallbackQuery", callback_query_id=query["id"])
        text = f"Taps so far: {counts.get(chat, 0)}"
        if "not_modified" in PLANTS or msg.get("text") != text:
            call(
                "editMessageText",
                chat_id=chat,
                message_id=message_id,
                text=text,
                reply_markup={"inline_keyboard": MAIN},
            )


def handle(update: dict[str, Any]) -> None:
    try:
        if "message" in update:
            on_message(update["message"])
        elif "callback_query" in update:
            on_callback(update["callback_query"])
    except ApiError as exc:
        if exc.code == 403 and "blocked_not_handled" not in PLANTS:
            people.discard(int((update.get("message") or {}).get("chat", {}).get("id", 0)))
            return
        if "blocked_not_handled" in PLANTS and exc.code == 403:
            raise
        print(f"Bot API refused: {exc}", flush=True)
    except Exception:
        traceback.print_exc()
        sys.stderr.flush()


def poll() -> None:
    offset = 0
    while True:
        try:
            updates = call("getUpdates", offset=offset, timeout=10)
        except ApiError as exc:
            if "fault_not_recovered" in PLANTS:
                return  # the polling loop ends: the process lives on and never answers again
            time.sleep(0.2 if exc.code >= 500 else exc.retry_after)
            continue
        for update in updates:
            offset = update["update_id"] + 1
            handle(update)


class Hook(http.server.BaseHTTPRequestHandler):
    """Webhook mode: each update is handled before the answer (one at a time), then 200."""

    def do_POST(self) -> None:
        update = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        with LOCK:
            handle(update)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


LOCK = threading.Lock()


def serve_webhook() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    call("setWebhook", url=f"http://127.0.0.1:{server.server_address[1]}/hook")
    server.serve_forever()


def main() -> None:
    call("setMyCommands", commands=[{"command": c, "description": d} for c, d in COMMANDS])
    if os.environ.get("MODE") == "webhook":
        serve_webhook()
        return
    worker = threading.Thread(target=poll, daemon=True)
    worker.start()
    worker.join()
    threading.Event().wait()  # what is left of the bot after its loop ended


if __name__ == "__main__":
    main()
