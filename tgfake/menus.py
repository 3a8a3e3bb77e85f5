"""Menu buttons: the bot's own and per-chat ones, and what a given chat shows.

Telegram's rules: groups always show ``commands``; a private chat shows its own button, else the
bot's, else ``commands``. ``default`` on a chat removes its own button (it follows the bot's again, and
getChatMenuButton answers ``default`` for it: the server's ``botMenuButtonDefault``, which Client.cpp writes as
``default``); ``default`` on the bot resets it to ``commands``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tgfake.errors import bad_request
from tgfake.webapp import url_problem

COMMANDS: dict[str, Any] = {"type": "commands"}
DEFAULT: dict[str, Any] = {"type": "default"}

MENU_BUTTON_BAD = "Bad Request: can't parse menu button JSON object"
MENU_BUTTON_TYPE = "Bad Request: unsupported menu button type"
MENU_BUTTON_TEXT_EMPTY = "Bad Request: menu button text is empty"
MENU_BUTTON_URL = "Bad Request: menu button {problem}"
INVALID_CHAT_ID = "Bad Request: Invalid chat_id specified"


def parse_menu_button(raw: str | None) -> dict[str, Any] | None:
    """The button ``menu_button`` asks for, None for ``default`` (also when absent); TelegramError refuses.

    ``commands`` and ``default`` keep only their type; ``web_app`` needs a non-blank text and an address
    Telegram would open.
    """
    if raw is None or raw == "":
        return None
    try:
        obj = json.loads(raw)
    except ValueError:
        raise bad_request(MENU_BUTTON_BAD) from None
    if obj is None:
        obj = {}
    if not isinstance(obj, dict):
        raise bad_request(MENU_BUTTON_BAD)
    kind, text, web_app = obj.get("type"), obj.get("text"), obj.get("web_app")
    if (
        not isinstance(kind, str | None)
        or not isinstance(text, str | None)
        or not isinstance(web_app, dict | None)
        or (isinstance(web_app, dict) and not isinstance(web_app.get("url"), str | None))
    ):
        raise bad_request(MENU_BUTTON_BAD)
    if kind == "default":
        return None
    if kind == "commands":
        return dict(COMMANDS)
    if kind != "web_app":
        raise bad_request(MENU_BUTTON_TYPE)
    if not (text or "").strip():
        raise bad_request(MENU_BUTTON_TEXT_EMPTY)
    url = (web_app or {}).get("url") or ""
    problem = url_problem(url)
    if problem is not None:
        raise bad_request(MENU_BUTTON_URL.format(problem=problem))
    return {"type": "web_app", "text": text, "web_app": {"url": url}}


def menu_chat_id(raw: str | None) -> int:
    """``chat_id`` of the menu methods: absent or empty is 0 (the bot's own); otherwise a positive integer."""
    if raw is None or raw.strip() == "":
        return 0
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or int(text) <= 0 or int(text) >= 2**63:
        raise bad_request(INVALID_CHAT_ID)
    return int(text)


@dataclass(slots=True)
class MenuButtons:
    """The bot's button (None shows ``commands``) and the per-chat ones."""

    bot: dict[str, Any] | None = None
    chats: dict[int, dict[str, Any]] = field(default_factory=dict)

    def set(self, chat_id: int, button: dict[str, Any] | None) -> None:
        """Store ``button`` for the chat (0 = the bot's own); None is ``default``."""
        if chat_id == 0:
            self.bot = button
        else:
            self.chats[chat_id] = button if button is not None else dict(DEFAULT)

    def bot_button(self) -> dict[str, Any]:
        return dict(self.bot) if self.bot is not None else dict(COMMANDS)

    def shown(self, chat_id: int, chat_type: str = "private") -> dict[str, Any]:
        """What the chat shows (chat 0 = the bot's own button)."""
        if chat_id == 0:
            return self.bot_button()
        if chat_type != "private":
            return dict(COMMANDS)
        own = self.chats.get(chat_id)
        return dict(own) if own is not None and own != DEFAULT else self.bot_button()

    def answered(self, chat_id: int, chat_type: str = "private") -> dict[str, Any]:
        """What getChatMenuButton answers: what the chat shows, but ``default`` for a chat reset to it."""
        if chat_id and chat_type == "private" and self.chats.get(chat_id) == DEFAULT:
            return dict(DEFAULT)
        return self.shown(chat_id, chat_type)
