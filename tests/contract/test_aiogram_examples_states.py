"""aiogram 3's own example bots (the ``examples/`` directory of aiogram/aiogram), run against the stand: each test
builds a bot of the example's shape (its handlers, calls and parameters, in our own words), plays the person
through the testing client, and asserts what the person sees and what the bot got. aiogram's warnings and errors
(a handler that raised, an update it could not parse, a call the stand refused) fail the test.

Here: finite states and scenes (finite_state_machine.py, scene.py, quiz_scene.py); the shared helpers
are in ``aiogram_support.py``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aiogram import Dispatcher, F, Router, html
from aiogram.filters import Command
from aiogram.fsm.context import FSMContext
from aiogram.fsm.scene import After, Scene, SceneRegistry, ScenesManager, on
from aiogram.fsm.storage.memory import SimpleEventIsolation
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    KeyboardButton,
    Message,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
)
from aiogram.utils.formatting import Bold, as_key_value, as_list, as_numbered_list, as_section
from aiogram.utils.keyboard import ReplyKeyboardBuilder

from tests.conftest import Wire
from tests.contract import aiogram_support
from tests.contract.aiogram_support import HTML, Complaints, form_router, running
from tgfake import errors

complaints = aiogram_support.complaints  # the autouse fixture: a complaint logged fails every test here


# --- finite_state_machine.py -------------------------------------------------------------------------------------
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
