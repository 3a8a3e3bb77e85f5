"""pyTelegramBotAPI's own example bots (``examples/`` of eternnoir/pyTelegramBotAPI, sync ``TeleBot`` and
``asynchronous_telebot``), run against the stand: each test builds a bot of the example's shape (its handlers, calls
and parameters, in our own words), plays the person through the testing client, and asserts what the person sees
and what the bot got. telebot logs a handler that raised, a failed getUpdates or a refused call on its ``TeleBot``
logger: any error there fails the test."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import telebot
from telebot import TeleBot, apihelper, asyncio_helper, custom_filters, types
from telebot.async_telebot import AsyncTeleBot
from telebot.callback_data import CallbackData, CallbackDataFilter
from telebot.handler_backends import ContinueHandling

from tests.conftest import Wire
from tests.contract.running import origin
from tgfake.testing import AsyncStandClient
from tgfake.world.people import user_id_for

ALICE = user_id_for("alice")


class Complaints(logging.Handler):
    """telebot's own errors while a bot runs: a handler that raised, a failed getUpdates, a refused call."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def lines(self) -> list[str]:
        return [r.getMessage() for r in self.records]


@pytest.fixture(autouse=True)
def complaints() -> Iterator[Complaints]:
    """Fails the test when telebot logged an error (a test that expects one empties ``records``)."""
    handler = Complaints()
    telebot.logger.addHandler(handler)
    try:
        yield handler
    finally:
        telebot.logger.removeHandler(handler)
    assert handler.lines() == []


@contextlib.contextmanager
def pointed(wire: Wire) -> Iterator[None]:
    """telebot's module-level server addresses (both helpers) at the stand for the block, as a local Bot API
    server is configured (``apihelper.API_URL``), then put back."""
    api = origin(wire)
    saved = apihelper.API_URL, apihelper.FILE_URL, asyncio_helper.API_URL, asyncio_helper.FILE_URL
    apihelper.API_URL = api + "/bot{0}/{1}"  # type: ignore[assignment]  # typed None upstream
    apihelper.FILE_URL = api + "/file/bot{0}/{1}"  # type: ignore[assignment]
    asyncio_helper.API_URL = api + "/bot{0}/{1}"
    asyncio_helper.FILE_URL = api + "/file/bot{0}/{1}"  # type: ignore[assignment]
    try:
        yield
    finally:
        apihelper.API_URL, apihelper.FILE_URL, asyncio_helper.API_URL, asyncio_helper.FILE_URL = saved


@contextlib.asynccontextmanager
async def polling(wire: Wire, bot: TeleBot, **kw: Any) -> AsyncIterator[AsyncStandClient]:
    """``bot.infinity_polling(**kw)`` in a thread (as the example's last line runs it), and the person; the block
    starts once the bot polls and ends by ``stop_polling`` (the running long poll returns within a second)."""
    kw = {"timeout": 5, "long_polling_timeout": 1, **kw}
    with pointed(wire):
        thread = threading.Thread(target=bot.infinity_polling, kwargs=kw, daemon=True)
        thread.start()
        try:
            async with AsyncStandClient(origin(wire)) as person:
                status, body = await wire.sim("GET", "/sim/wait?polling=1")
                assert status == 200, body
                yield person
        finally:
            bot.stop_polling()
            await asyncio.to_thread(thread.join, 5)
            bot.stop_bot()
    assert not thread.is_alive()


@contextlib.asynccontextmanager
async def async_polling(wire: Wire, bot: AsyncTeleBot, **kw: Any) -> AsyncIterator[AsyncStandClient]:
    """``await bot.polling(**kw)`` as a task (``asyncio.run(bot.polling())`` in the example), and the person."""
    with pointed(wire):
        task = asyncio.create_task(bot.polling(**{"timeout": 1, "request_timeout": 5, **kw}))
        try:
            async with AsyncStandClient(origin(wire)) as person:
                status, body = await wire.sim("GET", "/sim/wait?polling=1")
                assert status == 200, body
                yield person
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await AsyncTeleBot.close_session()


def refusals(wire: Wire) -> list[tuple[str, int, str]]:
    """Every Bot API call the stand refused: (method, status, description)."""
    return [(c.method, c.status, str(c.response.get("description"))) for c in wire.stand.calls() if c.status != 200]


# --- echo_bot.py (and detect_changes.py: the same bot, restarted on a file change) ------------------------------
WELCOME = (
    "Hi there, I am EchoBot.\nI am here to echo your kind words back to you. Just say anything nice and I'll say "
    "the exact same thing to you!"
)


def echo_bot(wire: Wire) -> TeleBot:
    bot = TeleBot(wire.token)

    @bot.message_handler(commands=["help", "start"])
    def send_welcome(message: types.Message) -> None:
        bot.reply_to(message, WELCOME)

    @bot.message_handler(func=lambda message: True)
    def echo_message(message: types.Message) -> None:
        bot.reply_to(message, message.text)  # type: ignore[arg-type]  # text of a text message

    return bot


async def test_echo_bot_welcomes_and_echoes_as_replies(wire: Wire) -> None:
    async with polling(wire, echo_bot(wire)) as person:
        start = await person.send("/start")
        welcome = await person.expect_reply(WELCOME)
        assert welcome.raw["reply_to_message_id"] == start.message_id
        await person.send("/help")
        await person.expect_reply(WELCOME)
        said = await person.send("you are nice")
        echo = await person.expect_reply("you are nice")
        assert echo.raw["reply_to_message_id"] == said.message_id
    assert refusals(wire) == []


# --- register_handler.py ----------------------------------------------------------------------------------------
async def test_register_handler_registers_start_without_a_decorator(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    def start_executor(message: types.Message) -> None:
        bot.send_message(message.chat.id, "Hello!")

    bot.register_message_handler(start_executor, commands=["start"])
    async with polling(wire, bot) as person:
        await person.send("/start")
        await person.expect_reply("Hello!")
        await person.send("start")
        await person.expect_no_reply(within=0.2)


# --- continue_handling.py ---------------------------------------------------------------------------------------
async def test_continue_handling_runs_the_next_matching_handler(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.message_handler(commands=["start"])
    def start(message: types.Message) -> ContinueHandling:
        bot.send_message(message.chat.id, "Hello World!")
        return ContinueHandling()

    @bot.message_handler(commands=["start"])
    def start2(message: types.Message) -> None:
        bot.send_message(message.chat.id, "Hello World2!")

    async with polling(wire, bot) as person:
        await person.send("/start")
        await person.expect_reply("Hello World!")
        await person.expect_reply("Hello World2!")


# --- deep_linking.py --------------------------------------------------------------------------------------------
def deep_linking_bot(wire: Wire) -> TeleBot:
    bot = TeleBot(wire.token)

    def extract_unique_code(text: str) -> str | None:
        return text.split()[1] if len(text.split()) > 1 else None

    @bot.message_handler(commands=["start"])
    def send_welcome(message: types.Message) -> None:
        assert message.text is not None
        unique_code = extract_unique_code(message.text)
        if unique_code:
            reply = f"Hello {'ABC' if unique_code == 'abc123' else None}, how are you?"
        else:
            reply = "Please visit me via a provided URL from the website."
        bot.reply_to(message, reply)

    return bot


async def test_deep_linking_reads_the_start_parameter(wire: Wire) -> None:
    async with polling(wire, deep_linking_bot(wire)) as person:
        await person.send("/start abc123")  # what t.me/<bot>?start=abc123 makes the app send
        await person.expect_reply("Hello ABC, how are you?")
        await person.send("/start")
        await person.expect_reply("Please visit me via a provided URL from the website.")


# --- inline_keyboard_example.py ---------------------------------------------------------------------------------
async def test_inline_keyboard_answers_the_pressed_button(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    def gen_markup() -> types.InlineKeyboardMarkup:
        markup = types.InlineKeyboardMarkup()
        markup.row_width = 2
        markup.add(
            types.InlineKeyboardButton("Yes", callback_data="cb_yes"),
            types.InlineKeyboardButton("No", callback_data="cb_no"),
        )
        return markup

    @bot.callback_query_handler(func=lambda call: True)
    def callback_query(call: types.CallbackQuery) -> None:
        if call.data == "cb_yes":
            bot.answer_callback_query(call.id, "Answer is Yes")
        elif call.data == "cb_no":
            bot.answer_callback_query(call.id, "Answer is No")

    @bot.message_handler(func=lambda message: True)
    def message_handler(message: types.Message) -> None:
        bot.send_message(message.chat.id, "Yes/no?", reply_markup=gen_markup())

    async with polling(wire, bot) as person:
        await person.send("hello")
        asked = await person.expect_reply("Yes/no?")
        assert asked.keyboard == (("Yes", "No"),)
        await person.tap("No")
        [answered] = await person.wait_call("answerCallbackQuery")
        assert (answered.ok, answered.params["text"]) == (True, "Answer is No")


# --- callback_data_examples/simple_products_example.py ----------------------------------------------------------
PRODUCTS: list[dict[str, Any]] = [
    {"id": "0", "name": "xiaomi mi 10", "price": 400},
    {"id": "1", "name": "samsung s20", "price": 800},
    {"id": "2", "name": "iphone 13", "price": 1300},
]


def products_bot(wire: Wire, bot: Any) -> None:
    """The example's handlers on ``bot`` (a TeleBot or an AsyncTeleBot: the async example is the same shape)."""
    factory = CallbackData("product_id", prefix="products")
    is_async = isinstance(bot, AsyncTeleBot)

    def products_keyboard() -> types.InlineKeyboardMarkup:
        return types.InlineKeyboardMarkup(
            keyboard=[
                [types.InlineKeyboardButton(text=p["name"], callback_data=factory.new(product_id=p["id"]))]
                for p in PRODUCTS
            ]
        )

    def back_keyboard() -> types.InlineKeyboardMarkup:
        return types.InlineKeyboardMarkup(keyboard=[[types.InlineKeyboardButton(text="⬅", callback_data="back")]])

    def filter_class() -> Any:
        base = telebot.asyncio_filters.AdvancedCustomFilter if is_async else custom_filters.AdvancedCustomFilter

        class ProductsCallbackFilter(base):  # type: ignore[misc,valid-type]
            key = "config"

            def check(self, call: types.CallbackQuery, config: CallbackDataFilter) -> bool:
                return config.check(query=call)

        if is_async:

            async def acheck(self: Any, call: types.CallbackQuery, config: CallbackDataFilter) -> bool:
                return config.check(query=call)

            ProductsCallbackFilter.check = acheck  # type: ignore[method-assign,assignment]
        return ProductsCallbackFilter()

    async def maybe(result: Any) -> None:
        if asyncio.iscoroutine(result):
            await result

    def command(message: types.Message) -> Any:
        return bot.send_message(message.chat.id, "Products:", reply_markup=products_keyboard())

    def product_one(call: types.CallbackQuery) -> Any:
        return bot.answer_callback_query(callback_query_id=call.id, text="Not available :(", show_alert=True)

    def product(call: types.CallbackQuery) -> Any:
        data = factory.parse(callback_data=call.data)  # type: ignore[arg-type]  # a button's data
        item = PRODUCTS[int(data["product_id"])]
        text = f"Product name: {item['name']}\nProduct price: {item['price']}"
        assert isinstance(call.message, types.Message)
        return bot.edit_message_text(
            chat_id=call.message.chat.id, message_id=call.message.message_id, text=text, reply_markup=back_keyboard()
        )

    def back(call: types.CallbackQuery) -> Any:
        assert isinstance(call.message, types.Message)
        return bot.edit_message_text(
            chat_id=call.message.chat.id,
            message_id=call.message.message_id,
            text="Products:",
            reply_markup=products_keyboard(),
        )

    def wrap(f: Any) -> Any:
        if not is_async:
            return f

        async def run(arg: Any) -> None:
            await maybe(f(arg))

        return run

    bot.register_message_handler(wrap(command), commands=["products"])
    bot.register_callback_query_handler(wrap(product_one), func=None, config=factory.filter(product_id="2"))
    bot.register_callback_query_handler(wrap(product), func=None, config=factory.filter())
    bot.register_callback_query_handler(wrap(back), func=lambda c: c.data == "back")
    bot.add_custom_filter(filter_class())


async def play_products(wire: Wire, person: AsyncStandClient) -> None:
    await person.send("/products")
    menu = await person.expect_reply("Products:")
    assert menu.keyboard == (("xiaomi mi 10",), ("samsung s20",), ("iphone 13",))
    await person.tap("iphone 13")
    [alert] = await person.wait_call("answerCallbackQuery")
    # telebot form-encodes Python booleans as "True" (Telegram's to_bool reads it as true; see the report)
    assert (alert.ok, alert.params["text"], alert.params["show_alert"]) == (True, "Not available :(", "True")
    await person.tap("samsung s20")
    [edit] = await person.wait_call("editMessageText")
    assert edit.ok, edit.line()
    [shown] = [m for m in await person.messages() if m.message_id == menu.message_id]
    assert (shown.text, shown.keyboard) == ("Product name: samsung s20\nProduct price: 800", (("⬅",),))
    await person.tap("⬅")
    await person.wait_call("editMessageText", 2)
    [back] = [m for m in await person.messages() if m.message_id == menu.message_id]
    assert (back.text, back.keyboard) == ("Products:", menu.keyboard)


async def test_simple_products_callback_data_factory_and_filter(wire: Wire) -> None:
    bot = TeleBot(wire.token)
    products_bot(wire, bot)
    async with polling(wire, bot) as person:
        await play_products(wire, person)


async def test_async_simple_products_callback_data_factory_and_filter(wire: Wire) -> None:
    bot = AsyncTeleBot(wire.token)
    products_bot(wire, bot)
    async with async_polling(wire, bot) as person:
        await play_products(wire, person)


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
