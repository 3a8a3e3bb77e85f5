"""A slot-machine game on aiogram 3, the real bot of issue 20: a reply keyboard on sendDice, the die's value read
back, and ReplyKeyboardRemove on the send that ends the game. aiogram's own warnings and errors (a handler that
raised because the stand refused a call) fail the test."""

from __future__ import annotations

from typing import Any

from aiogram import Dispatcher, F
from aiogram.filters import CommandStart
from aiogram.types import KeyboardButton, Message, ReplyKeyboardMarkup, ReplyKeyboardRemove

from tests.conftest import Wire
from tests.contract import aiogram_support
from tests.contract.running import aiogram_bot, aiogram_polling

SPIN = "🎰 Try it!"
KEYBOARD = ReplyKeyboardMarkup(keyboard=[[KeyboardButton(text=SPIN)]], resize_keyboard=True)
JACKPOT = 64  # 🎰's highest value: three sevens
COINS = 2


complaints = aiogram_support.complaints  # the autouse fixture: a complaint logged fails every test here


def slot_machine() -> tuple[Dispatcher, list[int]]:
    """The game: /start shows the keyboard and gives two coins; each spin is a 🎰 die sent with the keyboard, then
    its result; the result of the last coin's spin takes the keyboard away (ReplyKeyboardRemove on the send after
    the die). ``rolled`` is what aiogram read back from sendDice."""
    dp = Dispatcher()
    rolled: list[int] = []

    @dp.message(CommandStart())
    async def start(message: Message) -> None:
        await message.answer(f"Welcome to the casino! You have {COINS} coins.", reply_markup=KEYBOARD)

    @dp.message(F.text == SPIN)
    async def spin(message: Message) -> None:
        sent = await message.answer_dice(emoji="🎰", reply_markup=KEYBOARD)
        assert sent.dice is not None
        rolled.append(sent.dice.value)
        result = "Jackpot!" if sent.dice.value == JACKPOT else f"You rolled {sent.dice.value}."
        if len(rolled) < COINS:
            await message.answer(result)
        else:
            await message.answer(f"{result} Out of coins, thanks for playing.", reply_markup=ReplyKeyboardRemove())

    return dp, rolled


async def press(wire: Wire, label: str) -> tuple[int, Any]:
    return await wire.sim("POST", "/sim/reply-button", {"label": label})


async def test_the_slot_machine_plays_with_a_reply_keyboard_on_its_dice(wire: Wire) -> None:
    dp, rolled = slot_machine()
    async with aiogram_polling(dp, aiogram_bot(wire)):
        await wire.say("/start")
        assert len(await wire.stand.wait_calls("sendMessage", 1, 10)) == 1
        for spins in range(1, COINS + 1):
            status, body = await press(wire, SPIN)
            assert status == 200, body
            dice = await wire.stand.wait_calls("sendDice", spins, 10)
            assert [c.status for c in dice] == [200] * spins, [c.response for c in dice]
            results = await wire.stand.wait_calls("sendMessage", 1 + spins, 10)
            assert [c.status for c in results] == [200] * (1 + spins), [c.response for c in results]
            _, chat = await wire.sim("GET", "/sim/chat/4242")
            die, result = chat["messages"][-2:]
            assert (die["kind"], die["dice"]["emoji"]) == ("dice", "🎰")
            assert die["reply_keyboard"] == {"keyboard": [[{"text": SPIN}]], "resize_keyboard": True}
            if spins < COINS:  # the die's keyboard is the one the player has
                assert "reply_keyboard" not in result
                assert chat["reply_keyboard"] == {"message_id": die["message_id"], **die["reply_keyboard"]}
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    values = [m["dice"]["value"] for m in chat["messages"] if m.get("kind") == "dice"]
    assert values == rolled
    assert all(1 <= v <= JACKPOT for v in values)
    last = chat["messages"][-1]
    assert last["text"].endswith("Out of coins, thanks for playing.")
    assert last["reply_keyboard"] == {"remove_keyboard": True}  # on the send right after the last die
    assert "reply_keyboard" not in chat  # the keyboard is gone
    status, body = await press(wire, SPIN)
    assert (status, body["error"]) == (404, "alice has no reply keyboard in chat 4242")
