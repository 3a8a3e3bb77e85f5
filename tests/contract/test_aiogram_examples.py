"""aiogram 3's own example bots (the ``examples/`` directory of aiogram/aiogram), run against the stand: each test
builds a bot of the example's shape (its handlers, calls and parameters, in our own words), plays the person
through the testing client, and asserts what the person sees and what the bot got. aiogram's warnings and errors
(a handler that raised, an update it could not parse, a call the stand refused) fail the test."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from aiogram import Dispatcher, html
from aiogram.client.default import DefaultBotProperties
from aiogram.enums import ParseMode
from aiogram.filters import CommandStart
from aiogram.types import Message

from tests.conftest import Wire
from tests.contract.running import aiogram_bot, aiogram_polling, origin
from tests.media.media_helpers import image_bytes, mp4_bytes
from tests.media.test_person_media import OGG
from tgfake.testing import AsyncStandClient

HTML = DefaultBotProperties(parse_mode=ParseMode.HTML)
PHOTO = image_bytes("PNG", (20, 10))
STICKER = image_bytes("WEBP", (512, 512))
VIDEO = mp4_bytes() + b"frames" * 20


class Complaints(logging.Handler):
    """aiogram's own warnings and errors while a bot runs: a handler that raised, a failed getUpdates..."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def lines(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.records]


@pytest.fixture(autouse=True)
def complaints() -> Iterator[Complaints]:
    """Fails the test when aiogram logged a warning or an error (the test empties ``records`` for one it expects)."""
    handler = Complaints()
    logger = logging.getLogger("aiogram")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
    assert handler.lines() == []


@contextlib.asynccontextmanager
async def running(wire: Wire, dp: Dispatcher, **bot: Any) -> AsyncIterator[AsyncStandClient]:
    """``dp`` polling the stand as an aiogram Bot (``bot``: its keywords, ``default=``...), and the person."""
    async with aiogram_polling(dp, aiogram_bot(wire, **bot)), AsyncStandClient(origin(wire)) as person:
        yield person


# --- echo_bot.py -------------------------------------------------------------------------------------------------
def echo_dispatcher() -> Dispatcher:
    """echo_bot.py: /start greets by the full name in bold (HTML by default), everything else is sent back with
    Message.send_copy, and what send_copy cannot copy is answered "Nice try!"."""
    dp = Dispatcher()

    @dp.message(CommandStart())
    async def command_start_handler(message: Message) -> None:
        assert message.from_user is not None
        await message.answer(f"Hello, {html.bold(message.from_user.full_name)}!")

    @dp.message()
    async def echo_handler(message: Message) -> None:
        try:
            await message.send_copy(chat_id=message.chat.id)
        except TypeError:
            await message.answer("Nice try!")

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
