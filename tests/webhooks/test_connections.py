"""A healthy webhook gets up to ``max_connections`` POSTs at once, never two of one chat (as telegram-bot-api's
WebhookActor sends them): a chat whose update hangs does not hold up another chat, its own next update waits."""

from __future__ import annotations

import asyncio

from tests.conftest import Wire
from tests.webhooks.conftest import Receiver, wait_webhook


async def test_another_chat_is_delivered_while_one_chats_update_hangs(wire: Wire, receiver: Receiver) -> None:
    receiver.hang = True
    assert await wire.ok("setWebhook", url=receiver.url) is True
    await wire.say("alice one")
    await asyncio.wait_for(receiver.arrived.wait(), 5)  # held by the receiver
    await wire.say("alice two")
    await wire.say("bob one", user_id=4343, username="bob")
    view = await wait_webhook(wire, delivered=1)
    assert [d["update_id"] for d in view["deliveries"]] == [3]  # bob's, past alice's hanging one
    assert receiver.texts() == ["alice one", "bob one"]  # alice's second waits for her first
    assert view["pending_update_count"] == 2  # alice's two: the first is still in flight
    receiver.release.set()
    view = await wait_webhook(wire, delivered=3)
    assert receiver.texts() == ["alice one", "bob one", "alice two"]
    assert [d["update_id"] for d in view["deliveries"]] == [3, 1, 2]
    assert view["pending_update_count"] == 0


async def test_one_connection_delivers_one_update_at_a_time(wire: Wire, receiver: Receiver) -> None:
    receiver.hang = True
    assert await wire.ok("setWebhook", url=receiver.url, max_connections=1) is True
    await wire.say("alice one")
    await asyncio.wait_for(receiver.arrived.wait(), 5)
    await wire.say("bob one", user_id=4343, username="bob")
    status, _ = await wire.sim("GET", "/sim/webhook/wait?delivered=1&timeout=0.3")
    assert status == 408  # bob's waits: the one connection is taken
    assert receiver.texts() == ["alice one"]
    receiver.release.set()
    view = await wait_webhook(wire, delivered=2)
    assert receiver.texts() == ["alice one", "bob one"]
    assert [d["update_id"] for d in view["deliveries"]] == [1, 2]
