"""Gifts: the sim's catalogue, sendGift paid from the bot's Stars, the gifts people own, and a business account's
gifts converted, upgraded and transferred through the bot's connection."""

from __future__ import annotations

from typing import Any

from tests.conftest import Wire

ALICE, BOB = 4242, 4343
CATALOGUE = [
    {"id": "5001", "star_count": 15, "emoji": "🌹"},
    {"id": "5002", "star_count": 50, "upgrade_star_count": 25, "total_count": 1, "emoji": "🧸"},
]


async def catalogue(wire: Wire) -> list[dict[str, Any]]:
    status, got = await wire.sim("PUT", "/sim/gifts", {"gifts": CATALOGUE})
    assert status == 200, got
    return list(got["gifts"])


async def stars_for_the_bot(wire: Wire, amount: int) -> None:
    """The bot earns Stars the way the stand's people pay it: a business account's transfer."""
    status, got = await wire.sim(
        "POST", "/sim/business/connect", {"user": "carol", "rights": {"can_transfer_stars": True}}
    )
    assert status == 200
    await wire.sim("POST", "/sim/business/stars", {"user": "carol", "star_count": amount})
    assert await wire.ok(
        "transferBusinessAccountStars", business_connection_id=got["connection"]["id"], star_count=amount
    )


async def test_the_catalogue_is_the_sims(wire: Wire) -> None:
    shown = await catalogue(wire)
    got = await wire.ok("getAvailableGifts")
    assert got == {"gifts": shown}
    limited = got["gifts"][1]
    assert list(limited)[:3] == ["id", "sticker", "star_count"]
    assert (limited["upgrade_star_count"], limited["remaining_count"], limited["total_count"]) == (25, 1, 1)


async def test_send_gift_is_paid_from_the_bots_stars_and_the_person_owns_it(wire: Wire) -> None:
    await catalogue(wire)
    await wire.say("hi", user_id=BOB, username="bob")
    await wire.refused("sendGift", 400, "Bad Request: BALANCE_TOO_LOW", user_id=BOB, gift_id="5001")
    await stars_for_the_bot(wire, 100)
    await wire.refused("sendGift", 400, "Bad Request: STARGIFT_INVALID", user_id=BOB, gift_id="9")
    assert await wire.ok("sendGift", user_id=BOB, gift_id="5002", text="For you", pay_for_upgrade="true")
    await wire.refused("sendGift", 400, "Bad Request: STARGIFT_USAGE_LIMITED", user_id=BOB, gift_id="5002")
    assert await wire.ok("getMyStarBalance") == {"amount": 25}
    owned = await wire.ok("getUserGifts", user_id=BOB)
    assert owned["total_count"] == 1
    [gift] = owned["gifts"]
    assert "owned_gift_id" not in gift
    assert (gift["type"], gift["gift"]["id"], gift["sender_user"]["id"], gift["text"]) == (
        "regular",
        "5002",
        123,
        "For you",
    )
    assert gift["prepaid_upgrade_star_count"] == 25
    assert (await wire.ok("getAvailableGifts"))["gifts"][1]["remaining_count"] == 0


async def test_a_business_accounts_gifts_are_managed_within_the_rights(wire: Wire) -> None:
    await catalogue(wire)
    status, given = await wire.sim("POST", "/sim/gifts/give", {"user": "alice", "gift_id": "5001", "sender": "bob"})
    assert status == 200
    status, teddy = await wire.sim("POST", "/sim/gifts/give", {"user": "alice", "gift_id": "5002"})
    assert status == 200
    status, got = await wire.sim("POST", "/sim/business/connect", {"user": "alice", "rights": {"can_reply": True}})
    bc = got["connection"]["id"]
    await wire.refused("getBusinessAccountGifts", 400, "Bad Request: BOT_ACCESS_FORBIDDEN", business_connection_id=bc)
    await wire.refused(
        "convertGiftToStars",
        400,
        "Bad Request: BOT_ACCESS_FORBIDDEN",
        business_connection_id=bc,
        owned_gift_id=given["owned_gift_id"],
    )
    rights = {
        "can_view_gifts_and_stars": True,
        "can_convert_gifts_to_stars": True,
        "can_transfer_and_upgrade_gifts": True,
    }
    await wire.sim("POST", "/sim/business/connect", {"user": "alice", "rights": rights})
    listed = await wire.ok("getBusinessAccountGifts", business_connection_id=bc)
    assert [g["owned_gift_id"] for g in listed["gifts"]] == [teddy["owned_gift_id"], given["owned_gift_id"]]
    assert await wire.ok("convertGiftToStars", business_connection_id=bc, owned_gift_id=given["owned_gift_id"])
    assert await wire.ok("getBusinessAccountStarBalance", business_connection_id=bc) == {"amount": 15}
    await wire.refused(
        "convertGiftToStars",
        400,
        "Bad Request: STARGIFT_NOT_FOUND",
        business_connection_id=bc,
        owned_gift_id=given["owned_gift_id"],
    )
    await wire.refused(
        "transferGift",
        400,
        "Bad Request: STARGIFT_NOT_UNIQUE",
        business_connection_id=bc,
        owned_gift_id=teddy["owned_gift_id"],
        new_owner_chat_id=BOB,
    )
    await wire.refused(
        "upgradeGift",
        400,
        "Bad Request: BALANCE_TOO_LOW",
        business_connection_id=bc,
        owned_gift_id=teddy["owned_gift_id"],
        star_count=25,
    )
    await stars_for_the_bot(wire, 25)
    assert await wire.ok("upgradeGift", business_connection_id=bc, owned_gift_id=teddy["owned_gift_id"], star_count=25)
    await wire.refused(
        "upgradeGift",
        400,
        "Bad Request: STARGIFT_ALREADY_UPGRADED",
        business_connection_id=bc,
        owned_gift_id=teddy["owned_gift_id"],
        star_count=25,
    )
    await wire.say("hi", user_id=BOB, username="bob")
    assert await wire.ok(
        "transferGift", business_connection_id=bc, owned_gift_id=teddy["owned_gift_id"], new_owner_chat_id=BOB
    )
    [moved] = (await wire.ok("getUserGifts", user_id=BOB))["gifts"]
    assert (moved["type"], moved["gift"]["gift_id"], moved["sender_user"]["id"]) == ("unique", "5002", ALICE)
    assert (await wire.ok("getBusinessAccountGifts", business_connection_id=bc))["total_count"] == 0
