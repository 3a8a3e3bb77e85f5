"""python-telegram-bot's own example bots (``examples/`` of the 22.x line), each rewritten here in the same shape: the
same handlers, calls, parameters and flow, polling with ``allowed_updates=Update.ALL_TYPES`` as every example's
``run_polling`` does. The person plays the human through the testing client; each test checks what the person sees
and what the bot received. A difference from Telegram shows up as a library exception, a refused call, a missing
field or a wrong update kind.

Here: the buttons and links (inlinekeyboard.py, inlinekeyboard2.py, arbitrarycallbackdatabot.py,
deeplinking.py, webappbot.py) and inline mode (inlinebot.py); the shared helpers are in ``ptb_support.py``."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import cast
from uuid import uuid4

import pytest
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    KeyboardButton,
    LinkPreviewOptions,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    Update,
    WebAppInfo,
    helpers,
)
from telegram.constants import ParseMode
from telegram.ext import (
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    ConversationHandler,
    InlineQueryHandler,
    InvalidCallbackData,
    MessageHandler,
    PicklePersistence,
    filters,
)

from tests.conftest import Wire
from tests.contract.ptb_support import echo_help, example, refusals

# The examples' ConversationHandlers mix message and callback handlers with per_message=False, as PTB warns.
pytestmark = pytest.mark.filterwarnings("ignore:If 'per_message=False':telegram.warnings.PTBUserWarning")


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
