"""pyTelegramBotAPI's own example bots (``examples/`` of eternnoir/pyTelegramBotAPI, sync ``TeleBot`` and
``asynchronous_telebot``), run against the stand: each test builds a bot of the example's shape (its handlers, calls
and parameters, in our own words), plays the person through the testing client, and asserts what the person sees
and what the bot got. telebot logs a handler that raised, a failed getUpdates or a refused call on its ``TeleBot``
logger: any error there fails the test.

Here: handlers, keyboards and steps (echo_bot.py, register_handler.py, continue_handling.py,
deep_linking.py, inline_keyboard_example.py, callback_data_examples/, step_example.py,
reply_keyboard_markup_example.py, custom_states.py); the shared helpers are in ``telebot_support.py``."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import telebot
from telebot import TeleBot, custom_filters, types
from telebot.async_telebot import AsyncTeleBot
from telebot.callback_data import CallbackData, CallbackDataFilter
from telebot.handler_backends import ContinueHandling, FileHandlerBackend
from telebot.states import State, StatesGroup
from telebot.states.sync.context import StateContext
from telebot.states.sync.middleware import StateMiddleware
from telebot.storage import StateMemoryStorage

from tests.conftest import Wire
from tests.contract import telebot_support
from tests.contract.telebot_support import async_polling, polling, refusals
from tgfake.testing import AsyncStandClient

complaints = telebot_support.complaints  # the autouse fixture: a complaint logged fails every test here

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
    # telebot form-encodes Python booleans as "True", which Telegram's to_bool reads as true: an alert
    assert (alert.ok, alert.params["text"], alert.params["show_alert"]) == (True, "Not available :(", "True")
    status, chat = await wire.sim("GET", "/sim/chat/4242")  # the private chat with alice
    assert status == 200
    assert chat["callbacks"][-1]["show_alert"] is True
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


# --- step_example.py --------------------------------------------------------------------------------------------
async def test_step_example_chains_next_step_handlers(wire: Wire, tmp_path: Path) -> None:
    # Each step registers the next one after its reply is sent; with telebot's worker threads the person's quick
    # answer could be dispatched before that (a person types slower). Handlers run in the polling thread here, so
    # the next update is fetched only once a step has registered its successor.
    bot = TeleBot(wire.token, threaded=False)
    users: dict[int, dict[str, str]] = {}

    @bot.message_handler(commands=["help", "start"])
    def send_welcome(message: types.Message) -> None:
        msg = bot.reply_to(message, "Hi there, I am Example bot.\nWhat's your name?\n")
        bot.register_next_step_handler(msg, process_name_step)

    def process_name_step(message: types.Message) -> None:
        users[message.chat.id] = {"name": str(message.text)}
        msg = bot.reply_to(message, "How old are you?")
        bot.register_next_step_handler(msg, process_age_step)

    def process_age_step(message: types.Message) -> None:
        age = str(message.text)
        if not age.isdigit():
            msg = bot.reply_to(message, "Age should be a number. How old are you?")
            bot.register_next_step_handler(msg, process_age_step)
            return
        users[message.chat.id]["age"] = age
        markup = types.ReplyKeyboardMarkup(one_time_keyboard=True)
        markup.add("Male", "Female")
        msg = bot.reply_to(message, "What is your gender", reply_markup=markup)
        bot.register_next_step_handler(msg, process_sex_step)

    def process_sex_step(message: types.Message) -> None:
        user = users[message.chat.id]
        bot.send_message(message.chat.id, f"Nice to meet you {user['name']}\n Age:{user['age']}\n Sex:{message.text}")

    saves = str(tmp_path / "step.save")  # the example's default is ./.handler-saves/step.save
    # The example saves every 2 s; its handlers are module functions, these are a test's locals, which pickle cannot
    # save: a save timer firing on a slow machine failed the test. The saver is on, it just never fires in the test.
    bot.enable_save_next_step_handlers(delay=3600, filename=saves)
    bot.load_next_step_handlers(filename=saves)
    try:
        async with polling(wire, bot) as person:
            await person.send("/start")
            await person.expect_reply("Hi there, I am Example bot.\nWhat's your name?")
            await person.send("Ann")
            await person.expect_reply("How old are you?")
            await person.send("old")
            await person.expect_reply("Age should be a number. How old are you?")
            await person.send("30")
            gender = await person.expect_reply("What is your gender")
            assert gender.reply_keyboard == (("Male", "Female"),)
            await person.press("Female")
            await person.expect_reply("Nice to meet you Ann\n Age:30\n Sex:Female")
    finally:
        backend = bot.next_step_backend
        assert isinstance(backend, FileHandlerBackend)
        backend.timer.cancel()  # (telebot's save timer is not a daemon thread)


# --- reply_keyboard_markup_example.py ---------------------------------------------------------------------------
KEYS = list("1234567890qwertyuiopasdfghjklzxcvbnm")
SYMBOLS = list("1234567890!@#$%^&*()'\"/\\,.;:")


def keyboard(key_type: str = "Normal") -> types.ReplyKeyboardMarkup:
    markup = types.ReplyKeyboardMarkup(row_width=10)
    keys = SYMBOLS if key_type == "Symbols" else [k.upper() for k in KEYS] if key_type == "Caps" else KEYS
    cuts = (0, 10, 20, 28) if key_type == "Symbols" else (0, 10, 20, 29, 36)
    for a, b in itertools.pairwise(cuts):
        markup.add(*[types.KeyboardButton(x) for x in keys[a:b]])
    last = {"Normal": ("Caps Lock", "Symbols"), "Symbols": ("Caps Lock", "Normal"), "Caps": ("Normal", "Symbols")}
    markup.add(*[types.KeyboardButton(x) for x in (*last[key_type], "🔙Delete", "✅Done")])
    return markup


async def test_reply_keyboard_markup_switches_layouts_and_removes_itself(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.message_handler(commands=["start"])
    def start_message(message: types.Message) -> None:
        bot.send_message(message.chat.id, "You can use the keyboard", reply_markup=keyboard())

    @bot.message_handler(func=lambda message: True)
    def all_messages(message: types.Message) -> None:
        assert message.from_user is not None
        if message.text == "✅Done":
            bot.send_message(message.from_user.id, "Done with Keyboard", reply_markup=types.ReplyKeyboardRemove())
        elif message.text == "Symbols":
            bot.send_message(message.from_user.id, "Special characters", reply_markup=keyboard("Symbols"))
        elif message.text == "Caps Lock":
            bot.send_message(message.from_user.id, "Caps Lock", reply_markup=keyboard("Caps"))
        elif message.text == "🔙Delete":
            bot.delete_message(message.from_user.id, message.message_id)
        else:
            bot.send_message(message.chat.id, str(message.text))

    async with polling(wire, bot) as person:
        await person.send("/start")
        normal = await person.expect_reply("You can use the keyboard")
        assert [len(row) for row in normal.reply_keyboard] == [10, 10, 9, 7, 4]
        await person.press("q")
        await person.expect_reply("q")
        await person.press("Symbols")
        symbols = await person.expect_reply("Special characters")
        assert symbols.reply_keyboard[2] == tuple("'\"/\\,.;:")
        await person.press("Caps Lock")
        caps = await person.expect_reply("Caps Lock")
        assert caps.reply_keyboard[0] == tuple("1234567890")
        assert caps.reply_keyboard[1] == tuple("QWERTYUIOP")
        pressed = await person.press("🔙Delete")
        [deleted] = await person.wait_call("deleteMessage")
        assert deleted.ok, deleted.line()
        assert [m.deleted for m in await person.messages() if m.message_id == pressed.message_id] == [True]
        await person.press("✅Done")
        done = await person.expect_reply("Done with Keyboard")
        assert done.raw["reply_keyboard"] == {"remove_keyboard": True}
    assert refusals(wire) == []


# --- custom_states.py -------------------------------------------------------------------------------------------
async def test_custom_states_walks_the_form_with_state_middleware(wire: Wire) -> None:
    bot = TeleBot(wire.token, state_storage=StateMemoryStorage(), use_class_middlewares=True)

    class MyStates(StatesGroup):
        name = State()
        age = State()
        color = State()
        hobby = State()

    def said(message: types.Message, text: str, **kw: Any) -> None:
        bot.send_message(
            message.chat.id, text, reply_parameters=types.ReplyParameters(message_id=message.message_id), **kw
        )

    def buttons(labels: list[str]) -> types.ReplyKeyboardMarkup:
        keyboard = types.ReplyKeyboardMarkup(row_width=2)
        keyboard.add(*[types.KeyboardButton(label) for label in labels])
        return keyboard

    @bot.message_handler(commands=["start"])
    def start_ex(message: types.Message, state: StateContext) -> None:
        state.set(MyStates.name)
        said(message, "Hello! What is your first name?")

    @bot.message_handler(state="*", commands=["cancel"])
    def any_state(message: types.Message, state: StateContext) -> None:
        state.delete()
        said(message, "Your information has been cleared. Type /start to begin again.")

    @bot.message_handler(state=MyStates.name)
    def name_get(message: types.Message, state: StateContext) -> None:
        state.set(MyStates.age)
        said(message, "How old are you?")
        state.add_data(name=message.text)

    @bot.message_handler(state=MyStates.age, is_digit=True)
    def ask_color(message: types.Message, state: StateContext) -> None:
        state.set(MyStates.color)
        state.add_data(age=message.text)
        said(message, "What is your favorite color?", reply_markup=buttons(["Red", "Green", "Blue", "Other"]))

    @bot.message_handler(state=MyStates.color)
    def ask_hobby(message: types.Message, state: StateContext) -> None:
        state.set(MyStates.hobby)
        state.add_data(color=message.text)
        said(message, "What is one of your hobbies?", reply_markup=buttons(["Reading", "Traveling", "Gaming"]))

    @bot.message_handler(state=MyStates.hobby, text=["Reading", "Traveling", "Gaming", "Cooking"])
    def finish(message: types.Message, state: StateContext) -> None:
        with state.data() as data:  # type: ignore[attr-defined]  # typed as a dict, returns a context manager
            msg = (
                f"Thank you for sharing! Here is a summary of your information:\nFirst Name: {data.get('name')}\n"
                f"Age: {data.get('age')}\nFavorite Color: {data.get('color')}\nFavorite Hobby: {message.text}"
            )
        said(message, msg, parse_mode="html")
        state.delete()

    @bot.message_handler(state=MyStates.age, is_digit=False)
    def age_incorrect(message: types.Message) -> None:
        said(message, "Please enter a valid number for age.")

    bot.add_custom_filter(custom_filters.StateFilter(bot))
    bot.add_custom_filter(custom_filters.IsDigitFilter())
    bot.add_custom_filter(custom_filters.TextMatchFilter())
    bot.setup_middleware(StateMiddleware(bot))
    async with polling(wire, bot) as person:
        start = await person.send("/start")
        hello = await person.expect_reply("Hello! What is your first name?")
        assert hello.raw["reply_to_message_id"] == start.message_id
        await person.send("Ann")
        await person.expect_reply("How old are you?")
        await person.send("old")
        await person.expect_reply("Please enter a valid number for age.")
        await person.send("30")
        color = await person.expect_reply("What is your favorite color?")
        assert color.reply_keyboard == (("Red", "Green"), ("Blue", "Other"))
        await person.press("Blue")
        await person.expect_reply("What is one of your hobbies?")
        await person.press("Gaming")
        summary = await person.expect_reply(containing="Thank you for sharing!")
        assert summary.text.endswith("First Name: Ann\nAge: 30\nFavorite Color: Blue\nFavorite Hobby: Gaming")
        await person.send("/start")
        await person.expect_reply("Hello! What is your first name?")
        await person.send("/cancel")
        await person.expect_reply("Your information has been cleared. Type /start to begin again.")
        await person.send("Bob")
        await person.expect_no_reply(within=0.2)
    assert refusals(wire) == []
