"""The account methods act on the person's business account within the rights the person gave the bot, and are
refused outside them with Telegram's words (tgfake/world/business.py)."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.conftest import Wire

ALICE, BOB = 4242, 4343
FORBIDDEN = "Bad Request: BOT_ACCESS_FORBIDDEN"
GIFT_TYPES = '{"unlimited_gifts":true,"limited_gifts":false,"unique_gifts":true,"premium_subscription":false}'


async def connect(wire: Wire, **rights: bool) -> str:
    status, got = await wire.sim("POST", "/sim/business/connect", {"user": "alice", "rights": rights})
    assert status == 200, got
    return str(got["connection"]["id"])


async def account(wire: Wire) -> dict[str, Any]:
    status, got = await wire.sim("GET", "/sim/business/account?user=alice")
    assert status == 200, got
    return dict(got)


async def test_every_account_method_is_refused_without_its_right(wire: Wire) -> None:
    bc = await connect(wire, can_reply=True)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("setBusinessAccountName", {"first_name": "Alicia"}),
        ("setBusinessAccountUsername", {"username": "alicia_shop"}),
        ("setBusinessAccountBio", {"bio": "Flowers"}),
        ("removeBusinessAccountProfilePhoto", {}),
        ("setBusinessAccountGiftSettings", {"show_gift_button": "true", "accepted_gift_types": GIFT_TYPES}),
        ("getBusinessAccountStarBalance", {}),
        ("transferBusinessAccountStars", {"star_count": 1}),
        ("getBusinessAccountGifts", {}),
    ]
    for method, params in calls:
        await wire.refused(method, 400, FORBIDDEN, business_connection_id=bc, **params)
    assert (await account(wire))["bio"] == ""


async def test_names_username_and_bio_change_the_persons_account(wire: Wire) -> None:
    bc = await connect(wire, can_edit_name=True, can_edit_username=True, can_edit_bio=True)
    assert await wire.ok("setBusinessAccountName", business_connection_id=bc, first_name="Alicia", last_name="Flowers")
    assert await wire.ok("setBusinessAccountUsername", business_connection_id=bc, username="alicia_shop")
    assert await wire.ok("setBusinessAccountBio", business_connection_id=bc, bio="Roses and tulips")
    seen = await account(wire)
    assert seen["user"] == {
        "id": ALICE,
        "is_bot": False,
        "first_name": "Alicia",
        "last_name": "Flowers",
        "username": "alicia_shop",
    }
    assert seen["bio"] == "Roses and tulips"
    await wire.refused(
        "setBusinessAccountUsername",
        400,
        "Bad Request: USERNAME_NOT_MODIFIED",
        business_connection_id=bc,
        username="alicia_shop",
    )
    await wire.refused(
        "setBusinessAccountUsername", 400, "Bad Request: USERNAME_INVALID", business_connection_id=bc, username="1abc"
    )
    await wire.say("hi", user_id=BOB, username="bobby")
    await wire.refused(
        "setBusinessAccountUsername", 400, "Bad Request: USERNAME_OCCUPIED", business_connection_id=bc, username="bobby"
    )
    await wire.refused(
        "setBusinessAccountBio", 400, "Bad Request: ABOUT_TOO_LONG", business_connection_id=bc, bio="x" * 71
    )
    assert (await account(wire))["bio"] == "Roses and tulips"
    await wire.refused(
        "setBusinessAccountName", 400, 'Bad Request: parameter "first_name" is required', business_connection_id=bc
    )


async def test_the_profile_photo_is_set_and_removed(wire: Wire) -> None:
    bc = await connect(wire, can_edit_profile_photo=True)
    form = aiohttp.FormData()
    form.add_field("business_connection_id", bc)
    form.add_field("photo", '{"type":"static","photo":"attach://pic"}')
    form.add_field("pic", b"\x89PNG fake", filename="p.png")
    resp = await wire.client.post(f"/bot{wire.token}/setBusinessAccountProfilePhoto", data=form)
    assert (resp.status, (await resp.json())["result"]) == (200, True)
    assert (await account(wire))["photo"] == {"type": "static", "size": 9}
    assert await wire.ok("removeBusinessAccountProfilePhoto", business_connection_id=bc)
    assert (await account(wire))["photo"] is None


async def test_gift_settings_are_read_then_set(wire: Wire) -> None:
    bc = await connect(wire, can_change_gift_settings=True)
    await wire.refused(
        "setBusinessAccountGiftSettings",
        400,
        'Bad Request: can\'t find field "premium_subscription"',
        business_connection_id=bc,
        accepted_gift_types='{"unlimited_gifts":true,"limited_gifts":true,"unique_gifts":true}',
    )
    await wire.refused(
        "setBusinessAccountGiftSettings",
        400,
        "Bad Request: object expected as accepted gift types",
        business_connection_id=bc,
        accepted_gift_types="[1]",
    )
    assert await wire.ok(
        "setBusinessAccountGiftSettings",
        business_connection_id=bc,
        show_gift_button="true",
        accepted_gift_types=GIFT_TYPES,
    )
    assert (await account(wire))["gift_settings"] == {
        "show_gift_button": True,
        "accepted_gift_types": {
            "unlimited_gifts": True,
            "limited_gifts": False,
            "unique_gifts": True,
            "premium_subscription": False,
            "gifts_from_channels": True,
        },
    }


async def test_stars_move_from_the_account_to_the_bot(wire: Wire) -> None:
    bc = await connect(wire, can_view_gifts_and_stars=True, can_transfer_stars=True)
    status, _ = await wire.sim("POST", "/sim/business/stars", {"user": "alice", "star_count": 120})
    assert status == 200
    assert await wire.ok("getBusinessAccountStarBalance", business_connection_id=bc) == {"amount": 120}
    await wire.refused(
        "transferBusinessAccountStars",
        400,
        "Bad Request: STARS_AMOUNT_INVALID",
        business_connection_id=bc,
        star_count=0,
    )
    await wire.refused(
        "transferBusinessAccountStars", 400, "Bad Request: BALANCE_TOO_LOW", business_connection_id=bc, star_count=121
    )
    assert await wire.ok("transferBusinessAccountStars", business_connection_id=bc, star_count=100)
    assert await wire.ok("getBusinessAccountStarBalance", business_connection_id=bc) == {"amount": 20}
    assert await wire.ok("getMyStarBalance") == {"amount": 100}
    [transaction] = (await wire.ok("getStarTransactions"))["transactions"]
    assert transaction["amount"] == 100
    assert transaction["source"]["transaction_type"] == "business_account_transfer"
    assert transaction["source"]["user"]["id"] == ALICE
