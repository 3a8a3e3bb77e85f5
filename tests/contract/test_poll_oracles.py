"""A poll bot and a quiz bot in python-telegram-bot and aiogram, polling the stand unchanged: the person votes
through ``POST /sim/vote``, the libraries parse every Poll, PollAnswer and stopPoll answer (their types are the
oracle of the wire format)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio
from aiogram import Dispatcher
from aiogram.filters import Command
from aiogram.types import InputPollOption as AiogramOption
from aiogram.types import Message as AiogramMessage
from aiogram.types import Poll as AiogramPoll
from aiogram.types import PollAnswer as AiogramAnswer
from telegram import Poll, Update
from telegram.ext import CommandHandler, ContextTypes, PollAnswerHandler, PollHandler

from tests.clients import PtbApp, aiogram_bot, aiogram_polling, ptb_polling
from tests.conftest import Wire
from tgfake.world.people import user_id_for

BOB = user_id_for("bob")


async def vote(wire: Wire, message_id: int, options: list[int], **who: Any) -> None:
    status, answer = await wire.sim("POST", "/sim/vote", {"message_id": message_id, "options": options, **who})
    assert status == 200, answer


async def until(wire: Wire, done: Any) -> None:
    """Hold, one answered ``getUpdates`` at a time (a signal, not a sleep), until the bot has handled ``done()``."""
    for _ in range(20):
        if done():
            return
        await wire.stand.wait_calls("getUpdates", len(wire.stand.calls("getUpdates")) + 1, 2)
    assert done()


# --- python-telegram-bot: the shape of its pollbot.py example ----------------------------------------------------
async def poll(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    sent = await context.bot.send_poll(
        update.effective_chat.id,
        "How are you?",
        ["Good", "Really good", "Fantastic"],
        is_anonymous=False,
        allows_multiple_answers=True,
    )
    assert sent.poll is not None
    context.bot_data[sent.poll.id] = {"chat_id": sent.chat.id, "message_id": sent.message_id, "answers": 0}


async def receive_poll_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    answer = update.poll_answer
    assert answer is not None
    assert answer.user is not None
    asked = context.bot_data[answer.poll_id]
    labels = ["Good", "Really good", "Fantastic"]
    chosen = " and ".join(labels[i] for i in answer.option_ids)
    await context.bot.send_message(asked["chat_id"], f"{answer.user.first_name} feels {chosen}!")
    asked["answers"] += 1
    if asked["answers"] == 2:
        closed = await context.bot.stop_poll(asked["chat_id"], asked["message_id"])
        context.bot_data["closed"] = closed


async def quiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    await context.bot.send_poll(
        update.effective_chat.id,
        "How many eggs do you need for a cake?",
        ["1", "2", "4", "20"],
        type=Poll.QUIZ,
        correct_option_id=2,
        explanation="Four, <b>always</b> four",
        explanation_parse_mode="HTML",
    )


async def receive_quiz_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    state = update.poll
    assert state is not None
    context.bot_data.setdefault("states", []).append(state)
    if state.is_closed or state.type != Poll.QUIZ:
        return
    if state.total_voter_count == 1:
        chat_id, message_id = context.bot_data["quiz"]
        await context.bot.stop_poll(chat_id, message_id)


@pytest_asyncio.fixture
async def ptb_polls(wire: Wire) -> AsyncIterator[tuple[Wire, PtbApp]]:
    handlers = [CommandHandler("poll", poll), CommandHandler("quiz", quiz), PollAnswerHandler(receive_poll_answer)]
    async with ptb_polling(wire, [*handlers, PollHandler(receive_quiz_answer)], Update.ALL_TYPES) as app:
        yield wire, app


async def test_ptb_poll_bot_hears_answers_and_stops_its_poll(
    ptb_polls: tuple[Wire, PtbApp],
) -> None:
    wire, app = ptb_polls
    _, made = await wire.sim("POST", "/sim/chats", {"title": "Club", "members": ["bob"], "admins": [123]})
    group = made["chat"]["id"]
    await wire.say("/poll", chat_id=group)
    [sent] = await wire.stand.wait_calls("sendPoll", 1, 5)
    mid = sent.response["result"]["message_id"]
    await vote(wire, mid, [0, 2], chat_id=group)
    await wire.stand.wait_calls("sendMessage", 1, 5)
    await vote(wire, mid, [1], chat_id=group, user_id=BOB, username="bob")
    await until(wire, lambda: "closed" in app.bot_data)
    closed = app.bot_data["closed"]
    assert isinstance(closed, Poll)
    assert closed.is_closed
    assert [o.voter_count for o in closed.options] == [1, 1, 1]
    assert closed.total_voter_count == 2
    lines = (await wire.text(group)).splitlines()
    assert lines[-2].endswith("bot: Alice feels Good and Fantastic!")
    assert lines[-1].endswith("bot: Bob feels Really good!")
    assert f"[{mid}] bot: [poll 'How are you?' (closed)] [Good: 1] [Really good: 1] [Fantastic: 1]" in lines
    assert all(c.status == 200 for c in wire.stand.calls())


async def test_ptb_quiz_bot_stops_the_quiz_after_one_answer(
    ptb_polls: tuple[Wire, PtbApp],
) -> None:
    wire, app = ptb_polls
    await wire.say("/quiz")
    [sent] = await wire.stand.wait_calls("sendPoll", 1, 5)
    result = sent.response["result"]
    app.bot_data["quiz"] = (result["chat"]["id"], result["message_id"])
    assert result["poll"]["explanation_entities"] == [{"offset": 6, "length": 6, "type": "bold"}]
    await vote(wire, result["message_id"], [1])
    await wire.stand.wait_calls("stopPoll", 1, 5)
    await until(wire, lambda: len(app.bot_data.get("states", [])) == 2)  # the close arrives too
    states = app.bot_data["states"]
    assert [(s.total_voter_count, s.is_closed) for s in states] == [(1, False), (1, True)]
    assert states[0].correct_option_ids == (2,)
    assert states[0].explanation == "Four, always four"
    assert "(closed)" in await wire.text()
    status, refused = await wire.sim("POST", "/sim/vote", {"message_id": result["message_id"], "options": [2]})
    assert status == 409, refused


# --- aiogram: a quiz with several right answers, options as InputPollOption, a timed poll ------------------------
async def test_aiogram_quiz_bot(wire: Wire) -> None:
    bot = aiogram_bot(wire)
    dp = Dispatcher()
    answers: list[AiogramAnswer] = []
    states: list[AiogramPoll] = []

    @dp.message(Command("quiz"))
    async def send_quiz(message: AiogramMessage) -> None:
        await message.answer_poll(
            "Which are primes?",
            [AiogramOption(text="2"), AiogramOption(text="4"), AiogramOption(text="5")],
            type="quiz",
            correct_option_ids=[0, 2],
            allows_multiple_answers=True,
            is_anonymous=False,
            open_period=60,
        )

    @dp.poll_answer()
    async def on_answer(answer: AiogramAnswer) -> None:
        answers.append(answer)
        await bot.send_message(answer.user.id if answer.user else 0, f"You chose {answer.option_ids}")

    @dp.poll()
    async def on_poll(state: AiogramPoll) -> None:
        states.append(state)

    async with aiogram_polling(bot, dp, allowed_updates=["message", "poll", "poll_answer"]):
        await wire.say("/quiz")
        [sent] = await wire.stand.wait_calls("sendPoll", 1, 5)
        result = sent.response["result"]
        assert (result["poll"]["open_period"], result["poll"]["correct_option_ids"]) == (60, [0, 2])
        await vote(wire, result["message_id"], [0, 2])
        await wire.stand.wait_calls("sendMessage", 1, 5)
        assert [a.option_ids for a in answers] == [[0, 2]]
        assert answers[0].option_persistent_ids == ["0", "2"]
        await wire.sim("POST", "/sim/clock", {"advance": 60})  # the open period ends: the poll closes
        await until(wire, lambda: any(s.is_closed for s in states))
        assert [s.is_closed for s in states] == [False, True]
        assert states[-1].correct_option_ids == [0, 2]
        assert "[2] bot: [quiz 'Which are primes?' (closed)] [2: 1] [4: 0] [5: 1]" in await wire.text()
