"""Boosts (a person boosts a channel through the sim: aiogram's bot gets chat_boost, then removed_chat_boost when
the boost is taken back; getUserChatBoosts lists them) and verification by a bot the sim made a verifier."""

from __future__ import annotations

from aiogram import types

from tests.channels.support import aiogram_bot, channel
from tests.conftest import Wire
from tests.world.helpers import ALICE, BOB, make_chat

FORBIDDEN = "Bad Request: BOT_VERIFIER_FORBIDDEN"


async def test_alice_boosts_the_channel_and_takes_it_back(wire: Wire) -> None:
    """Actions: POST /sim/chats/{id}/boost (chat_boost), POST /sim/chats/{id}/unboost (removed_chat_boost)."""
    news = await channel(wire)
    async with aiogram_bot(wire) as bot:
        listed: list[list[str]] = []

        @bot.router.chat_boost()
        async def boosted(event: types.ChatBoostUpdated) -> None:
            bot.saw("chat_boost", event)
            booster = event.boost.source.user
            assert booster is not None
            mine = await bot.bot.get_user_chat_boosts(event.chat.id, booster.id)
            listed.append([b.boost_id for b in mine.boosts])

        @bot.router.removed_chat_boost()
        async def removed(event: types.ChatBoostRemoved) -> None:
            bot.saw("removed_chat_boost", event)

        await bot.drain()
        made = await wire.sim("POST", f"/sim/chats/{news}/boost", {"user": "alice", "count": 2})
        assert made[0] == 200, made
        assert await bot.drain() == 2
        first, second = bot.seen["chat_boost"]
        assert (first.chat.id, first.boost.source.source, first.boost.source.user.id) == (news, "premium", ALICE)
        assert first.boost.source.user.is_premium is True  # only Premium users boost
        assert first.boost.expiration_date > first.boost.add_date
        ids = [b["boost_id"] for b in made[1]["boosts"]]
        assert [first.boost.boost_id, second.boost.boost_id] == ids
        assert listed == [ids, ids]
        gone = await wire.sim("POST", f"/sim/chats/{news}/unboost", {"user": "alice"})
        assert gone[0] == 200, gone
        assert await bot.drain() == 2
        assert [e.boost_id for e in bot.seen["removed_chat_boost"]] == ids
        assert all(e.source.user.id == ALICE for e in bot.seen["removed_chat_boost"])
        assert (await bot.bot.get_user_chat_boosts(news, ALICE)).boosts == []


async def test_a_person_has_four_boosts_and_a_supergroup_shows_them(wire: Wire) -> None:
    group = await make_chat(wire, title="Club", members=["bob"], admins=["@tgfake_bot"])
    status, body = await wire.sim("POST", f"/sim/chats/{group}/boost", {"user": "bob", "count": 3})
    assert status == 200, body
    assert await wire.sim("POST", f"/sim/chats/{group}/boost", {"user": "bob", "count": 2}) == (
        409,
        {"error": "bob has 1 of 4 boosts left"},
    )
    assert await wire.sim("POST", f"/sim/chats/{group}/unboost", {"user": "alice"}) == (
        409,
        {"error": "alice does not boost chat " + str(group)},
    )
    updates = await wire.ok("getUpdates")
    [service] = [u["message"] for u in updates if "message" in u and "boost_added" in u["message"]]
    assert (service["from"]["id"], service["boost_added"]) == (BOB, {"boost_count": 3})
    assert types.Message.model_validate(service).boost_added == types.ChatBoostAdded(boost_count=3)
    assert f"[{service['message_id']}] * bob boosted the group 3 times" in await wire.text(group)
    basic = await make_chat(wire, type="group", title="Basic")
    status, body = await wire.sim("POST", f"/sim/chats/{basic}/boost", {"user": "bob"})
    assert (status, body) == (400, {"error": "only channels and supergroups are boosted, not a group"})


async def test_get_user_chat_boosts_reads_chat_then_person(wire: Wire) -> None:
    news = await channel(wire)
    await wire.refused("getUserChatBoosts", 400, "Bad Request: invalid user_id specified", chat_id=news)
    await wire.refused("getUserChatBoosts", 400, "Bad Request: chat not found", chat_id=-100999, user_id=ALICE)
    assert await wire.ok("getUserChatBoosts", chat_id=news, user_id=ALICE) == {"boosts": []}


async def test_a_verifier_bot_verifies_people_and_chats(wire: Wire) -> None:
    """Action: POST /sim/verifiers (an organisation makes the bot its verifier)."""
    news = await channel(wire)
    await wire.refused("verifyUser", 400, FORBIDDEN, user_id=ALICE)
    await wire.refused("removeChatVerification", 400, FORBIDDEN, chat_id=news)
    status, body = await wire.sim("POST", "/sim/verifiers", {"enabled": True})
    assert (status, body["verifier"], body["verified"]) == (200, True, [])
    async with aiogram_bot(wire) as bot:
        assert await bot.bot.verify_user(ALICE, custom_description="Staff") is True
        assert await bot.bot.verify_chat(news) is True
        await wire.refused("verifyUser", 400, "Bad Request: user not found", user_id=77)
        await wire.refused("verifyChat", 400, "Bad Request: chat not found", chat_id=-100999)
        status, body = await wire.sim("GET", "/sim/verifiers")
        assert body["verified"] == [
            {"id": ALICE, "custom_description": "Staff"},
            {"id": news, "custom_description": ""},
        ]
        assert await bot.bot.remove_user_verification(ALICE) is True
        assert await bot.bot.remove_chat_verification(news) is True
        assert await bot.bot.remove_user_verification(999) is True  # nothing there: no error
    assert (await wire.sim("GET", "/sim/verifiers"))[1]["verified"] == []
    await wire.sim("POST", "/sim/verifiers", {"enabled": False})
    await wire.refused("verifyUser", 400, FORBIDDEN, user_id=ALICE)
