"""The fake Bot API: importing this package registers every method module in the one registry."""

from __future__ import annotations

from tgfake.botapi import bot, chats, drafts, files, invites, media, members, menu, messages, topics, webhook
from tgfake.botapi.registry import bot_method, lookup, method_names

__all__ = [
    "bot",
    "bot_method",
    "chats",
    "drafts",
    "files",
    "invites",
    "lookup",
    "media",
    "members",
    "menu",
    "messages",
    "method_names",
    "topics",
    "webhook",
]
