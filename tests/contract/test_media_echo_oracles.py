"""Media echo bots in python-telegram-bot and aiogram: the person sends a sticker, a voice, a video and an album;
the bot sends each back by its file_id (sendSticker, sendVoice, sendVideo, sendMediaGroup of InputMediaPhoto and
InputMediaVideo), and the person sees the same kinds with the same file_unique_id. An album is echoed once the
person's next message shows it complete (the signal a collecting bot would otherwise take from a timer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aiogram import Dispatcher, F
from aiogram.types import InputMediaPhoto as AgInputPhoto
from aiogram.types import InputMediaVideo as AgInputVideo
from aiogram.types import Message as AgMessage
from telegram import InputMediaPhoto, InputMediaVideo, Message, Update
from telegram.ext import ContextTypes, MessageHandler, filters

from tests.conftest import Wire
from tests.contract.running import aiogram_bot, aiogram_polling, origin, ptb_polling
from tests.media.media_helpers import image_bytes, mp4_bytes, ptb_application
from tests.media.test_person_media import OGG
from tgfake.testing import AlbumItem, AsyncStandClient, ChatMessage

STICKER = image_bytes("WEBP", (512, 512))
VOICE = OGG + b"voice" * 20
VIDEO = mp4_bytes() + b"frames" * 20
PHOTO = image_bytes("PNG", (20, 10))


async def person_sends_and_sees_echoes(person: AsyncStandClient) -> list[ChatMessage]:
    """The person's sends, each answered by its echo; answers the chat's messages for the kinds and ids."""
    await person.send_file("sticker", STICKER, emoji="🐱")
    assert (await person.expect_reply()).kind == "sticker"
    await person.send_file("voice", VOICE, duration=3)
    assert (await person.expect_reply()).kind == "voice"
    await person.send_file("video", VIDEO, name="clip.mp4", caption="watch", duration=4, width=320, height=240)
    assert (await person.expect_reply("echo: watch")).kind == "video"
    [*album] = await person.send_album(
        [AlbumItem("photo", PHOTO, name="a.png", caption="trip"), AlbumItem("video", VIDEO, name="b.mp4")]
    )
    group = album[0].media_group_id
    assert group
    await person.send("that's all")
    first = await person.expect_reply()
    second = await person.expect_reply()
    assert (first.kind, second.kind) == ("photo", "video")
    assert first.raw["media_group_id"] == second.raw["media_group_id"] != group
    await person.expect_reply("album of 2 echoed")
    return await person.messages()


def file_ids(message: ChatMessage) -> tuple[str, str]:
    content = message.content
    assert content is not None, message
    item = content[-1] if isinstance(content, Sequence) else content
    return str(item["file_id"]), str(item["file_unique_id"])


def assert_echoed(messages: list[ChatMessage], pairs: list[tuple[str, str]]) -> None:
    """Every file the person sent comes back as the same kind of message with the same file_id and file_unique_id
    in the chat view; ``pairs`` are the file_unique_ids the bot got and those it sent back, as the library parsed
    them."""
    mine = [m for m in messages if not m.from_bot and m.kind != "text"]
    echoes = [m for m in messages if m.from_bot and m.kind != "text"]
    assert [m.kind for m in mine] == ["sticker", "voice", "video", "photo", "video"]
    assert [m.kind for m in echoes] == [m.kind for m in mine]
    assert [file_ids(m) for m in echoes] == [file_ids(m) for m in mine]
    assert [unique for _, unique in map(file_ids, mine)] == [got for got, _ in pairs]
    assert len(pairs) == 5
    assert all(got == sent and got for got, sent in pairs), pairs
    assert len({got for got, _ in pairs}) == 5
    assert echoes[0].raw["sticker"]["emoji"] == "🐱"
    assert echoes[2].caption == "echo: watch"


# --- python-telegram-bot ------------------------------------------------------------------------------------------
def pair(context: ContextTypes.DEFAULT_TYPE, got: str, sent: str) -> None:
    context.bot_data.setdefault("pairs", []).append((got, sent))


async def echo_sticker(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    assert update.message.sticker is not None
    sent = await update.message.reply_sticker(update.message.sticker.file_id)
    assert sent.sticker is not None
    pair(context, update.message.sticker.file_unique_id, sent.sticker.file_unique_id)


async def echo_voice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    assert update.message.voice is not None
    voice = update.message.voice
    sent = await update.message.reply_voice(voice.file_id, duration=voice.duration)
    assert sent.voice is not None
    pair(context, voice.file_unique_id, sent.voice.file_unique_id)


async def echo_video_or_collect_album(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.message
    assert message is not None
    if message.media_group_id:
        context.chat_data.setdefault("album", []).append(message)  # type: ignore[union-attr]
    elif message.video is not None:
        sent = await message.reply_video(message.video.file_id, caption=f"echo: {message.caption}")
        assert sent.video is not None
        pair(context, message.video.file_unique_id, sent.video.file_unique_id)


def unique_id(message: Message) -> str:
    return message.photo[-1].file_unique_id if message.photo else message.video.file_unique_id  # type: ignore[union-attr]


async def flush_album(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    items: list[Message] = context.chat_data.pop("album", [])  # type: ignore[union-attr]
    if not items:
        return
    media: list[InputMediaPhoto | InputMediaVideo] = []
    for item in items:
        if item.photo:
            media.append(InputMediaPhoto(item.photo[-1].file_id, caption=item.caption))
        elif item.video:
            media.append(InputMediaVideo(item.video.file_id, caption=item.caption))
    sent = await update.message.reply_media_group(media)
    for got, back in zip(items, sent, strict=True):
        pair(context, unique_id(got), unique_id(back))
    await update.message.reply_text(f"album of {len(sent)} echoed")


async def test_a_ptb_media_echo_bot(wire: Wire) -> None:
    app = ptb_application(wire)
    app.add_handler(MessageHandler(filters.Sticker.ALL, echo_sticker))
    app.add_handler(MessageHandler(filters.VOICE, echo_voice))
    app.add_handler(MessageHandler(filters.PHOTO | filters.VIDEO, echo_video_or_collect_album))
    app.add_handler(MessageHandler(filters.TEXT, flush_album))
    async with ptb_polling(app), AsyncStandClient(origin(wire)) as person:
        messages = await person_sends_and_sees_echoes(person)
    assert_echoed(messages, app.bot_data["pairs"])
    assert all(c.status == 200 for c in wire.stand.calls())


# --- aiogram ------------------------------------------------------------------------------------------------------
def ag_unique_id(message: AgMessage) -> str:
    return message.photo[-1].file_unique_id if message.photo else message.video.file_unique_id  # type: ignore[union-attr]


async def test_an_aiogram_media_echo_bot(wire: Wire) -> None:
    bot = aiogram_bot(wire)
    dp = Dispatcher()
    albums: dict[int, list[AgMessage]] = {}
    pairs: list[tuple[str, str]] = []

    @dp.message(F.media_group_id)
    async def collect(message: AgMessage) -> None:
        albums.setdefault(message.chat.id, []).append(message)

    @dp.message(F.sticker)
    async def sticker(message: AgMessage) -> None:
        assert message.sticker is not None
        sent = await message.answer_sticker(message.sticker.file_id)
        assert sent.sticker is not None
        pairs.append((message.sticker.file_unique_id, sent.sticker.file_unique_id))

    @dp.message(F.voice)
    async def voice(message: AgMessage) -> None:
        assert message.voice is not None
        sent = await message.answer_voice(message.voice.file_id)
        assert sent.voice is not None
        pairs.append((message.voice.file_unique_id, sent.voice.file_unique_id))

    @dp.message(F.video)
    async def video(message: AgMessage) -> None:
        assert message.video is not None
        sent = await message.answer_video(message.video.file_id, caption=f"echo: {message.caption}")
        assert sent.video is not None
        pairs.append((message.video.file_unique_id, sent.video.file_unique_id))

    @dp.message(F.text)
    async def flush(message: AgMessage) -> None:
        items = albums.pop(message.chat.id, [])
        media: list[Any] = [
            AgInputPhoto(media=m.photo[-1].file_id, caption=m.caption)
            if m.photo
            else AgInputVideo(media=m.video.file_id, caption=m.caption)  # type: ignore[union-attr]
            for m in items
        ]
        if media:
            sent = await message.answer_media_group(media)
            pairs.extend((ag_unique_id(got), ag_unique_id(back)) for got, back in zip(items, sent, strict=True))
            await message.answer(f"album of {len(sent)} echoed")

    # one update at a time, so an album is collected before the message that closes it
    async with aiogram_polling(dp, bot, handle_as_tasks=False), AsyncStandClient(origin(wire)) as person:
        messages = await person_sends_and_sees_echoes(person)
    assert_echoed(messages, pairs)
