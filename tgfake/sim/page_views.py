"""Read-only views for the chat page (``/``): the chat list and a chat as Bot API ``Message`` objects.

The page renders what a Telegram client renders, so it reads each message as the Bot API JSON a bot would get
(``photo``, ``poll``, ``forward_origin``, ``via_bot``...: every kind shows up by its field), plus what a client
shows beside it (reactions, the reply keyboard the person sees, drafts, typing, the command menu).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tgfake.chats import Chat, StoredMessage, message_json, message_lines, type_for_id
from tgfake.extras import reaction_counts
from tgfake.sim import answers
from tgfake.sim.common import bot_of, query_int, stand_of
from tgfake.sim.inspect import _chat_id as chat_id_of
from tgfake.sim.openapi import BOT, CHAT_ID, documented, query
from tgfake.stand import Stand
from tgfake.wire import sim_json
from tgfake.world.bots import Bot

routes = web.RouteTableDef()

PREVIEW = 80  # code points of the last message the chat list shows


def page_message(chat: Chat, msg: StoredMessage) -> dict[str, Any]:
    """The Bot API Message, with the client-side extras a Telegram app draws under it."""
    out = message_json(chat, msg)
    if msg.reactions:
        out["reactions"] = reaction_counts(msg.reactions)
    if msg.reply_markup is not None:
        out["reply_keyboard"] = msg.reply_markup.json()
    return out


def topics_of(chat: Chat) -> list[dict[str, Any]]:
    """A forum's topics, General first; none outside forums."""
    if not chat.is_forum:
        return []
    return [chat.general.json(), *(t.json() for t in chat.topics.values() if not t.hidden)]


def preview(stand: Stand, msg: StoredMessage) -> str:
    """What the chat list shows of a message: its text or caption, else its transcript line's body (what a service
    message says, ``[poll 'Tea?'] …``, ``[location 1.5, 2.5]``), so every kind reads as the transcript reads it."""
    shown = msg.caption if msg.is_media else msg.text
    if not shown or msg.service:
        who = stand.sender_name(msg)
        shown = message_lines(msg, who)[0]
        for prefix in (f"[{msg.message_id}] {who}: ", f"[{msg.message_id}] * "):
            shown = shown.removeprefix(prefix)
    return shown if len(shown) <= PREVIEW else shown[:PREVIEW] + "…"


def chat_item(stand: Stand, chat: Chat) -> dict[str, Any]:
    item: dict[str, Any] = {"chat": chat.json(), "title": title_of(chat)}
    live = [m for m in chat.messages.values() if not m.deleted]
    item["messages"] = len(live)
    if live:
        item["last"] = {"message_id": live[-1].message_id, "date": live[-1].date, "text": preview(stand, live[-1])}
    topics = topics_of(chat)
    if topics:
        item["topics"] = topics
    return item


def title_of(chat: Chat) -> str:
    if chat.title:
        return chat.title
    if chat.user is not None:
        return chat.user.full_name or chat.user.handle
    return str(chat.id)


def last_date(chat: Chat) -> int:
    """When the chat last had a message: the list puts the most recent chat first, as Telegram's does."""
    return max((m.date for m in chat.messages.values() if not m.deleted), default=0)


def chat_list(stand: Stand, bot: Bot) -> dict[str, Any]:
    """Every chat ``bot`` is in: its private chats and the groups and channels that have it as a member."""
    private = [c for (b, _), c in stand.world.private.items() if b == bot.id]
    groups = [c for c in stand.world.chats.values() if bot.id in c.members and not c.migrated_to]
    chats = sorted(private + groups, key=last_date, reverse=True)
    people = [u.json() for u in stand.world.users.values() if not u.is_bot]
    return {
        "bot": bot.get_me(),
        "bots": [b.get_me() for b in stand.bots.values()],
        "people": people,
        "chats": [chat_item(stand, c) for c in chats],
    }


def page_chat(stand: Stand, bot: Bot, chat_id: int, person: int) -> dict[str, Any]:
    """The sim chat view with ``messages`` as Bot API objects (live ones) and ``keyboard``: the reply keyboard
    ``person`` sees (their personal one in a group, else everyone's)."""
    chat = stand.chat_of(bot, chat_id) or Chat(id=chat_id, type=type_for_id(chat_id))
    out = stand.chat_view(chat_id, bot)
    out["chat"] = chat.json()
    out["title"] = title_of(chat)
    out["messages"] = [page_message(chat, m) for m in chat.messages.values() if not m.deleted]
    out["ephemeral_messages"] = [  # what only this person sees: the bots' to them, and their own ephemeral commands
        page_message(chat, e.message)
        for e in stand.world.channels.ephemeral_in(chat.id)
        if person in (e.receiver_id, e.message.sender.id if e.message.sender is not None else 0)
    ]
    personal = out.get("personal_keyboards", {})
    out["keyboard"] = personal[str(person)] if str(person) in personal else out.get("reply_keyboard")
    out["topics"] = topics_of(chat)
    return out


@routes.get("/sim/page/chats")
@documented(answers.Answer, params=(BOT,))
async def page_chats(request: web.Request) -> web.Response:
    return sim_json(chat_list(stand_of(request), bot_of(request)))


@routes.get("/sim/page/chat/{id}")
@documented(answers.Answer, params=(BOT, CHAT_ID, query("user", "The person whose view this is", "integer")))
async def page_chat_view(request: web.Request) -> web.Response:
    stand = stand_of(request)
    cid = chat_id_of(request)
    return sim_json(page_chat(stand, bot_of(request), cid, query_int(request, "user", cid if cid > 0 else 0)))
