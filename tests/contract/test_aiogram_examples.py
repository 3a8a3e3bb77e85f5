"""aiogram 3's own example bots (the ``examples/`` directory of aiogram/aiogram), run against the stand: each test
builds a bot of the example's shape (its handlers, calls and parameters, in our own words), plays the person
through the testing client, and asserts what the person sees and what the bot got. aiogram's warnings and errors
(a handler that raised, an update it could not parse, a call the stand refused) fail the test."""

from __future__ import annotations

import contextlib
import html as std_html
import logging
import ssl
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F, Router, html
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramForbiddenError, TelegramUnauthorizedError
from aiogram.filters import (
    LEAVE_TRANSITION,
    ChatMemberUpdatedFilter,
    Command,
    CommandObject,
    CommandStart,
    ExceptionMessageFilter,
    ExceptionTypeFilter,
    Filter,
)
from aiogram.fsm.context import FSMContext
from aiogram.fsm.scene import After, Scene, SceneRegistry, ScenesManager, on
from aiogram.fsm.state import State, StatesGroup
from aiogram.fsm.storage.memory import MemoryStorage, SimpleEventIsolation
from aiogram.types import (
    CallbackQuery,
    ChatMemberUpdated,
    ErrorEvent,
    FSInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    KeyboardButton,
    LabeledPrice,
    MenuButtonWebApp,
    Message,
    PreCheckoutQuery,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    User,
    WebAppInfo,
)
from aiogram.utils.formatting import Bold, as_key_value, as_list, as_numbered_list, as_section
from aiogram.utils.keyboard import ReplyKeyboardBuilder
from aiogram.utils.markdown import hbold, hcode
from aiogram.utils.token import TokenValidationError, validate_token
from aiogram.utils.web_app import check_webapp_signature, safe_parse_webapp_init_data
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, TokenBasedRequestHandler, setup_application
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.conftest import Wire
from tests.contract.running import aiogram_bot, aiogram_polling, origin
from tests.media.media_helpers import image_bytes, mp4_bytes, wav_bytes
from tests.media.test_person_media import OGG
from tests.webhooks.conftest import closed_port, self_signed, wait_webhook
from tgfake import errors
from tgfake.testing import AsyncStandClient, Person
from tgfake.world.people import user_id_for

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


# --- echo_bot.py -------------------------------------------------------------------------------------------------
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


def echo_dispatcher() -> Dispatcher:
    dp = Dispatcher()
    dp.include_router(echo_router())
    return dp


async def test_echo_bot_greets_and_copies_texts_and_files(wire: Wire) -> None:
    async with running(wire, echo_dispatcher(), default=HTML) as person:
        await person.send("/start")
        await person.expect_reply("Hello, Alice!", html="Hello, <b>Alice</b>!")
        await person.send("see https://example.com, @bobby and #tag")
        copy = await person.expect_reply("see https://example.com, @bobby and #tag")
        assert [e["type"] for e in copy.entities] == ["url", "mention", "hashtag"]
        await person.send_photo(PHOTO, name="cat.png", caption="a cat /start")
        photo = await person.expect_reply("a cat /start")
        assert photo.kind == "photo"
        await person.send_file("sticker", STICKER, emoji="🐱")
        assert (await person.expect_reply()).kind == "sticker"
        await person.send_file("voice", OGG + b"voice" * 20, duration=3)
        assert (await person.expect_reply()).kind == "voice"
        await person.send_file("video", VIDEO, name="clip.mp4", caption="watch", duration=4, width=32, height=24)
        assert (await person.expect_reply("watch")).kind == "video"
        await person.send_document(b"%PDF-1.4 tiny", name="a.pdf", caption="read")
        assert (await person.expect_reply("read")).kind == "document"
        await person.send_file("audio", wav_bytes(), name="song.wav", performer="Ann", title="Song", duration=3)
        assert (await person.expect_reply()).kind == "audio"
        await person.send_file("animation", image_bytes("GIF", (8, 8)), name="fun.gif", caption="gif")
        assert (await person.expect_reply("gif")).kind == "animation"
        await person.send_file("video_note", VIDEO, length=240, duration=2)
        assert (await person.expect_reply()).kind == "video_note"


async def test_echo_bot_copies_shared_things(wire: Wire) -> None:
    async with running(wire, echo_dispatcher(), default=HTML) as person:
        await person.share(location={"latitude": 51.5, "longitude": -0.12})
        assert (await person.expect_reply()).kind == "location"
        await person.share(contact={"phone_number": "+15550001", "first_name": "Bob"})
        assert (await person.expect_reply()).kind == "contact"
        venue = {"location": {"latitude": 1.5, "longitude": 2.5}, "title": "Cafe", "address": "Main St 1"}
        await person.share(venue=venue)
        assert (await person.expect_reply()).kind == "venue"
        await person.share(dice={"emoji": "🎲", "value": 3})
        assert (await person.expect_reply()).kind == "dice"
        await person.share(poll={"question": "Tea?", "options": ["Yes", "No"]})
        poll = await person.expect_reply()
        assert poll.poll is not None
        assert [o["text"] for o in poll.poll["options"]] == ["Yes", "No"]


async def test_echo_bot_in_a_group_answers_what_it_cannot_copy(wire: Wire) -> None:
    """A join is a service message (the bot's own arrival too): send_copy raises TypeError, "Nice try!"."""
    async with running(wire, echo_dispatcher(), default=HTML) as person:
        club = {"type": "supergroup", "title": "Club", "members": ["@tgfake_bot"]}
        status, made = await wire.sim("POST", "/sim/chats", club)
        assert status == 200, made
        group = made["chat_id"]
        status, joined = await wire.sim("POST", f"/sim/chats/{group}/join", {"user": "bob"})
        assert status == 200, joined
        await person.expect_reply("Nice try!", chat=group)  # the bot's own arrival: new_chat_members
        await person.expect_reply("Nice try!", chat=group)  # bob's
        await person.send("/start", chat=group)
        await person.expect_reply("Hello, Alice!", chat=group)
        await person.send("not for the bot", chat=group)  # privacy mode: a plain text never reaches it
        await person.expect_no_reply(chat=group, within=0.2)


# --- multi_file_bot/ ---------------------------------------------------------------------------------------------
def multi_file_dispatcher() -> Dispatcher:
    """multi_file_bot/: a start router (the full name put into HTML unescaped) before an echo router."""
    start_router = Router()

    @start_router.message(CommandStart())
    async def command_start_handler(message: Message) -> None:
        assert message.from_user is not None
        await message.answer(f"Hello, <b>{message.from_user.full_name}!</b>")

    echo_router = Router()

    @echo_router.message()
    async def echo_handler(message: Message) -> None:
        try:
            await message.send_copy(chat_id=message.chat.id)
        except TypeError:
            await message.answer("Nice try!")

    dp = Dispatcher()
    dp.include_routers(start_router, echo_router)
    return dp


async def test_multi_file_bot_routes_start_before_echo(wire: Wire, complaints: Complaints) -> None:
    async with running(wire, multi_file_dispatcher(), default=HTML) as person:
        await person.send("/start")
        await person.expect_reply("Hello, Alice!", html="Hello, <b>Alice!</b>")
        await person.send("/help me")  # no handler but the echo router's
        echoed = await person.expect_reply("/help me")
        assert [(e["type"], e["offset"], e["length"]) for e in echoed.entities] == [("bot_command", 0, 5)]
        # a name the example forgets to escape: Telegram refuses the HTML, aiogram logs the failed handler
        await person.send("/start", user=Person(77, "bracket", "Bob <3"))
        [refused] = [c for c in await person.wait_call("sendMessage", 3, strict=False) if not c.ok]
        assert (refused.status, refused.response["description"]) == (
            400,
            'Bad Request: can\'t parse entities: Unsupported start tag "3!</b" at byte offset 14',
        )
    complaints.expected("TelegramBadRequest")


# --- context_addition_from_filter.py and own_filter.py -----------------------------------------------------------
class HelloFilter(Filter):
    """context_addition_from_filter.py: a filter that adds ``name`` (a mention of the sender) to the context."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name

    async def __call__(self, message: Message, event_from_user: User) -> bool | dict[str, Any]:
        if (message.text or "").casefold() == "hello":
            return {"name": event_from_user.mention_html(name=self.name)}
        return False


class MyFilter(Filter):
    """own_filter.py: a message whose text is exactly ``my_text``."""

    def __init__(self, my_text: str) -> None:
        self.my_text = my_text

    async def __call__(self, message: Message) -> bool:
        return message.text == self.my_text


async def test_context_addition_from_filter_mentions_the_sender(wire: Wire) -> None:
    router = Router(name="context_addition_from_filter")

    @router.message(HelloFilter())
    async def my_handler(message: Message, name: str) -> Any:
        return message.answer(f"Hello, {name}!")  # returned, not awaited: the dispatcher sends it

    dp = Dispatcher()
    dp.include_router(router)
    async with running(wire, dp, default=HTML) as person:
        await person.send("HeLLo")
        hello = await person.expect_reply("Hello, Alice!")
        [mention] = hello.entities
        assert (mention["type"], mention["offset"], mention["length"], mention["user"]["id"]) == (
            "text_mention",
            7,
            5,
            4242,
        )
        await person.send("hello there")
        await person.expect_no_reply(within=0.2)


async def test_own_filter_takes_only_its_text(wire: Wire) -> None:
    seen: list[str] = []
    router = Router()

    @router.message(MyFilter("hello"))
    async def my_handler(message: Message) -> None:
        seen.append(message.text or "")
        await message.answer("filtered")

    dp = Dispatcher()
    dp.include_router(router)
    async with running(wire, dp) as person:
        await person.send("Hello")
        await person.send("hello")
        await person.expect_reply("filtered")
        await person.expect_no_reply(within=0.2)
    assert seen == ["hello"]


# --- error_handling.py -------------------------------------------------------------------------------------------
class InvalidAge(Exception):
    pass


class InvalidName(Exception):
    def __init__(self, message: str):
        super().__init__(message)


def error_handling_dispatcher(logged: list[BaseException]) -> Dispatcher:
    """error_handling.py: /age and /name raise; an errors handler filtered by type tells the person, another
    filtered by the message's words only logs."""
    dp = Dispatcher()

    @dp.errors(ExceptionTypeFilter(InvalidAge))
    async def handle_invalid_age_exception(event: ErrorEvent, bot: Bot) -> None:
        assert isinstance(event.exception, InvalidAge)
        assert event.update.message is not None
        text = f"Error caught: {std_html.escape(repr(event.exception))}"
        await bot.send_message(chat_id=event.update.message.chat.id, text=text)

    @dp.errors(ExceptionMessageFilter("Invalid"))
    async def handle_invalid_exceptions(event: ErrorEvent) -> None:
        logged.append(event.exception)

    @dp.message(Command("age"))
    async def handle_set_age(message: Message, command: CommandObject) -> None:
        age = command.args
        if not age:
            raise InvalidAge("No age provided. Please provide your age as a command argument.")
        if not age.isdigit():
            raise InvalidAge("Age should be a number")
        await message.reply(text=f"Your age is {int(age)}")

    @dp.message(Command("name"))
    async def handle_set_name(message: Message, command: CommandObject) -> None:
        name = command.args
        if not name:
            raise InvalidName("Invalid name. Please provide your name as a command argument.")
        await message.reply(text=f"Your name is {name}")

    return dp


async def test_error_handling_turns_exceptions_into_answers(wire: Wire) -> None:
    logged: list[BaseException] = []
    async with running(wire, error_handling_dispatcher(logged), default=HTML) as person:
        await person.send("/age")
        await person.expect_reply(
            "Error caught: InvalidAge('No age provided. Please provide your age as a command argument.')"
        )
        await person.send("/age forty")
        await person.expect_reply("Error caught: InvalidAge('Age should be a number')")
        asked = await person.send("/age 42")
        answer = await person.expect_reply("Your age is 42")
        assert answer.raw["reply_to_message_id"] == asked.message_id
        await person.send("/name")
        await person.expect_no_reply(within=0.2)
        assert [str(e) for e in logged] == ["Invalid name. Please provide your name as a command argument."]
        await person.send("/name@tgfake_bot Ann  Lee")  # addressed to this bot; the argument as typed
        await person.expect_reply("Your name is Ann  Lee")


# --- finite_state_machine.py -------------------------------------------------------------------------------------
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


async def test_finite_state_machine_asks_name_liking_and_language(wire: Wire) -> None:
    dp = Dispatcher()
    dp.include_router(form_router())
    async with running(wire, dp, default=HTML) as person:
        await person.send("/start")
        hi = await person.expect_reply("Hi there! What's your name?")
        assert hi.raw["reply_keyboard"] == {"remove_keyboard": True}
        await person.send("Ann & <Co>")
        asked = await person.expect_reply("Nice to meet you, Ann & <Co>!\nDid you like to write bots?")
        assert asked.reply_keyboard == (("Yes", "No"),)
        assert (await person.chat())["reply_keyboard"]["resize_keyboard"] is True
        await person.send("Perhaps")
        await person.expect_reply("I don't understand you :(")
        pressed = await person.press("Yes")
        cool = await person.expect_reply("Cool! I'm too!\nWhat programming language did you use for it?")
        assert cool.raw["reply_to_message_id"] == pressed.message_id
        assert not (await person.chat()).get("reply_keyboard")
        await person.send("Python")
        await person.expect_reply("Python, you say? That's the language that makes my circuits light up! 😉")
        await person.expect_reply("I'll keep in mind that, Ann & <Co>, you like to write bots with Python.")
        await person.send("/start")
        await person.expect_reply("Hi there! What's your name?")
        await person.send("Bob")
        await person.expect_reply(containing="Did you like to write bots?")
        await person.press("No")
        await person.expect_reply("Not bad not terrible.\nSee you soon.")
        await person.expect_reply("I'll keep in mind that, Bob, you don't like to write bots, so sad...")


async def test_finite_state_machine_cancels(wire: Wire) -> None:
    dp = Dispatcher()
    dp.include_router(form_router())
    async with running(wire, dp, default=HTML) as person:
        await person.send("/cancel")
        await person.expect_no_reply(within=0.2)  # nothing to cancel (and /start must not overtake it)
        await person.send("/start")
        await person.expect_reply("Hi there! What's your name?")
        await person.send("Carol")
        await person.expect_reply(containing="Did you like to write bots?")
        await person.send("CANCEL")
        await person.expect_reply("Cancelled.")
        assert not (await person.chat()).get("reply_keyboard")
        await person.send("Yes")  # the form is over: nobody takes it
        await person.expect_no_reply(within=0.2)


# --- specify_updates.py ------------------------------------------------------------------------------------------
def specify_updates_dispatcher() -> Dispatcher:
    """specify_updates.py: routers for message, chat_member, callback_query, edited_message and my_chat_member (all
    but joins); start_polling subscribes to exactly the kinds they use."""
    router = Router()

    @router.message(CommandStart())
    async def command_start_handler(message: Message) -> None:
        assert message.from_user is not None
        await message.answer(
            f"Hello, {hbold(message.from_user.full_name)}!",
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[[InlineKeyboardButton(text="Tap me, bro", callback_data="*")]]
            ),
        )

    @router.chat_member()
    async def chat_member_update(chat_member: ChatMemberUpdated, bot: Bot) -> None:
        await bot.send_message(
            chat_member.chat.id,
            f"Member {hcode(chat_member.from_user.id)} was changed "
            f"from {chat_member.old_chat_member.status} to {chat_member.new_chat_member.status}",
        )

    sub_router = Router()

    @sub_router.callback_query()
    async def callback_tap_me(callback_query: CallbackQuery) -> None:
        await callback_query.answer("Yeah good, now I'm fine")

    sub_sub_router = Router()

    @sub_sub_router.edited_message()
    async def edited_message_handler(edited_message: Message) -> None:
        await edited_message.reply("Message was edited, Big Brother watches you")

    deep_dark_router = Router()

    @deep_dark_router.my_chat_member(~ChatMemberUpdatedFilter(~LEAVE_TRANSITION))
    async def my_chat_member_change(chat_member: ChatMemberUpdated, bot: Bot) -> None:
        await bot.send_message(
            chat_member.chat.id,
            f"This Bot`s status was changed from {hbold(chat_member.old_chat_member.status)} "
            f"to {hbold(chat_member.new_chat_member.status)}",
        )

    dp = Dispatcher()
    sub_router.include_router(deep_dark_router)
    router.include_routers(sub_router, sub_sub_router)
    dp.include_router(router)
    return dp


async def test_specify_updates_subscribes_to_what_its_routers_use(wire: Wire) -> None:
    dp = specify_updates_dispatcher()
    async with running(wire, dp, default=HTML) as person:
        await person.send("/start")
        hello = await person.expect_reply("Hello, Alice!", html="Hello, <b>Alice</b>!")
        assert hello.keyboard == (("Tap me, bro",),)
        state = await person.state()
        assert sorted(state["allowed_updates"]) == sorted(dp.resolve_used_update_types())
        await person.tap("Tap me, bro")
        [answered] = await person.wait_call("answerCallbackQuery")
        assert answered.params["text"] == "Yeah good, now I'm fine"
        await person.send("typo")
        edited = await person.edit(3, "fixed")
        watched = await person.expect_reply("Message was edited, Big Brother watches you")
        assert watched.raw["reply_to_message_id"] == edited.message_id == 3


async def test_specify_updates_cannot_tell_a_person_who_blocked_it(wire: Wire, complaints: Complaints) -> None:
    """Blocking is a leave transition (member → kicked): the handler writes to the chat it just lost, and Telegram
    answers 403."""
    async with running(wire, specify_updates_dispatcher(), default=HTML) as person:
        await person.send("/start")
        await person.expect_reply("Hello, Alice!")
        status, _ = await wire.sim("POST", "/sim/block", {"user": 4242})
        assert status == 200
        [_, told] = await person.wait_call("sendMessage", 2)
        assert (told.status, told.response["description"]) == (403, errors.FORBIDDEN_BLOCKED)
        assert told.params["text"] == "This Bot`s status was changed from <b>member</b> to <b>kicked</b>"
        await wire.sim("GET", "/sim/wait?polling=1")
    complaints.expected("TelegramForbiddenError")


async def test_specify_updates_hears_members_and_its_own_status(wire: Wire) -> None:
    async with running(wire, specify_updates_dispatcher(), default=HTML) as person:
        club = {"type": "supergroup", "title": "Club", "admins": ["@tgfake_bot"]}
        status, made = await wire.sim("POST", "/sim/chats", club)
        assert status == 200, made
        group = made["chat_id"]  # the bot joins as an administrator at once: a join, which the filter leaves out
        status, joined = await wire.sim("POST", f"/sim/chats/{group}/join", {"user": "bob"})
        assert status == 200, joined
        bob = user_id_for("bob")
        await person.expect_reply(f"Member {bob} was changed from left to member", chat=group)
        status, demoted = await wire.sim("POST", f"/sim/chats/{group}/demote", {"user": "@tgfake_bot", "by": 4242})
        assert status == 200, demoted
        changed = await person.expect_reply("This Bot`s status was changed from administrator to member", chat=group)
        assert changed.html == "This Bot`s status was changed from <b>administrator</b> to <b>member</b>"
        # the bot hears no more chat_member updates now (it is no administrator): Telegram sends them only to those
        status, _ = await wire.sim("POST", f"/sim/chats/{group}/leave", {"user": "bob"})
        assert status == 200
        await person.expect_no_reply(chat=group, within=0.2)


# --- stars_invoice.py --------------------------------------------------------------------------------------------
def stars_dispatcher(goods: dict[str, int]) -> Dispatcher:
    """stars_invoice.py: /start sends a 42-Star invoice, the pre-checkout query is confirmed while ``goods`` has
    stock, and a successful payment is refunded at once."""
    router = Router(name="stars_invoice")

    @router.message(Command("start"))
    async def command_start(message: Message) -> None:
        await message.answer_invoice(
            title="Demo invoice",
            description="Demo invoice description",
            prices=[LabeledPrice(label="Demo", amount=42)],
            payload="demo",
            currency="XTR",
        )

    @router.pre_checkout_query(F.invoice_payload == "demo")
    async def pre_checkout_query(query: PreCheckoutQuery) -> None:
        if goods.get(query.invoice_payload, 0) > 0:
            await query.answer(ok=True)
        else:
            await query.answer(ok=False, error_message="The product is out of stock")

    @router.message(F.successful_payment)
    async def successful_payment(message: Message, bot: Bot) -> None:
        assert message.from_user is not None
        assert message.successful_payment is not None
        await bot.refund_star_payment(
            user_id=message.from_user.id,
            telegram_payment_charge_id=message.successful_payment.telegram_payment_charge_id,
        )
        await message.answer("Thanks. Your payment has been refunded.")

    dp = Dispatcher()
    dp.include_router(router)
    return dp


async def test_stars_invoice_is_paid_and_refunded(wire: Wire) -> None:
    async with running(wire, stars_dispatcher({"demo": 1, "another": 0})) as person:
        await person.send("/start")
        [invoice] = await person.wait_call("sendInvoice")
        assert invoice.ok, invoice.response
        assert invoice.response["result"]["invoice"] == {
            "title": "Demo invoice",
            "description": "Demo invoice description",
            "start_parameter": "",
            "currency": "XTR",
            "total_amount": 42,
        }
        status, paid = await wire.sim("POST", "/sim/pay", {"message_id": invoice.response["result"]["message_id"]})
        assert (status, paid["status"], paid["total_amount"]) == (200, "paid", 42), paid
        [refund] = await person.wait_call("refundStarPayment")
        assert refund.ok
        assert refund.params["telegram_payment_charge_id"] == paid["telegram_payment_charge_id"]
        await person.wait_call("sendMessage")
        assert (await person.transcript()).splitlines()[1:] == [
            "[2] bot: [invoice 'Demo invoice': 42 XTR] Demo invoice description",
            "[3] * alice paid 42 XTR",
            "[4] * alice was refunded 42 XTR",
            "[5] bot: Thanks. Your payment has been refunded.",
        ]


async def test_stars_invoice_out_of_stock_is_declined(wire: Wire) -> None:
    async with running(wire, stars_dispatcher({"demo": 0})) as person:
        await person.send("/start")
        assert (await person.expect_reply()).raw["invoice"]["total_amount"] == 42
        status, declined = await wire.sim("POST", "/sim/pay", {})
        assert (status, declined["status"], declined["error_message"]) == (
            200,
            "declined",
            "The product is out of stock",
        ), declined
        assert (await person.chat())["payment_notices"] == [{"text": "The product is out of stock"}]
        await person.expect_no_reply(within=0.2)


# --- scene.py ----------------------------------------------------------------------------------------------------
BUTTON_CANCEL = KeyboardButton(text="❌ Cancel")
BUTTON_BACK = KeyboardButton(text="🔙 Back")


class CancellableScene(Scene):
    """scene.py: [❌ Cancel] leaves the scenes, [🔙 Back] goes to the previous one."""

    @on.message(F.text.casefold() == BUTTON_CANCEL.text.casefold(), after=After.exit())
    async def handle_cancel(self, message: Message) -> None:
        await message.answer("Cancelled.", reply_markup=ReplyKeyboardRemove())

    @on.message(F.text.casefold() == BUTTON_BACK.text.casefold(), after=After.back())
    async def handle_back(self, message: Message) -> None:
        await message.answer("Back.")


class LanguageScene(CancellableScene, state="language"):
    @on.message.enter()
    async def on_enter(self, message: Message) -> None:
        await message.answer(
            "What language do you prefer?",
            reply_markup=ReplyKeyboardMarkup(keyboard=[[BUTTON_BACK, BUTTON_CANCEL]], resize_keyboard=True),
        )

    @on.message(F.text.casefold() == "python", after=After.exit())
    async def process_python(self, message: Message) -> None:
        await message.answer("Python, you say? That's the language that makes my circuits light up! 😉")
        await self.input_language(message)

    @on.message(after=After.exit())
    async def input_language(self, message: Message) -> None:
        data = await self.wizard.get_data()
        await self.show_results(message, language=message.text or "", **data)

    async def show_results(self, message: Message, name: str, language: str) -> None:
        await message.answer(
            text=f"I'll keep in mind that, {html.quote(name)}, you like to write bots with {html.quote(language)}.",
            reply_markup=ReplyKeyboardRemove(),
        )


class LikeBotsScene(CancellableScene, state="like_bots"):
    @on.message.enter()
    async def on_enter(self, message: Message) -> None:
        await message.answer(
            "Did you like to write bots?",
            reply_markup=ReplyKeyboardMarkup(
                keyboard=[[KeyboardButton(text="Yes"), KeyboardButton(text="No")], [BUTTON_BACK, BUTTON_CANCEL]],
                resize_keyboard=True,
            ),
        )

    @on.message(F.text.casefold() == "yes", after=After.goto(LanguageScene))
    async def process_like_write_bots(self, message: Message) -> None:
        await message.reply("Cool! I'm too!")

    @on.message(F.text.casefold() == "no", after=After.exit())
    async def process_dont_like_write_bots(self, message: Message) -> None:
        await message.answer("Not bad not terrible.\nSee you soon.", reply_markup=ReplyKeyboardRemove())

    @on.message()
    async def input_like_bots(self, message: Message) -> None:
        await message.answer("I don't understand you :(")


class NameScene(CancellableScene, state="name"):
    @on.message.enter()
    async def on_enter(self, message: Message) -> None:
        await message.answer(
            "Hi there! What's your name?",
            reply_markup=ReplyKeyboardMarkup(keyboard=[[BUTTON_CANCEL]], resize_keyboard=True),
        )

    @on.callback_query.enter()
    async def on_enter_callback(self, callback_query: CallbackQuery) -> None:
        await callback_query.answer()
        assert isinstance(callback_query.message, Message)
        await self.on_enter(callback_query.message)

    @on.message.leave()
    async def on_leave(self, message: Message) -> None:
        data = await self.wizard.get_data()
        await message.answer(f"Nice to meet you, {html.quote(data.get('name', 'Anonymous'))}!")

    @on.message(after=After.goto(LikeBotsScene))
    async def input_name(self, message: Message) -> None:
        await self.wizard.update_data(name=message.text)


class DefaultScene(Scene, reset_data_on_enter=True, reset_history_on_enter=True, callback_query_without_state=True):
    """scene.py's entry: "demo" or the inline [Go to form] of /demo starts the form."""

    start_demo = on.message(F.text.casefold() == "demo", after=After.goto(NameScene))

    @on.message(Command("demo"))
    async def demo(self, message: Message) -> None:
        await message.answer(
            "Demo started",
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[[InlineKeyboardButton(text="Go to form", callback_data="start")]]
            ),
        )

    @on.callback_query(F.data == "start", after=After.goto(NameScene))
    async def demo_callback(self, callback_query: CallbackQuery) -> None:
        await callback_query.answer(cache_time=0)
        assert isinstance(callback_query.message, Message)
        await callback_query.message.delete_reply_markup()

    @on.message.enter()
    @on.message()
    async def default_handler(self, message: Message) -> None:
        await message.answer(
            "Start demo?\nYou can also start demo via command /demo",
            reply_markup=ReplyKeyboardMarkup(keyboard=[[KeyboardButton(text="Demo")]], resize_keyboard=True),
        )


def scene_dispatcher() -> Dispatcher:
    dispatcher = Dispatcher()
    SceneRegistry(dispatcher).add(DefaultScene, NameScene, LikeBotsScene, LanguageScene)
    return dispatcher


async def test_scene_form_through_name_liking_and_language(wire: Wire) -> None:
    async with running(wire, scene_dispatcher()) as person:
        await person.send("hi")
        start = await person.expect_reply("Start demo?\nYou can also start demo via command /demo")
        assert start.reply_keyboard == (("Demo",),)
        await person.press("Demo")
        asked = await person.expect_reply("Hi there! What's your name?")
        assert asked.reply_keyboard == (("❌ Cancel",),)
        await person.send("Ann")
        await person.expect_reply("Nice to meet you, Ann!")
        liking = await person.expect_reply("Did you like to write bots?")
        assert liking.reply_keyboard == (("Yes", "No"), ("🔙 Back", "❌ Cancel"))
        await person.send("maybe")
        await person.expect_reply("I don't understand you :(")
        yes = await person.press("Yes")
        cool = await person.expect_reply("Cool! I'm too!")
        assert cool.raw["reply_to_message_id"] == yes.message_id
        await person.expect_reply("What language do you prefer?")
        await person.send("PYTHON")
        await person.expect_reply("Python, you say? That's the language that makes my circuits light up! 😉")
        done = await person.expect_reply("I'll keep in mind that, Ann, you like to write bots with PYTHON.")
        assert done.raw["reply_keyboard"] == {"remove_keyboard": True}
        await person.expect_reply("Start demo?\nYou can also start demo via command /demo")  # back to the default


async def test_scene_from_the_inline_button_answers_the_query_twice(wire: Wire, complaints: Complaints) -> None:
    """[Go to form] is answered by demo_callback and again by NameScene's callback enter: Telegram refuses the
    second answer, so the enter handler stops before asking the name; the scene is entered all the same."""
    async with running(wire, scene_dispatcher()) as person:
        await person.send("/demo")
        demo = await person.expect_reply("Demo started")
        assert demo.keyboard == (("Go to form",),)
        await person.tap("Go to form")
        first, second = await person.wait_call("answerCallbackQuery", 2)
        assert (first.status, first.params["cache_time"]) == (200, "0")
        assert (second.status, second.response["description"]) == (400, errors.QUERY_TOO_OLD)
        [unmarked] = await person.outbox("editMessageReplyMarkup")
        assert unmarked.ok, unmarked.response
        assert (await person.messages())[1].keyboard == ()
        complaints.expected("TelegramBadRequest")
        await person.send("Ann")
        await person.expect_reply("Nice to meet you, Ann!")
        await person.expect_reply("Did you like to write bots?")
        await person.press("❌ Cancel")  # the scene's own catch-all handler comes before the inherited [Cancel]
        await person.expect_reply("I don't understand you :(")
        await person.press("No")
        await person.expect_reply("Not bad not terrible.\nSee you soon.")


# --- quiz_scene.py -----------------------------------------------------------------------------------------------
@dataclass
class Answer:
    text: str
    is_correct: bool = False


@dataclass
class Question:
    text: str
    answers: list[Answer]
    correct_answer: str = field(init=False)

    def __post_init__(self) -> None:
        self.correct_answer = next(answer.text for answer in self.answers if answer.is_correct)


def capitals(right: str, last: str = "Madrid") -> list[Answer]:
    """The example's answers: Paris, London, Berlin and Madrid (Rome for Italy), ``right`` the correct one."""
    return [Answer(name, is_correct=name == right) for name in ("Paris", "London", "Berlin", last)]


QUESTIONS = [
    Question("What is the capital of France?", capitals("Paris")),
    Question("What is the capital of Spain?", capitals("Madrid")),
    Question("What is the capital of Germany?", capitals("Berlin")),
    Question("What is the capital of England?", capitals("London")),
    Question("What is the capital of Italy?", capitals("Rome", last="Rome")),
]


class QuizScene(Scene, state="quiz"):
    """quiz_scene.py: one question per step with a reply keyboard of answers, [🔙 Back] and [🚫 Exit]; leaving
    shows the answers and a summary built with aiogram.utils.formatting (entities, no parse mode)."""

    @on.message.enter()
    async def on_enter(self, message: Message, state: FSMContext, step: int | None = 0) -> Any:
        if not step:
            await message.answer("Welcome to the quiz!")
        step = step or 0
        try:
            quiz = QUESTIONS[step]
        except IndexError:
            return await self.wizard.exit()
        markup = ReplyKeyboardBuilder()
        markup.add(*[KeyboardButton(text=answer.text) for answer in quiz.answers])
        if step > 0:
            markup.button(text="🔙 Back")
        markup.button(text="🚫 Exit")
        await state.update_data(step=step)
        return await message.answer(text=quiz.text, reply_markup=markup.adjust(2).as_markup(resize_keyboard=True))

    @on.message.exit()
    async def on_exit(self, message: Message, state: FSMContext) -> None:
        answers = (await state.get_data()).get("answers", {})
        correct = incorrect = 0
        user_answers = []
        for step, quiz in enumerate(QUESTIONS):
            answer = answers.get(step)
            if answer == quiz.correct_answer:
                correct += 1
                icon = "✅"
            else:
                incorrect += 1
                icon = "❌"
            user_answers.append(f"{quiz.text} ({icon} {html.quote(answer or 'no answer')})")
        content = as_list(
            as_section(Bold("Your answers:"), as_numbered_list(*user_answers)),
            "",
            as_section(
                Bold("Summary:"),
                as_list(as_key_value("Correct", correct), as_key_value("Incorrect", incorrect)),
            ),
        )
        await message.answer(**content.as_kwargs(), reply_markup=ReplyKeyboardRemove())
        await state.set_data({})

    @on.message(F.text == "🔙 Back")
    async def back(self, message: Message, state: FSMContext) -> None:
        previous_step = (await state.get_data())["step"] - 1
        if previous_step < 0:
            return await self.wizard.exit()
        return await self.wizard.back(step=previous_step)

    @on.message(F.text == "🚫 Exit")
    async def exit(self, message: Message) -> None:
        await self.wizard.exit()

    @on.message(F.text)
    async def answer(self, message: Message, state: FSMContext) -> None:
        data = await state.get_data()
        answers = data.get("answers", {})
        answers[data["step"]] = message.text
        await state.update_data(answers=answers)
        await self.wizard.retake(step=data["step"] + 1)

    @on.message()
    async def unknown_message(self, message: Message) -> None:
        await message.answer("Please select an answer.")


def quiz_dispatcher() -> Dispatcher:
    quiz_router = Router(name="quiz_scene")
    quiz_router.message.register(QuizScene.as_handler(), Command("quiz"))

    @quiz_router.message(Command("start"))
    async def command_start(message: Message, scenes: ScenesManager) -> None:
        await scenes.close()
        await message.answer(
            "Hi! This is a quiz bot. To start the quiz, use the /quiz command.", reply_markup=ReplyKeyboardRemove()
        )

    dispatcher = Dispatcher(events_isolation=SimpleEventIsolation())
    dispatcher.include_router(quiz_router)
    SceneRegistry(dispatcher).add(QuizScene)
    return dispatcher


async def test_quiz_scene_asks_goes_back_and_sums_up(wire: Wire) -> None:
    async with running(wire, quiz_dispatcher()) as person:
        await person.send("/start")
        await person.expect_reply("Hi! This is a quiz bot. To start the quiz, use the /quiz command.")
        await person.send("/quiz")
        await person.expect_reply("Welcome to the quiz!")
        first = await person.expect_reply("What is the capital of France?")
        assert first.reply_keyboard == (("Paris", "London"), ("Berlin", "Madrid"), ("🚫 Exit",))
        await person.press("Paris")
        second = await person.expect_reply("What is the capital of Spain?")
        assert second.reply_keyboard == (("Paris", "London"), ("Berlin", "Madrid"), ("🔙 Back", "🚫 Exit"))
        await person.share(location={"latitude": 1.0, "longitude": 2.0})
        await person.expect_reply("Please select an answer.")
        await person.press("🔙 Back")
        await person.expect_reply("Welcome to the quiz!")  # back to step 0 greets again, as the example does
        await person.expect_reply("What is the capital of France?")
        await person.press("London")
        await person.expect_reply("What is the capital of Spain?")
        await person.press("Madrid")
        await person.expect_reply("What is the capital of Germany?")
        await person.press("🚫 Exit")
        summary = await person.expect_reply()
        assert summary.body == (
            "Your answers:\n"
            "1. What is the capital of France? (❌ London)\n"
            "2. What is the capital of Spain? (✅ Madrid)\n"
            "3. What is the capital of Germany? (❌ no answer)\n"
            "4. What is the capital of England? (❌ no answer)\n"
            "5. What is the capital of Italy? (❌ no answer)\n"
            "\n"
            "Summary:\n"
            "Correct: 1\n"
            "Incorrect: 4"
        )
        assert summary.html.startswith("<b>Your answers:</b>\n1. ")
        assert "<b>Summary:</b>\n<b>Correct:</b> 1\n<b>Incorrect:</b> 4" in summary.html
        assert summary.raw["reply_keyboard"] == {"remove_keyboard": True}
        await person.send("Paris")  # the quiz is over: nothing takes it
        await person.expect_no_reply(within=0.2)


# --- without_dispatcher.py ---------------------------------------------------------------------------------------
async def send_without_dispatcher(wire: Wire, chat_id: int, message: str = "Hello, World!") -> None:
    """without_dispatcher.py: a Bot used as a context manager for one sendMessage (HTML by default)."""
    async with aiogram_bot(wire, default=HTML) as bot:
        await bot.send_message(chat_id=chat_id, text=message)


async def test_without_dispatcher_sends_one_message(wire: Wire) -> None:
    async with AsyncStandClient(origin(wire)) as person:
        await person.send("/start")  # a bot writes only to people who started it
        await send_without_dispatcher(wire, 4242)
        await person.expect_reply("Hello, World!")
        await send_without_dispatcher(wire, 4242, "<i>again</i> &amp; again")
        await person.expect_reply("again & again", html="<i>again</i> &amp; again")
        status, _ = await wire.sim("POST", "/sim/block", {"user": 4242})
        assert status == 200
        with pytest.raises(
            TelegramForbiddenError, match=r"^Telegram server says - Forbidden: bot was blocked by the user$"
        ):
            await send_without_dispatcher(wire, 4242)


# --- echo_bot_webhook.py -----------------------------------------------------------------------------------------
BOT = web.AppKey("bot", Bot)


@contextlib.asynccontextmanager
async def webhook_app(
    wire: Wire,
    dp: Dispatcher,
    path: str,
    tls: ssl.SSLContext | None = None,
    routes: Callable[[web.Application], None] | None = None,
    **handler: Any,
) -> AsyncIterator[tuple[str, Bot]]:
    """The example's aiohttp application on a loopback port (the stand delivers to loopback hosts only; the example
    names its public address): a SimpleRequestHandler at ``path``, the dispatcher's startup hooks mounted by
    setup_application and run as the server starts, with ``base_url`` (the server's address) in the workflow data;
    ``tls``: served over https with that context; ``routes`` adds the app's own pages (``app[BOT]`` is the bot)."""
    bot = aiogram_bot(wire, default=HTML)
    port = closed_port()
    dp["base_url"] = f"{'https' if tls else 'http'}://127.0.0.1:{port}"
    app = web.Application()
    app[BOT] = bot
    if routes is not None:
        routes(app)
    SimpleRequestHandler(dispatcher=dp, bot=bot, **handler).register(app, path=path)
    setup_application(app, dp, bot=bot)
    server = TestServer(app, host="127.0.0.1", port=port, scheme="https" if tls else "http")
    await server.start_server(ssl=tls)
    try:
        yield dp["base_url"], bot
    finally:
        await server.close()


async def test_echo_bot_webhook_behind_a_proxy(wire: Wire) -> None:
    dp = Dispatcher()
    dp.include_router(echo_router())

    async def on_startup(bot: Bot, base_url: str) -> None:
        await bot.set_webhook(f"{base_url}/webhook", secret_token="my-secret")

    dp.startup.register(on_startup)
    async with webhook_app(wire, dp, "/webhook", secret_token="my-secret") as (base_url, bot):
        [hooked] = await wire.stand.wait_calls("setWebhook", 1, 5)
        assert hooked.status == 200
        info = await bot.get_webhook_info()
        assert (info.url, info.has_custom_certificate, info.pending_update_count) == (f"{base_url}/webhook", False, 0)
        async with AsyncStandClient(origin(wire)) as person:
            await person.send("/start")
            await person.expect_reply("Hello, Alice!", html="Hello, <b>Alice</b>!")
            await person.send_photo(PHOTO, name="cat.png", caption="by webhook")
            assert (await person.expect_reply("by webhook")).kind == "photo"
        view = await wait_webhook(wire, delivered=2)
        assert [(d["status"], d["ok"]) for d in view["deliveries"]] == [(200, True), (200, True)]
        status, polled = await wire.call("getUpdates")
        assert (status, polled["description"]) == (409, errors.CONFLICT_WEBHOOK)


# --- echo_bot_webhook_ssl.py -------------------------------------------------------------------------------------
async def test_echo_bot_webhook_ssl_with_a_self_signed_certificate(wire: Wire, tmp_path: Path) -> None:
    """The webhook serves TLS with a self-signed certificate and uploads it with setWebhook (FSInputFile), so
    Telegram trusts that certificate: the stand delivers over https to it."""
    cert = self_signed()
    cert_path = tmp_path / "cert.pem"
    cert_path.write_bytes(cert.certificate)
    dp = Dispatcher()
    dp.include_router(echo_router())

    async def on_startup(bot: Bot, base_url: str) -> None:
        await bot.set_webhook(f"{base_url}/webhook", certificate=FSInputFile(cert_path), secret_token="my-secret")

    dp.startup.register(on_startup)
    async with webhook_app(wire, dp, "/webhook", tls=cert.server, secret_token="my-secret") as (base_url, bot):
        [hooked] = await wire.stand.wait_calls("setWebhook", 1, 5)
        assert (hooked.status, hooked.params["certificate"]) == (200, f"cert.pem ({len(cert.certificate)} bytes)")
        info = await bot.get_webhook_info()
        assert (info.url, info.has_custom_certificate) == (f"{base_url}/webhook", True)
        async with AsyncStandClient(origin(wire)) as person:
            await person.send("/start")
            await person.expect_reply("Hello, Alice!", html="Hello, <b>Alice</b>!")
            await person.share(location={"latitude": 48.85, "longitude": 2.35})
            assert (await person.expect_reply()).kind == "location"
        view = await wait_webhook(wire, delivered=2)
        assert all(d["url"].startswith("https://127.0.0.1:") and d["ok"] for d in view["deliveries"])


# --- web_app/ ----------------------------------------------------------------------------------------------------
def web_app_router() -> Router:
    """web_app/handlers.py: /start sets the chat's Mini App menu button, /webview and any other message offer an
    inline [Open] Mini App button."""
    my_router = Router()

    @my_router.message(CommandStart())
    async def command_start(message: Message, bot: Bot, base_url: str) -> None:
        await bot.set_chat_menu_button(
            chat_id=message.chat.id,
            menu_button=MenuButtonWebApp(text="Open Menu", web_app=WebAppInfo(url=f"{base_url}/demo")),
        )
        await message.answer("""Hi!\nSend me any type of message to start.\nOr just send /webview""")

    @my_router.message(Command("webview"))
    async def command_webview(message: Message, base_url: str) -> None:
        await message.answer(
            "Good. Now you can try to send it via Webview",
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[
                    [InlineKeyboardButton(text="Open Webview", web_app=WebAppInfo(url=f"{base_url}/demo"))]
                ]
            ),
        )

    @my_router.message(~F.message.via_bot)
    async def echo_all(message: Message, base_url: str) -> None:
        await message.answer(
            "Test webview",
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[[InlineKeyboardButton(text="Open", web_app=WebAppInfo(url=f"{base_url}/demo"))]]
            ),
        )

    return my_router


def web_app_routes(app: web.Application) -> None:
    """web_app/routes.py: the page, and the two calls its script makes with ``Telegram.WebApp.initData``."""

    async def demo_handler(request: web.Request) -> web.Response:
        return web.Response(text="<!DOCTYPE html><title>demo</title>", content_type="text/html")

    async def check_data_handler(request: web.Request) -> web.Response:
        bot = request.app[BOT]
        data = await request.post()
        if check_webapp_signature(bot.token, str(data["_auth"])):
            return web.json_response({"ok": True})
        return web.json_response({"ok": False, "err": "Unauthorized"}, status=401)

    async def send_message_handler(request: web.Request) -> web.Response:
        bot = request.app[BOT]
        data = await request.post()
        try:
            init_data = safe_parse_webapp_init_data(token=bot.token, init_data=str(data["_auth"]))
        except ValueError:
            return web.json_response({"ok": False, "err": "Unauthorized"}, status=401)
        reply_markup = None
        if data["with_webview"] == "1":
            url = str(request.url.with_scheme("https").with_path("demo"))
            reply_markup = InlineKeyboardMarkup(
                inline_keyboard=[[InlineKeyboardButton(text="Open", web_app=WebAppInfo(url=url))]]
            )
        assert init_data.query_id is not None
        await bot.answer_web_app_query(
            web_app_query_id=init_data.query_id,
            result=InlineQueryResultArticle(
                id=init_data.query_id,
                title="Demo",
                input_message_content=InputTextMessageContent(message_text="Hello, World!", parse_mode=None),
                reply_markup=reply_markup,
            ),
        )
        return web.json_response({"ok": True})

    app.router.add_get("/demo", demo_handler)
    app.router.add_post("/demo/checkData", check_data_handler)
    app.router.add_post("/demo/sendMessage", send_message_handler)


async def test_web_app_menu_button_launch_and_answer(wire: Wire) -> None:
    dp = Dispatcher()
    dp.include_router(web_app_router())

    async def on_startup(bot: Bot, base_url: str) -> None:
        await bot.set_webhook(f"{base_url}/webhook")
        await bot.set_chat_menu_button(
            menu_button=MenuButtonWebApp(text="Open Menu", web_app=WebAppInfo(url=f"{base_url}/demo"))
        )

    dp.startup.register(on_startup)
    async with (
        webhook_app(wire, dp, "/webhook", routes=web_app_routes) as (base_url, _),
        AsyncStandClient(origin(wire)) as person,
        aiohttp.ClientSession() as browser,
    ):
        await wire.stand.wait_calls("setChatMenuButton", 1, 5)
        assert (await person.state())["menu_button"] == {
            "type": "web_app",
            "text": "Open Menu",
            "web_app": {"url": f"{base_url}/demo"},
        }
        await person.send("/start")
        await person.expect_reply("Hi!\nSend me any type of message to start.\nOr just send /webview")
        assert (await person.chat())["menu_button"]["web_app"] == {"url": f"{base_url}/demo"}
        await person.send("/webview")
        offer = await person.expect_reply("Good. Now you can try to send it via Webview")
        assert offer.keyboard == (("Open Webview",),)
        await person.send("anything")
        assert (await person.expect_reply("Test webview")).keyboard == (("Open",),)
        status, launch = await wire.sim("POST", "/sim/webapp/launch", {"chat_id": 4242})  # the chat's menu button
        assert status == 200, launch
        assert launch["url"].startswith(f"{base_url}/demo#tgWebAppData=")
        async with browser.get(f"{base_url}/demo") as page:
            assert page.status == 200
        async with browser.post(f"{base_url}/demo/checkData", data={"_auth": launch["init_data"]}) as checked:
            assert (checked.status, await checked.json()) == (200, {"ok": True})
        forged = launch["init_data"].replace("hash=", "hash=0")
        async with browser.post(f"{base_url}/demo/checkData", data={"_auth": forged}) as refused:
            assert refused.status == 401
        body = {"_auth": launch["init_data"], "with_webview": "1"}
        async with browser.post(f"{base_url}/demo/sendMessage", data=body) as sent:
            assert (sent.status, await sent.json()) == (200, {"ok": True})
        [answered] = await person.outbox("answerWebAppQuery")
        assert answered.ok, answered.response
        hello = (await person.messages())[-1]
        assert (hello.body, hello.from_bot, hello.keyboard) == ("Hello, World!", False, (("Open",),))
        assert hello.raw["via_bot"] == "tgfake_bot"
        # the message via the bot reached it too (~F.message.via_bot let it by), and it answered as to any message
        assert (await person.expect_reply("Test webview")).keyboard == (("Open",),)
        await wait_webhook(wire, delivered=4)


# --- multibot.py -------------------------------------------------------------------------------------------------
def is_bot_token(value: str) -> bool | dict[str, Any]:
    try:
        validate_token(value)
    except TokenValidationError:
        return False
    return True


async def test_multibot_adds_bots_by_token_and_serves_them_by_webhook(wire: Wire) -> None:
    """multibot.py: the main bot's webhook takes /add <token>; each added bot gets a webhook whose path carries its
    token, served by a TokenBasedRequestHandler running finite_state_machine's form. (The example passes
    ``parse_mode`` to Bot, which aiogram 3.7+ refuses with TypeError: given as ``default=`` here.)"""
    main_router = Router()
    port = closed_port()
    base_url = f"http://127.0.0.1:{port}"
    other_bots_url = f"{base_url}/webhook/bot/{{bot_token}}"

    @main_router.message(Command("add", magic=F.args.func(is_bot_token)))
    async def command_add_bot(message: Message, command: CommandObject, bot: Bot) -> Any:
        assert command.args is not None
        new_bot = Bot(token=command.args, session=bot.session)
        try:
            bot_user = await new_bot.get_me()
        except TelegramUnauthorizedError:
            return message.answer("Invalid token")
        await new_bot.delete_webhook(drop_pending_updates=True)
        await new_bot.set_webhook(other_bots_url.format(bot_token=command.args))
        return await message.answer(f"Bot @{bot_user.username} successful added")

    async def on_startup(dispatcher: Dispatcher, bot: Bot) -> None:
        await bot.set_webhook(f"{base_url}/webhook/main")

    session = AiohttpSession(api=TelegramAPIServer.from_base(origin(wire)))
    bot_settings: dict[str, Any] = {"session": session, "default": HTML}
    bot = Bot(token=wire.token, **bot_settings)
    storage = MemoryStorage()
    main_dispatcher = Dispatcher(storage=storage)
    main_dispatcher.include_router(main_router)
    main_dispatcher.startup.register(on_startup)
    multibot_dispatcher = Dispatcher(storage=storage)
    multibot_dispatcher.include_router(form_router())
    app = web.Application()
    SimpleRequestHandler(dispatcher=main_dispatcher, bot=bot).register(app, path="/webhook/main")
    TokenBasedRequestHandler(dispatcher=multibot_dispatcher, bot_settings=bot_settings).register(
        app, path="/webhook/bot/{bot_token}"
    )
    setup_application(app, main_dispatcher, bot=bot)
    setup_application(app, multibot_dispatcher)
    status, made = await wire.sim("POST", "/sim/bots", {"token": "2002:form-secret", "username": "form_bot"})
    assert status == 200, made
    server = TestServer(app, host="127.0.0.1", port=port)
    await server.start_server()
    try:
        await wire.stand.wait_calls("setWebhook", 1, 5)
        await wire.say("/add 2002:forged")  # a known bot with another secret: Telegram's 401
        await wire.stand.wait_calls("sendMessage", 1, 5)
        await wire.say("/add 2002:form-secret")
        calls = await wire.stand.wait_calls("sendMessage", 2, 5)
        assert await wire.text() == (
            "[1] alice: /add 2002:forged\n[2] bot: Invalid token\n"
            "[3] alice: /add 2002:form-secret\n[4] bot: Bot @form_bot successful added\n"
        )
        assert [c.status for c in calls] == [200, 200]
        hooked = await wire.call("getWebhookInfo", token="2002:form-secret")
        assert hooked[1]["result"]["url"] == f"{base_url}/webhook/bot/2002:form-secret"
        for count, text in enumerate(("/start", "Ann"), start=3):
            status, sent = await wire.sim("POST", "/sim/message", {"text": text, "bot": "form_bot"})
            assert status == 200, sent
            await wire.stand.wait_calls("sendMessage", count, 5)  # form_bot's answer, through its own webhook
        resp = await wire.client.get("/sim/chat/4242", params={"format": "text", "bot": "form_bot"})
        assert await resp.text() == (
            "[1] alice: /start\n[2] form_bot: Hi there! What's your name?\n    keyboard removed\n[3] alice: Ann\n"
            "[4] form_bot: Nice to meet you, Ann!\n    Did you like to write bots?\n    keyboard: [Yes] [No]\n"
        )
        # The main bot's chat is its own; with two bots polling, the test names the one it means (docs/world.md).
        main = await wire.client.get("/sim/chat/4242", params={"format": "text", "bot": wire.token.split(":")[0]})
        assert await main.text() == (
            "[1] alice: /add 2002:forged\n[2] bot: Invalid token\n"
            "[3] alice: /add 2002:form-secret\n[4] bot: Bot @form_bot successful added\n"
        )
    finally:
        await server.close()
