"""Inline mode as state: the person's inline queries, the bots' answers, inline messages and prepared messages.

Plain objects, no transport. An inline query lives :data:`QUERY_LIFETIME` seconds of the stand's clock and takes
one answer (a second one, or one too late, is Telegram's ``QUERY_ID_INVALID``). A result the person picks becomes
a message of the chat they typed in, ``via_bot`` the bot; one with an inline keyboard is also an *inline message*
the bot edits by its ``inline_message_id``. Web App queries (a Mini App's ``query_id``) take one answer too.
"""

from __future__ import annotations

import base64
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tgfake.chats import Chat, StoredMessage
from tgfake.content import Media, StoredFile
from tgfake.errors import SimError
from tgfake.markup import Button, Keyboard
from tgfake.world.games import GameMessage
from tgfake.world.people import User

if TYPE_CHECKING:
    from tgfake.models import InlineIn, InlinePickIn
    from tgfake.stand import Stand
    from tgfake.world.bots import Bot

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
def ask(stand: Stand, body: InlineIn) -> InlineQuery:
    """The person types ``@bot query``: an ``inline_query`` update to a bot with inline mode on."""
    bot = stand.find_bot(body.bot)
    if not bot.supports_inline_queries:
        raise SimError(
            400, f"@{bot.username} has inline mode off: turn it on with POST /sim/bots/{bot.id}/inline (BotFather)"
        )
    if len(body.query) > MAX_QUERY:
        raise SimError(400, f"query is longer than {MAX_QUERY} characters")
    if (body.latitude is None) != (body.longitude is None):
        raise SimError(400, "give both latitude and longitude, or neither")
    location = None
    if body.latitude is not None and body.longitude is not None:
        if not (-90 <= body.latitude <= 90 and -180 <= body.longitude <= 180):
            raise SimError(400, "latitude is -90..90 and longitude -180..180")
        location = {"latitude": body.latitude, "longitude": body.longitude}
    person = stand.person(body.user_id, body.username, body.first_name, name_from_username=True)
    chat = stand.person_chat(body, person, bot)
    return _issue(stand, bot, person, body.query, body.offset, (chat.id, chat.type), location)


def _issue(
    stand: Stand,
    bot: Bot,
    person: User,
    text: str,
    offset: str,
    chat: tuple[int, str],
    location: dict[str, Any] | None,
) -> InlineQuery:
    """A new query (a new id, as Telegram gives each page) pushed to the bot as ``inline_query``."""
    inline = stand.world.inline
    query = InlineQuery(
        id=inline.mint_query_id(),
        bot_id=bot.id,
        person=person,
        query=text,
        offset=offset,
        chat_id=chat[0],
        chat_type=chat[1],
        at=stand.now(),
        location=location,
    )
    inline.queries[query.id] = query
    earlier = inline.cached_answer(query, stand.now())
    if earlier is not None:
        query.answer, query.answered_at, query.cached = earlier, stand.now(), True
    else:
        bot.push("inline_query", query.update())
    return query


def picked(stand: Stand, body: InlinePickIn) -> InlineQuery:
    """The query a pick names (or the person's newest one to that bot), answered."""
    inline = stand.world.inline
    if body.inline_query_id:
        query = inline.queries.get(body.inline_query_id)
        if query is None:
            raise SimError(404, f"inline query {body.inline_query_id} not found")
    else:
        bot_id = stand.find_bot(body.bot).id if body.bot else 0
        found = inline.latest(bot_id, body.user_id)
        if found is None:
            raise SimError(404, "no inline query yet: POST /sim/inline first")
        query = found
    if query.answer is None:
        raise SimError(409, f"inline query {query.id} is not answered yet (answerInlineQuery)")
    return query


def more(stand: Stand, body: InlinePickIn) -> InlineQuery:
    """The person scrolls to the end of the results: the same query again at the answer's ``next_offset``."""
    query = picked(stand, body)
    assert query.answer is not None
    if not query.answer.next_offset:
        raise SimError(409, f"inline query {query.id} has no next page (its answer has no next_offset)")
    bot = stand.bots[query.bot_id]
    chat = (query.chat_id, query.chat_type)
    return _issue(stand, bot, query.person, query.query, query.answer.next_offset, chat, query.location)


def choose(stand: Stand, body: InlinePickIn) -> dict[str, Any]:
    """The person picks a result: it is sent in the chat ``via_bot``; ``chosen_inline_result`` if feedback is on."""
    query = picked(stand, body)
    assert query.answer is not None
    result = next((r for r in query.answer.results if r.id == body.result_id), None)
    if result is None:
        ids = ", ".join(r.id for r in query.answer.results) or "none"
        raise SimError(404, f"inline query {query.id} has no result {body.result_id!r} (results: {ids})")
    bot = stand.bots[query.bot_id]
    chat = stand.chat_of(bot, query.chat_id)
    if chat is None:
        raise SimError(404, f"chat {query.chat_id} is gone (the stand was reset)")
    msg = post_result(stand, chat, query.person, bot.user, result)
    out: dict[str, Any] = {"chat_id": chat.id, "message_id": msg.message_id}
    if msg.inline_message_id:
        out["inline_message_id"] = msg.inline_message_id
    if bot.inline_feedback and stand.world.inline.feedback_due(bot.inline_feedback):
        out["update_id"] = bot.push("chosen_inline_result", query.chosen(result.id, msg.inline_message_id))
    return out


def result_media(stand: Stand, result: InlineResult) -> Media | None:
    """The content a chosen result sends: its file (a placeholder without bytes for a URL) or its fields."""
    from tgfake.filestore import mint

    if result.kind == "text":
        return None
    if result.file is not None:
        return Media(result.kind, result.file)
    if result.url:
        width, height = int(result.fields.get("width", 0)), int(result.fields.get("height", 0))
        meta = {k: v for k, v in result.fields.items() if k not in ("width", "height")}
        meta["url"] = result.url
        stored = mint(stand, result.kind, result.file_name, b"", width, height, meta)
        if result.mime_type:
            stored.mime_type = result.mime_type
        return Media(result.kind, stored)
    return Media(result.kind, None, dict(result.fields))


def post_result(stand: Stand, chat: Chat, person: User, bot_user: User, result: InlineResult) -> StoredMessage:
    """The person's message ``via_bot`` with the result's content; delivered to the bots that see it."""
    media = result_media(stand, result)
    keyboard = result.keyboard
    if result.kind == "game" and keyboard is None:  # as sendGame's: Telegram adds the one "Play <title>" button
        keyboard = [[Button(text=f"Play {result.fields['title']}", callback_game=True)]]
    inline_id = stand.world.inline.mint_message_id(bot_user.id) if keyboard else ""
    captioned = media is None or media.captioned
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=stand.unix_now(),
            sender=person,
            text=result.text if media is None else "",
            caption=result.text if media is not None and media.captioned else "",
            entities=list(result.entities) if captioned else [],
            parse_mode=result.parse_mode,
            media=media,
            keyboard=keyboard,
            via_bot=bot_user,
            inline_message_id=inline_id,
        )
    )
    if inline_id:
        chat_bot = chat.bot_id if chat.type == "private" else 0
        stand.world.inline.messages[inline_id] = InlineMessage(
            inline_id, bot_user.id, chat.id, chat_bot, msg.message_id
        )
    if result.kind == "game":  # its score is set and read by inline_message_id, its button taps name the game
        stand.world.games.messages[(chat.id, msg.message_id)] = GameMessage(short_name=result.fields["title"])
    stand.deliver(chat, msg)
    return msg
