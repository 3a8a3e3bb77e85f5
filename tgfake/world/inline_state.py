"""Inline mode as state: the person's inline queries, the bots' answers, inline messages and prepared messages.

Plain objects, no transport (the rules that act on them are tgfake/world/inline.py). An inline query lives
:data:`QUERY_LIFETIME` seconds of the stand's clock and takes one answer (a second one, or one too late, is
Telegram's ``QUERY_ID_INVALID``). A result the person picks becomes a message of the chat they typed in,
``via_bot`` the bot; one with an inline keyboard is also an *inline message* the bot edits by its
``inline_message_id``. Web App queries (a Mini App's ``query_id``) take one answer too.
"""

from __future__ import annotations

import base64
import struct
from dataclasses import dataclass, field
from typing import Any

from tgfake.content import StoredFile
from tgfake.markup import Keyboard
from tgfake.world.people import User

QUERY_LIFETIME = 30.0
"""Seconds an inline query can be answered: telegram-bot-api drops an unanswered ``inline_query`` update after 30
seconds (``add_update(UpdateType::InlineQuery, ..., 30, ...)``); the stand refuses answers after that too."""
PREPARED_LIFETIME = 24 * 60 * 60
"""A prepared inline message expires a day after it was saved (the ``expiration_date`` the stand returns)."""
MAX_QUERY = 256
"""Code points of an inline query's text (the Bot API's ``InlineQuery.query``: up to 256 characters)."""


@dataclass(slots=True)
class InlineResult:
    """One answered result: what the person is shown (``shown``: the bot's object) and what sending it posts."""

    id: str
    type: str
    shown: dict[str, Any]
    text: str = ""  # the text message it sends (input_message_content), else the media's caption
    entities: list[dict[str, Any]] = field(default_factory=list)
    parse_mode: str = ""
    kind: str = "text"  # text, photo, video, location, venue, contact, invoice, game... (a Media kind)
    fields: dict[str, Any] = field(default_factory=dict)  # the kind's Bot API fields (location, venue...)
    file: StoredFile | None = None  # a file id the bot named (a stored file)
    url: str = ""  # a URL the bot named: the stand has no network, the file is a placeholder without bytes
    file_name: str = ""
    mime_type: str = ""
    keyboard: Keyboard | None = None

    def json(self) -> dict[str, Any]:
        """What the person's client shows for it: the bot's result object as sent."""
        return dict(self.shown)


@dataclass(slots=True)
class InlineAnswer:
    """answerInlineQuery's arguments, as stored."""

    results: list[InlineResult]
    next_offset: str = ""
    cache_time: int = 300
    is_personal: bool = False
    button: dict[str, Any] | None = None

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"results": [r.json() for r in self.results]}
        out["next_offset"] = self.next_offset
        out["cache_time"] = self.cache_time
        out["is_personal"] = self.is_personal
        if self.button is not None:
            out["button"] = self.button
        return out


@dataclass(slots=True)
class InlineQuery:
    """One query the person typed (``@bot query``) in a chat; ``answer`` is set once the bot answers."""

    id: str
    bot_id: int
    person: User
    query: str
    offset: str
    chat_id: int  # where a chosen result is posted (as the bot names it)
    chat_type: str
    at: float
    location: dict[str, Any] | None = None
    answer: InlineAnswer | None = None
    answered_at: float = 0.0
    cached: bool = False  # served from an earlier answer still in cache: the bot was not asked

    def same_request(self, other: InlineQuery) -> bool:
        """What Telegram's cache keys a query by: bot, text (trimmed), offset, chat type, location."""
        return (self.bot_id, self.query.strip(), self.offset, self.chat_type, self.location) == (
            other.bot_id,
            other.query.strip(),
            other.offset,
            other.chat_type,
            other.location,
        )

    def _sender(self) -> dict[str, Any]:
        out: dict[str, Any] = {"from": self.person.json()}
        if self.location is not None:
            out["location"] = self.location
        return out

    def update(self) -> dict[str, Any]:
        """The Bot API ``InlineQuery``, fields in telegram-bot-api's order."""
        out: dict[str, Any] = {"id": self.id, **self._sender()}
        if self.chat_type:
            out["chat_type"] = self.chat_type
        out["query"] = self.query
        out["offset"] = self.offset
        return out

    def chosen(self, result_id: str, inline_message_id: str) -> dict[str, Any]:
        """The Bot API ``ChosenInlineResult`` for a pick of one of this query's results, in Client.cpp's order."""
        out = self._sender()
        if inline_message_id:
            out["inline_message_id"] = inline_message_id
        out["query"] = self.query
        out["result_id"] = result_id
        return out

    def asked(self) -> dict[str, Any]:
        """What the sim answers when the person types (or scrolls): the query's id, the chat a pick goes to."""
        return {"inline_query_id": self.id, "chat_id": self.chat_id, "offset": self.offset}

    def json(self) -> dict[str, Any]:
        """The sim view: the query, and the answer once there is one."""
        out: dict[str, Any] = {
            "inline_query_id": self.id,
            "bot_id": self.bot_id,
            "user_id": self.person.id,
            "chat_id": self.chat_id,
            "query": self.query,
            "offset": self.offset,
            "answered": self.answer is not None,
        }
        if self.cached:
            out["cached"] = True
        if self.answer is not None:
            out.update(self.answer.json())
        return out


@dataclass(slots=True)
class InlineMessage:
    """A message sent through a bot that the bot edits by ``inline_message_id`` (it need not be in the chat)."""

    id: str
    bot_id: int
    chat_id: int  # the chat as ``stand.chat_of(bot of the chat, chat_id)`` names it
    chat_bot_id: int  # the bot whose private chat it is (private chats are per bot); 0 for groups
    message_id: int


@dataclass(slots=True)
class WebAppQuery:
    """A Mini App launch's ``query_id``: answerWebAppQuery posts into ``chat_id`` as the person, once."""

    id: str
    bot_id: int
    person_id: int
    chat_id: int
    answered: bool = False


@dataclass(slots=True)
class Prepared:
    """savePreparedInlineMessage's result, kept for the person's Mini App (``shareMessage``)."""

    id: str
    bot_id: int
    user_id: int
    result: InlineResult
    expiration_date: int
    chat_types: tuple[str, ...]


@dataclass(slots=True)
class Inline:
    """Every inline query, inline message, Web App query and prepared item of one world (reset forgets them)."""

    queries: dict[str, InlineQuery] = field(default_factory=dict)
    messages: dict[str, InlineMessage] = field(default_factory=dict)
    web_app_queries: dict[str, WebAppQuery] = field(default_factory=dict)
    prepared: dict[str, Prepared] = field(default_factory=dict)
    prepared_buttons: dict[str, dict[str, Any]] = field(default_factory=dict)
    next_query: int = 1
    next_message: int = 1
    next_prepared: int = 1
    chosen: int = 0  # results chosen so far: inline feedback below 100% reports a deterministic share of them

    def mint_query_id(self) -> str:
        """Telegram's inline query ids are decimal 64-bit numbers; ours count up from a fixed base."""
        qid = str(4_000_000_000_000_000 + self.next_query)
        self.next_query += 1
        return qid

    def mint_message_id(self, bot_id: int) -> str:
        """An ``inline_message_id`` as Telegram's: base64url of an ``inputBotInlineMessageID64`` (dc id, owner id,
        message id, access hash; 24 bytes little-endian), so td's own check accepts it."""
        raw = struct.pack("<iqiq", 2, bot_id, self.next_message, 0x7F6B_0000_0000_0000 + self.next_message)
        self.next_message += 1
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def mint_prepared_id(self) -> str:
        pid = f"prep{self.next_prepared}"
        self.next_prepared += 1
        return pid

    def cached_answer(self, query: InlineQuery, now: float) -> InlineAnswer | None:
        """An answer to the same request still within its ``cache_time`` (for this person, if it is personal)."""
        for earlier in reversed(self.queries.values()):
            answer = earlier.answer
            if earlier is query or answer is None or earlier.cached or not earlier.same_request(query):
                continue
            if now - earlier.answered_at < answer.cache_time and (
                not answer.is_personal or earlier.person.id == query.person.id
            ):
                return answer
        return None

    def latest(self, bot_id: int = 0, person_id: int = 0) -> InlineQuery | None:
        """The newest query (to that bot, by that person, when named)."""
        for query in reversed(self.queries.values()):
            if (not bot_id or query.bot_id == bot_id) and (not person_id or query.person.id == person_id):
                return query
        return None

    def feedback_due(self, percent: int) -> bool:
        """Whether this chosen result is reported: ``percent`` of them, spread evenly and reproducibly."""
        self.chosen += 1
        return self.chosen * percent // 100 > (self.chosen - 1) * percent // 100


def well_formed_inline_id(value: str) -> bool:
    """td's ``parse_input_bot_inline_message_id``: base64url of a 20-byte ``inputBotInlineMessageID`` or a 24-byte
    ``inputBotInlineMessageID64`` whose dc id (its first int32) is 1..1000; else "invalid ... identifier"."""
    if not value or len(value) % 4 == 1 or not value.isascii() or not all(c.isalnum() or c in "-_" for c in value):
        return False
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        return False
    return len(raw) in (20, 24) and 1 <= struct.unpack_from("<i", raw)[0] <= 1000


# --- the person's side ---------------------------------------------------------------------------------------------
