"""What people let bots do to their profile, and what bots set there: emoji statuses and passport data errors.

A person allows a bot to manage their emoji status from its Mini App (``requestEmojiStatusAccess``); the sim plays
that with ``POST /sim/emoji-status-access``. Plain objects on the World (a reset forgets them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Grants:
    emoji_status_access: set[tuple[int, int]] = field(default_factory=set)  # (bot id, person id)
    emoji_statuses: dict[int, dict[str, Any]] = field(default_factory=dict)  # person id -> custom emoji, expiry
    passport_errors: dict[tuple[int, int], list[dict[str, Any]]] = field(default_factory=dict)  # (bot, person)
