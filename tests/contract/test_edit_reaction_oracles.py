"""An edit-aware bot and a reactions bot in python-telegram-bot and aiogram. The person edits (``/sim/edit``) and
reacts (``/sim/react``) through the testing client; the bot gets edited_message / edited_channel_post and
message_reaction / message_reaction_count (only when it asked for them in allowed_updates), and answers with
editMessageText and setMessageReaction. The chat view is what the person sees, the handlers' arguments what the
bot got."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio
from aiogram import Dispatcher, F
from aiogram.types import Message as AgMessage
from aiogram.types import MessageReactionCountUpdated as AgCount
from aiogram.types import MessageReactionUpdated as AgReaction
from aiogram.types import ReactionTypeEmoji as AgEmoji
from telegram import ReactionTypeEmoji, Update
from telegram.ext import ContextTypes, MessageHandler, MessageReactionHandler, filters

from tests.conftest import Wire
from tests.contract.running import aiogram_bot, aiogram_polling, origin, ptb_polling
from tests.media.media_helpers import ptb_application
from tgfake.testing import AsyncStandClient


async def channel(wire: Wire) -> int:
    status, made = await wire.sim("POST", "/sim/chats", {"type": "channel", "title": "News", "admins": [123]})
    assert status == 200, made
    return int(made["chat"]["id"])


# --- python-telegram-bot ------------------------------------------------------------------------------------------
async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    reply = await update.message.reply_text(f"You said: {update.message.text}")
    context.chat_data[update.message.message_id] = reply.message_id  # type: ignore[index]


async def on_edit(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    edited = update.edited_message
    assert edited is not None
    assert edited.edit_date is not None
    reply_id = context.chat_data[edited.message_id]  # type: ignore[index]
    await context.bot.edit_message_text(f"You said: {edited.text} (edited)", edited.chat_id, reply_id)
    await edited.reply_text("I saw that edit.")


async def on_channel_edit(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    post = update.edited_channel_post
    assert post is not None
    await context.bot.send_message(post.chat_id, f"post {post.message_id} now reads {post.text!r}")


async def on_reaction(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    reaction = update.message_reaction
    assert reaction is not None
    assert reaction.user is not None
    context.bot_data.setdefault("reactions", []).append(reaction)
    emoji = [r.emoji for r in reaction.new_reaction if isinstance(r, ReactionTypeEmoji)]
    await context.bot.set_message_reaction(reaction.chat.id, reaction.message_id, emoji[:1])
    old = [r.emoji for r in reaction.old_reaction if isinstance(r, ReactionTypeEmoji)]
    await context.bot.send_message(reaction.chat.id, f"{reaction.user.first_name}: {old} -> {emoji}")


async def on_reaction_count(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    counted = update.message_reaction_count
    assert counted is not None
    shown = " ".join(
        f"{r.type.emoji} {r.total_count}" for r in counted.reactions if isinstance(r.type, ReactionTypeEmoji)
    )
    await context.bot.send_message(counted.chat.id, f"post {counted.message_id}: {shown}")


@pytest_asyncio.fixture
async def ptb_bot(wire: Wire) -> AsyncIterator[tuple[AsyncStandClient, Any]]:
    app = ptb_application(wire)
    app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, answer))
    app.add_handler(MessageHandler(filters.UpdateType.EDITED_MESSAGE, on_edit))
    app.add_handler(MessageHandler(filters.UpdateType.EDITED_CHANNEL_POST, on_channel_edit))
    app.add_handler(
        MessageReactionHandler(on_reaction, message_reaction_types=MessageReactionHandler.MESSAGE_REACTION_UPDATED)
    )
    app.add_handler(
        MessageReactionHandler(
            on_reaction_count, message_reaction_types=MessageReactionHandler.MESSAGE_REACTION_COUNT_UPDATED
        )
    )
    async with ptb_polling(app, allowed_updates=Update.ALL_TYPES), AsyncStandClient(origin(wire)) as person:
        yield person, app


async def test_a_ptb_edit_aware_bot(wire: Wire, ptb_bot: tuple[AsyncStandClient, Any]) -> None:
    person, _ = ptb_bot
    said = await person.send("helo")
    await person.expect_reply("You said: helo")
    await person.edit(said.message_id, "hello")
    await person.expect_reply("I saw that edit.")
    [mine, reply, *_] = await person.messages()
    assert (mine.text, mine.edited) == ("hello", True)
    assert (reply.text, reply.edited) == ("You said: hello (edited)", True)
    news = await channel(wire)
    await person.send("first post", chat=news)
    await person.edit(1, "first post!", chat=news)
    await person.expect_reply("post 1 now reads 'first post!'", chat=news)
    [post, _] = await person.messages(news)
    assert (post.text, post.edited) == ("first post!", True)


async def test_a_ptb_reactions_bot(wire: Wire, ptb_bot: tuple[AsyncStandClient, Any]) -> None:
    person, app = ptb_bot
    await person.send("nice")
    await person.expect_reply("You said: nice")
    await person.react(2, "👍")
    await person.expect_reply("Alice: [] -> ['👍']")
    await person.react(2, "🔥")
    await person.expect_reply("Alice: ['👍'] -> ['🔥']")
    first, second = app.bot_data["reactions"]
    assert (first.message_id, first.user.id, first.old_reaction) == (2, 4242, ())
    assert second.old_reaction == (ReactionTypeEmoji("👍"),)
    [*_, reacted] = [m for m in await person.messages() if m.message_id == 2]
    assert reacted.reactions == {"🔥": 2}  # the person's and the bot's own
    sets = [json.loads(c.params["reaction"]) for c in await person.outbox("setMessageReaction")]
    assert sets == [[{"emoji": "👍", "type": "emoji"}], [{"emoji": "🔥", "type": "emoji"}]]
    news = await channel(wire)
    post = await app.bot.send_message(news, "post")
    await person.expect_reply("post", chat=news)
    await person.react(post.message_id, "❤", chat=news)
    await person.expect_reply(f"post {post.message_id}: ❤ 1", chat=news)
    assert len(app.bot_data["reactions"]) == 2  # a channel sends counts, never who reacted


# --- aiogram ------------------------------------------------------------------------------------------------------
async def test_an_aiogram_edit_aware_and_reactions_bot(wire: Wire) -> None:
    bot = aiogram_bot(wire)
    dp = Dispatcher()
    replies: dict[int, int] = {}
    got: list[Any] = []

    @dp.message(F.text)
    async def echo(message: AgMessage) -> None:
        replies[message.message_id] = (await message.reply(f"You said: {message.text}")).message_id

    @dp.edited_message(F.text)
    async def edited(message: AgMessage) -> None:
        got.append(message)
        await bot.edit_message_text(
            text=f"You said: {message.text} (edited)", chat_id=message.chat.id, message_id=replies[message.message_id]
        )
        await message.answer("I saw that edit.")

    @dp.edited_channel_post()
    async def edited_post(post: AgMessage) -> None:
        got.append(post)
        await bot.send_message(post.chat.id, f"post {post.message_id} now reads {post.text!r}")

    @dp.message_reaction()
    async def reacted(reaction: AgReaction) -> None:
        got.append(reaction)
        emoji = [r for r in reaction.new_reaction if isinstance(r, AgEmoji)]
        await bot.set_message_reaction(reaction.chat.id, reaction.message_id, [*emoji[:1]], is_big=True)
        await bot.send_message(reaction.chat.id, f"thanks for {''.join(e.emoji for e in emoji)}")

    @dp.message_reaction_count()
    async def counted(count: AgCount) -> None:
        got.append(count)
        await bot.send_message(count.chat.id, f"post {count.message_id}: {count.reactions[0].total_count}")

    async with aiogram_polling(dp, bot), AsyncStandClient(origin(wire)) as person:
        said = await person.send("helo")
        await person.expect_reply("You said: helo")
        await person.edit(said.message_id, "hello")
        await person.expect_reply("I saw that edit.")
        assert (await person.messages())[1].text == "You said: hello (edited)"
        await person.react(2, "🎉")
        await person.expect_reply("thanks for 🎉")
        news = await channel(wire)
        await person.send("first post", chat=news)
        await person.edit(1, "first post!", chat=news)
        await person.expect_reply("post 1 now reads 'first post!'", chat=news)
        await person.react(2, "👍", chat=news)
        await person.expect_reply("post 2: 1", chat=news)
        assert [m.reactions for m in await person.messages(4242) if m.message_id == 2] == [{"🎉": 2}]
        assert [m.reactions for m in await person.messages(news) if m.message_id == 2] == [{"👍": 1}]
    edit, reaction, post, count = got
    assert isinstance(edit, AgMessage)
    assert edit.edit_date is not None
    assert isinstance(reaction, AgReaction)
    assert [(type(r), r.emoji) for r in reaction.new_reaction if isinstance(r, AgEmoji)] == [(AgEmoji, "🎉")]
    assert reaction.user is not None
    assert (reaction.user.id, reaction.old_reaction) == (4242, [])
    assert isinstance(post, AgMessage)
    assert (post.chat.type, post.text) == ("channel", "first post!")
    assert isinstance(count, AgCount)
    assert isinstance(count.reactions[0].type, AgEmoji)
    assert count.reactions[0].type.emoji == "👍"
