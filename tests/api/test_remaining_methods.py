"""Issue 12's remaining methods through the wire: each refusal's status and words, and what the modelled ones change.

Ephemeral messages do not exist in the stand (refusal-only), nor does a join request query nobody asked (the
modelled queries and guest queries: tests/channels/test_queries.py); the sticker
set of a supergroup, member tags, Premium gifts, emoji statuses, passport data errors and personal chats are
modelled as far as the world has them.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.api.test_payments import next_update
from tests.api.test_stickers import make_set
from tests.conftest import Wire
from tests.world.helpers import ALICE, BOB, BOT, add_bot, make_chat, sim_ok

USER_NOT_FOUND = "Bad Request: user not found"
CHAT_NOT_FOUND = "Bad Request: chat not found"
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
EPHEMERAL_METHODS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("deleteEphemeralMessage", {}),
    ("editEphemeralMessageText", {"text": "hi"}),
    ("editEphemeralMessageCaption", {"caption": "hi"}),
    ("editEphemeralMessageMedia", {"media": json.dumps({"type": "photo", "media": "file_1"})}),
    ("editEphemeralMessageReplyMarkup", {}),
)


# --- ephemeral messages --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("method", "extra"), EPHEMERAL_METHODS)
async def test_ephemeral_methods_check_receiver_and_chat_then_find_no_message(
    wire: Wire, method: str, extra: dict[str, Any]
) -> None:
    cid = await make_chat(wire, members=["bob"], admins=[BOT])
    base = {"chat_id": cid, "ephemeral_message_id": 7, **extra}
    await wire.refused(method, 400, "Bad Request: invalid receiver_user_id specified", **base)
    await wire.refused(method, 400, "Bad Request: invalid receiver_user_id specified", receiver_user_id="x", **base)
    no_chat = {k: v for k, v in base.items() if k != "chat_id"}
    await wire.refused(method, 400, "Bad Request: chat_id is empty", receiver_user_id=BOB, **no_chat)
    await wire.refused(method, 400, CHAT_NOT_FOUND, receiver_user_id=BOB, chat_id=-100987, **no_chat)
    await wire.refused(method, 400, "Bad Request: can't access the user", receiver_user_id=987654, **base)
    await wire.refused(method, 400, "Bad Request: MESSAGE_ID_INVALID", receiver_user_id=BOB, **base)


# --- join request queries ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("answerChatJoinRequestQuery", {"chat_join_request_query_id": "12", "result": "approve"}),
        ("sendChatJoinRequestWebApp", {"chat_join_request_query_id": "12", "web_app_url": "https://example.com/"}),
    ],
)
async def test_join_request_queries_are_never_open(wire: Wire, method: str, params: dict[str, Any]) -> None:
    await wire.refused(method, 400, QUERY_INVALID, **params)


# --- a supergroup's sticker set ------------------------------------------------------------------------------------
async def test_a_supergroup_gets_a_sticker_set_and_loses_it(wire: Wire) -> None:
    await make_set(wire)
    cid = await make_chat(wire, members=["bob"], admins=[BOT])
    info = await wire.ok("getChat", chat_id=cid)
    assert ("sticker_set_name" in info, info["can_set_sticker_set"]) == (False, True)
    assert await wire.ok("setChatStickerSet", chat_id=cid, sticker_set_name="CATS_by_tgfake_bot") is True
    assert (await wire.ok("getChat", chat_id=cid))["sticker_set_name"] == "cats_by_tgfake_bot"
    assert await wire.ok("deleteChatStickerSet", chat_id=cid) is True
    assert "sticker_set_name" not in await wire.ok("getChat", chat_id=cid)


async def test_sticker_set_refusals_in_the_servers_order(wire: Wire) -> None:
    await make_set(wire)
    cid = await make_chat(wire, members=["bob"], admins=[BOT])
    group = await make_chat(wire, type="group", members=[BOT])
    plain = await make_chat(wire, members=[BOT])
    await wire.refused("setChatStickerSet", 400, "Bad Request: chat_id is empty", sticker_set_name="x")
    await wire.refused("setChatStickerSet", 400, CHAT_NOT_FOUND, chat_id=-100987, sticker_set_name="x")
    only = "Bad Request: method is available only for supergroups"
    await wire.refused("setChatStickerSet", 400, only, chat_id=group, sticker_set_name="cats_by_tgfake_bot")
    await wire.refused("deleteChatStickerSet", 400, only, chat_id=group)
    await wire.refused("setChatStickerSet", 400, "Bad Request: sticker_set_name is empty", chat_id=cid)
    await wire.refused(
        "setChatStickerSet", 400, "Bad Request: sticker set not found", chat_id=cid, sticker_set_name="no"
    )
    rights = "Bad Request: not enough rights to change supergroup sticker set"
    await wire.refused("setChatStickerSet", 400, rights, chat_id=plain, sticker_set_name="cats_by_tgfake_bot")
    await wire.refused("deleteChatStickerSet", 400, rights, chat_id=plain)
    assert "can_set_sticker_set" not in await wire.ok("getChat", chat_id=plain)


# --- member tags ---------------------------------------------------------------------------------------------------
async def test_a_member_gets_a_tag_and_an_administrator_a_custom_title(wire: Wire) -> None:
    await add_bot(wire)
    cid = await make_chat(wire, members=["bob"], admins=[BOT, "carol"])
    assert await wire.ok("setChatMemberTag", chat_id=cid, user_id=BOB, tag="scribe") is True
    member = await wire.ok("getChatMember", chat_id=cid, user_id=BOB)
    assert (member["status"], member["tag"]) == ("member", "scribe")
    assert await wire.ok("setChatMemberTag", chat_id=cid, user_id=4444, tag="chief") is True
    admin = await wire.ok("getChatMember", chat_id=cid, user_id=4444)
    assert (admin["status"], admin.get("custom_title"), "tag" in admin) == ("administrator", "chief", False)
    assert await wire.ok("setChatMemberTag", chat_id=cid, user_id=BOB) is True  # no tag clears it
    assert "tag" not in await wire.ok("getChatMember", chat_id=cid, user_id=BOB)


async def test_member_tag_refusals(wire: Wire) -> None:
    cid = await make_chat(wire, members=["bob"], admins=[BOT])
    plain = await make_chat(wire, members=[BOT, "bob"])
    await wire.refused("setChatMemberTag", 400, "Bad Request: invalid user_id specified", chat_id=cid, tag="x")
    await wire.refused("setChatMemberTag", 400, "Bad Request: chat_id is empty", user_id=BOB, tag="x")
    await wire.say("hi")
    only = "Bad Request: method is available only for groups and supergroups"
    await wire.refused("setChatMemberTag", 400, only, chat_id=ALICE, user_id=BOB, tag="x")
    await wire.refused("setChatMemberTag", 400, USER_NOT_FOUND, chat_id=cid, user_id=987654, tag="x")
    await wire.refused("setChatMemberTag", 400, "Bad Request: CHAT_ADMIN_REQUIRED", chat_id=plain, user_id=BOB, tag="x")
    await sim_ok(wire, "/sim/message", {"text": "hi", "user_id": 4646, "username": "eve"})
    await wire.refused("setChatMemberTag", 400, "Bad Request: USER_NOT_PARTICIPANT", chat_id=cid, user_id=4646, tag="x")


# --- Premium gifts -------------------------------------------------------------------------------------------------
async def fund(wire: Wire, stars: int) -> None:
    """The bot earns ``stars`` from alice paying a Stars invoice (and answering her pre-checkout query)."""
    await wire.say("hi")
    prices = json.dumps([{"label": "Stars", "amount": stars}])
    invoice = {"title": "T", "description": "D", "payload": "p", "currency": "XTR", "prices": prices}
    await wire.ok("sendInvoice", chat_id=ALICE, **invoice)
    paying = asyncio.create_task(wire.sim("POST", "/sim/pay", {"chat_id": ALICE}))
    query = await next_update(wire, "pre_checkout_query")
    await wire.ok("answerPreCheckoutQuery", pre_checkout_query_id=query["id"], ok="true")
    status, outcome = await paying
    assert (status, outcome["status"]) == (200, "paid"), outcome


async def test_premium_gift_refusals_in_order(wire: Wire) -> None:
    gift = "giftPremiumSubscription"
    await wire.refused(gift, 400, "Bad Request: invalid user_id specified", month_count=3, star_count=1000)
    await wire.refused(gift, 400, USER_NOT_FOUND, user_id=987654, month_count=3, star_count=1000)
    await wire.say("hi")
    bad_amount = "Bad Request: invalid amount of the currency specified"
    await wire.refused(gift, 400, bad_amount, user_id=ALICE, month_count=3, star_count=0)
    await wire.refused(gift, 400, bad_amount, user_id=ALICE, month_count=3, star_count="-5")
    wrong = "Bad Request: wrong Premium subscription price specified"
    await wire.refused(gift, 400, wrong, user_id=ALICE, month_count=3, star_count=1500)
    await wire.refused(gift, 400, wrong, user_id=ALICE, month_count=4, star_count=1000)
    await wire.refused(gift, 400, "Bad Request: BALANCE_TOO_LOW", user_id=ALICE, month_count=3, star_count=1000)
    unclosed = "Bad Request: can't parse entities: Can't find end of Bold entity at byte offset 0"
    await wire.refused(
        gift, 400, unclosed, user_id=ALICE, month_count=3, star_count=1000, text="*x", text_parse_mode="MarkdownV2"
    )


async def test_a_premium_gift_is_paid_from_the_bots_stars(wire: Wire) -> None:
    await fund(wire, 1600)
    assert await wire.ok("giftPremiumSubscription", user_id=ALICE, month_count=6, star_count=1500, text="enjoy") is True
    assert await wire.ok("getMyStarBalance") == {"amount": 100}
    newest = (await wire.ok("getStarTransactions"))["transactions"][0]
    assert (newest["amount"], newest["receiver"]["transaction_type"]) == (1500, "premium_purchase")
    assert (newest["receiver"]["user"]["id"], newest["receiver"]["premium_subscription_duration"]) == (ALICE, 6)
    member = await wire.ok("getChatMember", chat_id=ALICE, user_id=ALICE)
    assert member["user"]["is_premium"] is True
    low = "Bad Request: BALANCE_TOO_LOW"
    await wire.refused("giftPremiumSubscription", 400, low, user_id=ALICE, month_count=3, star_count=1000)


# --- emoji statuses, personal chats, passport data errors ------------------------------------------------------------
async def test_an_emoji_status_needs_the_persons_leave(wire: Wire) -> None:
    set_status = "setUserEmojiStatus"
    await wire.refused(set_status, 400, "Bad Request: invalid user_id specified", emoji_status_custom_emoji_id=5)
    await wire.refused(set_status, 400, USER_NOT_FOUND, user_id=987654, emoji_status_custom_emoji_id=5)
    await wire.say("hi")
    forbidden = "Forbidden: not enough rights to change the user's emoji status"
    await wire.refused(set_status, 403, forbidden, user_id=ALICE, emoji_status_custom_emoji_id=5)
    granted = await sim_ok(wire, "/sim/emoji-status-access", {"user_id": ALICE})
    assert (granted["allowed"], granted["emoji_status"]) == (True, None)
    params = {"user_id": ALICE, "emoji_status_custom_emoji_id": "5123", "emoji_status_expiration_date": 1900000000}
    assert await wire.ok(set_status, **params) is True
    seen = await sim_ok(wire, "/sim/emoji-status-access", {"user_id": ALICE})
    assert seen["emoji_status"] == {"custom_emoji_id": "5123", "expiration_date": 1900000000}
    info = await wire.ok("getChat", chat_id=ALICE)
    assert (info["emoji_status_custom_emoji_id"], info["emoji_status_expiration_date"]) == ("5123", 1900000000)
    assert list(info)[-3:] == ["emoji_status_expiration_date", "max_reaction_count", "accent_color_id"]
    assert await wire.ok(set_status, user_id=ALICE) is True  # no emoji id clears the status
    assert "emoji_status_custom_emoji_id" not in await wire.ok("getChat", chat_id=ALICE)
    revoked = await sim_ok(wire, "/sim/emoji-status-access", {"user_id": ALICE, "allowed": False})
    assert (revoked["allowed"], revoked["emoji_status"]) == (False, None)
    await wire.refused(set_status, 403, forbidden, user_id=ALICE, emoji_status_custom_emoji_id=5)


async def test_personal_chat_messages_are_the_newest_posts_of_the_channel_on_the_profile(wire: Wire) -> None:
    get = "getUserPersonalChatMessages"
    await wire.refused(get, 400, "Bad Request: invalid user_id specified", limit=5)
    await wire.refused(get, 400, USER_NOT_FOUND, user_id=987654, limit=5)
    await wire.say("hi")
    await wire.refused(get, 400, "Bad Request: limit must be positive", user_id=ALICE, limit=0)
    await wire.refused(get, 400, "Bad Request: limit must be positive", user_id=ALICE, limit="-3")
    assert await wire.ok(get, user_id=ALICE, limit=50) == []  # no personal chat on the profile
    channel = await make_chat(wire, type="channel", title="Alice writes", admins=["@tgfake_bot"])
    for text in ("one", "two", "three"):
        await wire.ok("sendMessage", chat_id=channel, text=text)
    group = await make_chat(wire, type="supergroup", title="Not a channel")
    status, out = await wire.sim("POST", "/sim/profile", {"user": ALICE, "personal_chat": group})
    assert (status, out) == (400, {"error": f"personal_chat: {group} is no channel of the stand (POST /sim/chats "
                                            "makes one)"})  # fmt: skip
    assert (await sim_ok(wire, "/sim/profile", {"user": ALICE, "personal_chat": channel}))["personal_chat"] == channel
    got = await wire.ok(get, user_id=ALICE, limit=2)  # the newest first, at most limit
    assert [(m["chat"]["id"], m["text"]) for m in got] == [(channel, "three"), (channel, "two")]
    assert len(await wire.ok(get, user_id=ALICE, limit=50)) == 3  # clamped to 20, fewer there
    shown = (await wire.ok("getChat", chat_id=ALICE))["personal_chat"]
    assert shown == {"id": channel, "type": "channel", "title": "Alice writes"}
    await sim_ok(wire, "/sim/profile", {"user": ALICE, "personal_chat": 0})
    assert await wire.ok(get, user_id=ALICE, limit=5) == []
    assert "personal_chat" not in await wire.ok("getChat", chat_id=ALICE)


GOOD_HASH = "c2VjcmV0"


@pytest.mark.parametrize(
    ("errors", "description"),
    [
        (None, "Bad Request: can't parse errors JSON object"),
        ("{", "Bad Request: can't parse errors JSON object"),
        ("{}", "Bad Request: expected an Array of PassportElementError"),
        ("[1]", "Bad Request: can't parse PassportElementError: expected an Object"),
        ("[{}]", "Bad Request: can't parse PassportElementError: Can't find field \"type\""),
        (
            '[{"type": "visa"}]',
            "Bad Request: can't parse PassportElementError: wrong Telegram Passport element type specified",
        ),
        ('[{"type": "passport"}]', "Bad Request: can't parse PassportElementError: Can't find field \"message\""),
        (
            '[{"type": "passport", "message": "m", "source": "moon"}]',
            "Bad Request: can't parse PassportElementError: wrong source specified",
        ),
        (
            '[{"type": "passport", "message": "m", "element_hash": "a$"}]',
            "Bad Request: can't parse PassportElementError: hash isn't a valid base64-encoded string",
        ),
        (
            '[{"type": "passport", "message": "m", "source": "data", "data_hash": "c2VjcmV0"}]',
            "Bad Request: can't parse PassportElementError: Can't find field \"field_name\"",
        ),
        (
            '[{"type": "passport", "message": "m", "source": "files", "file_hashes": "x"}]',
            'Bad Request: can\'t parse PassportElementError: Field "file_hashes" must be of type Array',
        ),
        (
            '[{"type": "passport", "message": "m", "source": "files", "file_hashes": [1]}]',
            "Bad Request: can't parse PassportElementError: hash must be a string",
        ),
    ],
)
async def test_passport_errors_are_read_as_the_server_reads_them(
    wire: Wire, errors: str | None, description: str
) -> None:
    await wire.say("hi")
    params: dict[str, Any] = {"user_id": ALICE}
    if errors is not None:
        params["errors"] = errors
    await wire.refused("setPassportDataErrors", 400, description, **params)


async def test_passport_errors_are_kept_for_a_known_person(wire: Wire) -> None:
    good = [
        {"type": "passport", "message": "blurry", "source": "front_side", "file_hash": GOOD_HASH},
        {"type": "email", "message": "wrong", "element_hash": GOOD_HASH},
        {"type": "utility_bill", "message": "old", "source": "files", "file_hashes": [GOOD_HASH, ""]},
    ]
    await wire.refused("setPassportDataErrors", 400, USER_NOT_FOUND, user_id=987654, errors=json.dumps(good))
    await wire.say("hi")
    assert await wire.ok("setPassportDataErrors", user_id=ALICE, errors=json.dumps(good)) is True
    kept = wire.stand.world.grants.passport_errors[(BOT, ALICE)]
    assert [(e["type"], e["source"]) for e in kept] == [
        ("passport", "front_side"),
        ("email", "unspecified"),
        ("utility_bill", "files"),
    ]
