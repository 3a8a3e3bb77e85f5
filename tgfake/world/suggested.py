"""Suggested posts in a channel's direct messages, as Telegram runs them (Bot API 9.2+, TDLib's monoforums).

A channel's direct messages are a supergroup of their own (``is_direct_messages``), where each person writes in a
topic of theirs (``direct_messages_topic``); the channel's administrator bots are its administrators and get its
messages. A person suggests a post there (``suggested_post_info``: pending, with a price and a date if they offer
them); an administrator bot approves it (the post is published in the channel, ``is_paid_post`` when paid for, and
``suggested_post_approved`` is posted in the direct messages) or declines it (``suggested_post_declined`` with the
comment). TDLib's ``can_approve_or_decline_message``: a pending suggestion of a person, in a direct messages chat;
approving also needs ``can_post_messages`` in the channel; else ``message can't be used in the method``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.chats import Chat, StoredMessage, message_json
from tgfake.errors import SimError, TelegramError
from tgfake.world import rooms
from tgfake.world.groups import next_chat_id
from tgfake.world.members import ADMINISTRATOR, Member
from tgfake.world.people import stand_in_sender

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.people import User
    from tgfake.world.telegram import Telegram

PRICE_LIMITS = {"XTR": (5, 100_000), "TON": (10_000_000, 10_000_000_000_000)}
"""SuggestedPostPrice: Stars, or nanograms of TON, between these amounts."""
SEND_DATE_WINDOW = (300, 2_678_400)
"""A suggested send date is 5 minutes to 30 days ahead."""


def direct_messages(t: Telegram, channel: Chat) -> Chat:
    """The channel's direct messages chat, made on first use: its administrators are the channel's administrator
    bots (with their rights)."""
    known = t.world.channels.direct_messages.get(channel.id)
    if known is not None and known in t.world.chats:
        return t.world.chats[known]
    if channel.type != "channel":
        raise SimError(400, f"only a channel has direct messages, not a {channel.type}")
    chat = Chat(id=next_chat_id(t, "supergroup"), type="supergroup", title=channel.title, direct_messages_of=channel.id)
    for member in channel.members.values():
        if member.user.is_bot and member.present and member.is_admin:
            chat.members[member.user.id] = Member(user=member.user, status=ADMINISTRATOR, rights=dict(member.rights))
    t.world.chats[chat.id] = chat
    t.world.channels.direct_messages[channel.id] = chat.id
    return chat


def topic(person: User) -> dict[str, Any]:
    """A person's topic in a direct messages chat (Client.cpp's ``JsonDirectMessagesTopic``)."""
    return {"topic_id": person.id, "user": person.json()}


def topic_for_send(t: Telegram, chat: Chat, topic_id: int, reply_to: int | None) -> dict[str, Any] | None:
    """The topic a bot's message in a channel's direct messages goes to: ``direct_messages_topic_id`` (a person's
    id), else the topic of the message it replies to; None outside direct messages or without a known person."""
    if not chat.direct_messages_of:
        return None
    if not topic_id and reply_to is not None:
        target = chat.messages.get(reply_to)
        found = target.extra.get("direct_messages_topic") if target is not None else None
        if target is not None and target.service:
            found = target.service.get("direct_messages_topic")
        topic_id = int(found["topic_id"]) if found else 0
    person = t.world.users.get(topic_id)
    return topic(person) if person is not None else None


def suggest(
    t: Telegram, channel: Chat, person: User, text: str, price: dict[str, Any] | None, send_date: int
) -> StoredMessage:
    """The person suggests a post: a pending suggestion in their topic of the channel's direct messages."""
    if price is not None:
        low, high = PRICE_LIMITS.get(price["currency"], (0, -1))
        if not low <= price["amount"] <= high:
            raise SimError(400, f"a price in {price['currency']} is {low}..{high}")
    if send_date:
        ahead = send_date - t.unix_now()
        if not SEND_DATE_WINDOW[0] <= ahead <= SEND_DATE_WINDOW[1]:
            raise SimError(400, "send_date is 5 minutes to 30 days ahead")
    chat = direct_messages(t, channel)
    info: dict[str, Any] = {}
    if price is not None:
        info["price"] = {"currency": price["currency"], "amount": price["amount"]}
    if send_date:
        info["send_date"] = send_date
    info["state"] = "pending"
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=t.unix_now(),
            sender=person,
            text=text,
            extra={"direct_messages_topic": topic(person), "suggested_post_info": info},
        )
    )
    rooms.deliver(t, chat, msg)
    return msg


def _suggestion(t: Telegram, chat: Chat, msg: StoredMessage) -> dict[str, Any]:
    """TDLib's ``can_approve_or_decline_message``: a person's pending suggestion in a direct messages chat."""
    info = msg.extra.get("suggested_post_info")
    if not chat.direct_messages_of or info is None or info.get("state") != "pending" or msg.from_bot:
        raise TelegramError(400, errors.MESSAGE_CANT_BE_USED)
    if msg.sender is None or msg.sender.id not in t.world.users:
        raise TelegramError(400, errors.MESSAGE_CANT_BE_USED)
    return dict(info)


def _settled(t: Telegram, chat: Chat, msg: StoredMessage, service: dict[str, Any]) -> StoredMessage:
    """The service message in the suggester's topic, replying to the suggestion, from the channel."""
    channel = t.world.chats[chat.direct_messages_of]
    person = msg.sender
    assert person is not None
    note = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=t.unix_now(),
            sender=stand_in_sender(channel.id, chat.id, automatic_forward=False),
            sender_chat=channel,
            reply_to=msg.message_id,
            service={"direct_messages_topic": topic(person), **service},
        )
    )
    rooms.deliver(t, chat, note)
    return note


def approve(t: Telegram, bot: Bot, chat: Chat, msg: StoredMessage, send_date: int) -> int:
    """The bot approves: ``suggested_post_approved`` in the direct messages, and the post in the channel at its date
    (``send_date``, else the one suggested, else now; a later one waits for the stand's clock: :func:`publish_due`).
    Answers the date."""
    info = _suggestion(t, chat, msg)
    channel = t.world.chats[chat.direct_messages_of]
    member = channel.member(bot.id)
    if member is None or not member.present or not member.can("can_post_messages"):
        raise TelegramError(400, errors.MESSAGE_CANT_BE_USED)
    msg.extra["suggested_post_info"] = {**info, "state": "approved"}
    date = send_date or info.get("send_date") or t.unix_now()
    approved: dict[str, Any] = {"suggested_post_message": message_json(chat, msg, quote=False)}
    if "price" in info:
        approved["price"] = info["price"]
    approved["send_date"] = date
    _settled(t, chat, msg, {"suggested_post_approved": approved})
    t.world.channels.scheduled.append((date, chat.id, msg.message_id))
    publish_due(t)
    return date


def publish_due(t: Telegram) -> None:
    """Publish every approved suggestion whose date the stand's clock has reached (cheap when none waits)."""
    waiting = t.world.channels.scheduled
    if not waiting:
        return
    now = t.unix_now()
    for item in [w for w in waiting if w[0] <= now]:
        waiting.remove(item)
        chat = t.world.chats.get(item[1])
        msg = chat.messages.get(item[2]) if chat is not None else None
        channel = t.world.chats.get(chat.direct_messages_of) if chat is not None else None
        if chat is not None and msg is not None and channel is not None and not msg.deleted:
            _publish(t, channel, msg)


def _publish(t: Telegram, channel: Chat, msg: StoredMessage) -> StoredMessage:
    """The suggestion's content as a post of the channel (``is_paid_post`` when it had a price)."""
    info = msg.extra.get("suggested_post_info") or {}
    post = channel.add(
        StoredMessage(
            message_id=channel.mint_message_id(),
            date=t.unix_now(),
            sender=msg.sender,
            text=msg.text,
            entities=list(msg.entities),
            media=msg.media,
            caption=msg.caption,
            extra={"is_paid_post": True} if "price" in info else {},
        )
    )
    rooms.deliver(t, channel, post)
    return post


def decline(t: Telegram, chat: Chat, msg: StoredMessage, comment: str) -> None:
    """The bot declines: ``suggested_post_declined`` (with the comment) in the direct messages."""
    info = _suggestion(t, chat, msg)
    msg.extra["suggested_post_info"] = {**info, "state": "declined"}
    declined: dict[str, Any] = {"suggested_post_message": message_json(chat, msg, quote=False)}
    if comment:
        declined["comment"] = comment
    _settled(t, chat, msg, {"suggested_post_declined": declined})
