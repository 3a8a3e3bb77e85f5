"""sendLocation, sendVenue, sendContact, sendDice over HTTP: the JSON Telegram writes and TDLib's refusals."""

from __future__ import annotations

import pytest

from tests.conftest import Wire
from tgfake.botapi.places import DICE


async def test_location_static_and_live(wire: Wire) -> None:
    static = await wire.ok("sendLocation", chat_id=4242, latitude=" 51.5 ", longitude="-0.12")
    assert static["location"] == {"latitude": 51.5, "longitude": -0.12}
    live = await wire.ok("sendLocation", chat_id=4242, latitude=1, longitude=2, live_period=60, heading=90)
    assert live["location"] == {"latitude": 1.0, "longitude": 2.0, "live_period": 60, "heading": 90}
    assert await wire.text() == "[1] bot: [location 51.5, -0.12]\n[2] bot: [location 1.0, 2.0 live 60s]\n"


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"longitude": 1}, "Bad Request: latitude is empty"),
        ({"latitude": 1, "longitude": " "}, "Bad Request: longitude is empty"),
        ({"latitude": 91, "longitude": 1}, "Bad Request: invalid location specified"),
        ({"latitude": 1, "longitude": 181, "live_period": 60}, "Bad Request: invalid live location specified"),
        ({"latitude": 1, "longitude": 1, "live_period": 59}, "Bad Request: wrong live location period specified"),
        ({"latitude": 1, "longitude": 1, "live_period": 86401}, "Bad Request: wrong live location period specified"),
        ({"latitude": 1, "longitude": 1, "heading": 361}, "Bad Request: wrong live location heading specified"),
    ],
)
async def test_location_refusals(wire: Wire, params: dict[str, object], description: str) -> None:
    await wire.refused("sendLocation", 400, description, chat_id=4242, **params)


async def test_live_for_ever_is_accepted(wire: Wire) -> None:
    msg = await wire.ok("sendLocation", chat_id=4242, latitude=1, longitude=1, live_period=0x7FFFFFFF)
    assert msg["location"]["live_period"] == 0x7FFFFFFF


async def test_venue_and_contact(wire: Wire) -> None:
    venue = await wire.ok(
        "sendVenue", chat_id=4242, latitude=1, longitude=2, title="Cafe", address="Main st", foursquare_id="4b"
    )
    assert venue["location"] == {"latitude": 1.0, "longitude": 2.0}
    assert venue["venue"] == {
        "location": {"latitude": 1.0, "longitude": 2.0},
        "title": "Cafe",
        "address": "Main st",
        "foursquare_id": "4b",
    }
    contact = await wire.ok("sendContact", chat_id=4242, phone_number="+1 555", first_name="Ann", last_name="Lee")
    assert contact["contact"] == {"phone_number": "+1 555", "first_name": "Ann", "last_name": "Lee"}
    await wire.refused("sendContact", 400, 'Bad Request: parameter "first_name" is required', phone_number="1")
    assert await wire.text() == "[1] bot: [venue Cafe, Main st]\n[2] bot: [contact Ann Lee +1 555]\n"


async def test_dice_values_stay_in_each_range_and_repeat(wire: Wire) -> None:
    seen: dict[str, set[int]] = {}
    for emoji, top in DICE.items():
        for _ in range(40 if top < 64 else 10):
            dice = (await wire.ok("sendDice", chat_id=4242, emoji=emoji))["dice"]
            assert dice["emoji"] == emoji
            assert 1 <= dice["value"] <= top
            seen.setdefault(emoji, set()).add(dice["value"])
    assert seen["🎲"] == set(range(1, 7))
    assert seen["🏀"] == set(range(1, 6))
    default = await wire.ok("sendDice", chat_id=4243)
    assert default["dice"]["emoji"] == "🎲"
    await wire.refused("sendDice", 400, "Bad Request: DICE_EMOJI_INVALID", chat_id=4242, emoji="🍕")
    await wire.ok("sendMessage", chat_id=4244, text="reset me")
    wire.stand.reset()
    again = await wire.ok("sendDice", chat_id=4243)
    assert again["dice"] == default["dice"]  # the same chat and message id roll the same value
