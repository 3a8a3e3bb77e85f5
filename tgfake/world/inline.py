"""Inline mode's rules: the person asks (``POST /sim/inline``), picks a result, asks for more; the chosen result
becomes the person's message ``via_bot``. The state they act on is tgfake/world/inline_state.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.chats import Chat, StoredMessage
from tgfake.content import Media
from tgfake.errors import SimError
from tgfake.filestore import mint
from tgfake.markup import Button
from tgfake.world import rooms
from tgfake.world.games import GameMessage
from tgfake.world.inline_state import MAX_QUERY, InlineMessage, InlineQuery, InlineResult
from tgfake.world.people import User
from tgfake.world.person import person_chat

if TYPE_CHECKING:
    from tgfake.models import InlineIn, InlinePickIn
    from tgfake.world.bots import Bot
    from tgfake.world.telegram import Telegram


def ask(stand: Telegram, body: InlineIn) -> InlineQuery:
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
    chat = person_chat(stand, body, person, bot)
    return _issue(stand, bot, person, body.query, body.offset, (chat.id, chat.type), location)


def _issue(
    stand: Telegram,
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


def picked(stand: Telegram, body: InlinePickIn) -> InlineQuery:
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


def more(stand: Telegram, body: InlinePickIn) -> InlineQuery:
    """The person scrolls to the end of the results: the same query again at the answer's ``next_offset``."""
    query = picked(stand, body)
    assert query.answer is not None
    if not query.answer.next_offset:
        raise SimError(409, f"inline query {query.id} has no next page (its answer has no next_offset)")
    bot = stand.bots[query.bot_id]
    chat = (query.chat_id, query.chat_type)
    return _issue(stand, bot, query.person, query.query, query.answer.next_offset, chat, query.location)


def choose(stand: Telegram, body: InlinePickIn) -> dict[str, Any]:
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


def result_media(stand: Telegram, result: InlineResult) -> Media | None:
    """The content a chosen result sends: its file (a placeholder without bytes for a URL) or its fields."""
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


def post_result(stand: Telegram, chat: Chat, person: User, bot_user: User, result: InlineResult) -> StoredMessage:
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
    rooms.deliver(stand, chat, msg)
    return msg
