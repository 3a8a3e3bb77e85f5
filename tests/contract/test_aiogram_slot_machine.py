"""A slot-machine game on aiogram 3, the real bot of issue 20: a reply keyboard on sendDice, the die's value read
back, and ReplyKeyboardRemove on the send that ends the game. aiogram's own warnings and errors (a handler that
raised because the stand refused a call) fail the test."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from aiogram import Dispatcher, F
from aiogram.filters import CommandStart
from aiogram.types import KeyboardButton, Message, ReplyKeyboardMarkup, ReplyKeyboardRemove

from tests.conftest import Wire
from tests.contract.running import aiogram_bot, aiogram_polling

SPIN = "🎰 Try it!"
STOP = "Cash out"
KEYBOARD = ReplyKeyboardMarkup(
    keyboard=[[KeyboardButton(text=SPIN)], [KeyboardButton(text=STOP)]], resize_keyboard=True
)
JACKPOT = 64  # 🎰's highest value: three sevens


class Complaints(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture(autouse=True)
def complaints() -> Iterator[Complaints]:
    handler = Complaints()
    logger = logging.getLogger("aiogram")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
    assert handler.lines == []


def slot_machine() -> tuple[Dispatcher, list[int]]:
    """The game: /start shows the keyboard, each spin is a 🎰 die sent with the keyboard again and its result,
    cashing out thanks the player and takes the keyboard away. ``rolled`` is what aiogram read back."""
    dp = Dispatcher()
    rolled: list[int] = []

    @dp.message(CommandStart())
    async def start(message: Message) -> None:
        await message.answer("Welcome to the casino! Spin the wheel.", reply_markup=KEYBOARD)

    @dp.message(F.text == SPIN)
    async def spin(message: Message) -> None:
        sent = await message.answer_dice(emoji="🎰", reply_markup=KEYBOARD)
        assert sent.dice is not None
        rolled.append(sent.dice.value)
        await message.answer("Jackpot!" if sent.dice.value == JACKPOT else f"You rolled {sent.dice.value}.")

    @dp.message(F.text == STOP)
    async def stop(message: Message) -> None:
        await message.answer(f"Thanks for playing: {len(rolled)} spins.", reply_markup=ReplyKeyboardRemove())

    return dp, rolled


async def press(wire: Wire, label: str) -> tuple[int, Any]:
    return await wire.sim("POST", "/sim/reply-button", {"label": label})


async def test_the_slot_machine_plays_with_a_reply_keyboard_on_its_dice(wire: Wire) -> None:
    dp, rolled = slot_machine()
    async with aiogram_polling(dp, aiogram_bot(wire)):
        await wire.say("/start")
        assert len(await wire.stand.wait_calls("sendMessage", 1, 10)) == 1
        for spins in (1, 2):
            status, body = await press(wire, SPIN)
            assert status == 200, body
            dice = await wire.stand.wait_calls("sendDice", spins, 10)
            assert [c.status for c in dice] == [200] * spins, [c.response for c in dice]
            assert len(await wire.stand.wait_calls("sendMessage", 1 + spins, 10)) == 1 + spins
            _, chat = await wire.sim("GET", "/sim/chat/4242")
            die = chat["messages"][-2]
            assert (die["kind"], die["dice"]["emoji"]) == ("dice", "🎰")
            assert chat["reply_keyboard"] == {
                "message_id": die["message_id"],
                "keyboard": [[{"text": SPIN}], [{"text": STOP}]],
                "resize_keyboard": True,
            }
        status, body = await press(wire, STOP)
        assert status == 200, body
        assert len(await wire.stand.wait_calls("sendMessage", 4, 10)) == 4
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    values = [m["dice"]["value"] for m in chat["messages"] if m.get("kind") == "dice"]
    assert values == rolled
    assert all(1 <= v <= JACKPOT for v in values)
    assert "reply_keyboard" not in chat  # cashed out: the keyboard is gone
    assert chat["messages"][-1]["text"] == "Thanks for playing: 2 spins."
    assert chat["messages"][-1]["reply_keyboard"] == {"remove_keyboard": True}
    status, body = await press(wire, SPIN)
    assert (status, body["error"]) == (404, "alice has no reply keyboard in chat 4242")
