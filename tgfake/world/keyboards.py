"""Who sees which reply keyboard: the person's current keyboard, kept per chat and per person (:class:`Shown`).

A keyboard replaces the one before it, ``remove_keyboard`` takes it away, ``one_time_keyboard`` hides it after a
press, ``selective`` limits a group's markup to the people the message mentions and the author of the message it
replies to. The markup itself is parsed by tgfake/botapi/keyboards.py into the objects of tgfake/markup.py.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tgfake.markup import ReplyMarkup, Shown

if TYPE_CHECKING:
    from tgfake.chats import Chat, StoredMessage

EVERYONE = 0  # the key of a group's markup that is not selective


def _targets(chat: Chat, msg: StoredMessage) -> list[int]:
    """The people a selective markup is for: those the message mentions by username, and the replied-to author."""
    names = {m.lower() for m in re.findall(r"(?<![A-Za-z0-9_])@([A-Za-z0-9_]{3,32})", msg.text or msg.caption)}
    out = [m.user.id for m in chat.members.values() if m.user.username and m.user.username.lower() in names]
    if msg.reply_to is not None:
        target = chat.messages.get(msg.reply_to)
        if target is not None and target.sender is not None and not target.sender.is_bot:
            out.append(target.sender.id)
    return out


def apply(chat: Chat, msg: StoredMessage, markup: ReplyMarkup) -> None:
    """The bot's message with ``markup`` arrived: update the keyboards of the people it is for.

    A private chat has one person (key :data:`EVERYONE`); a group's markup that is not selective is for everyone
    (and clears the personal ones), a selective one only for its targets. ForceReply leaves the keyboard as it is.
    """
    if markup.kind == "force_reply":
        return
    shown = Shown(markup, msg.message_id) if markup.kind == "keyboard" else None
    if not markup.selective:
        chat.reply_keyboards.clear()
        if shown is not None:
            chat.reply_keyboards[EVERYONE] = shown
        return
    for uid in _targets(chat, msg):
        chat.reply_keyboards[uid] = shown


def current(chat: Chat, user_id: int) -> Shown | None:
    """The keyboard this person sees in the chat (a personal one first), None when they have none."""
    if chat.type != "private" and user_id in chat.reply_keyboards:
        return chat.reply_keyboards[user_id]
    return chat.reply_keyboards.get(EVERYONE)


def pressed(chat: Chat, user_id: int, shown: Shown) -> None:
    """After a press a one-time keyboard hides (for that person only, in a group)."""
    if not shown.markup.one_time_keyboard:
        return
    hidden = Shown(shown.markup, shown.message_id, hidden=True)
    chat.reply_keyboards[EVERYONE if chat.type == "private" else user_id] = hidden


def view(chat: Chat) -> dict[str, Any]:
    """The chat view's keyboard fields: ``reply_keyboard`` (the private chat's, or everyone's in a group) and, in
    groups, ``personal_keyboards`` by person id (null: a selective remove took theirs away)."""
    out: dict[str, Any] = {}
    everyone = chat.reply_keyboards.get(EVERYONE)
    if everyone is not None:
        out["reply_keyboard"] = everyone.json()
    personal = {str(uid): (s.json() if s is not None else None) for uid, s in chat.reply_keyboards.items() if uid}
    if personal:
        out["personal_keyboards"] = personal
    return out
