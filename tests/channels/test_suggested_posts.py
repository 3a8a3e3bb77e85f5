"""Suggested posts in a channel's direct messages: alice suggests a post through the sim, an aiogram bot (the
channel's administrator) approves it (the post appears in the channel) or declines it, and both see Telegram's
service messages."""

from __future__ import annotations

from typing import Any

from aiogram import types

from tests.channels.support import aiogram_bot, channel
from tests.conftest import Wire
from tests.world.helpers import ALICE, BOB

CANT = "Bad Request: message can't be used in the method"


async def suggest(wire: Wire, news: int, **body: Any) -> dict[str, Any]:
    status, got = await wire.sim("POST", f"/sim/chats/{news}/suggest-post", {"text": "my post", **body})
    assert status == 200, got
    return dict(got)


async def test_alice_suggests_a_paid_post_and_the_bot_approves_it(wire: Wire) -> None:
    """Action: POST /sim/chats/{id}/suggest-post (alice, 50 Stars)."""
    news = await channel(wire)
    async with aiogram_bot(wire) as bot:

        @bot.router.message()
        async def in_direct_messages(message: types.Message) -> None:
            bot.saw("message", message)
            info = message.suggested_post_info
            if info is not None and info.state == "pending":
                assert await bot.bot.approve_suggested_post(message.chat.id, message.message_id) is True

        @bot.router.channel_post()
        async def published(post: types.Message) -> None:
            bot.saw("channel_post", post)

        await bot.drain()
        placed = await suggest(wire, news, price={"currency": "XTR", "amount": 50})
        await bot.drain()
        await bot.drain()
        suggestion, approved = bot.seen["message"]
        assert suggestion.chat.is_direct_messages is True
        assert suggestion.chat.id == placed["chat_id"]
        assert suggestion.direct_messages_topic is not None
        assert suggestion.direct_messages_topic.user is not None
        assert (suggestion.direct_messages_topic.topic_id, suggestion.direct_messages_topic.user.id) == (ALICE, ALICE)
        assert suggestion.suggested_post_info is not None
        price = suggestion.suggested_post_info.price
        assert price is not None
        assert (price.currency, price.amount) == ("XTR", 50)
        assert approved.suggested_post_approved is not None
        assert approved.reply_to_message is not None
        assert approved.reply_to_message.message_id == placed["message_id"]
        original = approved.suggested_post_approved.suggested_post_message
        assert original is not None
        assert original.suggested_post_info is not None
        assert (original.text, original.suggested_post_info.state) == ("my post", "approved")
        [post] = bot.seen["channel_post"]
        assert (post.chat.id, post.text, post.is_paid_post) == (news, "my post", True)
    await wire.refused("approveSuggestedPost", 400, CANT, chat_id=placed["chat_id"], message_id=placed["message_id"])


async def test_bob_suggests_a_post_and_the_bot_declines_it(wire: Wire) -> None:
    news = await channel(wire)
    placed = await suggest(wire, news, user="bob")
    ids = {"chat_id": placed["chat_id"], "message_id": placed["message_id"]}
    async with aiogram_bot(wire) as bot:
        assert await bot.bot.decline_suggested_post(comment="not our style", **ids) is True
    updates = await wire.ok("getUpdates")
    [note] = [u["message"] for u in updates if "suggested_post_declined" in u.get("message", {})]
    declined = note["suggested_post_declined"]
    assert declined["comment"] == "not our style"
    assert declined["suggested_post_message"]["suggested_post_info"] == {"state": "declined"}
    assert note["direct_messages_topic"]["user"]["id"] == BOB
    line = f"[{note['message_id']}] * News declined the suggested post: 'not our style'"
    assert line in await wire.text(placed["chat_id"])
    await wire.refused("declineSuggestedPost", 400, CANT, **ids)
    await wire.refused("approveSuggestedPost", 400, CANT, **ids)


async def test_suggested_post_refusals_in_order(wire: Wire) -> None:
    news = await channel(wire)
    placed = await suggest(wire, news)
    dm = placed["chat_id"]
    await wire.refused("approveSuggestedPost", 400, "Bad Request: chat not found", chat_id=-100999, message_id=1)
    await wire.refused("approveSuggestedPost", 400, "Bad Request: suggested post not found", chat_id=dm, message_id=99)
    post = await wire.ok("sendMessage", chat_id=news, text="a post")
    await wire.refused("declineSuggestedPost", 400, CANT, chat_id=news, message_id=post["message_id"])  # no suggestion
    status, body = await wire.sim(
        "POST", f"/sim/chats/{news}/suggest-post", {"text": "x", "price": {"currency": "XTR", "amount": 1}}
    )
    assert (status, body) == (400, {"error": "a price in XTR is 5..100000"})
    status, body = await wire.sim("POST", f"/sim/chats/{news}/suggest-post", {"text": "x", "send_date": 1})
    assert (status, body) == (400, {"error": "send_date is 5 minutes to 30 days ahead"})


async def test_the_bot_answers_in_the_persons_topic(wire: Wire) -> None:
    """A message to the direct messages chat goes to ``direct_messages_topic_id``'s topic, or the replied one's."""
    news = await channel(wire)
    placed = await suggest(wire, news)
    dm = placed["chat_id"]
    named = await wire.ok("sendMessage", chat_id=dm, text="hello", direct_messages_topic_id=ALICE)
    assert named["direct_messages_topic"]["user"]["id"] == ALICE
    reply = await wire.ok("sendMessage", chat_id=dm, text="soon", reply_to_message_id=placed["message_id"])
    assert (reply["direct_messages_topic"]["topic_id"], reply["reply_to_message"]["message_id"]) == (
        ALICE,
        placed["message_id"],
    )
    elsewhere = await wire.ok("sendMessage", chat_id=news, text="a post", direct_messages_topic_id=ALICE)
    assert "direct_messages_topic" not in elsewhere


async def test_a_post_approved_for_later_waits_for_the_stands_clock(wire: Wire) -> None:
    news = await channel(wire)
    placed = await suggest(wire, news, text="tomorrow's news")
    later = wire.stand.unix_now() + 3600
    assert await wire.ok("approveSuggestedPost", send_date=later, **{k: placed[k] for k in ("chat_id", "message_id")})
    updates = await wire.ok("getUpdates")
    [note] = [u["message"] for u in updates if "suggested_post_approved" in u.get("message", {})]
    assert note["suggested_post_approved"]["send_date"] == later
    assert [u for u in updates if "channel_post" in u] == []
    await wire.ok("getUpdates", offset=updates[-1]["update_id"] + 1)
    assert (await wire.sim("POST", "/sim/clock", {"advance": 3600}))[0] == 200
    [post] = [u["channel_post"] for u in await wire.ok("getUpdates") if "channel_post" in u]
    assert (post["chat"]["id"], post["text"], post["date"]) == (news, "tomorrow's news", later)
