"""Managed bots (a person creates a bot through the stand's bot: aiogram's bot gets managed_bot and
managed_bot_created, then manages its token and access) and subscriptions (the person cancels, re-enables, or a
renewal fails: subscription)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiogram import types

from tests.channels.support import aiogram_bot
from tests.conftest import Wire
from tests.world.helpers import ALICE, BOB, add_bot

UNAUTHORIZED = {"ok": False, "error_code": 401, "description": "Unauthorized"}


async def test_alice_creates_a_managed_bot_and_the_bot_manages_its_token(wire: Wire) -> None:
    """Action: POST /sim/managed-bots (alice taps the bot's request_managed_bot button and creates one)."""
    async with aiogram_bot(wire) as bot:
        tokens: list[str] = []

        @bot.router.managed_bot()
        async def managed(event: types.ManagedBotUpdated) -> None:
            bot.saw("managed_bot", event)
            tokens.append(await bot.bot.get_managed_bot_token(event.bot_user.id))

        @bot.router.message()
        async def created(message: types.Message) -> None:
            bot.saw("message", message)

        await bot.bot.get_me()
        status, body = await wire.sim(
            "POST", "/sim/managed-bots", {"user": "alice", "username": "alice_shop_bot", "first_name": "Shop"}
        )
        assert status == 200, body
        made = body["bot"]
        assert await bot.drain() == 2
        [message] = bot.seen["message"]
        assert message.managed_bot_created is not None
        assert (message.managed_bot_created.bot_user.id, message.from_user.id) == (made["id"], ALICE)
        assert f"[{message.message_id}] * alice created @alice_shop_bot" in await wire.text(ALICE)
        [event] = bot.seen["managed_bot"]
        assert (event.user.id, event.bot_user.id, event.bot_user.username) == (ALICE, made["id"], "alice_shop_bot")
        assert tokens == [body["token"]]
        status, me = await wire.call("getMe", token=body["token"])
        assert (status, me["result"]["id"]) == (200, made["id"])

        fresh = await bot.bot.replace_managed_bot_token(made["id"])
        assert fresh != body["token"]
        assert await wire.call("getMe", token=body["token"]) == (401, UNAUTHORIZED)
        assert (await wire.call("getMe", token=fresh))[0] == 200
        assert await bot.drain() == 1  # the token's change is managed_bot again
        assert tokens == [body["token"], fresh]

        settings = await bot.bot.get_managed_bot_access_settings(made["id"])
        assert (settings.is_access_restricted, settings.added_users) == (False, None)
        await wire.say("hi", user_id=BOB)
        assert await bot.bot.set_managed_bot_access_settings(made["id"], True, added_user_ids=[BOB]) is True
        settings = await bot.bot.get_managed_bot_access_settings(made["id"])
        assert settings.is_access_restricted is True
        assert [u.id for u in settings.added_users or []] == [BOB]


async def test_managed_bot_refusals_in_order(wire: Wire) -> None:
    await wire.say("hi")
    other = await add_bot(wire)
    for method in ("getManagedBotToken", "replaceManagedBotToken", "getManagedBotAccessSettings"):
        await wire.refused(method, 400, "Bad Request: invalid user_id specified", user_id="x")
        await wire.refused(method, 400, "Bad Request: user not found", user_id=77)
        await wire.refused(method, 400, "Bad Request: user is not a bot", user_id=ALICE)
        await wire.refused(method, 400, "Bad Request: BOT_INVALID", user_id=other)
    setting = {"user_id": other, "is_access_restricted": "true"}
    for raw, words in (
        ("[1", "can't parse added_user_ids JSON object"),
        ("{}", "expected an Array of user identifiers"),
        (json.dumps(list(range(1, 12))), "too many user identifiers specified"),
        ("[true]", "user identifier must be a Number"),
        ('["x"]', "can't parse user identifier as a Number"),
        ("[0]", "invalid user identifier specified"),
    ):
        await wire.refused("setManagedBotAccessSettings", 400, f"Bad Request: {words}", added_user_ids=raw, **setting)
    await wire.refused("setManagedBotAccessSettings", 400, "Bad Request: BOT_INVALID", **setting)
    await wire.refused(
        "setManagedBotAccessSettings",
        400,
        "Bad Request: user identifiers are not specified",
        added_user_ids="",
        **setting,
    )


SUBSCRIPTION: dict[str, Any] = {
    "title": "Club",
    "description": "Monthly",
    "payload": "club-monthly",
    "currency": "XTR",
    "prices": [types.LabeledPrice(label="Month", amount=50)],
    "subscription_period": 2592000,
}


async def test_alice_cancels_her_subscription_and_renews_it(wire: Wire) -> None:
    """Actions: POST /sim/pay (the first payment), then POST /sim/subscription (canceled, active, failed)."""
    async with aiogram_bot(wire) as bot:

        @bot.router.pre_checkout_query()
        async def checkout(query: types.PreCheckoutQuery) -> None:
            await query.answer(ok=True)

        @bot.router.subscription()
        async def changed(event: types.BotSubscriptionUpdated) -> None:
            bot.saw("subscription", event)

        await wire.say("hi")
        link = await bot.bot.create_invoice_link(**SUBSCRIPTION)
        assert await bot.drain() == 1  # alice's hi
        paying = asyncio.create_task(wire.sim("POST", "/sim/pay", {"link": link}))
        assert await bot.drain(wait=5) == 1  # the pre-checkout query, answered by the handler
        status, paid = await paying
        assert status == 200, paid
        charge = paid["telegram_payment_charge_id"]
        for state in ("canceled", "active", "failed"):
            body = {"telegram_payment_charge_id": charge, "state": state}
            status, got = await wire.sim("POST", "/sim/subscription", body)
            assert status == 200, got
        await bot.drain()
        seen = [(e.user.id, e.invoice_payload, e.state) for e in bot.seen["subscription"]]
        assert seen == [
            (ALICE, "club-monthly", "canceled"),
            (ALICE, "club-monthly", "active"),
            (ALICE, "club-monthly", "failed"),
        ]
    again = await wire.sim("POST", "/sim/subscription", {"telegram_payment_charge_id": charge, "state": "canceled"})
    assert again == (409, {"error": "the subscription is cancelled: it can't become canceled"})
    unknown = await wire.sim("POST", "/sim/subscription", {"telegram_payment_charge_id": "x", "state": "canceled"})
    assert unknown == (404, {"error": "alice has no subscription to @tgfake_bot with charge 'x'"})
