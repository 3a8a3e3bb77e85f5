"""One Bot API call's view of the world (:class:`BotCall`, the ``ctx`` of every method), and a described result.

The methods of tgfake/botapi/ read and change the world through this context: the world's root
(:class:`~tgfake.world.telegram.Telegram`) and the bot making the call. Nothing here imports the stand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tgfake.chats import Chat, StoredMessage, message_json, type_for_id
from tgfake.world import rooms
from tgfake.world.bots import Bot
from tgfake.world.state import World
from tgfake.world.telegram import Telegram


@dataclass(frozen=True, slots=True)
class BotCall:
    """One Bot API call's view of the world: the world's root and the bot making the call (``ctx`` in method code).

    Chat ids are read as this bot reads them: a positive id is the bot's own private chat with that person.
    """

    telegram: Telegram
    bot: Bot

    @property
    def world(self) -> World:
        return self.telegram.world

    def now(self) -> float:
        return self.telegram.now()

    def unix_now(self) -> int:
        return self.telegram.unix_now()

    def chat(self, chat_id: int) -> Chat | None:
        return self.telegram.chat_of(self.bot, chat_id)

    def chat_type(self, chat_id: int) -> str:
        chat = self.chat(chat_id)
        return chat.type if chat is not None else type_for_id(chat_id)

    def chat_for_send(self, chat_id: int) -> Chat:
        """The chat this bot writes to; refused as Telegram refuses it (blocked, not a member), else created."""
        return rooms.chat_for_send(self.telegram, self.bot, chat_id)

    def message_json(self, chat: Chat, msg: StoredMessage) -> dict[str, Any]:
        return message_json(chat, msg)

    def push(self, kind: str, payload: dict[str, Any]) -> int:
        return self.bot.push(kind, payload)


@dataclass(frozen=True, slots=True)
class Described:
    """A method result Telegram answers with a ``description`` beside it (setWebhook's "Webhook was set")."""

    result: Any
    description: str
