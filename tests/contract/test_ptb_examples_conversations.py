"""python-telegram-bot's own example bots (``examples/`` of the 22.x line), each rewritten here in the same shape: the
same handlers, calls, parameters and flow, polling with ``allowed_updates=Update.ALL_TYPES`` as every example's
``run_polling`` does. The person plays the human through the testing client; each test checks what the person sees
and what the bot received. A difference from Telegram shows up as a library exception, a refused call, a missing
field or a wrong update kind.

Here: the conversations (conversationbot.py, conversationbot2.py, persistentconversationbot.py,
nestedconversationbot.py); the shared helpers are in ``ptb_support.py``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove, Update
from telegram.ext import (
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    ConversationHandler,
    MessageHandler,
    PicklePersistence,
    filters,
)

from tests.clients import origin
from tests.conftest import Wire
from tests.contract import test_conversation_oracles as professor
from tests.contract.ptb_support import Handlers, example, refusals
from tgfake.testing import AsyncStandClient

# The examples' ConversationHandlers mix message and callback handlers with per_message=False, as PTB warns.
pytestmark = pytest.mark.filterwarnings("ignore:If 'per_message=False':telegram.warnings.PTBUserWarning")


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
