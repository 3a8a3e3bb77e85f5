"""Reply keyboards with real libraries as oracles: they build the markup, and parse what each press sends."""

from __future__ import annotations

from typing import Any

from aiogram.types import KeyboardButton as AgButton
from aiogram.types import KeyboardButtonRequestChat, KeyboardButtonRequestUsers, WebAppInfo
from aiogram.types import ReplyKeyboardMarkup as AgMarkup
from telegram import KeyboardButton, ReplyKeyboardMarkup, ReplyKeyboardRemove

from tests.clients import aiogram_bot, ptb_bot
from tests.conftest import Wire


async def press(wire: Wire, **body: Any) -> None:
    status, answer = await wire.sim("POST", "/sim/reply-button", body)
    assert status == 200, answer


async def test_ptb_conversation_with_a_gender_keyboard_and_a_location_step(wire: Wire) -> None:
    """The shape of PTB's conversationbot example: [Boy] [Girl] [Other], then the person's location."""
    async with ptb_bot(wire) as bot:
        await bot.send_message(
            4242,
            "Are you a boy or a girl?",
            reply_markup=ReplyKeyboardMarkup(
                [["Boy", "Girl", "Other"]], one_time_keyboard=True, input_field_placeholder="Boy or Girl?"
            ),
        )
        assert "    keyboard: [Boy] [Girl] [Other] (one-time)" in await wire.text()
        await press(wire, label="Boy")
        [update] = await bot.get_updates(timeout=0)
        assert update.message is not None
        assert update.message.text == "Boy"
        await bot.send_message(4242, "I see! Where are you?", reply_markup=ReplyKeyboardRemove())
        await bot.send_message(
            4242,
            "Share it",
            reply_markup=ReplyKeyboardMarkup([[KeyboardButton("Send location", request_location=True)]]),
        )
        await press(wire, label="Send location", latitude=48.8584, longitude=2.2945)
        [update] = await bot.get_updates(offset=update.update_id + 1, timeout=0)
    assert update.message is not None
    assert update.message.location is not None
    assert (update.message.location.latitude, update.message.location.longitude) == (48.8584, 2.2945)
    assert update.message.from_user is not None
    assert update.message.from_user.id == 4242


async def test_aiogram_parses_contact_users_chat_and_web_app_data(wire: Wire) -> None:
    status, made = await wire.sim("POST", "/sim/chats", {"title": "Club", "members": ["bob"]})
    assert status == 200, made
    markup = AgMarkup(
        keyboard=[
            [
                AgButton(text="Phone", request_contact=True),
                AgButton(text="App", web_app=WebAppInfo(url="https://a.example")),
            ],
            [AgButton(text="Friend", request_users=KeyboardButtonRequestUsers(request_id=3, request_name=True))],
            [AgButton(text="Group", request_chat=KeyboardButtonRequestChat(request_id=4, chat_is_channel=False))],
        ],
        resize_keyboard=True,
    )
    bot = aiogram_bot(wire)
    try:
        await bot.send_message(4242, "share", reply_markup=markup)
        await press(wire, label="Phone")
        await press(wire, label="App", data="order:42")
        await press(wire, label="Friend", users=["bob"])
        await press(wire, label="Group", chat=made["chat"]["id"])
        updates = await bot.get_updates(timeout=0)
    finally:
        await bot.session.close()
    messages = [u.message for u in updates]
    assert all(m is not None for m in messages)
    contact, app, friend, group = (m for m in messages if m is not None)
    assert contact.contact is not None
    assert contact.contact.user_id == 4242
    assert app.web_app_data is not None
    assert (app.web_app_data.data, app.web_app_data.button_text) == ("order:42", "App")
    assert friend.users_shared is not None
    assert friend.users_shared.request_id == 3
    assert friend.users_shared.users[0].first_name == "Bob"
    assert group.chat_shared is not None
    assert group.chat_shared.chat_id == made["chat"]["id"]
