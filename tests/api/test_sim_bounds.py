"""The sim's bounds (issue 21): every wait bounded by one reader, bodies checked against Telegram's bounds in the
pydantic models before anything is looked up, ``@name`` only for a bot that exists. Each defect the issue lists is
here with its exact request and answer, and a refusal changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Wire

TIMEOUT_BOUND = "timeout must be between 0 and 60 seconds"
STARS = {"title": "Boost", "description": "A boost", "payload": "boost-1", "currency": "XTR"}
ONE = json.dumps([{"label": "Boost", "amount": 50}])
CHANNEL_BOT = "a bot is in a channel only as its administrator: promote @tgfake_bot instead"


async def answer(wire: Wire, verb: str, path: str, body: Any = None) -> tuple[int, Any]:
    """The status and JSON answer; a raw ``bytes`` body is sent as it is (JSON's ``NaN`` has no Python spelling)."""
    if isinstance(body, bytes):
        resp = await wire.client.request(verb, path, data=body, headers={"Content-Type": "application/json"})
        return resp.status, await resp.json()
    return await wire.sim(verb, path, body)


async def world(wire: Wire) -> tuple[Any, ...]:
    """What a refusal must leave as it was: the chats, the state, the outbox and the people."""
    chats = (await wire.sim("GET", "/sim/chats"))[1]
    state = (await wire.sim("GET", "/sim/state"))[1]
    people = sorted(wire.stand.world.users)
    groups = {cid: chat.members_view() for cid, chat in wire.stand.world.chats.items()}
    return chats, state, people, groups


async def group(wire: Wire, **fields: Any) -> int:
    status, body = await wire.sim("POST", "/sim/chats", {"title": "Club", **fields})
    assert status == 200, body
    return int(body["chat_id"])


# --- waits ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["NaN", "nan", "1e309", "inf", "-Infinity", "-1", "61", "1e9"])
@pytest.mark.parametrize("path", ["/sim/inline", "/sim/wait", "/sim/webhook/wait?delivered=1"])
async def test_every_held_get_refuses_a_timeout_past_its_bound(wire: Wire, path: str, value: str) -> None:
    """``GET /sim/inline?timeout=NaN`` and ``=1e309`` hung; the three holds now read the timeout the same way."""
    sep = "&" if "?" in path else "?"
    resp = await wire.client.get(f"{path}{sep}timeout={value}")
    assert (resp.status, await resp.json()) == (400, {"error": TIMEOUT_BOUND})


async def test_a_bounded_inline_wait_still_answers(wire: Wire) -> None:
    resp = await wire.client.get("/sim/inline?timeout=0")
    assert (resp.status, await resp.json()) == (404, {"error": "no inline query yet"})


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"timeout": 1e9}, "timeout: Input should be less than or equal to 60"),
        ({"timeout": 60.5}, "timeout: Input should be less than or equal to 60"),
        ({"timeout": -1}, "timeout: Input should be greater than or equal to 0"),
        (b'{"timeout": NaN}', "timeout: Input should be a finite number"),
        (b'{"timeout": 1e309}', "timeout: Input should be a finite number"),
        (b'{"timeout": -Infinity}', "timeout: Input should be a finite number"),
    ],
)
async def test_a_payment_waits_within_the_same_bound(wire: Wire, body: Any, error: str) -> None:
    """``POST /sim/pay {"timeout": 1e9}`` had no upper bound (the invoice is found after the body is read)."""
    await wire.ok("sendInvoice", chat_id=4242, prices=ONE, **STARS)
    assert await answer(wire, "POST", "/sim/pay", body) == (400, {"error": f"invalid JSON body: {error}"})


# --- ids: in range, users and chats never mixed up --------------------------------------------------------------
@pytest.mark.parametrize(
    ("route", "body", "error"),
    [
        ("/sim/vote", {"user_id": -1}, "user_id: Input should be greater than or equal to 0"),
        ("/sim/vote", {"chat_id": 2**60}, "chat_id: Input should be less than 4503599627370496"),
        ("/sim/vote", {"chat_id": -(10**12)}, "chat_id: -1000000000000 is no Telegram chat id"),
        ("/sim/vote", {"message_id": -1}, "message_id: Input should be greater than or equal to 0"),
        ("/sim/vote", {"message_id": 2147483648}, "message_id: Input should be less than 2147483648"),
        ("/sim/pay", {"message_id": -1}, "message_id: Input should be greater than or equal to 0"),
        ("/sim/pay", {"tip": -1}, "tip: Input should be greater than or equal to 0"),
        ("/sim/pay", {"tip": 2**64}, "tip: Input should be less than 9223372036854775808"),
        ("/sim/edit", {"message_id": 2**40, "text": "x"}, "message_id: Input should be less than 2147483648"),
        ("/sim/delete", {"user_id": 2**64}, "user_id: Input should be less than 4503599627370496"),
        ("/sim/react", {"chat_id": -(2**60)}, "chat_id: Input should be greater than or equal to -1997852516351"),
        ("/sim/forward", {"from_chat_id": 2**63}, "from_chat_id: Input should be less than 4503599627370496"),
        ("/sim/emoji-status-access", {"user_id": -5}, "user_id: Input should be greater than or equal to 0"),
        ("/sim/reply-button", {"label": "x", "chat": 2**60}, "chat: Input should be less than 4503599627370496"),
    ],
)
async def test_ids_out_of_range_are_400s_before_any_lookup(
    wire: Wire, route: str, body: dict[str, Any], error: str
) -> None:
    """``/sim/vote {"user_id": -1}`` answered 403 ``Alice is not in chat -1`` (the user id read as a chat),
    ``{"chat_id": 2**60}`` and ``{"message_id": -1}`` 404s: the docs promise ``400 invalid JSON body: <field>``."""
    await wire.say("hi")
    before = await world(wire)
    assert await wire.sim("POST", route, body) == (400, {"error": f"invalid JSON body: {error}"})
    assert await world(wire) == before


async def test_the_edges_of_telegrams_ranges_are_taken(wire: Wire) -> None:
    """The last basic group and the last supergroup or channel id td has are chats; a person at 2^52-1 is one."""
    for cid in (-999_999_999_999, -1_997_852_516_351):
        assert (await wire.say("hi", chat_id=cid))["message_id"] == 1
    assert (await wire.say("hi", user_id=2**52 - 1))["message_id"] == 1


# --- people and bots by name ------------------------------------------------------------------------------------
async def test_a_new_chat_naming_a_bot_that_does_not_exist_is_refused_whole(wire: Wire) -> None:
    """``"members": ["@nobody_bot"]`` made a person named nobody_bot (and the chat) before."""
    before = await world(wire)
    body = {"title": "Club", "members": ["bob", "@nobody_bot"]}
    assert await wire.sim("POST", "/sim/chats", body) == (404, {"error": "no bot @nobody_bot"})
    assert await wire.sim("POST", "/sim/chats", {"title": "Club", "admins": ["@nobody_bot"]}) == (
        404,
        {"error": "no bot @nobody_bot"},
    )
    after = await world(wire)
    assert (after[0], after[1], after[3]) == (before[0], before[1], before[3])  # bob may be known now; no chat is


async def test_adding_a_bot_that_does_not_exist_is_a_404(wire: Wire) -> None:
    cid = await group(wire)
    before = await world(wire)
    assert await wire.sim("POST", f"/sim/chats/{cid}/add", {"user": "@nobody_bot"}) == (
        404,
        {"error": "no bot @nobody_bot"},
    )
    assert await world(wire) == before


async def test_a_bot_by_its_username_is_still_added(wire: Wire) -> None:
    await wire.ok("getMe")
    cid = await group(wire)
    status, body = await wire.sim("POST", f"/sim/chats/{cid}/add", {"user": "@tgfake_bot"})
    assert (status, body["status"]) == (200, "member")


async def test_a_person_is_never_named_with_an_at(wire: Wire) -> None:
    await wire.ok("getMe")
    assert await wire.sim("POST", "/sim/block", {"user": "@bob_the_person"}) == (
        404,
        {"error": "no bot @bob_the_person"},
    )
    assert await wire.sim("POST", "/sim/block", {"user": "@tgfake_bot"}) == (
        400,
        {"error": "@tgfake_bot is a bot, not a person"},
    )


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"user": 2**64}, "user: Input should be less than 4503599627370496"),
        ({"user": "18446744073709551616"}, "user: String should match pattern"),
        ({"user": "4503599627370496"}, "user: user id 4503599627370496 is out of range"),
        ({"user": 0}, "user: Input should be greater than or equal to 1"),
        ({"user": "<script>"}, "user: String should match pattern"),
        ({"user": "bob", "by": "no body"}, "by: String should match pattern"),
    ],
)
async def test_people_out_of_range_or_misnamed_are_400s(wire: Wire, body: dict[str, Any], error: str) -> None:
    """``/add {"user": 2**64}`` was taken."""
    cid = await group(wire)
    before = await world(wire)
    status, got = await wire.sim("POST", f"/sim/chats/{cid}/add", body)
    assert (status, got["error"][: len("invalid JSON body: ") + len(error)]) == (400, f"invalid JSON body: {error}")
    assert await world(wire) == before


# --- chats: ids, usernames, titles ------------------------------------------------------------------------------
USERNAME = "String should match pattern '^(@?[A-Za-z](?:_?[A-Za-z0-9])*)?$'"


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"id": -(2**60)}, "id: Input should be greater than or equal to -1997852516351"),
        ({"id": -(10**12)}, "id: -1000000000000 is no Telegram chat id"),
        ({"username": "<script>"}, f"username: {USERNAME}"),
        ({"username": "double__underscore"}, f"username: {USERNAME}"),
        ({"username": "ends_"}, f"username: {USERNAME}"),
        ({"username": "a" * 33}, "username: a" + "a" * 32 + " is not a Telegram username"),
        ({"title": "😀" * 10_000}, "title: String should have at most 128 characters"),
        ({"title": "x" * 129}, "title: String should have at most 128 characters"),
    ],
)
async def test_a_new_chat_outside_telegrams_bounds_is_refused(wire: Wire, body: dict[str, Any], error: str) -> None:
    """``{"id": -(2**60)}``, ``{"username": "<script>"}`` and a 10k-emoji title were taken."""
    before = await world(wire)
    assert await wire.sim("POST", "/sim/chats", {"title": "Club", **body}) == (
        400,
        {"error": f"invalid JSON body: {error}"},
    )
    assert await world(wire) == before


async def test_titles_are_counted_as_telegram_counts_them(wire: Wire) -> None:
    """Code points after td's cleaning: 128 emoji fit, and blanks that cleaning collapses do not count."""
    for title in ("😀" * 128, "  " + "x" * 64 + "\n\n\n" + "y" * 63 + "   "):
        cid = await group(wire, title=title)
        assert wire.stand.world.chats[cid].title == title
    cid = await group(wire, username="@Public_Club1")
    assert wire.stand.world.chats[cid].username == "Public_Club1"


async def test_a_group_title_a_message_gives_is_bounded_too(wire: Wire) -> None:
    assert await wire.sim("POST", "/sim/message", {"text": "hi", "chat_id": -5, "chat_title": "t" * 129}) == (
        400,
        {"error": "invalid JSON body: chat_title: String should have at most 128 characters"},
    )


# --- memberships: custom titles and dates -----------------------------------------------------------------------
async def test_a_custom_title_is_at_most_16_characters(wire: Wire) -> None:
    """A ``custom_title`` over 16 characters was taken."""
    cid = await group(wire, members=["bob"])
    before = await world(wire)
    assert await wire.sim("POST", f"/sim/chats/{cid}/promote", {"user": "bob", "custom_title": "x" * 17}) == (
        400,
        {"error": "invalid JSON body: custom_title: String should have at most 16 characters"},
    )
    assert await world(wire) == before
    status, body = await wire.sim("POST", f"/sim/chats/{cid}/promote", {"user": "bob", "custom_title": "я" * 16})
    assert (status, body["status"]) == (200, "administrator")


@pytest.mark.parametrize("until", [2**64, 2**31, -1])
async def test_dates_are_int32(wire: Wire, until: int) -> None:
    """``/restrict until_date: 2**64`` was taken."""
    cid = await group(wire, members=["bob"])
    before = await world(wire)
    status, body = await wire.sim("POST", f"/sim/chats/{cid}/restrict", {"user": "bob", "until_date": until})
    bound = "less than or equal to 2147483647" if until > 0 else "greater than or equal to 0"
    assert (status, body) == (400, {"error": f"invalid JSON body: until_date: Input should be {bound}"})
    assert await world(wire) == before


# --- topics, inline, payments -----------------------------------------------------------------------------------
COLORS = "7322096, 16766590, 13338331, 9367192, 16749490, 16478047"


@pytest.mark.parametrize("color", [16777216, 1, -1, 0xFFFFFF])
async def test_a_topic_colour_is_one_of_the_bot_apis_six(wire: Wire, color: int) -> None:
    """A topic with ``icon_color: 16777216`` was taken."""
    cid = await group(wire, is_forum=True)
    before = await world(wire)
    assert await wire.sim("POST", f"/sim/chats/{cid}/topics", {"name": "Tea", "icon_color": color}) == (
        400,
        {"error": f"invalid JSON body: icon_color: Input should be 0 or one of {COLORS}"},
    )
    assert await world(wire) == before
    status, body = await wire.sim("POST", f"/sim/chats/{cid}/topics", {"name": "Tea", "icon_color": 16478047})
    assert (status, body["topic"]["icon_color"]) == (200, 16478047)


async def test_an_inline_query_names_a_chat_type_from_its_values(wire: Wire) -> None:
    """``/sim/inline {"chat_type": "bogus"}`` was taken (then refused for the bot's inline mode)."""
    assert await wire.sim("POST", "/sim/inline", {"query": "x", "chat_type": "bogus"}) == (
        400,
        {"error": "invalid JSON body: chat_type: Input should be '', 'private', 'group', 'supergroup' or 'channel'"},
    )


async def test_a_stars_invoice_takes_no_shipping_option(wire: Wire) -> None:
    """``/sim/pay {"shipping_option_id": "nope"}`` on a Stars invoice waited for a query and answered ``timeout``."""
    await wire.ok("sendInvoice", chat_id=4242, prices=ONE, **STARS)
    assert await wire.sim("POST", "/sim/pay", {"shipping_option_id": "nope", "timeout": 0}) == (
        400,
        {"error": "a Stars invoice takes no shipping_option_id (there is no shipping query)"},
    )
    assert [u for u in await wire.ok("getUpdates", timeout=0) if "pre_checkout_query" in u] == []


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"members": ["bob", "bob"]}, 409, "bob is already in chat -1000000000001"),
        ({"members": ["alice"]}, 409, "alice is already in chat -1000000000001"),
        ({"type": "channel", "members": ["@tgfake_bot"]}, 400, CHANNEL_BOT),
        ({"admins": [4242]}, 400, "the owner of a chat is already its administrator"),
    ],
)
async def test_a_chat_refused_for_who_is_in_it_leaves_nothing(
    wire: Wire, body: dict[str, Any], status: int, error: str
) -> None:
    """The chat used to be made (and announced) before its lineup was refused."""
    await wire.ok("getMe")
    before = await world(wire)
    assert await wire.sim("POST", "/sim/chats", {"title": "Club", **body}) == (status, {"error": error})
    after = await world(wire)
    assert (after[0], after[1], after[3]) == (before[0], before[1], before[3])
