"""pyTelegramBotAPI's own example bots (``examples/`` of eternnoir/pyTelegramBotAPI, sync ``TeleBot`` and
``asynchronous_telebot``), run against the stand: each test builds a bot of the example's shape (its handlers, calls
and parameters, in our own words), plays the person through the testing client, and asserts what the person sees
and what the bot got. telebot logs a handler that raised, a failed getUpdates or a refused call on its ``TeleBot``
logger: any error there fails the test.

Here: custom filters (custom_filters/) and middleware (middleware/, asynchronous_telebot/middleware/);
the shared helpers are in ``telebot_support.py``."""

from __future__ import annotations

from typing import Any

import pytest
from telebot import TeleBot, apihelper, custom_filters, types
from telebot.async_telebot import AsyncTeleBot
from telebot.handler_backends import BaseMiddleware

from tests.conftest import Wire
from tests.contract import telebot_support
from tests.contract.telebot_support import ALICE, async_polling, group, polling, refusals
from tgfake.testing import AsyncStandClient
from tgfake.world.people import user_id_for

complaints = telebot_support.complaints  # the autouse fixture: a complaint logged fails every test here


# --- custom_filters/text_filter_example.py, is_filter_example.py, id_filter_example.py --------------------------
async def test_text_filters_match_and_startswith(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.message_handler(text_startswith="@admin")
    def start_filter(message: types.Message) -> None:
        bot.send_message(message.chat.id, "Looks like you are calling admin, wait...")

    @bot.message_handler(text=["hi", "hello"])
    def text_filter(message: types.Message) -> None:
        assert message.from_user is not None
        bot.send_message(message.chat.id, f"Hi, {message.from_user.first_name}!")

    bot.add_custom_filter(custom_filters.TextMatchFilter())
    bot.add_custom_filter(custom_filters.TextStartsFilter())
    async with polling(wire, bot) as person:
        await person.send("@admin help")
        await person.expect_reply("Looks like you are calling admin, wait...")
        await person.send("hello")
        await person.expect_reply("Hi, Alice!")
        await person.send("hello there")
        await person.expect_no_reply(within=0.2)


async def test_is_reply_and_forwarded_filters(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.message_handler(is_reply=True)
    def start_filter(message: types.Message) -> None:
        bot.send_message(message.chat.id, "Looks like you replied to my message.")

    @bot.message_handler(is_forwarded=True)
    def text_filter(message: types.Message) -> None:
        bot.send_message(message.chat.id, "I do not accept forwarded messages!")

    bot.add_custom_filter(custom_filters.IsReplyFilter())
    bot.add_custom_filter(custom_filters.ForwardFilter())
    async with polling(wire, bot) as person:
        await person.send("/start")
        await person.expect_no_reply(within=0.2)
        await person.forward(text="Carol said this", origin={"type": "user", "user": "carol"})
        await person.expect_reply("I do not accept forwarded messages!")
        mine = await person.messages()
        await person.send("my reply", reply_to=mine[-1].message_id)
        await person.expect_reply("Looks like you replied to my message.")


async def test_chat_id_filter_lets_only_listed_chats_in(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.message_handler(chat_id=[ALICE], commands=["admin"])
    def admin_rep(message: types.Message) -> None:
        bot.send_message(message.chat.id, "You are allowed to use this command.")

    @bot.message_handler(commands=["admin"])
    def not_admin(message: types.Message) -> None:
        bot.send_message(message.chat.id, "You are not allowed to use this command")

    bot.add_custom_filter(custom_filters.ChatFilter())
    async with polling(wire, bot) as person:
        await person.send("/admin")
        await person.expect_reply("You are allowed to use this command.")
        await person.send("/admin", user="bob")
        await person.expect_reply("You are not allowed to use this command", chat=user_id_for("bob"))


# --- custom_filters/general_custom_filters.py --------------------------------------------------------------------
async def test_general_custom_filters_ask_get_chat_member_for_admins(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    class MainFilter(custom_filters.AdvancedCustomFilter):
        key = "text"

        @staticmethod
        def check(message: types.Message, text: list[str]) -> bool:
            return message.text in text

    class IsAdmin(custom_filters.SimpleCustomFilter):
        key = "is_admin"

        @staticmethod
        def check(message: types.Message) -> bool:
            assert message.from_user is not None
            return bot.get_chat_member(message.chat.id, message.from_user.id).status in ["administrator", "creator"]

    @bot.message_handler(is_admin=True, commands=["admin"])
    def admin_rep(message: types.Message) -> None:
        bot.send_message(message.chat.id, "Hi admin")

    @bot.message_handler(is_admin=False, commands=["admin"])
    def not_admin(message: types.Message) -> None:
        bot.send_message(message.chat.id, "You are not admin")

    @bot.message_handler(text=["hi"])
    def welcome_hi(message: types.Message) -> None:
        bot.send_message(message.chat.id, "You said hi")

    @bot.message_handler(text=["bye"])
    def bye_user(message: types.Message) -> None:
        bot.send_message(message.chat.id, "You said bye")

    bot.add_custom_filter(MainFilter())
    bot.add_custom_filter(IsAdmin())
    async with polling(wire, bot, skip_pending=True) as person:
        club = await group(wire, members=["bob", "@tgfake_bot"])  # alice made it: its creator
        await person.send("/admin", chat=club)
        await person.expect_reply("Hi admin", chat=club)
        await person.send("/admin", user="bob", chat=club)
        await person.expect_reply("You are not admin", chat=club)
        await person.send("hi")
        await person.expect_reply("You said hi")
        await person.send("bye")
        await person.expect_reply("You said bye")
        await person.send("/admin")  # a private chat: the person is a plain member of it
        await person.expect_reply("You are not admin")


# --- custom_filters/admin_filter_example.py ---------------------------------------------------------------------
async def test_admin_filter_answers_supergroup_admins_only(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.message_handler(chat_types=["supergroup"], is_chat_admin=True)
    def answer_for_admin(message: types.Message) -> None:
        bot.send_message(message.chat.id, "hello my admin")

    bot.add_custom_filter(custom_filters.IsAdminFilter(bot))
    async with polling(wire, bot) as person:
        club = await group(wire, members=["bob"], admins=["@tgfake_bot"])  # an admin bot sees every message
        await person.send("hello", user="bob", chat=club)
        await person.send("hello", chat=club)
        admin = await person.expect_reply("hello my admin", chat=club)
        await person.send("hello")
        await person.expect_no_reply(within=0.2)
        assert [m.text for m in await person.messages(club) if m.from_bot] == [admin.text]


# --- middleware/class_based/basic_example.py --------------------------------------------------------------------
async def test_class_middleware_passes_data_to_the_handler_and_back(wire: Wire) -> None:
    bot = TeleBot(wire.token, use_class_middlewares=True)
    after: list[str] = []  # what post_process prints

    class Middleware(BaseMiddleware):
        def __init__(self) -> None:
            self.update_types = ["message"]

        def pre_process(self, message: types.Message, data: dict[str, Any]) -> None:
            data["foo"] = "Hello"

        def post_process(self, message: types.Message, data: dict[str, Any], exception: Exception | None) -> None:
            after.append(data["foo"])
            assert exception is None

    @bot.message_handler(commands=["start"])
    def start(message: types.Message, data: dict[str, Any]) -> None:
        bot.send_message(message.chat.id, data["foo"])
        data["foo"] = "Processed"

    bot.setup_middleware(Middleware())
    async with polling(wire, bot) as person:
        await person.send("/start")
        await person.expect_reply("Hello")
        await person.wait_call("sendMessage")
    assert after == ["Processed"]


# --- middleware/class_based/antiflood_middleware.py (and asynchronous_telebot/middleware/flooding_middleware.py) --
def flooding(last_time: dict[int, int], limit: int, message: types.Message) -> bool:
    """The example's SimpleMiddleware(2) check: a second message within ``limit`` seconds of the last one let
    through (by ``message.date``, the stand's clock) is flooding."""
    assert message.from_user is not None
    user = message.from_user.id
    if user not in last_time:
        last_time[user] = message.date
        return False
    if message.date - last_time[user] < limit:
        return True
    last_time[user] = message.date
    return False


async def flood_and_wait(person: AsyncStandClient) -> None:
    await person.send("/start")
    await person.expect_reply("Hello!")
    await person.send("/start")  # the same second
    await person.expect_reply("You are making request too often")
    await person.expect_no_reply(within=0.3)
    await person.move_clock(1)
    await person.send("/start")  # one second on: still within the limit
    await person.expect_reply("You are making request too often")
    await person.move_clock(2)
    await person.send("/start")
    await person.expect_reply("Hello!")


async def test_antiflood_middleware_cancels_a_message_within_two_seconds(wire: Wire) -> None:
    from telebot.handler_backends import CancelUpdate

    bot = TeleBot(wire.token, use_class_middlewares=True)

    class SimpleMiddleware(BaseMiddleware):
        def __init__(self, limit: int) -> None:
            self.last_time: dict[int, int] = {}
            self.limit = limit
            self.update_types = ["message"]

        def pre_process(self, message: types.Message, data: dict[str, Any]) -> CancelUpdate | None:
            if flooding(self.last_time, self.limit, message):
                bot.send_message(message.chat.id, "You are making request too often")
                return CancelUpdate()
            return None

        def post_process(self, message: types.Message, data: dict[str, Any], exception: Exception | None) -> None:
            pass

    bot.setup_middleware(SimpleMiddleware(2))

    @bot.message_handler(commands=["start"])
    def start(message: types.Message) -> None:
        bot.send_message(message.chat.id, "Hello!")

    async with polling(wire, bot) as person:
        await flood_and_wait(person)
    assert refusals(wire) == []


async def test_async_flooding_middleware_cancels_a_message_within_two_seconds(wire: Wire) -> None:
    from telebot import asyncio_handler_backends as backends

    bot = AsyncTeleBot(wire.token)

    class SimpleMiddleware(backends.BaseMiddleware):
        def __init__(self, limit: int) -> None:
            self.last_time: dict[int, int] = {}
            self.limit = limit
            self.update_types = ["message"]

        async def pre_process(self, message: types.Message, data: dict[str, Any]) -> backends.CancelUpdate | None:
            if flooding(self.last_time, self.limit, message):
                await bot.send_message(message.chat.id, "You are making request too often")
                return backends.CancelUpdate()
            return None

        async def post_process(self, message: types.Message, data: dict[str, Any], exception: Any) -> None:
            pass

    bot.setup_middleware(SimpleMiddleware(2))

    @bot.message_handler(commands=["start"])
    async def start(message: types.Message) -> None:
        await bot.send_message(message.chat.id, "Hello!")

    async with async_polling(wire, bot) as person:
        await flood_and_wait(person)
    assert refusals(wire) == []


# --- middleware/function_based/session.py -----------------------------------------------------------------------
async def test_function_middleware_keeps_a_session_per_user(wire: Wire, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apihelper, "ENABLE_MIDDLEWARE", True)  # the example sets it before making the bot
    info, main = "ON_INFO_MENU", "ON_MAIN_MENU"
    sessions: dict[int, dict[str, str]] = {-10000: {"state": info}, -11111: {"state": main}}
    bot = TeleBot(wire.token)

    @bot.middleware_handler(update_types=["message"])
    def set_session(bot_instance: Any, message: types.Message) -> None:
        assert message.from_user is not None
        bot_instance.session = sessions.setdefault(message.from_user.id, {"state": main})

    @bot.message_handler(commands=["start"])
    def start(message: types.Message) -> None:
        bot.session["state"] = main  # type: ignore[attr-defined]  # set by the middleware
        bot.send_message(message.chat.id, bot.session["state"])  # type: ignore[attr-defined]

    @bot.message_handler(commands=["info"])
    def info_(message: types.Message) -> None:
        bot.session["state"] = info  # type: ignore[attr-defined]
        bot.send_message(message.chat.id, bot.session["state"])  # type: ignore[attr-defined]

    async with polling(wire, bot) as person:
        await person.send("/info")
        await person.expect_reply(info)
        await person.send("/start", user="bob")
        await person.expect_reply(main, chat=user_id_for("bob"))
        await person.wait_call("sendMessage", 2)
    assert sessions[ALICE] == {"state": info}
    assert sessions[user_id_for("bob")] == {"state": main}


# --- middleware/function_based/i18n.py (and asynchronous_telebot/middleware/i18n.py) ----------------------------
I18N_HELLO = {"en": "hello", "ru": "привет", "uz": "salom"}


async def test_function_middleware_answers_in_the_persons_language(wire: Wire, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apihelper, "ENABLE_MIDDLEWARE", True)
    bot = TeleBot(wire.token)
    lang = ["en"]  # the example's module-level _lang

    @bot.middleware_handler(update_types=["message"])
    def activate_language(bot_instance: Any, message: types.Message) -> None:
        assert message.from_user is not None
        lang[0] = str(message.from_user.language_code)

    @bot.message_handler(commands=["start"])
    def start(message: types.Message) -> None:
        bot.send_message(message.chat.id, I18N_HELLO[lang[0]])

    async with polling(wire, bot) as person:
        await person.set_profile("alice", language_code="ru")
        await person.set_profile("bob", language_code="uz")
        await person.send("/start")
        await person.expect_reply("привет")
        await person.send("/start", user="bob")
        await person.expect_reply("salom", chat=user_id_for("bob"))
    assert refusals(wire) == []


async def test_async_language_middleware_passes_the_answer_in_data(wire: Wire) -> None:
    from telebot import asyncio_handler_backends as backends

    bot = AsyncTeleBot(wire.token)

    class LanguageMiddleware(backends.BaseMiddleware):
        def __init__(self) -> None:
            self.update_types = ["message"]

        async def pre_process(self, message: types.Message, data: dict[str, Any]) -> None:
            assert message.from_user is not None
            data["response"] = I18N_HELLO[str(message.from_user.language_code)]

        async def post_process(self, message: types.Message, data: dict[str, Any], exception: Any) -> None:
            assert exception is None

    bot.setup_middleware(LanguageMiddleware())

    @bot.message_handler(commands=["start"])
    async def start(message: types.Message, data: dict[str, Any]) -> None:
        await bot.send_message(message.chat.id, data["response"])

    async with async_polling(wire, bot) as person:
        await person.set_profile("alice", language_code="en")
        await person.send("/start")
        await person.expect_reply("hello")
    assert refusals(wire) == []
