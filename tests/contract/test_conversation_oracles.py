"""Conversation bots as oracles, written the way the libraries' own examples are: python-telegram-bot's
conversationbot.py (a ConversationHandler: [Boy] [Girl] [Other], a photo, a location, /skip, /cancel) and aiogram's
finite_state_machine.py form (an FSM with a [Yes] [No] keyboard) with a request_location step. The person drives
them through the testing client; the transcript is what the person sees, the handlers' arguments what the bot got."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio
from aiogram import Dispatcher, F, Router, html
from aiogram.client.default import DefaultBotProperties
from aiogram.enums import ParseMode
from aiogram.filters import Command, CommandStart
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import KeyboardButton as AgButton
from aiogram.types import Message as AgMessage
from aiogram.types import ReplyKeyboardMarkup as AgMarkup
from aiogram.types import ReplyKeyboardRemove as AgRemove
from telegram import ReplyKeyboardMarkup, ReplyKeyboardRemove, Update
from telegram.ext import CommandHandler, ContextTypes, ConversationHandler, MessageHandler, filters

from tests.conftest import Wire
from tests.contract.running import aiogram_bot, aiogram_polling, origin, ptb_polling
from tests.media.media_helpers import image_bytes, ptb_application
from tgfake.testing import AsyncStandClient

PHOTO_BYTES = image_bytes("JPEG", (40, 30))


# --- python-telegram-bot: conversationbot.py ---------------------------------------------------------------------
GENDER, PHOTO, LOCATION, BIO = range(4)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    reply_keyboard = [["Boy", "Girl", "Other"]]
    await update.message.reply_text(
        "Hi! My name is Professor Bot. Send /cancel to stop talking to me.\n\nAre you a boy or a girl?",
        reply_markup=ReplyKeyboardMarkup(
            reply_keyboard, one_time_keyboard=True, input_field_placeholder="Boy or Girl?"
        ),
    )
    return GENDER


async def gender(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    assert context.user_data is not None
    context.user_data["gender"] = update.message.text
    await update.message.reply_text(
        "I see! Please send me a photo of yourself, or send /skip if you don't want to.",
        reply_markup=ReplyKeyboardRemove(),
    )
    return PHOTO


async def photo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    assert context.user_data is not None
    photo_file = await update.message.photo[-1].get_file()
    context.user_data["photo"] = bytes(await photo_file.download_as_bytearray())
    await update.message.reply_text("Gorgeous! Now, send me your location please, or send /skip.")
    return LOCATION


async def skip_photo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    await update.message.reply_text("I bet you look great! Now, send me your location please, or send /skip.")
    return LOCATION


async def location(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    assert update.message.location is not None
    assert context.user_data is not None
    where = update.message.location
    context.user_data["location"] = (where.latitude, where.longitude)
    await update.message.reply_text(f"Maybe I can visit you at {where.latitude:.2f}, {where.longitude:.2f}! Bio?")
    return BIO


async def skip_location(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    await update.message.reply_text("You seem a bit paranoid! At last, tell me something about yourself.")
    return BIO


async def bio(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    assert update.message.from_user is not None
    await update.message.reply_text(f"Thank you, {update.message.from_user.first_name}! Talk again some day.")
    return ConversationHandler.END


async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    await update.message.reply_text("Bye! I hope we can talk again some day.", reply_markup=ReplyKeyboardRemove())
    return ConversationHandler.END


@pytest_asyncio.fixture
async def professor(wire: Wire) -> AsyncIterator[tuple[AsyncStandClient, Any]]:
    app = ptb_application(wire)
    app.add_handler(
        ConversationHandler(
            entry_points=[CommandHandler("start", start)],
            states={
                GENDER: [MessageHandler(filters.Regex("^(Boy|Girl|Other)$"), gender)],
                PHOTO: [MessageHandler(filters.PHOTO, photo), CommandHandler("skip", skip_photo)],
                LOCATION: [MessageHandler(filters.LOCATION, location), CommandHandler("skip", skip_location)],
                BIO: [MessageHandler(filters.TEXT & ~filters.COMMAND, bio)],
            },
            fallbacks=[CommandHandler("cancel", cancel)],
        )
    )
    async with ptb_polling(app), AsyncStandClient(origin(wire)) as person:
        yield person, app


async def test_ptb_conversationbot_with_a_photo_and_a_shared_location(
    professor: tuple[AsyncStandClient, Any],
) -> None:
    person, app = professor
    await person.send("/start")
    asked = await person.expect_reply(containing="Are you a boy or a girl?")
    assert asked.reply_keyboard == (("Boy", "Girl", "Other"),)
    assert (await person.chat())["reply_keyboard"]["input_field_placeholder"] == "Boy or Girl?"
    assert "    keyboard: [Boy] [Girl] [Other] (one-time)" in await person.transcript()
    await person.press("Girl")
    photo_please = await person.expect_reply(containing="send me a photo")
    assert photo_please.raw["reply_keyboard"] == {"remove_keyboard": True}
    assert not (await person.chat()).get("reply_keyboard")  # the person's keyboard is gone
    await person.send_photo(PHOTO_BYTES, name="me.jpg")
    await person.expect_reply("Gorgeous! Now, send me your location please, or send /skip.")
    await person.share(location={"latitude": 51.5007, "longitude": -0.1246})
    await person.expect_reply("Maybe I can visit you at 51.50, -0.12! Bio?")
    await person.send("I like tea.")
    await person.expect_reply("Thank you, Alice! Talk again some day.")
    user_data = app.user_data[4242]
    assert (user_data["gender"], user_data["photo"], user_data["location"]) == ("Girl", PHOTO_BYTES, (51.5007, -0.1246))
    lines = (await person.transcript()).splitlines()
    assert "[3] alice: Girl" in lines
    assert "[5] alice: [photo me.jpg 40x30]" in lines
    assert "[7] alice: [location 51.5007, -0.1246]" in lines


async def test_ptb_conversationbot_skips_and_cancels(professor: tuple[AsyncStandClient, Any]) -> None:
    person, _ = professor
    await person.send("/start")
    await person.expect_reply(containing="Are you a boy or a girl?")
    await person.send("Robot")  # no keyboard label: the GENDER state ignores it
    await person.press("Other")
    await person.expect_reply(containing="send me a photo")
    await person.send("/skip")
    await person.expect_reply("I bet you look great! Now, send me your location please, or send /skip.")
    await person.send("/skip")
    await person.expect_reply("You seem a bit paranoid! At last, tell me something about yourself.")
    await person.send("/cancel")
    await person.expect_reply("Bye! I hope we can talk again some day.")
    await person.send("hello?")  # the conversation has ended: nobody answers
    await person.expect_no_reply(within=0.2)
    lines = (await person.transcript()).splitlines()
    robot = lines.index("[3] alice: Robot")
    assert lines[robot + 1 : robot + 3] == [
        "[4] alice: Other",
        "[5] bot: I see! Please send me a photo of yourself, or send /skip if you don't want to.",
    ]


# --- aiogram: finite_state_machine.py with a location step -------------------------------------------------------
class Form(StatesGroup):
    name = State()
    like_bots = State()
    location = State()


def form_router(summaries: list[dict[str, Any]]) -> Router:
    router = Router()

    @router.message(CommandStart())
    async def command_start(message: AgMessage, state: FSMContext) -> None:
        await state.set_state(Form.name)
        await message.answer("Hi there! What's your name?", reply_markup=AgRemove())

    @router.message(Command("cancel"))
    @router.message(F.text.casefold() == "cancel")
    async def cancel_handler(message: AgMessage, state: FSMContext) -> None:
        if await state.get_state() is None:
            return
        await state.clear()
        await message.answer("Cancelled.", reply_markup=AgRemove())

    @router.message(Form.name)
    async def process_name(message: AgMessage, state: FSMContext) -> None:
        await state.update_data(name=message.text)
        await state.set_state(Form.like_bots)
        await message.answer(
            f"Nice to meet you, {html.quote(message.text or '')}!\nDid you like to write bots?",
            reply_markup=AgMarkup(keyboard=[[AgButton(text="Yes"), AgButton(text="No")]], resize_keyboard=True),
        )

    @router.message(Form.like_bots, F.text.casefold() == "yes")
    async def process_like_write_bots(message: AgMessage, state: FSMContext) -> None:
        await state.update_data(like_bots=True)
        await state.set_state(Form.location)
        await message.reply(
            "Cool! I'm too!\nWhere do you write them?",
            reply_markup=AgMarkup(
                keyboard=[[AgButton(text="Send my location", request_location=True)]],
                resize_keyboard=True,
                one_time_keyboard=True,
            ),
        )

    @router.message(Form.like_bots)
    async def process_unknown_write_bots(message: AgMessage) -> None:
        await message.reply("I don't understand you :(")

    @router.message(Form.location, F.location)
    async def process_location(message: AgMessage, state: FSMContext) -> None:
        assert message.location is not None
        data = await state.update_data(location=(message.location.latitude, message.location.longitude))
        await state.clear()
        summaries.append(data)
        await message.answer(f"{html.quote(data['name'])} writes bots at {data['location']}", reply_markup=AgRemove())

    return router


@pytest_asyncio.fixture
async def aiogram_form(wire: Wire) -> AsyncIterator[tuple[AsyncStandClient, list[dict[str, Any]]]]:
    bot = aiogram_bot(wire, default=DefaultBotProperties(parse_mode=ParseMode.HTML))
    dp = Dispatcher()
    summaries: list[dict[str, Any]] = []
    dp.include_router(form_router(summaries))
    async with aiogram_polling(dp, bot), AsyncStandClient(origin(wire)) as person:
        yield person, summaries


async def test_aiogram_form_with_a_keyboard_and_a_location_button(
    aiogram_form: tuple[AsyncStandClient, list[dict[str, Any]]],
) -> None:
    person, summaries = aiogram_form
    await person.send("/start")
    await person.expect_reply("Hi there! What's your name?")
    await person.send("Alice <3")
    asked = await person.expect_reply("Nice to meet you, Alice <3!\nDid you like to write bots?")
    assert asked.reply_keyboard == (("Yes", "No"),)
    await person.send("Maybe")
    await person.expect_reply("I don't understand you :(")
    await person.press("Yes")
    where = await person.expect_reply("Cool! I'm too!\nWhere do you write them?")
    assert where.raw["reply_to_message_id"] == 7  # message.reply: to the press of [Yes]
    assert "    keyboard: [Send my location] (one-time)" in await person.transcript()
    await person.press("Send my location", latitude=52.52, longitude=13.405)
    await person.expect_reply("Alice <3 writes bots at (52.52, 13.405)")
    assert summaries == [{"name": "Alice <3", "like_bots": True, "location": (52.52, 13.405)}]
    assert "[9] alice: [location 52.52, 13.405]" in await person.transcript()


async def test_aiogram_form_cancels(aiogram_form: tuple[AsyncStandClient, list[dict[str, Any]]]) -> None:
    person, summaries = aiogram_form
    await person.send("cancel")  # no state yet: the cancel handler stays quiet
    await person.send("/start")
    await person.expect_reply("Hi there! What's your name?")
    await person.send("/cancel")
    await person.expect_reply("Cancelled.")
    await person.send("Bob")  # the form was cleared: no handler takes a name now
    await person.expect_no_reply(within=0.2)
    assert summaries == []
