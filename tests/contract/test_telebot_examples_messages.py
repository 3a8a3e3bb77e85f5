"""pyTelegramBotAPI's own example bots (``examples/`` of eternnoir/pyTelegramBotAPI, sync ``TeleBot`` and
``asynchronous_telebot``), run against the stand: each test builds a bot of the example's shape (its handlers, calls
and parameters, in our own words), plays the person through the testing client, and asserts what the person sees
and what the bot got. telebot logs a handler that raised, a failed getUpdates or a refused call on its ``TeleBot``
logger: any error there fails the test.

Here: what the bot sends and reads (inline_example.py, message_reaction_example.py,
formatting_example.py, poll_example.py, set_command_example.py, download_file_example.py,
asynchronous_telebot/send_file_example.py, asynchronous_telebot/exception_handler.py,
send_message_draft_example.py); the shared helpers are in ``telebot_support.py``."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from telebot import TeleBot, formatting, types
from telebot.async_telebot import AsyncTeleBot, ExceptionHandler

from tests.conftest import Wire
from tests.contract import telebot_support
from tests.contract.running import origin
from tests.contract.telebot_support import ALICE, Complaints, async_polling, group, pointed, polling, refusals
from tests.media.media_helpers import image_bytes
from tests.media.test_person_media import OGG
from tgfake.testing import AsyncStandClient

complaints = telebot_support.complaints  # the autouse fixture: a complaint logged fails every test here

# --- inline_example.py ------------------------------------------------------------------------------------------
KITTEN = "https://raw.githubusercontent.com/eternnoir/pyTelegramBotAPI/master/examples/detailed_example/kitten.jpg"
ROOSTER = "https://raw.githubusercontent.com/eternnoir/pyTelegramBotAPI/master/examples/detailed_example/rooster.jpg"
VIDEO_URL = "https://github.com/eternnoir/pyTelegramBotAPI/blob/master/tests/test_data/test_video.mp4?raw=true"


async def test_inline_example_answers_articles_photos_and_a_video(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.inline_handler(lambda query: query.query == "text")
    def query_text(inline_query: types.InlineQuery) -> None:
        r = types.InlineQueryResultArticle("1", "Result1", types.InputTextMessageContent("hi"))
        r2 = types.InlineQueryResultArticle("2", "Result2", types.InputTextMessageContent("hi"))
        bot.answer_inline_query(inline_query.id, [r, r2])

    @bot.inline_handler(lambda query: query.query == "photo1")
    def query_photo(inline_query: types.InlineQuery) -> None:
        r = types.InlineQueryResultPhoto("1", KITTEN, KITTEN, input_message_content=types.InputTextMessageContent("hi"))
        r2 = types.InlineQueryResultPhoto("2", ROOSTER, ROOSTER)
        bot.answer_inline_query(inline_query.id, [r, r2], cache_time=1)

    @bot.inline_handler(lambda query: query.query == "video")
    def query_video(inline_query: types.InlineQuery) -> None:
        r = types.InlineQueryResultVideo("1", VIDEO_URL, "video/mp4", ROOSTER, "Title")
        bot.answer_inline_query(inline_query.id, [r])

    @bot.inline_handler(lambda query: len(query.query) == 0)
    def default_query(inline_query: types.InlineQuery) -> None:
        r = types.InlineQueryResultArticle("1", "default", types.InputTextMessageContent("default"))
        bot.answer_inline_query(inline_query.id, [r])

    async with polling(wire, bot) as person:
        await person.inline_mode(True)
        texts = await person.inline("text")
        assert [(r["type"], r["title"]) for r in texts["results"]] == [("article", "Result1"), ("article", "Result2")]
        chosen = await person.choose("2")
        [sent] = [m for m in await person.messages() if m.message_id == chosen.message_id]
        assert (sent.text, sent.raw.get("via_bot")) == ("hi", "tgfake_bot"), sent.raw
        photos = await person.inline("photo1")
        assert [(r["type"], r["photo_url"]) for r in photos["results"]] == [("photo", KITTEN), ("photo", ROOSTER)]
        video = await person.inline("video")
        assert [(r["type"], r["mime_type"], r["title"]) for r in video["results"]] == [("video", "video/mp4", "Title")]
        default = await person.inline("")
        assert [r["title"] for r in default["results"]] == ["default"]
    assert refusals(wire) == []


# --- message_reaction_example.py --------------------------------------------------------------------------------
async def test_message_reaction_example_reacts_and_reads_reactions(wire: Wire) -> None:
    bot = TeleBot(wire.token)
    emo = ["\U0001f525", "\U0001f917", "\U0001f60e"]

    @bot.message_handler(func=lambda message: True)
    def send_reaction(message: types.Message) -> None:
        bot.set_message_reaction(message.chat.id, message.id, [types.ReactionTypeEmoji(emo[0])], is_big=False)

    @bot.message_reaction_handler(func=lambda message: True)
    def get_reactions(message: types.MessageReactionUpdated) -> None:
        old = [r.emoji for r in message.old_reaction]  # type: ignore[attr-defined]  # emoji reactions here
        new = [r.emoji for r in message.new_reaction]  # type: ignore[attr-defined]
        bot.reply_to(message, f"You changed the reaction from {old} to {new}")  # type: ignore[arg-type]

    async with polling(wire, bot, allowed_updates=["message", "message_reaction"]) as person:
        said = await person.send("hi")
        [reacted] = await person.wait_call("setMessageReaction")
        assert reacted.ok, reacted.line()
        [mine] = [m for m in await person.messages() if m.message_id == said.message_id]
        assert mine.reactions == {"🔥": 1}
        await person.react(said.message_id, "👍")
        answer = await person.expect_reply("You changed the reaction from [] to ['👍']")
        assert answer.raw["reply_to_message_id"] == said.message_id
    assert refusals(wire) == []


# --- formatting_example.py --------------------------------------------------------------------------------------
async def test_formatting_example_markdown_v2_html_and_a_date_time_entity(wire: Wire, complaints: Complaints) -> None:
    bot = TeleBot(wire.token)

    @bot.message_handler(commands=["start"])
    def start_message(message: types.Message) -> None:
        assert message.from_user is not None
        name = message.from_user.first_name
        markdown = [formatting.mbold, formatting.mitalic, formatting.munderline, formatting.mstrikethrough]
        marked = formatting.format_text(*[f(name) for f in markdown], formatting.mcode(name), separator=" ")
        bot.send_message(message.chat.id, marked, parse_mode="MarkdownV2")
        bot.send_message(message.chat.id, formatting.mbold(name), parse_mode="MarkdownV2")
        html = [formatting.hbold, formatting.hitalic, formatting.hunderline, formatting.hstrikethrough]
        tagged = formatting.format_text(
            *[f(name) for f in html],
            formatting.hcode(name),
            formatting.hide_link("https://telegra.ph/file/c158e3a6e2a26a160b253.jpg"),
            separator=" ",
        )
        bot.send_message(message.chat.id, tagged, parse_mode="HTML")
        bot.send_message(message.chat.id, formatting.hbold(name), parse_mode="HTML")
        date_text = "2026-03-01 12:00:00"
        entity = types.MessageEntity(
            type="date_time",
            offset=len("Local time: "),
            length=len(date_text),
            unix_time=1772366400,
            date_time_format="short",
        )
        bot.send_message(message.chat.id, f"Local time: {date_text}", entities=[entity])

    styles = ["bold", "italic", "underline", "strikethrough", "pre"]  # mcode makes a ``` block
    async with polling(wire, bot) as person:
        await person.send("/start")
        first = await person.expect_reply("Alice Alice Alice Alice Alice")
        assert [e["type"] for e in first.entities] == styles
        await person.expect_reply("Alice", html="<b>Alice</b>")
        third = await person.expect_reply(containing="Alice Alice Alice Alice Alice")
        assert [e["type"] for e in third.entities] == [*styles[:4], "code", "text_link"]
        assert third.entities[-1]["url"] == "https://telegra.ph/file/c158e3a6e2a26a160b253.jpg"
        await person.expect_reply("Alice", html="<b>Alice</b>")
        # date_time_format "short" is not Telegram's: only r/R, or letters of t, T, d, D, w, W (Client.cpp).
        await until(lambda: bool(complaints.records))  # the handler's ApiException, logged by the polling loop
        assert refusals(wire) == [
            ("sendMessage", 400, "Bad Request: can't parse MessageEntity: Invalid date-time format specified")
        ]
        assert [r.getMessage().rsplit("Description: ", 1)[-1] for r in complaints.records] == [refusals(wire)[0][2]]
        complaints.records.clear()


# --- poll_example.py --------------------------------------------------------------------------------------------
async def test_poll_example_sends_a_quiz_and_gets_the_answer(wire: Wire) -> None:
    bot = TeleBot(wire.token)
    answers: list[types.PollAnswer] = []

    @bot.message_handler(commands=["poll"])
    def create_poll(message: types.Message) -> None:
        bot.send_message(message.chat.id, "English Article Test")
        bot.send_poll(
            chat_id=message.chat.id,
            question="We are going to '' park.",
            options=["a", "an", "the", "-"],
            type="quiz",
            correct_option_id=2,
            is_anonymous=False,
        )

    @bot.poll_answer_handler()
    def handle_poll(poll: types.PollAnswer) -> None:
        answers.append(poll)  # the example's handler does nothing with it

    async with polling(wire, bot) as person:
        await person.send("/poll")
        await person.expect_reply("English Article Test")
        quiz = await person.expect_reply()
        assert quiz.poll is not None
        assert (quiz.poll["type"], quiz.poll["is_anonymous"]) == ("quiz", False)
        assert [o["text"] for o in quiz.poll["options"]] == ["a", "an", "the", "-"]
        await person.vote(quiz.message_id, [2])
        await until(lambda: bool(answers))
    assert (answers[0].option_ids, answers[0].user.id) == ([2], ALICE)  # type: ignore[union-attr]


async def until(check: Any, timeout: float = 3.0) -> None:
    """Waits for a condition the bot's thread makes true (a handler ran)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


# --- set_command_example.py -------------------------------------------------------------------------------------
async def test_set_command_example_sets_and_reads_commands(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    def run() -> list[types.BotCommand]:
        bot.delete_my_commands(scope=None, language_code=None)
        bot.set_my_commands(
            commands=[
                types.BotCommand("command1", "command1 description"),
                types.BotCommand("command2", "command2 description"),
            ],
        )
        return bot.get_my_commands(scope=None, language_code=None)

    with pointed(wire):
        commands = await asyncio.to_thread(run)
    assert [c.to_dict() for c in commands] == [
        {"command": "command1", "description": "command1 description"},
        {"command": "command2", "description": "command2 description"},
    ]
    assert refusals(wire) == []


# --- download_file_example.py -----------------------------------------------------------------------------------
async def test_download_file_example_sends_a_voice_and_downloads_it(wire: Wire) -> None:
    bot = TeleBot(wire.token)
    record = OGG + b"voice" * 20

    def run() -> bytes:
        ret_msg = bot.send_voice(ALICE, record)
        assert ret_msg.voice is not None
        file_info = bot.get_file(ret_msg.voice.file_id)
        assert file_info.file_path is not None
        return bot.download_file(file_info.file_path)

    async with AsyncStandClient(origin(wire)) as person:
        await person.send("/start")  # the chat exists once the person wrote
        with pointed(wire):
            assert await asyncio.to_thread(run) == record
        assert (await person.expect_reply()).kind == "voice"


# --- asynchronous_telebot/send_file_example.py ------------------------------------------------------------------
async def test_async_send_file_example_sends_a_photo_a_document_and_an_album(wire: Wire, tmp_path: Path) -> None:
    bot = AsyncTeleBot(wire.token)
    (tmp_path / "test.png").write_bytes(image_bytes("PNG", (20, 10)))
    (tmp_path / "test2.png").write_bytes(image_bytes("PNG", (10, 20)))
    (tmp_path / "test.docx").write_bytes(b"PK\x03\x04 a document")

    @bot.message_handler(commands=["photo"])
    async def photo_send(message: types.Message) -> None:
        with open(tmp_path / "test.png", "rb") as new_file:  # noqa: ASYNC230  # the example's own open
            await bot.send_photo(message.chat.id, new_file)

    @bot.message_handler(commands=["document"])
    async def document_send(message: types.Message) -> None:
        with open(tmp_path / "test.docx", "rb") as new_file:  # noqa: ASYNC230
            await bot.send_document(message.chat.id, new_file)

    @bot.message_handler(commands=["photos"])
    async def photos_send(message: types.Message) -> None:
        with open(tmp_path / "test.png", "rb") as one, open(tmp_path / "test2.png", "rb") as two:  # noqa: ASYNC230
            await bot.send_media_group(message.chat.id, [types.InputMediaPhoto(one), types.InputMediaPhoto(two)])  # type: ignore[arg-type]  # a file object works

    async with async_polling(wire, bot) as person:
        await person.send("/photo")
        assert (await person.expect_reply()).kind == "photo"
        await person.send("/document")
        document = await person.expect_reply()
        assert (document.kind, document.raw["document"]["name"]) == ("document", "test.docx"), document.raw
        await person.send("/photos")
        first, second = await person.expect_reply(), await person.expect_reply()
        assert (first.kind, second.kind) == ("photo", "photo")
        assert first.raw["media_group_id"] == second.raw["media_group_id"]
    assert refusals(wire) == []


# --- asynchronous_telebot/exception_handler.py ------------------------------------------------------------------
async def test_async_exception_handler_gets_what_a_handler_raised(wire: Wire, complaints: Complaints) -> None:
    handled: list[Exception] = []

    class MyExceptionHandler(ExceptionHandler):
        async def handle(self, exception: Exception) -> bool:
            handled.append(exception)  # the example logs it: logger.error(exception)
            return True

    bot = AsyncTeleBot(wire.token, exception_handler=MyExceptionHandler())

    @bot.message_handler(commands=["photo"])
    async def photo_send(message: types.Message) -> None:
        await bot.send_message(message.chat.id, "Hi, this is an example of exception handlers.")
        raise Exception("test")

    async with async_polling(wire, bot) as person:
        await person.send("/photo")
        await person.expect_reply("Hi, this is an example of exception handlers.")
        await until(lambda: bool(handled))
        await person.send("/photo")  # polling goes on
        await person.expect_reply("Hi, this is an example of exception handlers.")
    assert [str(e) for e in handled][:1] == ["test"]


# --- send_message_draft_example.py ------------------------------------------------------------------------------
async def test_send_message_draft_streams_two_drafts_then_the_message(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.message_handler(commands=["draft"])
    def send_draft(message: types.Message) -> None:
        if message.chat.type != "private":
            bot.reply_to(message, "This example works in private chats.")
            return
        assert message.from_user is not None
        draft_id = message.from_user.id
        bot.send_message_draft(message.chat.id, draft_id, "Generating response...")
        time.sleep(0.05)  # the example waits a second between drafts
        bot.send_message_draft(message.chat.id, draft_id, "Still working...")
        time.sleep(0.05)
        bot.send_message(message.chat.id, "Done.")

    async with polling(wire, bot) as person:
        await person.send("/draft")
        await person.expect_reply("Done.")
        drafts = await person.wait_call("sendMessageDraft", 2)
        assert [(d.ok, d.params["text"]) for d in drafts] == [
            (True, "Generating response..."),
            (True, "Still working..."),
        ]
        club = await group(wire, members=["@tgfake_bot"])
        await person.send("/draft", chat=club)
        await person.expect_reply("This example works in private chats.", chat=club)
    assert refusals(wire) == []
