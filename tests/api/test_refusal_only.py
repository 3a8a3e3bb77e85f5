"""The refusal-only families: parameters checked, then what Telegram answers in a world without the thing."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiohttp import FormData
from telegram import Bot as PtbBot
from telegram.error import BadRequest
from telegram.request import HTTPXRequest

from tests import clients
from tests.conftest import Wire

NOT_FOUND = "Bad Request: business connection not found"
USER_NOT_FOUND = "Bad Request: user not found"
CHAT_NOT_FOUND = "Bad Request: chat not found"


@contextlib.asynccontextmanager
async def aiogram_bot(wire: Wire) -> AsyncIterator[Bot]:
    bot = clients.aiogram_bot(wire, "42:aiogram-token")
    try:
        yield bot
    finally:
        await bot.session.close()


# --- business connections ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("getBusinessConnection", {"business_connection_id": "bc-1"}),
        ("getBusinessConnection", {}),
        ("readBusinessMessage", {"business_connection_id": "bc-1", "chat_id": 4242, "message_id": 1}),
        ("deleteBusinessMessages", {"business_connection_id": "bc-1", "message_ids": "[1,2]"}),
        ("setBusinessAccountName", {"business_connection_id": "bc-1", "first_name": "Bob"}),
        ("setBusinessAccountUsername", {"business_connection_id": "bc-1", "username": "bob"}),
        ("setBusinessAccountBio", {"business_connection_id": "bc-1"}),
        ("removeBusinessAccountProfilePhoto", {"business_connection_id": "bc-1"}),
        (
            "setBusinessAccountGiftSettings",
            {
                "business_connection_id": "bc-1",
                "show_gift_button": "true",
                "accepted_gift_types": '{"unlimited_gifts":true,"limited_gifts":true,"unique_gifts":false,'
                '"premium_subscription":false}',
            },
        ),
        ("getBusinessAccountStarBalance", {"business_connection_id": "bc-1"}),
        ("transferBusinessAccountStars", {"business_connection_id": "bc-1", "star_count": 5}),
        ("getBusinessAccountGifts", {"business_connection_id": "bc-1"}),
    ],
)
async def test_every_business_method_finds_no_connection(wire: Wire, method: str, params: dict[str, object]) -> None:
    await wire.refused(method, 400, NOT_FOUND, **params)


async def test_the_photo_and_the_gift_types_are_read_before_the_connection(wire: Wire) -> None:
    """Client.cpp reads ``photo`` and ``accepted_gift_types`` (``TRY_RESULT``) before ``check_business_connection``."""
    await wire.refused(
        "setBusinessAccountProfilePhoto",
        400,
        'Bad Request: can\'t find field "type"',
        business_connection_id="bc-1",
        photo="{}",
    )
    await wire.refused(
        "setBusinessAccountGiftSettings",
        400,
        "Bad Request: accepted gift types aren't specified",
        business_connection_id="bc-1",
        show_gift_button="true",
    )


async def test_business_refusals_reach_aiogram_and_ptb_as_bad_requests(wire: Wire) -> None:
    async with aiogram_bot(wire) as bot:
        with pytest.raises(TelegramBadRequest) as caught:
            await bot.get_business_connection("bc-1")
        assert caught.value.message == NOT_FOUND
    ptb = PtbBot("43:ptb-token", base_url=str(wire.client.make_url("/bot")), request=HTTPXRequest())
    async with ptb:
        with pytest.raises(BadRequest, match="Business connection not found"):
            await ptb.get_business_account_star_balance("bc-1")


# --- stories ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "description"),
    [
        (None, "Bad Request: story content isn't specified"),
        ("{oops", "Bad Request: can't parse story content JSON object"),
        ("[]", "Bad Request: object expected as story content"),
        ("{}", 'Bad Request: can\'t find field "type"'),
        ('{"type": ["photo"]}', 'Bad Request: field "type" must be of type String'),
        ('{"type": "audio"}', "Bad Request: invalid story content type specified"),
        ('{"type": "photo"}', 'Bad Request: can\'t find field "photo"'),
        ('{"type": "photo", "photo": "file_1"}', "Bad Request: story photo must be uploaded as a file"),
        ('{"type": "video", "video": "attach://missing"}', "Bad Request: story video must be uploaded as a file"),
    ],
)
async def test_story_content_is_checked_before_the_connection(
    wire: Wire, content: str | None, description: str
) -> None:
    params: dict[str, object] = {"business_connection_id": "bc-1", "active_period": 86400}
    if content is not None:
        params["content"] = content
    await wire.refused("postStory", 400, description, **params)
    await wire.refused("editStory", 400, description, story_id=1, **params)


async def test_a_story_with_an_uploaded_photo_then_finds_no_connection(wire: Wire) -> None:
    form = FormData()
    form.add_field("business_connection_id", "bc-1")
    form.add_field("content", json.dumps({"type": "photo", "photo": "attach://pic"}))
    form.add_field("active_period", "86400")
    form.add_field("pic", b"\x89PNG", filename="p.png", content_type="image/png")
    resp = await wire.client.post(f"/bot{wire.token}/postStory", data=form)
    assert (resp.status, (await resp.json())["description"]) == (400, NOT_FOUND)
    await wire.refused("deleteStory", 400, NOT_FOUND, business_connection_id="bc-1", story_id=1)
    await wire.refused("repostStory", 400, NOT_FOUND, business_connection_id="bc-1", from_chat_id=1, story_id=1)


# --- gifts ------------------------------------------------------------------------------------------------------------
async def test_the_gift_catalogue_is_empty_for_aiogram(wire: Wire) -> None:
    assert await wire.ok("getAvailableGifts") == {"gifts": []}
    async with aiogram_bot(wire) as bot:
        gifts = await bot.get_available_gifts()
        assert gifts.gifts == []


async def test_owned_gifts_are_empty_for_known_people_and_chats(wire: Wire) -> None:
    await wire.refused("getUserGifts", 400, "Bad Request: invalid user_id specified")
    await wire.refused("getUserGifts", 400, USER_NOT_FOUND, user_id=4242)
    await wire.refused("getChatGifts", 400, "Bad Request: chat_id is empty")
    await wire.refused("getChatGifts", 400, CHAT_NOT_FOUND, chat_id=4242)
    await wire.say("hi")
    assert await wire.ok("getUserGifts", user_id=4242) == {"total_count": 0, "gifts": []}
    assert await wire.ok("getChatGifts", chat_id=4242) == {"total_count": 0, "gifts": []}
    await wire.refused("getChatGifts", 400, CHAT_NOT_FOUND, chat_id="@somewhere")
    async with aiogram_bot(wire) as bot:
        owned = await bot.get_user_gifts(user_id=4242)
        assert (owned.total_count, owned.gifts) == (0, [])


async def test_sending_a_gift_names_a_receiver_then_no_gift_exists(wire: Wire) -> None:
    await wire.refused("sendGift", 400, "Bad Request: invalid user_id specified", gift_id="1")
    await wire.refused("sendGift", 400, USER_NOT_FOUND, gift_id="1", user_id=4242)
    await wire.refused("sendGift", 400, CHAT_NOT_FOUND, gift_id="1", chat_id=-100123)
    await wire.say("hi")
    await wire.refused("sendGift", 400, "Bad Request: STARGIFT_INVALID", gift_id="1", user_id=4242)
    await wire.refused("sendGift", 400, "Bad Request: STARGIFT_INVALID", gift_id="1", chat_id=4242)


@pytest.mark.parametrize("method", ["convertGiftToStars", "upgradeGift"])
async def test_owned_gifts_are_managed_through_a_business_connection(wire: Wire, method: str) -> None:
    await wire.refused(method, 400, NOT_FOUND, business_connection_id="bc-1", owned_gift_id="g1")


async def test_transferring_a_gift_checks_the_new_owner_then_the_connection(wire: Wire) -> None:
    await wire.refused("transferGift", 400, "Bad Request: chat identifier is empty", business_connection_id="bc-1")
    await wire.refused("transferGift", 400, NOT_FOUND, business_connection_id="bc-1", new_owner_chat_id=4242)


# --- verification -----------------------------------------------------------------------------------------------------
async def test_the_bot_is_no_verification_bot(wire: Wire) -> None:
    forbidden = "Bad Request: BOT_VERIFIER_FORBIDDEN"
    await wire.refused("verifyUser", 400, USER_NOT_FOUND, user_id=4242)
    await wire.refused("verifyChat", 400, "Bad Request: chat_id is empty")
    await wire.refused("verifyChat", 400, CHAT_NOT_FOUND, chat_id=4242)
    await wire.say("hi")
    await wire.refused("verifyUser", 400, forbidden, user_id=4242, custom_description="ok")
    await wire.refused("verifyChat", 400, forbidden, chat_id=4242)
    await wire.refused("removeUserVerification", 400, "Bad Request: invalid user_id specified", user_id="x")
    await wire.refused("removeUserVerification", 400, forbidden, user_id=999)
    await wire.refused("removeChatVerification", 400, forbidden, chat_id=-100999)
    ptb = PtbBot("43:ptb-token", base_url=str(wire.client.make_url("/bot")), request=HTTPXRequest())
    async with ptb:
        with pytest.raises(BadRequest, match="Bot_verifier_forbidden"):
            await ptb.verify_user(4242)


# --- managed bots, suggested posts, boosts ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "method",
    ["getManagedBotToken", "replaceManagedBotToken", "getManagedBotAccessSettings", "setManagedBotAccessSettings"],
)
async def test_people_are_not_managed_bots(wire: Wire, method: str) -> None:
    await wire.refused(method, 400, "Bad Request: invalid user_id specified")
    await wire.refused(method, 400, USER_NOT_FOUND, user_id=4242)
    await wire.say("hi")
    await wire.refused(method, 400, "Bad Request: user is not a bot", user_id=4242)


@pytest.mark.parametrize("method", ["approveSuggestedPost", "declineSuggestedPost"])
async def test_a_message_that_is_no_suggested_post(wire: Wire, method: str) -> None:
    """The chat, the message (check_message), then TDLib's process_suggested_post (tests/channels for the model)."""
    await wire.refused(method, 400, "Bad Request: chat_id is empty", message_id=1)
    await wire.refused(method, 400, CHAT_NOT_FOUND, chat_id=-100123, message_id=1)
    await wire.say("hi")
    await wire.refused(method, 400, "Bad Request: suggested post not found", chat_id=4242, message_id=99)
    await wire.refused(method, 400, "Bad Request: message can't be used in the method", chat_id=4242, message_id=1)


async def test_nobody_boosts_a_chat(wire: Wire) -> None:
    await wire.refused("getUserChatBoosts", 400, "Bad Request: invalid user_id specified", chat_id=4242)
    await wire.refused("getUserChatBoosts", 400, "Bad Request: chat_id is empty", user_id=4242)
    await wire.refused("getUserChatBoosts", 400, CHAT_NOT_FOUND, chat_id=4242, user_id=4242)
    await wire.say("hi")
    assert await wire.ok("getUserChatBoosts", chat_id=4242, user_id=4242) == {"boosts": []}
    await wire.refused("getUserChatBoosts", 400, USER_NOT_FOUND, chat_id=4242, user_id=77)
