"""What the person does, parsed by real libraries: their types are the oracle for each update's shape."""

from __future__ import annotations

from typing import Any

from telegram import MessageOriginChannel, MessageOriginHiddenUser, MessageOriginUser, ReactionTypeEmoji

from tests.clients import aiogram_bot, ptb_bot
from tests.conftest import Wire
from tests.person.test_actions import BOB, bot_poll

KINDS = [
    "message",
    "edited_message",
    "message_reaction",
    "poll",
    "poll_answer",
    "channel_post",
    "edited_channel_post",
    "message_reaction_count",
]


async def act(wire: Wire, path: str, body: dict[str, Any]) -> dict[str, Any]:
    status, answer = await wire.sim("POST", path, body)
    assert status == 200, answer
    return dict(answer)


async def test_ptb_reads_edits_reactions_votes_forwards_and_quotes(wire: Wire) -> None:
    async with ptb_bot(wire) as bot:
        await bot.get_updates(timeout=0, allowed_updates=KINDS)
        group = (await act(wire, "/sim/chats", {"title": "Club", "members": ["bob"], "admins": [123]}))["chat"]["id"]
        channel = (await act(wire, "/sim/chats", {"type": "channel", "title": "News", "admins": [123]}))["chat"]["id"]
        _, poll_message = await bot_poll(wire, group, is_anonymous="false")
        said = await act(wire, "/sim/message", {"text": "helo", "chat_id": group, "user_id": BOB, "username": "bob"})
        start = (await bot.get_updates(timeout=0))[-1].update_id + 1
        await act(
            wire, "/sim/edit", {"chat_id": group, "message_id": said["message_id"], "text": "hello", "user_id": BOB}
        )
        await act(wire, "/sim/react", {"chat_id": group, "message_id": said["message_id"], "emoji": ["👍"]})
        await act(wire, "/sim/vote", {"chat_id": group, "message_id": poll_message, "options": [2]})
        await act(wire, "/sim/forward", {"from_chat_id": group, "message_id": said["message_id"]})
        await act(wire, "/sim/forward", {"text": "x", "origin": {"type": "hidden_user", "name": "Ann"}})
        await act(
            wire, "/sim/forward", {"text": "y", "origin": {"type": "channel", "chat_id": channel, "message_id": 3}}
        )
        sent = await bot.send_message(4242, "Quote me, please")
        await act(wire, "/sim/message", {"text": "ok", "reply_to_message_id": sent.message_id, "quote": "me"})
        updates = await bot.get_updates(offset=start, timeout=0)
    edited, reaction, answer, poll, fwd_user, fwd_hidden, fwd_channel, quoted = updates
    assert edited.edited_message is not None
    assert edited.edited_message.text == "hello"
    assert edited.edited_message.edit_date is not None
    assert reaction.message_reaction is not None
    assert reaction.message_reaction.new_reaction == (ReactionTypeEmoji("👍"),)
    assert answer.poll_answer is not None
    assert answer.poll_answer.option_ids == (2,)
    assert poll.poll is not None
    assert [o.voter_count for o in poll.poll.options] == [0, 0, 1]
    assert fwd_user.message is not None
    assert isinstance(fwd_user.message.forward_origin, MessageOriginUser)
    assert fwd_user.message.forward_origin.sender_user.id == BOB
    assert fwd_hidden.message is not None
    assert isinstance(fwd_hidden.message.forward_origin, MessageOriginHiddenUser)
    assert fwd_channel.message is not None
    assert isinstance(fwd_channel.message.forward_origin, MessageOriginChannel)
    assert fwd_channel.message.forward_origin.message_id == 3
    assert quoted.message is not None
    assert quoted.message.quote is not None
    assert (quoted.message.quote.text, quoted.message.quote.position) == ("me", 6)


async def test_aiogram_reads_shares_and_channel_reaction_counts(wire: Wire) -> None:
    bot = aiogram_bot(wire)
    try:
        await bot.get_updates(timeout=0, allowed_updates=KINDS)
        channel = (await act(wire, "/sim/chats", {"type": "channel", "title": "News", "admins": [123]}))["chat"]["id"]
        post = await bot.send_message(channel, "post")
        await act(
            wire, "/sim/share", {"venue": {"location": {"latitude": 1, "longitude": 2}, "title": "T", "address": "A"}}
        )
        await act(wire, "/sim/share", {"dice": {"emoji": "🎰", "value": 64}})
        await act(wire, "/sim/share", {"location": {"latitude": 1.5, "longitude": 2.5, "live_period": 60}})
        await act(wire, "/sim/react", {"chat_id": channel, "message_id": post.message_id, "emoji": ["❤"]})
        updates = await bot.get_updates(timeout=0)
    finally:
        await bot.session.close()
    venue, dice, live, count = updates[-4:]
    assert venue.message is not None
    assert venue.message.venue is not None
    assert venue.message.venue.title == "T"
    assert dice.message is not None
    assert dice.message.dice is not None
    assert dice.message.dice.value == 64
    assert live.message is not None
    assert live.message.location is not None
    assert live.message.location.live_period == 60
    assert count.message_reaction_count is not None
    assert count.message_reaction_count.reactions[0].total_count == 1
