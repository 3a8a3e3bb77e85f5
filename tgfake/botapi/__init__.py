"""The fake Bot API: importing this package registers every method module in the one registry."""

from __future__ import annotations

from tgfake.botapi import (
    boosts,
    bot,
    business,
    chats,
    drafts,
    files,
    gifts,
    invites,
    managed_bots,
    media,
    members,
    menu,
    messages,
    stories,
    suggested_posts,
    topics,
    verification,
    webhook,
)
from tgfake.botapi.registry import bot_method, lookup, method_names

__all__ = [
    "boosts",
    "bot",
    "bot_method",
    "business",
    "chats",
    "drafts",
    "files",
    "gifts",
    "invites",
    "lookup",
    "managed_bots",
    "media",
    "members",
    "menu",
    "messages",
    "method_names",
    "stories",
    "suggested_posts",
    "topics",
    "verification",
    "webhook",
]
