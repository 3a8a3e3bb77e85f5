"""The new update kinds as python-telegram-bot reads them (``Update.de_json`` on the raw getUpdates answer): each
made by a person's action through the sim. PTB 22.8 has no ``subscription`` kind (aiogram reads that one, in
test_managed_subscriptions.py)."""

from __future__ import annotations

from typing import Any

from telegram import Bot, Update

from tests.channels.support import channel
from tests.conftest import Wire
from tests.world.helpers import ALICE, make_chat

KINDS = '["chat_boost","removed_chat_boost","managed_bot","guest_message"]'


async def updates(wire: Wire) -> list[Update]:
    raw: list[dict[str, Any]] = await wire.ok("getUpdates", allowed_updates=KINDS)
    await wire.ok("getUpdates", offset=raw[-1]["update_id"] + 1)
    bot = Bot("123:abc")
    parsed = [Update.de_json(u, bot) for u in raw]
    return [u for u in parsed if u is not None]


async def test_ptb_reads_each_kind_a_person_causes(wire: Wire) -> None:
    """Actions: alice boosts News and takes it back, creates a managed bot, summons the bot into Friends."""
    news = await channel(wire)
    friends = await make_chat(wire, title="Friends")
    await wire.ok("getUpdates", allowed_updates=KINDS)  # the subscription, before the actions
    await wire.sim("POST", f"/sim/chats/{news}/boost", {"user": "alice"})
    await wire.sim("POST", f"/sim/chats/{news}/unboost", {"user": "alice"})
    await wire.sim("POST", "/sim/managed-bots", {"user": "alice", "username": "alice_pets_bot"})
    summoned = (await wire.sim("POST", "/sim/guest-message", {"chat_id": friends, "text": "hello"}))[1]
    boost, removed, managed, guest = [u for u in await updates(wire) if u.my_chat_member is None]  # (the chats')
    assert boost.chat_boost is not None
    assert (boost.chat_boost.chat.id, boost.chat_boost.boost.source.source) == (news, "premium")
    assert removed.removed_chat_boost is not None
    assert removed.removed_chat_boost.boost_id == boost.chat_boost.boost.boost_id
    assert managed.managed_bot is not None
    assert (managed.managed_bot.user.id, managed.managed_bot.bot.username) == (ALICE, "alice_pets_bot")
    assert guest.guest_message is not None
    assert (guest.guest_message.chat.id, guest.guest_message.guest_query_id) == (friends, summoned["guest_query_id"])
