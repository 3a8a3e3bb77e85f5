"""Accounts: the people the sim plays and the user side of every bot."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

DEFAULT_USER_ID = 4242
DEFAULT_USERNAME = "alice"
DEFAULT_FIRST_NAME = "Alice"


@dataclass(slots=True)
class User:
    """A Telegram account as the Bot API's ``User`` shows it; a bot's account has ``is_bot``."""

    id: int
    first_name: str
    username: str = ""
    last_name: str = ""
    language_code: str = ""
    is_bot: bool = False
    is_premium: bool = False
    hides_forwards: bool = False  # forward privacy: forwards of their messages name them only (hidden_user)

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        if self.is_premium:
            out["is_premium"] = True
        return out

    @property
    def full_name(self) -> str:
        """First and last name, as Telegram shows the account (a hidden forward's name, a private chat's title)."""
        return " ".join(n for n in (self.first_name, self.last_name) if n)

    @property
    def handle(self) -> str:
        """How transcripts name the account: its username, else its first name."""
        return self.username or self.first_name


SERVICE_NOTIFICATIONS_ID = 777000
"""Telegram's own account: the sender of a channel post's automatic forward into its discussion group."""
GROUP_ANONYMOUS_BOT_ID = 1087968824
"""The sender td shows for a message an anonymous administrator writes as the group itself."""
CHANNEL_BOT_ID = 136817688
"""The sender td shows for a message a person writes on behalf of a channel, outside that channel."""


def stand_in_sender(sender_chat_id: int, chat_id: int, *, automatic_forward: bool) -> User:
    """The ``from`` of a message sent on behalf of a chat (Client.cpp's ``create_message``): the anonymous group
    bot for the chat itself, Telegram for an automatic forward, else the channel bot. Telegram's own accounts."""
    if sender_chat_id == chat_id:
        return User(id=GROUP_ANONYMOUS_BOT_ID, first_name="Group", username="GroupAnonymousBot", is_bot=True)
    if automatic_forward:
        return User(id=SERVICE_NOTIFICATIONS_ID, first_name="Telegram")
    return User(id=CHANNEL_BOT_ID, first_name="Channel", username="Channel_Bot", is_bot=True)


def capitalized(name: str) -> str:
    """The first character upper-cased (Unicode-aware: ``ёжик`` → ``Ёжик``)."""
    return name[:1].upper() + name[1:]


KNOWN_PEOPLE = {"alice": 4242, "bob": 4343, "carol": 4444, "dave": 4545, "eve": 4646, "mallory": 5151}


def user_id_for(name: str) -> int:
    """A stable id for a person named in a test (alice is 4242), so feature files stay deterministic."""
    key = name.strip().lstrip("@").lower()
    return KNOWN_PEOPLE.get(key, 10_000 + zlib.crc32(key.encode()) % 90_000)
