"""aiogram 3's own example bots (the ``examples/`` directory of aiogram/aiogram), run against the stand: each test
builds a bot of the example's shape (its handlers, calls and parameters, in our own words), plays the person
through the testing client, and asserts what the person sees and what the bot got. aiogram's warnings and errors
(a handler that raised, an update it could not parse, a call the stand refused) fail the test.

Here: echo_bot.py, multi_file_bot/, context_addition_from_filter.py and own_filter.py,
error_handling.py, specify_updates.py and without_dispatcher.py; the shared helpers are in ``aiogram_support.py``."""

from __future__ import annotations

import html as std_html
from typing import Any

import pytest
from aiogram import Bot, Dispatcher, Router
from aiogram.exceptions import TelegramForbiddenError
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
from aiogram.types import (
    CallbackQuery,
    ChatMemberUpdated,
    ErrorEvent,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    User,
)
from aiogram.utils.markdown import hbold, hcode

from tests.conftest import Wire
from tests.contract import aiogram_support
from tests.contract.aiogram_support import HTML, PHOTO, STICKER, VIDEO, Complaints, echo_router, running
from tests.contract.running import aiogram_bot, origin
from tests.media.media_helpers import image_bytes, wav_bytes
from tests.media.test_person_media import OGG
from tgfake import errors
from tgfake.testing import AsyncStandClient, Person
from tgfake.world.people import user_id_for

complaints = aiogram_support.complaints  # the autouse fixture: a complaint logged fails every test here


# --- echo_bot.py -------------------------------------------------------------------------------------------------
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
