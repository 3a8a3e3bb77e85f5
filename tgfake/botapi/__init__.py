"""The fake Bot API: importing this package registers every method module in the one registry."""

from __future__ import annotations

from tgfake.botapi import bot, drafts, files, media, menu, messages, webhook
from tgfake.botapi.registry import bot_method, lookup, method_names

__all__ = ["bot", "bot_method", "drafts", "files", "lookup", "media", "menu", "messages", "method_names", "webhook"]
