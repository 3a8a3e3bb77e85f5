"""The fake Bot API: importing this package registers every method module in the one registry."""

from __future__ import annotations

from tgfake.botapi import (
    boosts,
    bot,
    business,
    drafts,
    files,
    games,
    gifts,
    managed_bots,
    media,
    menu,
    messages,
    payments,
    settings,
    stickers,
    stories,
    suggested_posts,
    verification,
    webhook,
)
from tgfake.botapi.registry import bot_method, lookup, method_names

__all__ = [
    "boosts",
    "bot",
    "bot_method",
    "business",
    "drafts",
    "files",
    "games",
    "gifts",
    "lookup",
    "managed_bots",
    "media",
    "menu",
    "messages",
    "method_names",
    "payments",
    "settings",
    "stickers",
    "stories",
    "suggested_posts",
    "verification",
    "webhook",
]
