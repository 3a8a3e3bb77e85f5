"""Telegram's bounds on ids, names, titles, dates and colours: one place for the Bot API and the sim alike.

The ids are td's (``UserId``, ``ChatId``, ``ChannelId``, ``DialogId``): a chat id is a person's or bot's id
(positive), a basic group's negated id (``-1`` .. ``-999999999999``), or a supergroup's or channel's id subtracted
from ``-10^12``. A person's id is bounded by the Bot API's promise (at most 52 significant bits); td gives out
ids below 2^40 before it has met the account.
"""

from __future__ import annotations

import re

from tgfake.text.cleaning import clean_input_string, clean_name

MAX_USER_ID = (1 << 52) - 1
"""The largest user (or bot) id: the Bot API docs promise ids of at most 52 significant bits."""
UNKNOWN_USER_LIMIT = 1 << 40
"""td's ``UserId::is_valid`` bound: Client.cpp writes to an id below it before td has met the user."""
MAX_BASIC_GROUP_ID = 999_999_999_999
"""td's ``ChatId::MAX_CHAT_ID``: a basic group's chat id is ``-1`` .. ``-MAX_BASIC_GROUP_ID``."""
CHANNEL_ID_BASE = -1_000_000_000_000
"""A supergroup's or channel's chat id is this less its channel id (``-100…`` as written)."""
MAX_CHANNEL_ID = 1_000_000_000_000 - (1 << 31)
"""td's ``ChannelId::MAX_CHANNEL_ID`` (exclusive): the ids after it are left for secret chats."""
MIN_CHAT_ID = CHANNEL_ID_BASE - MAX_CHANNEL_ID + 1
"""The most negative chat id of a supergroup or channel."""
MAX_MESSAGE_ID = (1 << 31) - 1
"""Message ids are positive 32-bit integers in every chat."""
MAX_DATE = (1 << 31) - 1
"""Dates (``until_date``, ``expire_date``) are Unix times in a signed 32-bit integer, as td's ``int32``."""

MAX_TITLE = 128
"""Code points of a chat title or a topic name once td's ``clean_name`` has cleaned it (TDLib cuts there)."""
MAX_CUSTOM_TITLE = 16
"""Code points of an administrator's custom title once cleaned (``CUSTOM_TITLE_INVALID`` past them)."""
MAX_USERNAME = 32
USERNAME_PATTERN = r"[A-Za-z](?:_?[A-Za-z0-9])*"
"""td's ``is_valid_username``: a letter first, then letters, digits and single underscores, none last."""
_USERNAME = re.compile(USERNAME_PATTERN)

TOPIC_COLORS = (0x6FB9F0, 0xFFD67E, 0xCB86DB, 0x8EEE98, 0xFF93B2, 0xFB6F5F)
"""The colours a forum topic's icon may have (the Bot API's createForumTopic list), in Telegram's order."""


def chat_kind(chat_id: int) -> str:
    """What a chat id names by its range: ``private``, ``group``, ``supergroup`` (or a channel), or ``""`` for an id
    no Telegram chat can have (0, ``-10^12`` itself, past the ranges)."""
    if 0 < chat_id <= MAX_USER_ID:
        return "private"
    if -MAX_BASIC_GROUP_ID <= chat_id < 0:
        return "group"
    if MIN_CHAT_ID <= chat_id < CHANNEL_ID_BASE:
        return "supergroup"
    return ""


def is_valid_username(name: str) -> bool:
    """td's ``is_valid_username`` (1-32 characters; ``is_allowed_username`` adds a minimum of 5 for new ones)."""
    return len(name) <= MAX_USERNAME and _USERNAME.fullmatch(name) is not None


def title_length(text: str) -> int:
    """Code points of a title as Telegram counts them: after ``clean_input_string`` and ``clean_name`` (blanks
    collapsed, ends trimmed); text that is not UTF-8 never gets this far."""
    cleaned = clean_input_string(text)
    return len(clean_name(cleaned, len(cleaned))) if cleaned is not None else len(text)


def custom_title_length(text: str) -> int:
    """Code points of a custom title as setChatAdministratorCustomTitle counts them (after ``clean_input_string``)."""
    cleaned = clean_input_string(text)
    return len(cleaned if cleaned is not None else text)
