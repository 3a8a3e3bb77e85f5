"""The chats and their messages: where a bot may send, and who a new message reaches.

Rules over the world's state (:class:`~tgfake.world.telegram.Telegram`): a send's chat is found or made (leniently,
unless ``--strict``) and refused as Telegram refuses it; a message is queued for every bot that sees it
(:mod:`tgfake.world.visibility` decides who), and a channel post is forwarded into its discussion group.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tgfake import errors
from tgfake.bounds import UNKNOWN_USER_LIMIT
from tgfake.chats import Chat, StoredMessage, message_json, origin_of
from tgfake.errors import TelegramError
from tgfake.world import visibility
from tgfake.world.people import stand_in_sender

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.telegram import Telegram


def chat_for_send(t: Telegram, bot: Bot, chat_id: int) -> Chat:
    """Where ``bot`` sends: its private chat (403 if the person blocked it) or a chat it is in.

    A chat nobody has described yet is made on first use, as the reference stand does (documented in
    docs/world.md); a chat that exists refuses a bot that is not in it, with Telegram's 403. With
    ``--strict`` nothing is made: a chat or person the world does not have is ``chat not found``, a person
    who never wrote to this bot is Telegram's ``bot can't initiate conversation with a user``.
    """
    if chat_id > 0:
        if t.chat_of(bot, chat_id) is None and (t.options.strict or chat_id >= UNKNOWN_USER_LIMIT):
            if chat_id not in t.world.users:
                raise TelegramError(400, errors.CHAT_NOT_FOUND)
            if t.options.strict:
                raise TelegramError(403, errors.FORBIDDEN_CANT_INITIATE)
        chat = t.private_chat(bot, chat_id)
        if chat.blocked:
            raise TelegramError(403, errors.FORBIDDEN_BLOCKED)
        return chat
    known = t.world.chats.get(chat_id)
    if known is None:
        if t.options.strict:
            raise TelegramError(400, errors.CHAT_NOT_FOUND)
        return t.group(chat_id, bot=bot)
    visibility.check_access(known, bot)
    return known


def deliver(t: Telegram, chat: Chat, msg: StoredMessage, *, edited: bool = False) -> dict[int, int]:
    """Queue a new (or edited) message for every bot that sees it; returns bot id -> update id."""
    out: dict[int, int] = {}
    for bot, kind in visibility.recipients(t, chat, msg):
        if edited:
            kind = "edited_" + kind
        out[bot.id] = bot.push(kind, message_json(chat, msg))
    if chat.linked_chat_id and chat.type == "channel" and msg.service is None:
        if edited:
            edit_discussion_copy(t, chat, msg)
        else:
            forward_to_discussion(t, chat, msg)
    return out


def delete(t: Telegram, chat: Chat, msg: StoredMessage) -> None:
    """A message is deleted (flagged, so history stays); a channel post takes its automatic forward in the
    discussion group with it, as Telegram deletes the comments' root with the post. Telegram tells no bot."""
    msg.deleted = True
    copy = discussion_copy(t, chat, msg)
    if copy is not None:
        copy[1].deleted = True


def discussion_copy(t: Telegram, channel: Chat, post: StoredMessage) -> tuple[Chat, StoredMessage] | None:
    """The live automatic forward of a channel post in the channel's discussion group, if it has one."""
    if channel.type != "channel" or not channel.linked_chat_id:
        return None
    group = t.world.chats.get(channel.linked_chat_id)
    if group is None:
        return None
    for copy in reversed(group.messages.values()):
        origin = copy.extra.get("forward_origin") if copy.extra.get("is_automatic_forward") else None
        if origin is None or copy.deleted:
            continue
        if (origin.get("message_id"), origin.get("chat", {}).get("id")) == (post.message_id, channel.id):
            return group, copy
    return None


def edit_discussion_copy(t: Telegram, channel: Chat, post: StoredMessage) -> None:
    """A channel post's edit reaches its automatic forward: the same text, caption and media, edited at the same
    date, and an ``edited_message`` for the group's bots that see it (never a keyboard: the forward has none)."""
    found = discussion_copy(t, channel, post)
    if found is None:
        return
    group, copy = found
    if (copy.text, copy.caption, copy.entities, copy.media) == (post.text, post.caption, post.entities, post.media):
        return  # only the keyboard changed: the forward shows none
    copy.text, copy.caption, copy.entities, copy.media = post.text, post.caption, list(post.entities), post.media
    copy.link_preview = post.link_preview
    copy.edit_date = post.edit_date
    deliver(t, group, copy, edited=True)


def forward_to_discussion(t: Telegram, channel: Chat, post: StoredMessage) -> None:
    """A channel post's automatic forward into the channel's discussion supergroup, as Telegram makes it: the
    same content from Telegram on behalf of the channel, ``is_automatic_forward``, the post as its origin, and
    no keyboard. People's comments reply to it (their thread: :func:`tgfake.chats.comment_thread`)."""
    group = t.world.chats.get(channel.linked_chat_id)
    if group is None or group.type != "supergroup":
        return
    origin = origin_of(channel, post)
    copy = replace(
        post,
        message_id=group.mint_message_id(),
        sender=stand_in_sender(channel.id, group.id, automatic_forward=True),
        sender_chat=channel,
        reply_to=None,
        quote=None,
        keyboard=None,
        reply_markup=None,
        edit_date=None,
        thread_id=0,
        extra={**post.extra, "forward_origin": origin, "is_automatic_forward": True},
        reactions={},
        inline_message_id="",
    )
    deliver(t, group, group.add(copy))
