"""What aiogram's example tests (``test_aiogram_examples_*.py``) share: the media they send, the ``complaints``
fixture (aiogram's logged warnings and errors fail the test; each test file takes it in as its autouse fixture) and
a dispatcher polling the stand with the person."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from aiogram import Dispatcher, F, Router, html
from aiogram.client.default import DefaultBotProperties
from aiogram.enums import ParseMode
from aiogram.filters import Command, CommandStart
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import KeyboardButton, Message, ReplyKeyboardMarkup, ReplyKeyboardRemove
from aiogram.utils.markdown import hbold

from tests.conftest import Wire
from tests.contract.running import aiogram_bot, aiogram_polling, origin
from tests.media.media_helpers import image_bytes, mp4_bytes
from tgfake.testing import AsyncStandClient

HTML = DefaultBotProperties(parse_mode=ParseMode.HTML)
PHOTO = image_bytes("PNG", (20, 10))
STICKER = image_bytes("WEBP", (512, 512))
VIDEO = mp4_bytes() + b"frames" * 20


class Complaints(logging.Handler):
    """aiogram's own warnings and errors while a bot runs: a handler that raised, a failed getUpdates..."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def lines(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.records]

    def expected(self, *raised: str) -> None:
        """The exceptions logged so far are exactly ``raised`` (class names, in order); then they are forgotten."""
        assert [type(r.exc_info[1]).__name__ for r in self.records if r.exc_info] == list(raised), self.lines()
        self.records.clear()


@pytest.fixture(autouse=True)
def complaints() -> Iterator[Complaints]:
    """Fails the test when aiogram logged a warning or an error (the test empties ``records`` for one it expects)."""
    handler = Complaints()
    logger = logging.getLogger("aiogram")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
    assert handler.lines() == []


@contextlib.asynccontextmanager
async def running(wire: Wire, dp: Dispatcher, **bot: Any) -> AsyncIterator[AsyncStandClient]:
    """``dp`` polling the stand as an aiogram Bot (``bot``: its keywords, ``default=``...), and the person; the
    block starts once the bot polls, subscribed to the kinds its routers use (as a bot started before the test)."""
    async with aiogram_polling(dp, aiogram_bot(wire, **bot)), AsyncStandClient(origin(wire)) as person:
        status, body = await wire.sim("GET", "/sim/wait?polling=1")
        assert status == 200, body
        yield person


def echo_router() -> Router:
    """echo_bot.py (and the webhook examples): /start greets by the full name in bold (``html.bold``, or its alias
    ``hbold``), everything else is sent back with Message.send_copy, and what send_copy cannot copy is answered
    "Nice try!"."""
    router = Router()

    @router.message(CommandStart())
    async def command_start_handler(message: Message) -> None:
        assert message.from_user is not None
        await message.answer(f"Hello, {hbold(message.from_user.full_name)}!")

    @router.message()
    async def echo_handler(message: Message) -> None:
        try:
            await message.send_copy(chat_id=message.chat.id)
        except TypeError:
            await message.answer("Nice try!")

    return router


# finite_state_machine.py's form, which multibot.py's bots serve too.
class Form(StatesGroup):
    name = State()
    like_bots = State()
    language = State()


def form_router() -> Router:
    """finite_state_machine.py: name, then [Yes] [No], then the language; /cancel or "cancel" at any step."""
    router = Router()

    @router.message(CommandStart())
    async def command_start(message: Message, state: FSMContext) -> None:
        await state.set_state(Form.name)
        await message.answer("Hi there! What's your name?", reply_markup=ReplyKeyboardRemove())

    @router.message(Command("cancel"))
    @router.message(F.text.casefold() == "cancel")
    async def cancel_handler(message: Message, state: FSMContext) -> None:
        if await state.get_state() is None:
            return
        await state.clear()
        await message.answer("Cancelled.", reply_markup=ReplyKeyboardRemove())

    @router.message(Form.name)
    async def process_name(message: Message, state: FSMContext) -> None:
        await state.update_data(name=message.text)
        await state.set_state(Form.like_bots)
        await message.answer(
            f"Nice to meet you, {html.quote(message.text or '')}!\nDid you like to write bots?",
            reply_markup=ReplyKeyboardMarkup(
                keyboard=[[KeyboardButton(text="Yes"), KeyboardButton(text="No")]], resize_keyboard=True
            ),
        )

    @router.message(Form.like_bots, F.text.casefold() == "no")
    async def process_dont_like_write_bots(message: Message, state: FSMContext) -> None:
        data = await state.get_data()
        await state.clear()
        await message.answer("Not bad not terrible.\nSee you soon.", reply_markup=ReplyKeyboardRemove())
        await show_summary(message=message, data=data, positive=False)

    @router.message(Form.like_bots, F.text.casefold() == "yes")
    async def process_like_write_bots(message: Message, state: FSMContext) -> None:
        await state.set_state(Form.language)
        await message.reply(
            "Cool! I'm too!\nWhat programming language did you use for it?", reply_markup=ReplyKeyboardRemove()
        )

    @router.message(Form.like_bots)
    async def process_unknown_write_bots(message: Message) -> None:
        await message.reply("I don't understand you :(")

    @router.message(Form.language)
    async def process_language(message: Message, state: FSMContext) -> None:
        data = await state.update_data(language=message.text)
        await state.clear()
        if (message.text or "").casefold() == "python":
            await message.reply("Python, you say? That's the language that makes my circuits light up! 😉")
        await show_summary(message=message, data=data)

    async def show_summary(message: Message, data: dict[str, Any], positive: bool = True) -> None:
        text = f"I'll keep in mind that, {html.quote(data['name'])}, "
        language = data.get("language", "<something unexpected>")
        text += (
            f"you like to write bots with {html.quote(language)}."
            if positive
            else ("you don't like to write bots, so sad...")
        )
        await message.answer(text=text, reply_markup=ReplyKeyboardRemove())

    return router
