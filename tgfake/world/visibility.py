"""Who sees what: the one place for Telegram's delivery rules.

- A private chat's messages go to its bot only.
- In groups and supergroups only bots that are in the chat get anything, and never another bot's messages. A bot
  that is an administrator, or has privacy mode off (``can_read_all_group_messages``), gets every message; one in
  privacy mode gets commands (``/cmd`` or ``/cmd@it``), messages that mention it, replies to its own messages, and
  service messages (members joining and leaving, title changes, pins, topics).
- In a channel, administrator bots get every post as ``channel_post``.

Telegram also gives a privacy-mode bot a general ``/cmd`` only if it was the last bot to write in the group; the
stand gives every privacy-mode bot general commands (documented in docs/world.md).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tgfake import errors
from tgfake.chats import Chat, StoredMessage
from tgfake.errors import TelegramError
from tgfake.world.members import KICKED

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.telegram import Telegram

_LEADING_COMMAND = re.compile(r"/[A-Za-z0-9_]{1,64}(?:@([A-Za-z0-9_]{1,64}))?(?![A-Za-z0-9_@])")


def recipients(stand: Telegram, chat: Chat, msg: StoredMessage) -> list[tuple[Bot, str]]:
    """Each bot that gets this message, with the update kind it gets it as (``message`` or ``channel_post``)."""
    if chat.type == "private":
        bot = stand.bots.get(chat.bot_id)
        if bot is None or (msg.sender is not None and msg.sender.id == bot.id):
            return []
        return [(bot, "message")]
    sender_is_bot = msg.from_bot  # (a message on behalf of a chat is not a bot's, whatever td's stand-in)
    out: list[tuple[Bot, str]] = []
    for member in chat.members.values():
        bot = stand.bots.get(member.user.id) if member.user.is_bot else None
        if bot is None or not member.present:
            continue
        if msg.sender is not None and msg.sender.id == bot.id:
            continue
        if chat.type == "channel":
            if member.is_admin:
                out.append((bot, "channel_post"))
            continue
        if sender_is_bot and not msg.service:
            continue  # bots never see other bots' messages
        if msg.service or member.is_admin or bot.can_read_all_group_messages or addressed(bot, chat, msg):
            out.append((bot, "message"))
    return out


def addressed(bot: Bot, chat: Chat, msg: StoredMessage) -> bool:
    """What a bot in privacy mode gets: a command for it or for no bot, a mention of it, a reply to it."""
    text = msg.text or msg.caption
    m = _LEADING_COMMAND.match(text)
    if m is not None and (m.group(1) is None or m.group(1).lower() == bot.username.lower()):
        return True
    if bot.username and re.search(rf"(?<![A-Za-z0-9_])@{re.escape(bot.username)}(?![A-Za-z0-9_])", text, re.I):
        return True
    if msg.reply_to is not None:
        target = chat.messages.get(msg.reply_to)
        if target is not None and target.sender is not None and target.sender.id == bot.id:
            return True
    return False


def check_access(chat: Chat, bot: Bot, *, write: bool = True) -> None:
    """Telegram's chat access check (telegram-bot-api ``check_chat_access``): a bot acts only where it is.

    Writing (and editing) needs membership; reading a group does not, reading a supergroup or channel does.
    A group that became a supergroup answers with ``migrate_to_chat_id``, as Telegram does.
    """
    if chat.type == "private":
        return
    member = chat.members.get(bot.id)
    kind = "channel" if chat.type == "channel" else chat.type
    if chat.type == "group":
        if chat.migrated_to:
            if write:
                raise TelegramError(400, errors.GROUP_UPGRADED, migrate_to_chat_id=chat.migrated_to)
            return
        if write and member is not None and member.status == KICKED:
            raise TelegramError(403, errors.FORBIDDEN_KICKED.format(kind=kind))
        if write and (member is None or not member.present):
            raise TelegramError(403, errors.FORBIDDEN_NOT_MEMBER.format(kind=kind))
        return
    if member is not None and member.status == KICKED:
        raise TelegramError(403, errors.FORBIDDEN_KICKED.format(kind=kind))
    public = bool(chat.username)
    if (member is None or not member.present) and (write or not public):
        raise TelegramError(403, errors.FORBIDDEN_NOT_MEMBER.format(kind=kind))


def public_chat_id(stand: Telegram, username: str) -> int:
    """The chat a bot names by ``@username`` (telegram-bot-api ``check_chat``, through ``searchPublicChat``).

    A public supergroup or channel, or another bot (a private chat with a bot). A person's username, like one
    nobody has, names nothing a bot may use: 0, which the methods answer ``chat not found``. Usernames are
    compared without letter case, as Telegram compares them.
    """
    name = username.removeprefix("@").lower()
    if not name:
        return 0
    for chat in stand.world.chats.values():
        if chat.type in ("supergroup", "channel") and chat.username.lower() == name:
            return chat.id
    for bot in stand.bots.values():
        if bot.username.lower() == name:
            return bot.id
    return 0


def reaction_recipients(stand: Telegram, chat: Chat) -> list[Bot]:
    """Who hears of a reaction: the bot of a private chat, the administrator bots of a group or channel.

    Whether each one gets it is its subscription's (``message_reaction`` and ``message_reaction_count`` are
    opt-in kinds): :meth:`Bot.push` decides.
    """
    if chat.type == "private":
        bot = stand.bots.get(chat.bot_id)
        return [bot] if bot is not None else []
    out = []
    for member in chat.members.values():
        bot = stand.bots.get(member.user.id) if member.user.is_bot else None
        if bot is not None and member.present and member.is_admin:
            out.append(bot)
    return out


def poll_owner(stand: Telegram, msg: StoredMessage) -> Bot | None:
    """The bot that hears of votes (``poll``, and ``poll_answer`` when not anonymous): the one that sent the poll.

    Telegram sends bots only updates about polls they sent, so a person's own poll reaches no bot.
    """
    if msg.sender is None or not msg.sender.is_bot:
        return None
    return stand.bots.get(msg.sender.id)
