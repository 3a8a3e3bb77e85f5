"""A bot for the readiness tests, on urllib: in a group it answers each message it gets with ``<username> heard:
<text>``, and leaves alone commands addressed to another bot. ``IMPORT`` names a module it imports first (a slow
start, as aiogram's import on a busy machine)."""

from __future__ import annotations

import importlib
import json
import os
import urllib.parse
import urllib.request
from typing import Any

if os.environ.get("IMPORT"):
    importlib.import_module(os.environ["IMPORT"])

API = f"{os.environ['TELEGRAM_API']}/bot{os.environ['BOT_TOKEN']}/"


def call(method: str, **params: Any) -> Any:
    data = urllib.parse.urlencode({k: str(v) for k, v in params.items()}).encode()
    with urllib.request.urlopen(API + method, data=data, timeout=30) as f:
        return json.loads(f.read())["result"]


def for_me(text: str, me: str) -> bool:
    command = text.split()[0] if text.split() else ""
    return not (command.startswith("/") and "@" in command and command.split("@", 1)[1].lower() != me.lower())


def main() -> None:
    me = call("getMe")["username"]
    offset = 0
    while True:
        for update in call("getUpdates", offset=offset, timeout=10):
            offset = update["update_id"] + 1
            message = update.get("message") or {}
            text = message.get("text") or ""
            if text and for_me(text, me):
                call("sendMessage", chat_id=message["chat"]["id"], text=f"{me} heard: {text}")


if __name__ == "__main__":
    main()
