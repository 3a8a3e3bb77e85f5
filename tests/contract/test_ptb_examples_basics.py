"""python-telegram-bot's own example bots (``examples/`` of the 22.x line), each rewritten here in the same shape: the
same handlers, calls, parameters and flow, polling with ``allowed_updates=Update.ALL_TYPES`` as every example's
``run_polling`` does. The person plays the human through the testing client; each test checks what the person sees
and what the bot received. A difference from Telegram shows up as a library exception, a refused call, a missing
field or a wrong update kind.

Here: echobot.py, timerbot.py, errorhandlerbot.py, rawapibot.py and contexttypesbot.py; the other themes
are in the neighbouring ``test_ptb_examples_*.py`` files, their shared helpers in ``ptb_support.py``."""

from __future__ import annotations

import html
import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any, cast

import pytest
from telegram import ForceReply, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.ext import (
    CallbackContext,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    ExtBot,
    MessageHandler,
    TypeHandler,
    filters,
)

from tests.clients import PtbApp, origin
from tests.conftest import Wire
from tests.contract.ptb_support import BOB, Handlers, echo_help, example, refusals
from tgfake.testing import AsyncStandClient

# The examples' ConversationHandlers mix message and callback handlers with per_message=False, as PTB warns.
pytestmark = pytest.mark.filterwarnings("ignore:If 'per_message=False':telegram.warnings.PTBUserWarning")


# --- echobot.py ----------------------------------------------------------------------------------------------------
async def echo_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    assert update.effective_user is not None
    user = update.effective_user
    await update.message.reply_html(rf"Hi {user.mention_html()}!", reply_markup=ForceReply(selective=True))


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
