"""The views: a chat as tests and the sim read it (``GET /sim/chat/{id}``: JSON, or the text transcript), the list
of chats, and the stand's state (``GET /sim/state``).

Read-only functions of the world (:class:`~tgfake.world.telegram.Telegram`); a timed poll whose time has come
closes before a view is drawn, as Telegram would have closed it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from tgfake.chats import Chat, StoredMessage, message_view, transcript_lines, type_for_id
from tgfake.world import keyboards
from tgfake.world.bots import Bot
from tgfake.world.members import ADMINISTRATOR
from tgfake.world.people import DEFAULT_FIRST_NAME, DEFAULT_USER_ID, User
from tgfake.world.polls import close_due
from tgfake.world.telegram import Telegram


def view(t: Telegram, chat_id: int, bot: Bot | None = None) -> ChatView:
    """A chat as tests read it: ``.json()`` (the sim view), ``.text()`` (the transcript), ``.find_button()``."""
    return ChatView(t, chat_id, bot or t.default_bot)


def sender_name(t: Telegram, msg: StoredMessage) -> str:
    """Who a transcript line names: ``bot`` for the pinned bot, else the first bot to call since the last reset
    (a name that stays put while several bots poll in turn), another bot's username, the person's."""
    sender = msg.sender
    if sender is None:
        return "user"
    if msg.sender_chat is not None:  # on behalf of a chat: the chat signs it
        return msg.sender_chat.username or msg.sender_chat.title
    if sender.is_bot:
        named = t.pinned_bot or t.named_bot or t.first_bot
        return "bot" if sender.id == named.id else sender.username
    return sender.username or "user"


def chat_view(t: Telegram, chat_id: int, bot: Bot | None = None) -> dict[str, Any]:
    """A chat as ``GET /sim/chat/{id}`` shows it; an unknown chat is an empty view typed by its id's sign."""
    close_due(t)
    bot = bot or t.default_bot
    chat = t.chat_of(bot, chat_id) or Chat(id=chat_id, type=type_for_id(chat_id))
    out: dict[str, Any] = {"chat_id": chat.id, "type": chat.type}
    if chat.title:
        out["title"] = chat.title
    out["typing"] = chat.typing(t.now())
    out["messages"] = [message_view(m) for m in chat.messages.values()]
    hidden = [e for e in t.world.channels.ephemeral_in(chat.id) if chat.type != "private" or e.bot_id == bot.id]
    if hidden:  # ephemeral messages: each only its receiver sees, so they are apart from the chat's messages
        out["ephemeral"] = [
            {"receiver_user_id": e.receiver_id, "ephemeral_message_id": e.ephemeral_id, **message_view(e.message)}
            for e in hidden
        ]
    out["drafts"] = [d.json() for d in chat.drafts.current(t.now())]
    out["callbacks"] = [a.json() for a in chat.callbacks]
    out["menu_button"] = bot.menus.shown(chat.id, chat.type)
    out.update(keyboards.view(chat))
    out.update(settings_view(t, bot, chat))
    if chat.type == "private":
        out["bot"] = bot.username
        if chat.blocked:
            out["blocked"] = True
    else:
        out["members"] = chat.members_view()
    return out


def settings_view(t: Telegram, bot: Bot, chat: Chat) -> dict[str, Any]:
    """What the person sees of the bot's settings: its command menu here, its description on an empty chat."""
    person = chat.id if chat.type == "private" else DEFAULT_USER_ID  # a group is seen as the default person
    viewer = chat.user or t.world.users.get(person) or User(id=person, first_name=DEFAULT_FIRST_NAME)
    member = chat.members.get(viewer.id)
    is_admin = member is not None and member.status in ("creator", ADMINISTRATOR)
    settings = bot.settings
    out: dict[str, Any] = {}
    commands = settings.commands_seen(chat.type, chat.id, viewer.id, is_admin=is_admin, language=viewer.language_code)
    if commands:
        out["commands"] = commands
    description = settings.localized(settings.descriptions, viewer.language_code)
    if chat.type == "private" and description and not chat.messages:
        out["description"] = description
    notices = t.world.payments.notices.get(chat.id)
    if notices:
        out["payment_notices"] = list(notices)
    return out


def chat_text(t: Telegram, chat_id: int, bot: Bot | None = None) -> str:
    """The transcript: one line per live message, keyboards under it, ``typing…`` last while typing."""
    close_due(t)
    chat = t.chat_of(bot or t.default_bot, chat_id)
    if chat is None:
        return ""
    lines = transcript_lines(chat, functools.partial(sender_name, t))
    for draft in chat.drafts.current(t.now()):
        lines.extend(draft.lines())
    if chat.typing(t.now()):
        lines.append("typing…")
    return "".join(line + "\n" for line in lines)


def chat_summaries(t: Telegram, bot: Bot | None = None) -> list[dict[str, Any]]:
    """Every group and channel, and ``bot``'s private chats (the default bot's unless named)."""
    bot = bot or t.default_bot
    chats = [c for (b, _), c in t.world.private.items() if b == bot.id] + list(t.world.chats.values())
    out = []
    for chat in sorted(chats, key=lambda c: c.id):
        item: dict[str, Any] = {"chat_id": chat.id, "type": chat.type}
        if chat.type == "private" and chat.user is not None:
            item["title"] = "@" + chat.user.username
        elif chat.title:
            item["title"] = chat.title
        item["messages"] = len(chat.messages)
        out.append(item)
    return out


def state(t: Telegram) -> dict[str, Any]:
    bot = t.default_bot
    return {
        "allowed_updates": bot.allowed_json(),
        "bot": bot.get_me(),
        "bots": [b.get_me() for b in t.bots.values()],
        "calls": len(t.world.calls),
        "commands": bot.commands,
        "faults": t.world.faults.list(),
        "held_polls": bot.held_polls,
        "menu_button": bot.menus.bot_button(),
        "next_update_id": bot.next_update_id,
        "pending_updates": len(bot.pending),
    }


@dataclass(frozen=True, slots=True)
class ChatView:
    """A read-only window on one chat (the in-process twin of ``GET /sim/chat/{id}``)."""

    telegram: Telegram
    chat_id: int
    bot: Bot

    def json(self) -> dict[str, Any]:
        return chat_view(self.telegram, self.chat_id, self.bot)

    def text(self) -> str:
        return chat_text(self.telegram, self.chat_id, self.bot)

    def find_button(self, label: str) -> tuple[StoredMessage, Any] | None:
        chat = self.telegram.chat_of(self.bot, self.chat_id)
        return chat.find_button(label) if chat is not None else None
