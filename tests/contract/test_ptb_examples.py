"""python-telegram-bot's own example bots (``examples/`` of the 22.x line), each rewritten here in the same shape: the
same handlers, calls, parameters and flow, polling with ``allowed_updates=Update.ALL_TYPES`` as every example's
``run_polling`` does. The person plays the human through the testing client; each test checks what the person sees
and what the bot received. A difference from Telegram shows up as a library exception, a refused call, a missing
field or a wrong update kind."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import socket
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any, cast
from uuid import uuid4

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from telegram import (
    Chat,
    ChatMember,
    ChatMemberUpdated,
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    KeyboardButton,
    KeyboardButtonPollType,
    LabeledPrice,
    LinkPreviewOptions,
    Poll,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    ShippingOption,
    Update,
    WebAppInfo,
    helpers,
)
from telegram.constants import ParseMode
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseHandler,
    CallbackContext,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    ConversationHandler,
    ExtBot,
    InlineQueryHandler,
    InvalidCallbackData,
    MessageHandler,
    PicklePersistence,
    PollAnswerHandler,
    PollHandler,
    PreCheckoutQueryHandler,
    ShippingQueryHandler,
    TypeHandler,
    filters,
)

from tests.clients import PtbApp, origin
from tests.conftest import Wire
from tests.contract import test_conversation_oracles as professor
from tests.contract.running import ptb_polling
from tests.contract.test_poll_oracles import until
from tests.person.test_passport import DETAILS
from tgfake.testing import AsyncStandClient
from tgfake.world.people import user_id_for

BOB = user_id_for("bob")
CAROL = user_id_for("carol")
# The examples' ConversationHandlers mix message and callback handlers with per_message=False, as PTB warns.
pytestmark = pytest.mark.filterwarnings("ignore:If 'per_message=False':telegram.warnings.PTBUserWarning")

Handlers = Sequence[BaseHandler[Any, Any, Any] | tuple[BaseHandler[Any, Any, Any], int]]


@contextlib.asynccontextmanager
async def example(
    wire: Wire,
    handlers: Handlers,
    build: Callable[[ApplicationBuilder[Any, Any, Any, Any, Any, Any]], Any] | None = None,
    errors: Callable[..., Any] | None = None,
    person: AsyncStandClient | None = None,
) -> AsyncIterator[tuple[AsyncStandClient, PtbApp]]:
    """The example's Application (``build`` adds its builder steps: persistence, context types...), polling the stand
    for every update type, and the person talking to it (``person``: the same one across two runs of a bot)."""
    api = origin(wire)
    builder = Application.builder().token(wire.token).base_url(f"{api}/bot").base_file_url(f"{api}/file/bot")
    app: PtbApp = (build(builder) if build else builder).build()
    for handler in handlers:
        if isinstance(handler, tuple):
            app.add_handler(handler[0], group=handler[1])
        else:
            app.add_handler(handler)
    if errors is not None:
        app.add_error_handler(errors)
    async with ptb_polling(app, allowed_updates=Update.ALL_TYPES), contextlib.AsyncExitStack() as stack:
        yield (person if person is not None else await stack.enter_async_context(AsyncStandClient(api))), app


def refusals(wire: Wire) -> list[tuple[str, int, str]]:
    """Every Bot API call the stand refused: (method, status, description)."""
    return [(c.method, c.status, str(c.response.get("description"))) for c in wire.stand.calls() if c.status != 200]


# --- echobot.py ----------------------------------------------------------------------------------------------------
async def echo_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    assert update.effective_user is not None
    user = update.effective_user
    await update.message.reply_html(rf"Hi {user.mention_html()}!", reply_markup=ForceReply(selective=True))


async def echo_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text("Help!")


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    assert update.message.text is not None
    await update.message.reply_text(update.message.text)


async def test_echobot(wire: Wire) -> None:
    handlers = [
        CommandHandler("start", echo_start),
        CommandHandler("help", echo_help),
        MessageHandler(filters.TEXT & ~filters.COMMAND, echo),
    ]
    async with example(wire, handlers) as (person, _):
        await person.send("/start")
        hi = await person.expect_reply("Hi Alice!")
        assert hi.entities == ({"type": "text_mention", "offset": 3, "length": 5, "user": hi.entities[0]["user"]},)
        assert hi.entities[0]["user"]["id"] == 4242
        [sent] = await person.outbox("sendMessage")
        assert json.loads(sent.params["reply_markup"]) == {"force_reply": True, "selective": True}
        assert sent.params["parse_mode"] == "HTML"
        await person.send("/help")
        await person.expect_reply("Help!")
        await person.send("Hello, 🌍!")
        await person.expect_reply("Hello, 🌍!")
    assert refusals(wire) == []


# --- timerbot.py ---------------------------------------------------------------------------------------------------
async def timer_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text("Hi! Use /set <seconds> to set a timer")


async def alarm(context: ContextTypes.DEFAULT_TYPE) -> None:
    job = context.job
    assert job is not None
    assert job.chat_id is not None
    await context.bot.send_message(job.chat_id, text=f"Beep! {job.data} seconds are over!")


def remove_job_if_exists(name: str, context: ContextTypes.DEFAULT_TYPE) -> bool:
    assert context.job_queue is not None
    current_jobs = context.job_queue.get_jobs_by_name(name)
    for job in current_jobs:
        job.schedule_removal()
    return bool(current_jobs)


async def set_timer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    assert message is not None
    assert context.job_queue is not None
    chat_id = message.chat_id
    try:
        due = float((context.args or [])[0])
        if due < 0:
            await message.reply_text("Sorry we can not go back to future!")
            return
        job_removed = remove_job_if_exists(str(chat_id), context)
        context.job_queue.run_once(alarm, due, chat_id=chat_id, name=str(chat_id), data=due)
        text = "Timer successfully set!"
        if job_removed:
            text += " Old one was removed."
        await message.reply_text(text)
    except (IndexError, ValueError):
        await message.reply_text("Usage: /set <seconds>")


async def unset(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    job_removed = remove_job_if_exists(str(update.message.chat_id), context)
    await update.message.reply_text("Timer successfully cancelled!" if job_removed else "You have no active timer.")


async def test_timerbot(wire: Wire) -> None:
    handlers = [CommandHandler(["start", "help"], timer_start), CommandHandler("set", set_timer)]
    async with example(wire, [*handlers, CommandHandler("unset", unset)]) as (person, _):
        await person.send("/help")
        await person.expect_reply("Hi! Use /set <seconds> to set a timer")
        await person.send("/set")
        await person.expect_reply("Usage: /set <seconds>")
        await person.send("/set -1")
        await person.expect_reply("Sorry we can not go back to future!")
        await person.send("/unset")
        await person.expect_reply("You have no active timer.")
        await person.send("/set 30")
        await person.expect_reply("Timer successfully set!")
        await person.send("/set 0.05")
        # the job queue runs on the bot's own clock: the alarm may even overtake the confirmation
        await person.wait_call("sendMessage", 7)
        assert {(await person.expect_reply()).text, (await person.expect_reply()).text} == {
            "Timer successfully set! Old one was removed.",
            "Beep! 0.05 seconds are over!",
        }
        await person.send("/unset")
        await person.expect_reply("You have no active timer.")
    assert refusals(wire) == []


# --- inlinekeyboard.py ---------------------------------------------------------------------------------------------
async def options_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    keyboard = [
        [InlineKeyboardButton("Option 1", callback_data="1"), InlineKeyboardButton("Option 2", callback_data="2")],
        [InlineKeyboardButton("Option 3", callback_data="3")],
    ]
    await update.message.reply_text("Please choose:", reply_markup=InlineKeyboardMarkup(keyboard))


async def option_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer()
    await query.edit_message_text(text=f"Selected option: {query.data}")


async def options_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text("Use /start to test this bot.")


async def test_inlinekeyboard(wire: Wire) -> None:
    handlers = [CommandHandler("start", options_start), CallbackQueryHandler(option_button)]
    async with example(wire, [*handlers, CommandHandler("help", options_help)]) as (person, _):
        await person.send("/help")
        await person.expect_reply("Use /start to test this bot.")
        await person.send("/start")
        menu = await person.expect_reply("Please choose:")
        assert menu.keyboard == (("Option 1", "Option 2"), ("Option 3",))
        await person.tap("Option 3")
        await person.wait_call("editMessageText")
        [shown] = [m for m in await person.messages() if m.message_id == menu.message_id]
        assert (shown.text, shown.keyboard, shown.edited) == ("Selected option: 3", (), True)
        [answered] = await person.outbox("answerCallbackQuery")
        assert answered.ok
    assert refusals(wire) == []


# --- inlinekeyboard2.py --------------------------------------------------------------------------------------------
START_ROUTES, END_ROUTES = range(2)
ONE, TWO, THREE, FOUR = range(4)


def routes(*buttons: tuple[str, int]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=str(data)) for label, data in buttons]])


async def routes_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    await update.message.reply_text("Start handler, Choose a route", reply_markup=routes(("1", ONE), ("2", TWO)))
    return START_ROUTES


async def edit_route(update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer()
    await query.edit_message_text(text=text, reply_markup=markup)


async def start_over(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    await edit_route(update, "Start handler, Choose a route", routes(("1", ONE), ("2", TWO)))
    return START_ROUTES


async def one(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    await edit_route(update, "First CallbackQueryHandler, Choose a route", routes(("3", THREE), ("4", FOUR)))
    return START_ROUTES


async def two(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    await edit_route(update, "Second CallbackQueryHandler, Choose a route", routes(("1", ONE), ("3", THREE)))
    return START_ROUTES


async def three(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    again = routes(("Yes, let's do it again!", ONE), ("Nah, I've had enough ...", TWO))
    await edit_route(update, "Third CallbackQueryHandler. Do want to start over?", again)
    return END_ROUTES


async def four(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    await edit_route(update, "Fourth CallbackQueryHandler, Choose a route", routes(("2", TWO), ("3", THREE)))
    return START_ROUTES


async def routes_end(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    await edit_route(update, "See you next time!")
    return ConversationHandler.END


async def test_inlinekeyboard2(wire: Wire) -> None:
    def pattern(n: int) -> str:
        return f"^{n}$"

    conv = ConversationHandler(
        entry_points=[CommandHandler("start", routes_start)],
        states={
            START_ROUTES: [
                CallbackQueryHandler(one, pattern=pattern(ONE)),
                CallbackQueryHandler(two, pattern=pattern(TWO)),
                CallbackQueryHandler(three, pattern=pattern(THREE)),
                CallbackQueryHandler(four, pattern=pattern(FOUR)),
            ],
            END_ROUTES: [
                CallbackQueryHandler(start_over, pattern=pattern(ONE)),
                CallbackQueryHandler(routes_end, pattern=pattern(TWO)),
            ],
        },
        fallbacks=[CommandHandler("start", routes_start)],
    )
    async with example(wire, [conv]) as (person, _):
        await person.send("/start")
        menu = await person.expect_reply("Start handler, Choose a route")
        steps = [
            ("2", "Second CallbackQueryHandler, Choose a route", (("1", "3"),)),
            (
                "3",
                "Third CallbackQueryHandler. Do want to start over?",
                (("Yes, let's do it again!", "Nah, I've had enough ..."),),
            ),
            ("Yes, let's do it again!", "Start handler, Choose a route", (("1", "2"),)),
            ("1", "First CallbackQueryHandler, Choose a route", (("3", "4"),)),
            ("4", "Fourth CallbackQueryHandler, Choose a route", (("2", "3"),)),
            (
                "3",
                "Third CallbackQueryHandler. Do want to start over?",
                (("Yes, let's do it again!", "Nah, I've had enough ..."),),
            ),
            ("Nah, I've had enough ...", "See you next time!", ()),
        ]
        for n, (label, text, keyboard) in enumerate(steps, 1):
            await person.tap(label, message_id=menu.message_id)
            await person.wait_call("editMessageText", n)
            [shown] = [m for m in await person.messages() if m.message_id == menu.message_id]
            assert (shown.text, shown.keyboard) == (text, keyboard)
        assert await person.count("answerCallbackQuery") == len(steps)
    assert refusals(wire) == []


# --- errorhandlerbot.py --------------------------------------------------------------------------------------------
def error_handler_for(developer_chat_id: int) -> Callable[..., Any]:
    async def error_handler(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        import traceback

        assert context.error is not None
        tb_string = "".join(traceback.format_exception(None, context.error, context.error.__traceback__))
        update_str = update.to_dict() if isinstance(update, Update) else str(update)
        message = (
            "An exception was raised while handling an update\n"
            f"<pre>update = {html.escape(json.dumps(update_str, indent=2, ensure_ascii=False))}"
            "</pre>\n\n"
            f"<pre>context.chat_data = {html.escape(str(context.chat_data))}</pre>\n\n"
            f"<pre>context.user_data = {html.escape(str(context.user_data))}</pre>\n\n"
            f"<pre>{html.escape(tb_string)}</pre>"
        )
        context.bot_data.setdefault("reports", []).append(message)
        await context.bot.send_message(chat_id=developer_chat_id, text=message, parse_mode=ParseMode.HTML)

    return error_handler


async def bad_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await context.bot.wrong_method_name()  # type: ignore[attr-defined]


async def error_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    assert update.effective_chat is not None
    await update.effective_message.reply_html(
        f"Use /bad_command to cause an error.\nYour chat id is <code>{update.effective_chat.id}</code>."
    )


async def test_errorhandlerbot(wire: Wire) -> None:
    handlers = [CommandHandler("start", error_start), CommandHandler("bad_command", bad_command)]
    async with example(wire, handlers, errors=error_handler_for(4242)) as (person, _):
        await person.send("/start")
        started = await person.expect_reply("Use /bad_command to cause an error.\nYour chat id is 4242.")
        assert started.html == "Use /bad_command to cause an error.\nYour chat id is <code>4242</code>."
        await person.send("/bad_command")
        report = await person.expect_reply(containing="An exception was raised while handling an update")
        assert "AttributeError" in report.text
        assert '"text": "/bad_command"' in report.text
        assert [e["type"] for e in report.entities] == ["pre"] * 4
    assert refusals(wire) == []


# --- rawapibot.py --------------------------------------------------------------------------------------------------
async def test_rawapibot(wire: Wire) -> None:
    """No Application: getUpdates by hand, each update's offset acknowledged, text echoed."""
    import datetime as dtm

    import telegram

    api = origin(wire)
    async with telegram.Bot(wire.token, base_url=f"{api}/bot") as bot, AsyncStandClient(api) as person:
        assert await bot.get_updates() == ()
        update_id: int | None = None
        await person.send("first")
        await person.send("second")
        await person.share(location={"latitude": 1.5, "longitude": 2.5})  # no text: not echoed
        await person.send("third")
        echoed: list[str] = []
        while len(echoed) < 3:
            updates = await bot.get_updates(
                offset=update_id, timeout=dtm.timedelta(seconds=1), allowed_updates=Update.ALL_TYPES
            )
            for update in updates:
                update_id = update.update_id + 1
                if update.message and update.message.text:
                    await update.message.reply_text(update.message.text)
                    echoed.append(update.message.text)
                break  # the example handles one update per call and asks again from the next offset
        assert echoed == ["first", "second", "third"]
        assert await bot.get_updates(offset=update_id, timeout=0) == ()
        assert [m.text for m in await person.messages() if m.from_bot] == ["first", "second", "third"]
    assert refusals(wire) == []


# --- contexttypesbot.py --------------------------------------------------------------------------------------------
class ChatData:
    """Custom chat_data: clicks per message."""

    def __init__(self) -> None:
        self.clicks_per_message: defaultdict[int, int] = defaultdict(int)


class CustomContext(CallbackContext[ExtBot[None], dict[Any, Any], ChatData, dict[Any, Any]]):
    def __init__(self, application: PtbApp, chat_id: int | None = None, user_id: int | None = None) -> None:
        super().__init__(application=application, chat_id=chat_id, user_id=user_id)
        self._message_id: int | None = None

    @property
    def bot_user_ids(self) -> set[int]:
        return cast("set[int]", self.bot_data.setdefault("user_ids", set()))

    @property
    def message_clicks(self) -> int | None:
        if self._message_id and self.chat_data is not None:
            return self.chat_data.clicks_per_message[self._message_id]
        return None

    @message_clicks.setter
    def message_clicks(self, value: int) -> None:
        if not self._message_id or self.chat_data is None:
            raise RuntimeError("There is no message associated with this context object.")
        self.chat_data.clicks_per_message[self._message_id] = value

    @classmethod
    def from_update(cls, update: object, application: Any) -> CustomContext:
        context = super().from_update(update, application)
        if context.chat_data and isinstance(update, Update) and update.effective_message:
            context._message_id = update.effective_message.message_id
        return context


def click_me() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup.from_button(InlineKeyboardButton(text="Click me!", callback_data="button"))


async def clicks_start(update: Update, context: CustomContext) -> None:
    assert update.message is not None
    await update.message.reply_html("This button was clicked <i>0</i> times.", reply_markup=click_me())


async def count_click(update: Update, context: CustomContext) -> None:
    assert update.callback_query is not None
    assert update.effective_message is not None
    context.message_clicks = (context.message_clicks or 0) + 1
    await update.callback_query.answer()
    await update.effective_message.edit_text(
        f"This button was clicked <i>{context.message_clicks}</i> times.",
        reply_markup=click_me(),
        parse_mode=ParseMode.HTML,
    )


async def print_users(update: Update, context: CustomContext) -> None:
    assert update.message is not None
    users = ", ".join(map(str, context.bot_user_ids))
    await update.message.reply_text(f"The following user IDs have used this bot: {users}")


async def track_users(update: Update, context: CustomContext) -> None:
    if update.effective_user:
        context.bot_user_ids.add(update.effective_user.id)


async def test_contexttypesbot(wire: Wire) -> None:
    context_types = ContextTypes(context=CustomContext, chat_data=ChatData)
    handlers: Handlers = [
        (TypeHandler(Update, track_users), -1),
        CommandHandler("start", clicks_start),
        CallbackQueryHandler(count_click),
        CommandHandler("print_users", print_users),
    ]
    async with example(wire, handlers, build=lambda b: b.context_types(context_types)) as (person, app):
        await person.send("/start")
        button = await person.expect_reply("This button was clicked 0 times.")
        assert button.html == "This button was clicked <i>0</i> times."
        for n in (1, 2, 3):
            await person.tap("Click me!")
            await person.wait_call("editMessageText", n)
        [shown] = [m for m in await person.messages() if m.message_id == button.message_id]
        assert (shown.html, shown.keyboard) == ("This button was clicked <i>3</i> times.", (("Click me!",),))
        await person.send("/start", user="bob")
        await person.expect_reply("This button was clicked 0 times.", chat=BOB)
        await person.send("/print_users")
        users = await person.expect_reply(containing="The following user IDs have used this bot: ")
        assert set(users.text.rsplit(": ", 1)[1].split(", ")) == {"4242", str(BOB)}
        assert app.chat_data[4242].clicks_per_message == {button.message_id: 3}
    assert refusals(wire) == []


# --- arbitrarycallbackdatabot.py -----------------------------------------------------------------------------------
def build_keyboard(current_list: list[int]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup.from_column(
        [InlineKeyboardButton(str(i), callback_data=(i, current_list)) for i in range(1, 6)]
    )


async def list_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text("Please choose:", reply_markup=build_keyboard([]))


async def list_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text(
        "Use /start to test this bot. Use /clear to clear the stored data so that you can see "
        "what happens, if the button data is not available. "
    )


async def clear(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    cache = context.bot.callback_data_cache
    assert cache is not None
    cache.clear_callback_data()
    cache.clear_callback_queries()
    await update.effective_message.reply_text("All clear!")


async def list_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer()
    number, number_list = cast("tuple[int, list[int]]", query.data)
    number_list.append(number)
    await query.edit_message_text(
        text=f"So far you've selected {number_list}. Choose the next item:", reply_markup=build_keyboard(number_list)
    )
    context.drop_callback_data(query)


async def handle_invalid_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.callback_query is not None
    assert update.effective_message is not None
    await update.callback_query.answer()
    await update.effective_message.edit_text(
        "Sorry, I could not process this button click 😕 Please send /start to get a new keyboard."
    )


async def test_arbitrarycallbackdatabot(wire: Wire, tmp_path: Path) -> None:
    persistence = PicklePersistence(filepath=tmp_path / "arbitrarycallbackdatabot")
    handlers = [
        CommandHandler("start", list_start),
        CommandHandler("help", list_help),
        CommandHandler("clear", clear),
        CallbackQueryHandler(handle_invalid_button, pattern=InvalidCallbackData),
        CallbackQueryHandler(list_button),
    ]
    build = lambda b: b.persistence(persistence).arbitrary_callback_data(True)  # noqa: E731
    async with example(wire, handlers, build=build) as (person, _):
        await person.send("/help")
        await person.expect_reply(containing="Use /start to test this bot.")
        await person.send("/start")
        menu = await person.expect_reply("Please choose:")
        assert menu.keyboard == (("1",), ("2",), ("3",), ("4",), ("5",))
        sent = (await person.outbox("sendMessage"))[-1]
        datas = [row[0]["callback_data"] for row in sent.response["result"]["reply_markup"]["inline_keyboard"]]
        assert all(len(d.encode()) <= 64 for d in datas)  # PTB's uuids stand in for the Python objects
        await person.tap("2")
        await person.wait_call("editMessageText", 1)
        await person.tap("5")
        await person.wait_call("editMessageText", 2)
        [shown] = [m for m in await person.messages() if m.message_id == menu.message_id]
        assert shown.text == "So far you've selected [2, 5]. Choose the next item:"
        await person.send("/clear")
        await person.expect_reply("All clear!")
        await person.tap("1", message_id=menu.message_id)
        await person.wait_call("editMessageText", 3)
        [shown] = [m for m in await person.messages() if m.message_id == menu.message_id]
        assert shown.text == "Sorry, I could not process this button click 😕 Please send /start to get a new keyboard."
        assert shown.keyboard == ()
    assert refusals(wire) == []


# --- deeplinking.py ------------------------------------------------------------------------------------------------
CHECK_THIS_OUT = "check-this-out"
USING_ENTITIES = "using-entities-here"
USING_KEYBOARD = "using-keyboard-here"
SO_COOL = "so-cool"
KEYBOARD_CALLBACKDATA = "keyboard-callback-data"


async def deep_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    url = helpers.create_deep_linked_url(context.bot.username, CHECK_THIS_OUT, group=True)
    await update.message.reply_text("Feel free to tell your friends about it:\n\n" + url)


async def deep_linked_level_1(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    url = helpers.create_deep_linked_url(context.bot.username, SO_COOL)
    text = "Awesome, you just accessed hidden functionality! Now let's get back to the private chat."
    keyboard = InlineKeyboardMarkup.from_button(InlineKeyboardButton(text="Continue here!", url=url))
    await update.message.reply_text(text, reply_markup=keyboard)


async def deep_linked_level_2(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    url = helpers.create_deep_linked_url(context.bot.username, USING_ENTITIES)
    text = f'You can also mask the deep-linked URLs as links: <a href="{url}">▶️ CLICK HERE</a>.'
    await update.message.reply_text(
        text, parse_mode=ParseMode.HTML, link_preview_options=LinkPreviewOptions(is_disabled=True)
    )


async def deep_linked_level_3(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text(
        "It is also possible to make deep-linking using InlineKeyboardButtons.",
        reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton(text="Like this!", callback_data=KEYBOARD_CALLBACKDATA)]]
        ),
    )


async def deep_link_level_3_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.callback_query is not None
    url = helpers.create_deep_linked_url(context.bot.username, USING_KEYBOARD)
    await update.callback_query.answer(url=url)


async def deep_linked_level_4(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text(
        f"Congratulations! This is as deep as it gets 👏🏻\n\nThe payload was: {context.args}"
    )


async def test_deeplinking(wire: Wire) -> None:
    handlers = [
        CommandHandler("start", deep_linked_level_1, filters.Regex(CHECK_THIS_OUT)),
        CommandHandler("start", deep_linked_level_2, filters.Regex(SO_COOL)),
        CommandHandler("start", deep_linked_level_3, filters.Regex(USING_ENTITIES)),
        CommandHandler("start", deep_linked_level_4, filters.Regex(USING_KEYBOARD)),
        CallbackQueryHandler(deep_link_level_3_callback, pattern=KEYBOARD_CALLBACKDATA),
        CommandHandler("start", deep_start),
    ]
    async with example(wire, handlers) as (person, _):
        await person.send("/start")
        shared = await person.expect_reply(
            "Feel free to tell your friends about it:\n\nhttps://t.me/tgfake_bot?startgroup=check-this-out"
        )
        assert [e["type"] for e in shared.entities] == ["url"]
        # The person adds the bot to a group through the link: the client sends /start@bot with the payload there.
        _, made = await wire.sim("POST", "/sim/chats", {"title": "Friends", "admins": ["@tgfake_bot"]})
        group = made["chat_id"]
        await person.send(f"/start@tgfake_bot {CHECK_THIS_OUT}", chat=group)
        hidden = await person.expect_reply(containing="Awesome, you just accessed hidden functionality!", chat=group)
        assert hidden.raw["keyboard"][0][0]["url"] == "https://t.me/tgfake_bot?start=so-cool"
        # Back in the private chat through the url button: the client sends /start so-cool.
        await person.send(f"/start {SO_COOL}")
        masked = await person.expect_reply("You can also mask the deep-linked URLs as links: ▶️ CLICK HERE.")
        [link] = masked.entities
        assert link == {
            "type": "text_link",
            "offset": 49,
            "length": 13,
            "url": "https://t.me/tgfake_bot?start=using-entities-here",
        }
        await person.send(f"/start {USING_ENTITIES}")
        await person.expect_reply("It is also possible to make deep-linking using InlineKeyboardButtons.")
        await person.tap("Like this!")
        [answered] = await person.wait_call("answerCallbackQuery")
        assert answered.ok
        callbacks = (await person.chat())["callbacks"]
        assert callbacks[-1]["url"] == "https://t.me/tgfake_bot?start=using-keyboard-here"
        await person.send(f"/start {USING_KEYBOARD}")
        await person.expect_reply(
            "Congratulations! This is as deep as it gets 👏🏻\n\nThe payload was: ['using-keyboard-here']"
        )
    assert refusals(wire) == []


# --- webappbot.py --------------------------------------------------------------------------------------------------
async def webapp_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text(
        "Please press the button below to choose a color via the WebApp.",
        reply_markup=ReplyKeyboardMarkup.from_button(
            KeyboardButton(
                text="Open the color picker!",
                web_app=WebAppInfo(url="https://python-telegram-bot.org/static/webappbot"),
            )
        ),
    )


async def web_app_data(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    assert update.effective_message.web_app_data is not None
    assert update.message is not None
    data = json.loads(update.effective_message.web_app_data.data)
    await update.message.reply_html(
        text=(
            f"You selected the color with the HEX value <code>{data['hex']}</code>. The "
            f"corresponding RGB value is <code>{tuple(data['rgb'].values())}</code>."
        ),
        reply_markup=ReplyKeyboardRemove(),
    )


async def test_webappbot(wire: Wire) -> None:
    handlers = [
        CommandHandler("start", webapp_start),
        MessageHandler(filters.StatusUpdate.WEB_APP_DATA, web_app_data),
    ]
    async with example(wire, handlers) as (person, _):
        await person.send("/start")
        asked = await person.expect_reply("Please press the button below to choose a color via the WebApp.")
        assert asked.reply_keyboard == (("Open the color picker!",),)
        picked = {"hex": "#ff8000", "rgb": {"r": 255, "g": 128, "b": 0}}
        await person.press("Open the color picker!", data=json.dumps(picked))
        told = await person.expect_reply(
            "You selected the color with the HEX value #ff8000. The corresponding RGB value is (255, 128, 0)."
        )
        assert told.raw["reply_keyboard"] == {"remove_keyboard": True}
        [service] = [m for m in await person.messages() if m.kind == "web_app_data"]
        assert service.raw["web_app_data"]["button_text"] == "Open the color picker!"
    assert refusals(wire) == []


# --- inlinebot.py --------------------------------------------------------------------------------------------------
async def inline_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text("Hi!")


async def inline_query(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.inline_query is not None
    query = update.inline_query.query
    if not query:
        return
    results = [
        InlineQueryResultArticle(
            id=str(uuid4()), title="Caps", input_message_content=InputTextMessageContent(query.upper())
        ),
        InlineQueryResultArticle(
            id=str(uuid4()),
            title="Bold",
            input_message_content=InputTextMessageContent(f"<b>{html.escape(query)}</b>", parse_mode=ParseMode.HTML),
        ),
        InlineQueryResultArticle(
            id=str(uuid4()),
            title="Italic",
            input_message_content=InputTextMessageContent(f"<i>{html.escape(query)}</i>", parse_mode=ParseMode.HTML),
        ),
    ]
    await update.inline_query.answer(results)


async def test_inlinebot(wire: Wire) -> None:
    handlers = [CommandHandler("start", inline_start), CommandHandler("help", echo_help)]
    async with example(wire, [*handlers, InlineQueryHandler(inline_query)]) as (person, _):
        await person.inline_mode(True)
        await person.send("/help")
        await person.expect_reply("Help!")
        answer = await person.inline("fish & <chips>")
        assert [r["title"] for r in answer["results"]] == ["Caps", "Bold", "Italic"]
        bold = answer["results"][1]
        chosen = await person.choose(bold["id"])
        [sent] = [m for m in await person.messages() if m.message_id == chosen.message_id]
        assert sent.raw["via_bot"] == "tgfake_bot"
        assert (sent.text, sent.html) == ("fish & <chips>", "<b>fish &amp; &lt;chips&gt;</b>")
        assert not sent.from_bot
    assert refusals(wire) == []


# --- pollbot.py ----------------------------------------------------------------------------------------------------
TOTAL_VOTER_COUNT = 3


async def poll_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text(
        "Please select /poll to get a Poll, /quiz to get a Quiz or /preview to generate a preview for your poll"
    )


async def send_the_poll(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    questions = ["Good", "Really good", "Fantastic", "Great"]
    message = await context.bot.send_poll(
        update.effective_chat.id, "How are you?", questions, is_anonymous=False, allows_multiple_answers=True
    )
    assert message.poll is not None
    context.bot_data.update(
        {
            message.poll.id: {
                "questions": questions,
                "message_id": message.message_id,
                "chat_id": update.effective_chat.id,
                "answers": 0,
            }
        }
    )


async def receive_poll_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    answer = update.poll_answer
    assert answer is not None
    assert update.effective_user is not None
    answered_poll = context.bot_data[answer.poll_id]
    try:
        questions = answered_poll["questions"]
    except KeyError:
        return
    selected_options = answer.option_ids
    answer_string = ""
    for question_id in selected_options:
        if question_id != selected_options[-1]:
            answer_string += questions[question_id] + " and "
        else:
            answer_string += questions[question_id]
    await context.bot.send_message(
        answered_poll["chat_id"],
        f"{update.effective_user.mention_html()} feels {answer_string}!",
        parse_mode=ParseMode.HTML,
    )
    answered_poll["answers"] += 1
    if answered_poll["answers"] == TOTAL_VOTER_COUNT:
        await context.bot.stop_poll(answered_poll["chat_id"], answered_poll["message_id"])


async def quiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    assert update.effective_chat is not None
    message = await update.effective_message.reply_poll(
        "How many eggs do you need for a cake?", ["1", "2", "4", "20"], type=Poll.QUIZ, correct_option_ids=[2]
    )
    assert message.poll is not None
    context.bot_data.update({message.poll.id: {"chat_id": update.effective_chat.id, "message_id": message.message_id}})


async def receive_quiz_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.poll is not None
    context.bot_data.setdefault("poll_updates", []).append(update.poll)
    if update.poll.is_closed:
        return
    if update.poll.total_voter_count == TOTAL_VOTER_COUNT:
        try:
            quiz_data = context.bot_data[update.poll.id]
        except KeyError:
            return
        await context.bot.stop_poll(quiz_data["chat_id"], quiz_data["message_id"])


async def preview(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    button = [[KeyboardButton("Press me!", request_poll=KeyboardButtonPollType())]]
    message = "Press the button to let the bot generate a preview for your poll"
    await update.effective_message.reply_text(message, reply_markup=ReplyKeyboardMarkup(button, one_time_keyboard=True))


async def receive_poll(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    actual_poll = update.effective_message.poll
    assert actual_poll is not None
    await update.effective_message.reply_poll(
        question=actual_poll.question,
        options=[o.text for o in actual_poll.options],
        is_closed=True,
        reply_markup=ReplyKeyboardRemove(),
    )


async def poll_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text("Use /quiz, /poll or /preview to test this bot.")


POLLBOT: Handlers = [
    CommandHandler("start", poll_start),
    CommandHandler("poll", send_the_poll),
    CommandHandler("quiz", quiz),
    CommandHandler("preview", preview),
    CommandHandler("help", poll_help),
    MessageHandler(filters.POLL, receive_poll),
    PollAnswerHandler(receive_poll_answer),
    PollHandler(receive_quiz_answer),
]
VOTERS = ("alice", "bob", "carol")


async def test_pollbot_poll_and_quiz_in_a_group(wire: Wire) -> None:
    async with example(wire, POLLBOT) as (person, app):
        _, made = await wire.sim(
            "POST", "/sim/chats", {"title": "Club", "members": ["bob", "carol"], "admins": ["@tgfake_bot"]}
        )
        group = made["chat_id"]
        await person.send("/start", chat=group)
        await person.expect_reply(containing="Please select /poll", chat=group)
        await person.send("/poll", chat=group)
        asked = await person.expect_reply(chat=group)
        assert asked.kind == "poll"
        for n, (who, options) in enumerate(zip(VOTERS, ([0, 3], [1], [2]), strict=True), 1):
            await person.vote(asked.message_id, options, user=who, chat=group)
            await person.wait_call("sendMessage", n + 1)
        # Both handlers stop the poll at the third voter (poll_answer counts answers, poll counts voters), so one
        # stopPoll finds it closed, with Telegram's refusal: the example's own race.
        first, second = await person.wait_call("stopPoll", 2)
        assert first.ok
        assert (second.status, second.response["description"]) == (400, "Bad Request: poll has already been closed")
        lines = (await person.transcript(group)).splitlines()
        assert [line.split(": ", 1)[1] for line in lines[-3:]] == [
            "[Alice](tg://user?id=4242) feels Good and Great!",
            f"[Bob](tg://user?id={BOB}) feels Really good!",
            f"[Carol](tg://user?id={CAROL}) feels Fantastic!",
        ]
        closed = next(m for m in await person.messages(group) if m.message_id == asked.message_id)
        assert closed.poll is not None
        assert closed.poll["is_closed"] is True
        await person.send("/quiz", chat=group)
        [_, sent_quiz] = await person.wait_call("sendPoll", 2)
        the_quiz = sent_quiz.response["result"]
        assert json.loads(sent_quiz.params["reply_parameters"]) == {"message_id": the_quiz["message_id"] - 1}
        assert the_quiz["reply_to_message"]["text"] == "/quiz"  # reply_poll quotes the command in a group
        for who in VOTERS:
            await person.vote(the_quiz["message_id"], [2], user=who, chat=group)
        await person.wait_call("stopPoll", 3)
        await until(wire, lambda: any(p.is_closed and p.type == Poll.QUIZ for p in app.bot_data["poll_updates"]))
        quiz_updates = [p for p in app.bot_data["poll_updates"] if p.type == Poll.QUIZ]
        assert [(p.total_voter_count, p.is_closed) for p in quiz_updates][-2:] == [(3, False), (3, True)]
        assert quiz_updates[-1].correct_option_ids == (2,)
    assert refusals(wire) == [("stopPoll", 400, "Bad Request: poll has already been closed")]


async def test_pollbot_preview(wire: Wire) -> None:
    async with example(wire, POLLBOT) as (person, _):
        await person.send("/help")
        await person.expect_reply("Use /quiz, /poll or /preview to test this bot.")
        await person.send("/preview")
        await person.expect_reply("Press the button to let the bot generate a preview for your poll")
        made = {"question": "Tea or coffee?", "options": ["Tea", "Coffee"], "type": "regular"}
        await person.press("Press me!", poll=made)
        preview_poll = await person.expect_reply()
        assert preview_poll.poll is not None
        assert preview_poll.poll["question"] == "Tea or coffee?"
        assert [o["text"] for o in preview_poll.poll["options"]] == ["Tea", "Coffee"]
        assert preview_poll.poll["is_closed"] is True
        assert preview_poll.raw["reply_keyboard"] == {"remove_keyboard": True}
    assert refusals(wire) == []


# --- paymentbot.py -------------------------------------------------------------------------------------------------
PAYMENT_PROVIDER_TOKEN = "PAYMENT_PROVIDER_TOKEN"  # the example's placeholder, as a bot run unmodified sends it


async def pay_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text(
        "Use /shipping to receive an invoice with shipping included, or /noshipping for an invoice without shipping."
    )


async def send_example_invoice(update: Update, context: ContextTypes.DEFAULT_TYPE, **shipping: Any) -> None:
    assert update.message is not None
    await context.bot.send_invoice(
        update.message.chat_id,
        "Payment Example",
        "Example of a payment process using the python-telegram-bot library.",
        "Custom-Payload",
        "USD",
        [LabeledPrice("Test", 1 * 100)],
        provider_token=PAYMENT_PROVIDER_TOKEN,
        **shipping,
    )


async def start_with_shipping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await send_example_invoice(
        update,
        context,
        need_name=True,
        need_phone_number=True,
        need_email=True,
        need_shipping_address=True,
        is_flexible=True,
    )


async def start_without_shipping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await send_example_invoice(update, context)


async def shipping_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.shipping_query
    assert query is not None
    if query.invoice_payload != "Custom-Payload":
        await query.answer(ok=False, error_message="Something went wrong...")
        return
    options = [ShippingOption("1", "Shipping Option A", [LabeledPrice("A", 100)])]
    options.append(ShippingOption("2", "Shipping Option B", [LabeledPrice("B1", 150), LabeledPrice("B2", 200)]))
    await query.answer(ok=True, shipping_options=options)


async def precheckout_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.pre_checkout_query
    assert query is not None
    context.bot_data.setdefault("orders", []).append(query.order_info)
    if query.invoice_payload != "Custom-Payload":
        await query.answer(ok=False, error_message="Something went wrong...")
    else:
        await query.answer(ok=True)


async def successful_payment_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    context.bot_data.setdefault("payments", []).append(update.message.successful_payment)
    await update.message.reply_text("Thank you for your payment.")


async def test_paymentbot(wire: Wire) -> None:
    handlers = [
        CommandHandler("start", pay_start),
        CommandHandler("shipping", start_with_shipping),
        CommandHandler("noshipping", start_without_shipping),
        ShippingQueryHandler(shipping_callback),
        PreCheckoutQueryHandler(precheckout_callback),
        MessageHandler(filters.SUCCESSFUL_PAYMENT, successful_payment_callback),
    ]
    async with example(wire, handlers) as (person, app):
        await person.send("/start")
        await person.expect_reply(containing="Use /shipping to receive an invoice")
        await person.send("/shipping")
        [invoice] = await person.wait_call("sendInvoice")
        assert (await person.expect_reply()).raw["invoice"]["title"] == "Payment Example"
        assert invoice.response["result"]["invoice"]["total_amount"] == 100
        address = {
            "country_code": "GB",
            "state": "",
            "city": "London",
            "street_line1": "221B Baker Street",
            "street_line2": "",
            "post_code": "NW1 6XE",
        }
        order = {"name": "Alice Liddell", "phone_number": "+441234567", "email": "alice@example.org"}
        status, paid = await wire.sim(
            "POST", "/sim/pay", {**order, "shipping_address": address, "shipping_option_id": "2"}
        )
        assert (status, paid["status"], paid["total_amount"]) == (200, "paid", 450), paid
        await person.expect_reply("Thank you for your payment.")
        [info] = app.bot_data["orders"]
        assert (info.name, info.phone_number, info.email) == ("Alice Liddell", "+441234567", "alice@example.org")
        assert info.shipping_address.city == "London"
        [payment] = app.bot_data["payments"]
        assert (payment.total_amount, payment.currency, payment.shipping_option_id) == (450, "USD", "2")
        await person.send("/noshipping")
        await person.wait_call("sendInvoice", 2)
        assert (await person.expect_reply()).raw["invoice"]["title"] == "Payment Example"
        status, paid = await wire.sim("POST", "/sim/pay", {})
        assert (status, paid["status"], paid["total_amount"]) == (200, "paid", 100), paid
        await person.expect_reply("Thank you for your payment.")
        assert app.bot_data["orders"][1] is None
    assert refusals(wire) == []


# --- chatmemberbot.py ----------------------------------------------------------------------------------------------
def extract_status_change(chat_member_update: ChatMemberUpdated) -> tuple[bool, bool] | None:
    status_change = chat_member_update.difference().get("status")
    old_is_member, new_is_member = chat_member_update.difference().get("is_member", (None, None))
    if status_change is None:
        return None
    old_status, new_status = status_change
    present = [ChatMember.MEMBER, ChatMember.OWNER, ChatMember.ADMINISTRATOR]
    was_member = old_status in present or (old_status == ChatMember.RESTRICTED and old_is_member is True)
    is_member = new_status in present or (new_status == ChatMember.RESTRICTED and new_is_member is True)
    return was_member, is_member


async def track_chats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.my_chat_member is not None
    assert update.effective_user is not None
    assert update.effective_chat is not None
    context.bot_data.setdefault("tracked", []).append(update.my_chat_member)
    result = extract_status_change(update.my_chat_member)
    if result is None:
        return
    was_member, is_member = result
    chat = update.effective_chat
    key = {Chat.PRIVATE: "user_ids", Chat.GROUP: "group_ids", Chat.SUPERGROUP: "group_ids"}.get(
        chat.type, "channel_ids"
    )
    if not was_member and is_member:
        context.bot_data.setdefault(key, set()).add(chat.id)
    elif was_member and not is_member:
        context.bot_data.setdefault(key, set()).discard(chat.id)


async def show_chats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    user_ids = ", ".join(str(uid) for uid in context.bot_data.setdefault("user_ids", set()))
    group_ids = ", ".join(str(gid) for gid in context.bot_data.setdefault("group_ids", set()))
    channel_ids = ", ".join(str(cid) for cid in context.bot_data.setdefault("channel_ids", set()))
    text = (
        f"@{context.bot.username} is currently in a conversation with the user IDs {user_ids}."
        f" Moreover it is a member of the groups with IDs {group_ids} "
        f"and administrator in the channels with IDs {channel_ids}."
    )
    await update.effective_message.reply_text(text)


async def greet_chat_members(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.chat_member is not None
    assert update.effective_chat is not None
    result = extract_status_change(update.chat_member)
    if result is None:
        return
    was_member, is_member = result
    cause_name = update.chat_member.from_user.mention_html()
    member_name = update.chat_member.new_chat_member.user.mention_html()
    if not was_member and is_member:
        await update.effective_chat.send_message(
            f"{member_name} was added by {cause_name}. Welcome!", parse_mode=ParseMode.HTML
        )
    elif was_member and not is_member:
        await update.effective_chat.send_message(
            f"{member_name} is no longer with us. Thanks a lot, {cause_name} ...", parse_mode=ParseMode.HTML
        )


async def start_private_chat(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None
    assert update.effective_chat is not None
    assert update.effective_message is not None
    chat = update.effective_chat
    if chat.type != Chat.PRIVATE or chat.id in context.bot_data.get("user_ids", set()):
        return
    context.bot_data.setdefault("user_ids", set()).add(chat.id)
    await update.effective_message.reply_text(
        f"Welcome {update.effective_user.full_name}. Use /show_chats to see what chats I'm in."
    )


async def test_chatmemberbot(wire: Wire) -> None:
    handlers = [
        ChatMemberHandler(track_chats, ChatMemberHandler.MY_CHAT_MEMBER),
        CommandHandler("show_chats", show_chats),
        ChatMemberHandler(greet_chat_members, ChatMemberHandler.CHAT_MEMBER),
        MessageHandler(filters.ALL, start_private_chat),
    ]
    async with example(wire, handlers) as (person, app):
        await person.send("hi")
        await person.expect_reply("Welcome Alice. Use /show_chats to see what chats I'm in.")
        _, made = await wire.sim("POST", "/sim/chats", {"title": "Friends", "admins": ["@tgfake_bot"]})
        group = made["chat_id"]
        _, made = await wire.sim("POST", "/sim/chats", {"type": "channel", "title": "News", "admins": ["@tgfake_bot"]})
        channel = made["chat_id"]
        await until(wire, lambda: channel in app.bot_data.get("channel_ids", set()))
        assert app.bot_data["group_ids"] == {group}
        assert app.bot_data["channel_ids"] == {channel}
        assert (await wire.sim("POST", f"/sim/chats/{group}/join", {"user": "bob"}))[0] == 200
        welcome = await person.expect_reply(containing="was added by", chat=group)
        assert welcome.text == "Bob was added by Bob. Welcome!"
        assert [e["type"] for e in welcome.entities] == ["text_mention", "text_mention"]
        assert (await wire.sim("POST", f"/sim/chats/{group}/add", {"user": "carol", "by": "alice"}))[0] == 200
        await person.expect_reply("Carol was added by Alice. Welcome!", chat=group)
        assert (await wire.sim("POST", f"/sim/chats/{group}/leave", {"user": "bob"}))[0] == 200
        await person.expect_reply("Bob is no longer with us. Thanks a lot, Bob ...", chat=group)
        await person.send("/show_chats")
        await person.expect_reply(
            "@tgfake_bot is currently in a conversation with the user IDs 4242. Moreover it is a member of the "
            f"groups with IDs {group} and administrator in the channels with IDs {channel}."
        )
        assert (await wire.sim("POST", "/sim/block", {}))[0] == 200
        await until(wire, lambda: not app.bot_data["user_ids"])
        assert (await wire.sim("POST", "/sim/unblock", {}))[0] == 200
        await until(wire, lambda: app.bot_data["user_ids"] == {4242})
        removed = {"user": "@tgfake_bot", "by": "alice"}
        assert (await wire.sim("POST", f"/sim/chats/{group}/remove", removed))[0] == 200
        await until(wire, lambda: not app.bot_data["group_ids"])
        tracked = app.bot_data["tracked"]
        assert [(u.old_chat_member.status, u.new_chat_member.status) for u in tracked] == [
            ("left", "administrator"),
            ("left", "administrator"),
            ("member", "kicked"),
            ("kicked", "member"),
            ("administrator", "kicked"),
        ]
    assert refusals(wire) == []


# --- conversationbot.py (its handlers are the oracle's in test_conversation_oracles.py) -----------------------------
async def test_conversationbot(wire: Wire) -> None:
    conv = ConversationHandler(
        entry_points=[CommandHandler("start", professor.start)],
        states={
            professor.GENDER: [MessageHandler(filters.Regex("^(Boy|Girl|Other)$"), professor.gender)],
            professor.PHOTO: [
                MessageHandler(filters.PHOTO, professor.photo),
                CommandHandler("skip", professor.skip_photo),
            ],
            professor.LOCATION: [
                MessageHandler(filters.LOCATION, professor.location),
                CommandHandler("skip", professor.skip_location),
            ],
            professor.BIO: [MessageHandler(filters.TEXT & ~filters.COMMAND, professor.bio)],
        },
        fallbacks=[CommandHandler("cancel", professor.cancel)],
    )
    async with example(wire, [conv]) as (person, app):
        await person.send("/start")
        await person.expect_reply(containing="Are you a boy or a girl?")
        await person.press("Boy")
        await person.expect_reply(containing="send me a photo")
        await person.send_photo(professor.PHOTO_BYTES, name="me.jpg")
        await person.expect_reply("Gorgeous! Now, send me your location please, or send /skip.")
        await person.send("/skip")
        await person.expect_reply("You seem a bit paranoid! At last, tell me something about yourself.")
        await person.send("I collect stamps.")
        await person.expect_reply("Thank you, Alice! Talk again some day.")
        assert app.user_data[4242]["photo"] == professor.PHOTO_BYTES
    assert refusals(wire) == []


# --- conversationbot2.py and persistentconversationbot.py ----------------------------------------------------------
CHOOSING, TYPING_REPLY, TYPING_CHOICE = range(3)
FACTS_KEYBOARD = ReplyKeyboardMarkup(
    [["Age", "Favourite colour"], ["Number of siblings", "Something else..."], ["Done"]], one_time_keyboard=True
)


def facts_to_str(user_data: dict[str, str]) -> str:
    facts = [f"{key} - {value}" for key, value in user_data.items()]
    return "\n".join(facts).join(["\n", "\n"])


async def doctor_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    await update.message.reply_text(
        "Hi! My name is Doctor Botter. I will hold a more complex conversation with you. "
        "Why don't you tell me something about yourself?",
        reply_markup=FACTS_KEYBOARD,
    )
    return CHOOSING


async def regular_choice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    assert update.message.text is not None
    assert context.user_data is not None
    text = update.message.text
    context.user_data["choice"] = text
    await update.message.reply_text(f"Your {text.lower()}? Yes, I would love to hear about that!")
    return TYPING_REPLY


async def custom_choice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    await update.message.reply_text('Alright, please send me the category first, for example "Most impressive skill"')
    return TYPING_CHOICE


def information(lower: bool) -> Callable[..., Any]:
    """received_information of conversationbot2.py, or (``lower``) of persistentconversationbot.py, which keeps the
    answer lower-cased."""

    async def received_information(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
        assert update.message is not None
        assert update.message.text is not None
        assert context.user_data is not None
        user_data = context.user_data
        user_data[user_data["choice"]] = update.message.text.lower() if lower else update.message.text
        del user_data["choice"]
        await update.message.reply_text(
            "Neat! Just so you know, this is what you already told me:"
            f"{facts_to_str(user_data)}You can tell me more, or change your opinion on something.",
            reply_markup=FACTS_KEYBOARD,
        )
        return CHOOSING

    return received_information


async def doctor_done(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    assert context.user_data is not None
    user_data = context.user_data
    user_data.pop("choice", None)
    await update.message.reply_text(
        f"I learned these facts about you: {facts_to_str(user_data)}Until next time!",
        reply_markup=ReplyKeyboardRemove(),
    )
    user_data.clear()
    return ConversationHandler.END


def doctor(start: Any, choice: Any, information: Any, done: Any, **persistent: Any) -> ConversationHandler[Any]:
    not_done = filters.TEXT & ~(filters.COMMAND | filters.Regex("^Done$"))
    return ConversationHandler(
        entry_points=[CommandHandler("start", start)],
        states={
            CHOOSING: [
                MessageHandler(filters.Regex("^(Age|Favourite colour|Number of siblings)$"), choice),
                MessageHandler(filters.Regex("^Something else...$"), custom_choice),
            ],
            TYPING_CHOICE: [MessageHandler(not_done, choice)],
            TYPING_REPLY: [MessageHandler(not_done, information)],
        },
        fallbacks=[MessageHandler(filters.Regex("^Done$"), done)],
        **persistent,
    )


async def test_conversationbot2(wire: Wire) -> None:
    async with example(wire, [doctor(doctor_start, regular_choice, information(lower=False), doctor_done)]) as (
        person,
        _,
    ):
        await person.send("/start")
        menu = await person.expect_reply(containing="Hi! My name is Doctor Botter.")
        assert menu.reply_keyboard == (
            ("Age", "Favourite colour"),
            ("Number of siblings", "Something else..."),
            ("Done",),
        )
        await person.press("Age")
        await person.expect_reply("Your age? Yes, I would love to hear about that!")
        await person.send("42")
        await person.expect_reply(
            "Neat! Just so you know, this is what you already told me:\nAge - 42\n"
            "You can tell me more, or change your opinion on something."
        )
        await person.press("Something else...")
        await person.expect_reply('Alright, please send me the category first, for example "Most impressive skill"')
        await person.send("Most impressive skill")
        await person.expect_reply("Your most impressive skill? Yes, I would love to hear about that!")
        await person.send("Juggling")
        await person.expect_reply(containing="Most impressive skill - Juggling")
        await person.press("Done")
        done = await person.expect_reply(
            "I learned these facts about you: \nAge - 42\nMost impressive skill - Juggling\nUntil next time!"
        )
        assert done.raw["reply_keyboard"] == {"remove_keyboard": True}
    assert refusals(wire) == []


async def persistent_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    assert context.user_data is not None
    reply_text = "Hi! My name is Doctor Botter."
    if context.user_data:
        reply_text += (
            f" You already told me your {', '.join(context.user_data.keys())}. Why don't you "
            "tell me something more about yourself? Or change anything I already know."
        )
    else:
        reply_text += (
            " I will hold a more complex conversation with you. Why don't you tell me something about yourself?"
        )
    await update.message.reply_text(reply_text, reply_markup=FACTS_KEYBOARD)
    return CHOOSING


async def persistent_choice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    assert update.message.text is not None
    assert context.user_data is not None
    text = update.message.text.lower()
    context.user_data["choice"] = text
    if context.user_data.get(text):
        reply_text = f"Your {text}? I already know the following about that: {context.user_data[text]}"
    else:
        reply_text = f"Your {text}? Yes, I would love to hear about that!"
    await update.message.reply_text(reply_text)
    return TYPING_REPLY


async def persistent_show_data(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    assert context.user_data is not None
    await update.message.reply_text(f"This is what you already told me: {facts_to_str(context.user_data)}")


async def persistent_done(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    assert context.user_data is not None
    context.user_data.pop("choice", None)
    await update.message.reply_text(
        f"I learned these facts about you: {facts_to_str(context.user_data)}Until next time!",
        reply_markup=ReplyKeyboardRemove(),
    )
    return ConversationHandler.END


async def test_persistentconversationbot_survives_a_restart(wire: Wire, tmp_path: Path) -> None:
    """The conversation and the facts are pickled; a second run of the bot picks the dialog up where it was."""

    def handlers() -> Handlers:
        conv = doctor(
            persistent_start,
            persistent_choice,
            information(lower=True),
            persistent_done,
            name="my_conversation",
            persistent=True,
        )
        return [conv, CommandHandler("show_data", persistent_show_data)]

    def build(builder: Any) -> Any:
        return builder.persistence(PicklePersistence(filepath=tmp_path / "conversationbot"))

    async with AsyncStandClient(origin(wire)) as person:
        async with example(wire, handlers(), build=build, person=person) as _:
            await person.send("/start")
            await person.expect_reply(containing="I will hold a more complex conversation with you.")
            await person.press("Favourite colour")
            await person.expect_reply("Your favourite colour? Yes, I would love to hear about that!")
        async with example(wire, handlers(), build=build, person=person) as _:  # the bot restarted mid-dialog
            await person.send("Blue")
            await person.expect_reply(containing="\nfavourite colour - blue\n")
            await person.send("/show_data")
            # Telegram trims the text's trailing newline
            await person.expect_reply("This is what you already told me: \nfavourite colour - blue")
            await person.press("Favourite colour")
            await person.expect_reply("Your favourite colour? I already know the following about that: blue")
            await person.send("Green")
            await person.expect_reply(containing="\nfavourite colour - green\n")
            await person.press("Done")
            await person.expect_reply("I learned these facts about you: \nfavourite colour - green\nUntil next time!")
            await person.send("/start")
            await person.expect_reply(
                "Hi! My name is Doctor Botter. You already told me your favourite colour. Why don't you tell me "
                "something more about yourself? Or change anything I already know."
            )
    assert refusals(wire) == []


# --- nestedconversationbot.py --------------------------------------------------------------------------------------
SELECTING_ACTION, ADDING_MEMBER, ADDING_SELF, DESCRIBING_SELF = map(chr, range(4))
SELECTING_LEVEL, SELECTING_GENDER = map(chr, range(4, 6))
SELECTING_FEATURE, TYPING = map(chr, range(6, 8))
STOPPING, SHOWING = map(chr, range(8, 10))
END = ConversationHandler.END
(PARENTS, CHILDREN, SELF, GENDER, MALE, FEMALE, AGE, NAME, START_OVER, FEATURES, CURRENT_FEATURE, CURRENT_LEVEL) = map(
    chr, range(10, 22)
)
FAMILY_MENU = (
    "You may choose to add a family member, yourself, show the gathered data, or end the "
    "conversation. To abort, simply type /stop."
)


def _name_switcher(level: str) -> tuple[str, str]:
    return ("Father", "Mother") if level == PARENTS else ("Brother", "Sister")


def family_keyboard(*rows: Sequence[tuple[str, object]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(text=t, callback_data=str(d)) for t, d in row] for row in rows])


async def edit_family(update: Update, text: str, keyboard: InlineKeyboardMarkup | None = None) -> None:
    assert update.callback_query is not None
    await update.callback_query.answer()
    await update.callback_query.edit_message_text(text=text, reply_markup=keyboard)


async def family_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    assert context.user_data is not None
    keyboard = family_keyboard(
        [("Add family member", ADDING_MEMBER), ("Add yourself", ADDING_SELF)], [("Show data", SHOWING), ("Done", END)]
    )
    if context.user_data.get(START_OVER):
        await edit_family(update, FAMILY_MENU, keyboard)
    else:
        assert update.message is not None
        await update.message.reply_text(
            "Hi, I'm Family Bot and I'm here to help you gather information about your family."
        )
        await update.message.reply_text(text=FAMILY_MENU, reply_markup=keyboard)
    context.user_data[START_OVER] = False
    return SELECTING_ACTION


async def adding_self(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    assert context.user_data is not None
    context.user_data[CURRENT_LEVEL] = SELF
    await edit_family(update, "Okay, please tell me about yourself.", family_keyboard([("Add info", MALE)]))
    return DESCRIBING_SELF


async def show_data(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    def pretty_print(data: dict[str, Any], level: str) -> str:
        people = data.get(level)
        if not people:
            return "\nNo information yet."
        return_str = ""
        if level == SELF:
            for person in data[level]:
                return_str += f"\nName: {person.get(NAME, '-')}, Age: {person.get(AGE, '-')}"
        else:
            male, female = _name_switcher(level)
            for person in data[level]:
                gender = female if person[GENDER] == FEMALE else male
                return_str += f"\n{gender}: Name: {person.get(NAME, '-')}, Age: {person.get(AGE, '-')}"
        return return_str

    user_data = context.user_data
    assert user_data is not None
    text = f"Yourself:{pretty_print(user_data, SELF)}"
    text += f"\n\nParents:{pretty_print(user_data, PARENTS)}"
    text += f"\n\nChildren:{pretty_print(user_data, CHILDREN)}"
    await edit_family(update, text, family_keyboard([("Back", END)]))
    user_data[START_OVER] = True
    return SHOWING


async def family_stop(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert update.message is not None
    await update.message.reply_text("Okay, bye.")
    return END


async def family_end(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    await edit_family(update, "See you around!")
    return END


async def select_level(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    keyboard = family_keyboard(
        [("Add parent", PARENTS), ("Add child", CHILDREN)], [("Show data", SHOWING), ("Back", END)]
    )
    await edit_family(
        update, "You may add a parent or a child. Also you can show the gathered data or go back.", keyboard
    )
    return SELECTING_LEVEL


async def select_gender(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    assert update.callback_query is not None
    assert update.callback_query.data is not None
    assert context.user_data is not None
    level = update.callback_query.data
    context.user_data[CURRENT_LEVEL] = level
    male, female = _name_switcher(level)
    keyboard = family_keyboard(
        [(f"Add {male}", MALE), (f"Add {female}", FEMALE)], [("Show data", SHOWING), ("Back", END)]
    )
    await edit_family(update, "Please choose, whom to add.", keyboard)
    return SELECTING_GENDER


async def end_second_level(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    assert context.user_data is not None
    context.user_data[START_OVER] = True
    await family_start(update, context)
    return END


async def select_feature(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    assert context.user_data is not None
    keyboard = family_keyboard([("Name", NAME), ("Age", AGE), ("Done", END)])
    if not context.user_data.get(START_OVER):
        assert update.callback_query is not None
        context.user_data[FEATURES] = {GENDER: update.callback_query.data}
        await edit_family(update, "Please select a feature to update.", keyboard)
    else:
        assert update.message is not None
        await update.message.reply_text(text="Got it! Please select a feature to update.", reply_markup=keyboard)
    context.user_data[START_OVER] = False
    return SELECTING_FEATURE


async def ask_for_input(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    assert update.callback_query is not None
    assert context.user_data is not None
    context.user_data[CURRENT_FEATURE] = update.callback_query.data
    await edit_family(update, "Okay, tell me.")
    return TYPING


async def save_input(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    assert update.message is not None
    user_data = context.user_data
    assert user_data is not None
    user_data[FEATURES][user_data[CURRENT_FEATURE]] = update.message.text
    user_data[START_OVER] = True
    return await select_feature(update, context)


async def end_describing(update: Update, context: ContextTypes.DEFAULT_TYPE) -> int:
    user_data = context.user_data
    assert user_data is not None
    level = user_data[CURRENT_LEVEL]
    user_data.setdefault(level, []).append(user_data[FEATURES])
    if level == SELF:
        user_data[START_OVER] = True
        await family_start(update, context)
    else:
        await select_level(update, context)
    return END


async def stop_nested(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    assert update.message is not None
    await update.message.reply_text("Okay, bye.")
    return STOPPING


def family_conversation() -> ConversationHandler[Any]:
    description_conv = ConversationHandler(
        entry_points=[CallbackQueryHandler(select_feature, pattern=f"^{MALE}$|^{FEMALE}$")],
        states={
            SELECTING_FEATURE: [CallbackQueryHandler(ask_for_input, pattern=f"^(?!{END}).*$")],
            TYPING: [MessageHandler(filters.TEXT & ~filters.COMMAND, save_input)],
        },
        fallbacks=[
            CallbackQueryHandler(end_describing, pattern=f"^{END}$"),
            CommandHandler("stop", stop_nested),
        ],
        map_to_parent={END: SELECTING_LEVEL, STOPPING: STOPPING},
    )
    add_member_conv = ConversationHandler(
        entry_points=[CallbackQueryHandler(select_level, pattern=f"^{ADDING_MEMBER}$")],
        states={
            SELECTING_LEVEL: [CallbackQueryHandler(select_gender, pattern=f"^{PARENTS}$|^{CHILDREN}$")],
            SELECTING_GENDER: [description_conv],
        },
        fallbacks=[
            CallbackQueryHandler(show_data, pattern=f"^{SHOWING}$"),
            CallbackQueryHandler(end_second_level, pattern=f"^{END}$"),
            CommandHandler("stop", stop_nested),
        ],
        map_to_parent={SHOWING: SHOWING, END: SELECTING_ACTION, STOPPING: END},
    )
    selection_handlers: list[BaseHandler[Any, Any, Any]] = [
        add_member_conv,
        CallbackQueryHandler(show_data, pattern=f"^{SHOWING}$"),
        CallbackQueryHandler(adding_self, pattern=f"^{ADDING_SELF}$"),
        CallbackQueryHandler(family_end, pattern=f"^{END}$"),
    ]
    return ConversationHandler(
        entry_points=[CommandHandler("start", family_start)],
        states={
            SHOWING: [CallbackQueryHandler(family_start, pattern=f"^{END}$")],
            SELECTING_ACTION: selection_handlers,
            SELECTING_LEVEL: selection_handlers,
            DESCRIBING_SELF: [description_conv],
            STOPPING: [CommandHandler("start", family_start)],
        },
        fallbacks=[CommandHandler("stop", family_stop)],
    )


async def test_nestedconversationbot(wire: Wire) -> None:
    async with example(wire, [family_conversation()]) as (person, app):
        taps = 0

        async def tap(label: str) -> str:
            """The person taps ``label`` on the newest message showing it; the text that message shows then."""
            nonlocal taps
            showing = [m for m in await person.messages() if any(label in row for row in m.keyboard)]
            await person.tap(label)
            taps += 1
            await person.wait_call("editMessageText", taps)
            return next(m.text for m in await person.messages() if m.message_id == showing[-1].message_id)

        await person.send("/start")
        await person.expect_reply("Hi, I'm Family Bot and I'm here to help you gather information about your family.")
        menu = await person.expect_reply(FAMILY_MENU)
        assert menu.keyboard == (("Add family member", "Add yourself"), ("Show data", "Done"))
        assert await tap("Add yourself") == "Okay, please tell me about yourself."
        assert await tap("Add info") == "Please select a feature to update."
        assert await tap("Name") == "Okay, tell me."
        await person.send("Alice")
        await person.expect_reply("Got it! Please select a feature to update.")
        assert await tap("Age") == "Okay, tell me."
        await person.send("30")
        await person.expect_reply("Got it! Please select a feature to update.")
        assert await tap("Done") == FAMILY_MENU
        assert await tap("Show data") == "Yourself:\nName: Alice, Age: 30\n\nParents:\nNo information yet.\n\n" + (
            "Children:\nNo information yet."
        )
        assert await tap("Back") == FAMILY_MENU
        assert await tap("Add family member") == (
            "You may add a parent or a child. Also you can show the gathered data or go back."
        )
        assert await tap("Add parent") == "Please choose, whom to add."
        assert await tap("Add Mother") == "Please select a feature to update."
        assert await tap("Name") == "Okay, tell me."
        await person.send("Mary")
        await person.expect_reply("Got it! Please select a feature to update.")
        assert await tap("Done") == "You may add a parent or a child. Also you can show the gathered data or go back."
        shown = await tap("Show data")
        assert shown.split("\n\n")[1] == "Parents:\nMother: Name: Mary, Age: -"
        assert await tap("Back") == FAMILY_MENU
        assert await tap("Done") == "See you around!"
        assert await person.count("answerCallbackQuery") == taps
        await person.send("/stop")  # the conversation is over: nobody answers
        await person.expect_no_reply(within=0.2)
        await person.send("/start")
        await person.expect_reply("Hi, I'm Family Bot and I'm here to help you gather information about your family.")
        await person.expect_reply(FAMILY_MENU)
        await person.send("/stop")
        await person.expect_reply("Okay, bye.")
        assert app.user_data[4242][SELF] == [{GENDER: MALE, NAME: "Alice", AGE: "30"}]
    assert refusals(wire) == []


# --- customwebhookbot/starlettebot.py ------------------------------------------------------------------------------
@dataclass
class WebhookUpdate:
    """A custom update the bot's own web server takes in."""

    user_id: int
    payload: str


class WebhookContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """``user_data`` for :class:`WebhookUpdate` too."""

    @classmethod
    def from_update(cls, update: object, application: Any) -> WebhookContext:
        if isinstance(update, WebhookUpdate):
            return cls(application=application, user_id=update.user_id)
        return super().from_update(update, application)


async def test_customwebhookbot_starlette(wire: Wire) -> None:
    """Updater(None): the bot's own Starlette app takes Telegram's webhook POSTs and custom updates, both fed to the
    Application's update queue; served by uvicorn on a loopback port (the stand delivers to loopback over http)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    admin_chat_id = 4242  # the example's ADMIN_CHAT_ID, here the person

    async def start(update: Update, context: WebhookContext) -> None:
        assert update.message is not None
        payload_url = html.escape(f"{url}/submitpayload?user_id=<your user id>&payload=<payload>")
        text = (
            f"To check if the bot is still running, call <code>{url}/healthcheck</code>.\n\n"
            f"To post a custom update, call <code>{payload_url}</code>."
        )
        await update.message.reply_html(text=text)

    async def webhook_update(update: WebhookUpdate, context: WebhookContext) -> None:
        assert context.user_data is not None
        chat_member = await context.bot.get_chat_member(chat_id=update.user_id, user_id=update.user_id)
        payloads = context.user_data.setdefault("payloads", [])
        payloads.append(update.payload)
        combined_payloads = "</code>\n• <code>".join(html.escape(payload) for payload in payloads)
        text = (
            f"The user {chat_member.user.mention_html()} has sent a new payload. "
            f"So far they have sent the following payloads: \n\n• <code>{combined_payloads}</code>"
        )
        await context.bot.send_message(chat_id=admin_chat_id, text=text, parse_mode=ParseMode.HTML)

    api = origin(wire)
    builder = Application.builder().token(wire.token).base_url(f"{api}/bot").updater(None)
    application = builder.context_types(ContextTypes(context=WebhookContext)).build()
    application.add_handler(CommandHandler("start", start))
    application.add_handler(TypeHandler(type=WebhookUpdate, callback=webhook_update))
    await application.bot.set_webhook(url=f"{url}/telegram", allowed_updates=Update.ALL_TYPES)

    async def telegram(request: Request) -> Response:
        await application.update_queue.put(Update.de_json(data=await request.json(), bot=application.bot))
        return Response()

    async def custom_updates(request: Request) -> PlainTextResponse:
        try:
            user_id = int(request.query_params["user_id"])
            payload = request.query_params["payload"]
        except KeyError:
            return PlainTextResponse(
                status_code=HTTPStatus.BAD_REQUEST,
                content="Please pass both `user_id` and `payload` as query parameters.",
            )
        except ValueError:
            return PlainTextResponse(status_code=HTTPStatus.BAD_REQUEST, content="The `user_id` must be a string!")
        await application.update_queue.put(WebhookUpdate(user_id=user_id, payload=payload))
        return PlainTextResponse("Thank you for the submission! It's being forwarded.")

    async def health(_: Request) -> PlainTextResponse:
        return PlainTextResponse(content="The bot is still running fine :)")

    starlette_app = Starlette(
        routes=[
            Route("/telegram", telegram, methods=["POST"]),
            Route("/healthcheck", health, methods=["GET"]),
            Route("/submitpayload", custom_updates, methods=["POST", "GET"]),
        ]
    )
    webserver = uvicorn.Server(uvicorn.Config(app=starlette_app, use_colors=False, log_level="warning"))
    async with application, AsyncStandClient(api) as person, httpx.AsyncClient(base_url=url) as browser:
        await application.start()
        serving = asyncio.create_task(webserver.serve(sockets=[listener]))
        try:
            await person.send("/start")
            told = await person.expect_reply(containing="To check if the bot is still running, call")
            assert told.html == (
                f"To check if the bot is still running, call <code>{url}/healthcheck</code>.\n\n"
                f"To post a custom update, call <code>{html.escape(url)}/submitpayload?user_id=&lt;your user "
                "id&gt;&amp;payload=&lt;payload&gt;</code>."
            )
            assert (await browser.get("/healthcheck")).text == "The bot is still running fine :)"
            assert (await browser.get("/submitpayload", params={"user_id": "4242"})).status_code == 400
            for payload in ("first", "<second>"):
                answer = await browser.post("/submitpayload", params={"user_id": "4242", "payload": payload})
                assert answer.text == "Thank you for the submission! It's being forwarded."
                forwarded = await person.expect_reply(containing="has sent a new payload")
            assert forwarded.html == (
                'The user <a href="tg://user?id=4242">Alice</a> has sent a new payload. '
                "So far they have sent the following payloads: \n\n"
                "• <code>first</code>\n• <code>&lt;second&gt;</code>"
            )
            assert [e["type"] for e in forwarded.entities] == ["text_mention", "code", "code"]
            status, hook = await wire.sim("GET", "/sim/webhook")
            assert status == 200
            assert hook["webhook"]["url"] == f"{url}/telegram"
            assert [d["status"] for d in hook["deliveries"]] == [200]
        finally:
            webserver.should_exit = True
            await serving
            await application.stop()
    assert refusals(wire) == []


# --- passportbot.py ------------------------------------------------------------------------------------------------
def rsa_key() -> tuple[bytes, str]:
    """A bot's passport key pair: the private key for the builder, the public key BotFather (and the request) has."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, public.decode()


def passport_msg(seen: list[tuple[str, Any]]) -> Callable[..., Any]:
    """The example's handler, its log lines kept in ``seen``; downloads go to the working directory, as there."""

    async def msg(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        passport_data = update.message.passport_data
        assert passport_data is not None
        if passport_data.decrypted_credentials.nonce != "thisisatest":
            return
        for data in passport_data.decrypted_data:
            if data.type == "phone_number":
                seen.append(("Phone", data.phone_number))
            elif data.type == "email":
                seen.append(("Email", data.email))
            if data.type in ("personal_details", "passport", "driver_license", "identity_card", "internal_passport"):
                seen.append((data.type, data.data))
            if data.type in (
                "utility_bill",
                "bank_statement",
                "rental_agreement",
                "passport_registration",
                "temporary_registration",
            ):
                for file in data.files or ():
                    actual_file = await file.get_file()
                    seen.append((data.type + " file", await actual_file.download_to_drive()))
            if data.type in ("passport", "driver_license", "identity_card", "internal_passport") and data.front_side:
                front_file = await data.front_side.get_file()
                seen.append((data.type + " front", await front_file.download_to_drive()))
            if data.type in ("driver_license" and "identity_card") and data.reverse_side:  # the example's own test
                reverse_file = await data.reverse_side.get_file()
                seen.append((data.type + " reverse", await reverse_file.download_to_drive()))
            if data.type in ("passport", "driver_license", "identity_card", "internal_passport") and data.selfie:
                selfie_file = await data.selfie.get_file()
                seen.append((data.type + " selfie", await selfie_file.download_to_drive()))
            if data.translation:
                for file in data.translation:
                    actual_file = await file.get_file()
                    seen.append((data.type + " translation", await actual_file.download_to_drive()))

    return msg


def b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode()


async def test_passportbot(wire: Wire, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    private, public = rsa_key()
    seen: list[tuple[str, Any]] = []
    front, selfie, back, bill, translated = (professor.PHOTO_BYTES + bytes([n]) for n in range(5))
    elements = [
        {"type": "personal_details", "data": DETAILS},
        {
            "type": "passport",
            "data": {"document_no": "A123", "expiry_date": "01.01.2030"},
            "front_side": b64(front),
            "selfie": b64(selfie),
            "translation": [b64(translated)],
        },
        {
            "type": "identity_card",
            "data": {"document_no": "ID9", "expiry_date": ""},
            "front_side": b64(front),
            "reverse_side": b64(back),
        },
        {"type": "utility_bill", "files": [b64(bill)]},
        {"type": "phone_number", "phone_number": "441234567"},
        {"type": "email", "email": "alice@example.org"},
    ]
    handlers = [MessageHandler(filters.PASSPORT_DATA, passport_msg(seen))]
    async with example(wire, handlers, build=lambda b: b.private_key(private)) as (person, _):
        status, shared = await wire.sim(
            "POST", "/sim/passport", {"public_key": public, "nonce": "not the bot's", "elements": elements}
        )
        assert status == 200, shared
        status, shared = await wire.sim(
            "POST", "/sim/passport", {"public_key": public, "nonce": "thisisatest", "elements": elements}
        )
        assert status == 200, shared
        await person.wait_call("getFile", 6)
        await until(wire, lambda: len(seen) == 11)
        assert "[2] alice: [passport data: personal_details, passport, identity_card, utility_bill" in (
            await person.transcript()
        )
    got = dict(seen)
    assert (got["personal_details"].first_name, got["personal_details"].gender) == ("Alice", "female")
    assert (got["passport"].document_no, got["passport"].expiry_date) == ("A123", "01.01.2030")
    assert (got["Phone"], got["Email"]) == ("441234567", "alice@example.org")
    downloads = {what: where.read_bytes() for what, where in seen if isinstance(where, Path)}
    assert downloads == {
        "passport front": front,
        "passport selfie": selfie,
        "passport translation": translated,
        "identity_card front": front,
        "identity_card reverse": back,
        "utility_bill file": bill,
    }
    assert refusals(wire) == []
