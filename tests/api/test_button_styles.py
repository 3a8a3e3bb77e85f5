"""Colored buttons over HTTP: ``style`` on inline and reply keyboard buttons, read as Client.cpp's
``get_button_style`` reads it (any case; ``default`` or empty for none) and written back as its
``JsonInlineKeyboardButton`` writes it; an unknown colour is refused in its words."""

from __future__ import annotations

import json
from typing import Any

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, KeyboardButton, ReplyKeyboardMarkup
from telegram.constants import KeyboardButtonStyle

from tests.clients import ptb_bot
from tests.conftest import Wire

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as "
    "a current content and reply markup of the message"
)


def inline(style: Any) -> str:
    return json.dumps({"inline_keyboard": [[{"text": "Go", "callback_data": "go", "style": style}]]})


@pytest.mark.parametrize(
    ("style", "shown"),
    [("primary", "primary"), ("DANGER", "danger"), ("Success", "success"), ("default", None), ("", None)],
)
async def test_an_inline_button_shows_its_style_as_telegram_writes_it(wire: Wire, style: str, shown: str) -> None:
    sent = await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=inline(style))
    button = sent["reply_markup"]["inline_keyboard"][0][0]
    assert button.get("style") == shown
    assert list(button) == (["text", "style", "callback_data"] if shown else ["text", "callback_data"])


@pytest.mark.parametrize(
    ("style", "problem"),
    [
        ("link", "invalid button style specified"),  # aiogram 3.31 names it; Client.cpp does not
        ("blue", "invalid button style specified"),
        (7, "invalid button style specified"),  # a number is read as its digits
        (True, 'Field "style" must be of type String'),
        (None, 'Field "style" must be of type String'),
    ],
)
async def test_an_unknown_style_is_refused(wire: Wire, style: Any, problem: str) -> None:
    await wire.refused(
        "sendMessage",
        400,
        f"Bad Request: can't parse inline keyboard button: {problem}",
        chat_id=4242,
        text="x",
        reply_markup=inline(style),
    )
    keyboard = json.dumps({"keyboard": [[{"text": "A", "style": style}]]})
    await wire.refused(
        "sendMessage",
        400,
        f"Bad Request: can't parse keyboard button: {problem}",
        chat_id=4242,
        text="x",
        reply_markup=keyboard,
    )


async def test_a_style_is_read_before_the_button_kind(wire: Wire) -> None:
    """Client.cpp reads text, icon and style before the button's type, so a bad style names itself first."""
    keyboard = json.dumps({"keyboard": [[{"text": "A", "style": "x", "request_poll": 1}]]})
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: can't parse keyboard button: invalid button style specified",
        chat_id=4242,
        text="x",
        reply_markup=keyboard,
    )


async def test_a_new_style_is_a_modification(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=inline("primary"))
    await wire.refused(
        "editMessageReplyMarkup", 400, NOT_MODIFIED, chat_id=4242, message_id=1, reply_markup=inline("PRIMARY")
    )
    edited = await wire.ok("editMessageReplyMarkup", chat_id=4242, message_id=1, reply_markup=inline("danger"))
    assert edited["reply_markup"]["inline_keyboard"][0][0]["style"] == "danger"


async def test_a_reply_button_keeps_its_style_in_the_persons_view(wire: Wire) -> None:
    keyboard = json.dumps({"keyboard": [[{"text": "Yes", "style": "Success"}, "No"]]})
    await wire.ok("sendMessage", chat_id=4242, text="Sure?", reply_markup=keyboard)
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["reply_keyboard"]["keyboard"] == [[{"text": "Yes", "style": "success"}, {"text": "No"}]]


async def test_python_telegram_bot_reads_the_style_back(wire: Wire) -> None:
    async with ptb_bot(wire) as bot:
        sent = await bot.send_message(
            4242,
            "colours",
            reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("Stop", callback_data="stop", style=KeyboardButtonStyle.DANGER)]]
            ),
        )
        await bot.send_message(
            4242,
            "reply",
            reply_markup=ReplyKeyboardMarkup([[KeyboardButton("Ok", style=KeyboardButtonStyle.PRIMARY)]]),
        )
    assert sent.reply_markup is not None
    assert sent.reply_markup.inline_keyboard[0][0].style == "danger"
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["reply_keyboard"]["keyboard"] == [[{"text": "Ok", "style": "primary"}]]
