"""Membership changes and what Telegram makes of them: ``my_chat_member``, ``chat_member`` and service messages.

Every change of who is in a chat goes through :func:`set_member`, whoever causes it (the sim's people, a bot's
banChatMember or promoteChatMember, a bot leaving), so the updates always match: the bot whose own membership
changed gets ``my_chat_member``; administrator bots get ``chat_member`` (only if they asked for it in
``allowed_updates``, as on Telegram); a join or a departure in a group posts ``new_chat_members`` or
``left_chat_member``, which every bot in the chat sees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.chats import Chat, StoredMessage
from tgfake.world import rooms
from tgfake.world.members import LEFT, Member
from tgfake.world.people import User

if TYPE_CHECKING:
    from tgfake.world.telegram import Telegram


def updated_json(
    chat: Chat, actor: User, old: Member, new: Member, date: int, viewer: int, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The Bot API ``ChatMemberUpdated``."""
    out: dict[str, Any] = {
        "chat": chat.json(),
        "from": actor.json(),
        "date": date,
        "old_chat_member": old.json(chat.type, viewer),
        "new_chat_member": new.json(chat.type, viewer),
    }
    if extra:
        out.update(extra)
    return out


def set_member(
    stand: Telegram,
    chat: Chat,
    new: Member,
    *,
    actor: User,
    service: bool = True,
    extra: dict[str, Any] | None = None,
) -> Member:
    """Make ``new`` the membership of its account in ``chat`` and tell everyone Telegram would tell.

    ``extra`` carries ``invite_link`` / ``via_join_request`` into the ``ChatMemberUpdated``. Returns the old
    membership (status ``left`` if there was none).
    """
    user = new.user
    old = chat.members.get(user.id) or Member(user=user, status=LEFT)
    chat.members[user.id] = new
    date = stand.unix_now()
    own = stand.bots.get(user.id) if user.is_bot else None
    if own is not None:
        own.push("my_chat_member", updated_json(chat, actor, old, new, date, own.id, extra))
    for member in list(chat.members.values()):
        bot = stand.bots.get(member.user.id) if member.user.is_bot else None
        if bot is None or bot is own or not member.is_admin or not member.present:
            continue
        bot.push("chat_member", updated_json(chat, actor, old, new, date, bot.id, extra))
    if service and chat.type != "channel":
        if new.present and not old.present:
            post_service(stand, chat, actor, {"new_chat_members": [user.json()]})
        elif old.present and not new.present:
            post_service(stand, chat, actor, {"left_chat_member": user.json()})
    return old


def post_service(
    stand: Telegram, chat: Chat, actor: User, service: dict[str, Any], thread_id: int = 0
) -> StoredMessage:
    """A service message in ``chat`` by ``actor``, delivered to every bot in it."""
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=stand.unix_now(),
            sender=actor,
            service=service,
            thread_id=thread_id,
        )
    )
    rooms.deliver(stand, chat, msg)
    return msg
