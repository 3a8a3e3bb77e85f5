"""python-telegram-bot bots in the world, polling the stand unchanged: a welcome bot, /ban by an admin bot and by
one that is not, a blocked bot, and a forum topic conversation."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from telegram import ChatMember, Update
from telegram.error import BadRequest, Forbidden
from telegram.ext import ChatMemberHandler, CommandHandler, ContextTypes, MessageHandler, filters

from tests.clients import PtbApp, ptb_polling
from tests.conftest import Wire
from tests.world.helpers import BOB, BOT, MOD, MOD_TOKEN, add_bot, bot_lines, make_chat, sim_ok

PRESENT = (ChatMember.MEMBER, ChatMember.ADMINISTRATOR, ChatMember.OWNER, ChatMember.RESTRICTED)


@contextlib.asynccontextmanager
async def running(wire: Wire, token: str, *handlers: Any) -> AsyncIterator[PtbApp]:
    async with ptb_polling(wire, handlers, Update.ALL_TYPES, token) as app:
        assert await wire.stand.wait_polling(5, wire.stand.tokens[token])  # subscribed before the story starts
        yield app


async def greet(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    change = update.chat_member
    assert change is not None
    old, new = change.old_chat_member.status, change.new_chat_member.status
    name = change.new_chat_member.user.first_name
    if new in PRESENT and old not in PRESENT:
        text = f"Welcome, {name}!"
    elif old in PRESENT and new not in PRESENT:
        text = f"Goodbye, {name}."
    elif new == ChatMember.ADMINISTRATOR:
        text = f"{name} is an admin now."
    else:
        return
    await context.bot.send_message(change.chat.id, text)


async def test_a_ptb_welcome_bot_greets_joins_leaves_and_promotions(wire: Wire) -> None:
    cid = await make_chat(wire, admins=[BOT])
    async with running(wire, wire.token, ChatMemberHandler(greet, ChatMemberHandler.CHAT_MEMBER)):
        await sim_ok(wire, f"/sim/chats/{cid}/join", {"user": "bob"})
        await wire.stand.wait_calls("sendMessage", 1, 5)
        await sim_ok(wire, f"/sim/chats/{cid}/promote", {"user": "bob"})
        await wire.stand.wait_calls("sendMessage", 2, 5)
        await sim_ok(wire, f"/sim/chats/{cid}/leave", {"user": "bob"})
        await wire.stand.wait_calls("sendMessage", 3, 5)
    assert bot_lines(wire, cid) == ["Welcome, Bob!", "Bob is an admin now.", "Goodbye, Bob."]


async def ban(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/ban in reply to someone: ban them, or say why not in Telegram's words (PTB strips "Bad Request: ")."""
    message = update.message
    assert message is not None
    assert message.reply_to_message is not None
    target = message.reply_to_message.from_user
    assert target is not None
    try:
        await context.bot.ban_chat_member(message.chat.id, target.id)
    except BadRequest as exc:
        await message.reply_text(f"Can't: {exc.message}")
        return
    await message.reply_text(f"Banned {target.first_name}.")


async def test_ban_by_an_admin_ptb_bot_and_refused_for_a_member_one(wire: Wire) -> None:
    await add_bot(wire)
    cid = await make_chat(wire, members=["bob", MOD], admins=[BOT])
    spam = await sim_ok(wire, "/sim/message", {"text": "buy now", "chat_id": cid, "user_id": BOB, "username": "bob"})
    async with (
        running(wire, wire.token, CommandHandler("ban", ban)),
        running(wire, MOD_TOKEN, CommandHandler("ban", ban)),
    ):
        body = {"chat_id": cid, "reply_to_message_id": spam["message_id"]}
        await sim_ok(wire, "/sim/message", {"text": "/ban@mod_bot", **body})
        await wire.stand.wait_calls("sendMessage", 1, 5)
        assert (await wire.ok("getChatMember", chat_id=cid, user_id=BOB))["status"] == "member"
        await sim_ok(wire, "/sim/message", {"text": "/ban@tgfake_bot", **body})
        await wire.stand.wait_calls("sendMessage", 2, 5)
    assert bot_lines(wire, cid, MOD) == ["Can't: Not enough rights to restrict/unrestrict chat member"]
    assert bot_lines(wire, cid) == ["Banned Bob."]
    assert (await wire.ok("getChatMember", chat_id=cid, user_id=BOB))["status"] == "kicked"


async def test_a_ptb_bot_sees_itself_blocked_and_unblocked(wire: Wire) -> None:
    seen: list[str] = []
    errors: list[str] = []

    async def on_block(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        change = update.my_chat_member
        assert change is not None
        seen.append(change.new_chat_member.status)
        try:
            await context.bot.send_message(change.chat.id, "Still there?")
        except Forbidden as exc:
            errors.append(exc.message)

    await wire.say("hi")
    async with running(wire, wire.token, ChatMemberHandler(on_block, ChatMemberHandler.MY_CHAT_MEMBER)):
        await sim_ok(wire, "/sim/block", {"user": "alice"})
        await wire.stand.wait_calls("sendMessage", 1, 5)
        await sim_ok(wire, "/sim/unblock", {"user": "alice"})
        await wire.stand.wait_calls("sendMessage", 2, 5)
    assert seen == [ChatMember.BANNED, ChatMember.MEMBER]
    assert errors == ["Forbidden: bot was blocked by the user"]
    assert bot_lines(wire, 4242) == ["Still there?"]


async def test_a_ptb_bot_talks_in_a_forum_topic(wire: Wire) -> None:
    async def topic(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        assert message is not None
        made = await context.bot.create_forum_topic(message.chat.id, "Support")
        await context.bot.send_message(message.chat.id, "Ask here.", message_thread_id=made.message_thread_id)

    async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        assert message is not None
        assert message.is_topic_message
        await message.reply_text(f"In topic {message.message_thread_id}: noted.")

    cid = await make_chat(wire, is_forum=True, admins=[BOT])
    async with running(wire, wire.token, CommandHandler("support", topic), MessageHandler(filters.TEXT, answer)):
        await sim_ok(wire, "/sim/message", {"text": "/support", "chat_id": cid})
        await wire.stand.wait_calls("sendMessage", 1, 5)
        thread = next(iter(wire.stand.world.chats[cid].topics))
        await sim_ok(wire, "/sim/message", {"text": "it broke", "chat_id": cid, "message_thread_id": thread})
        await wire.stand.wait_calls("sendMessage", 2, 5)
    chat = wire.stand.world.chats[cid]
    replies = [m for m in chat.messages.values() if m.sender is not None and m.sender.id == BOT and m.text]
    assert [(m.text, m.thread_id) for m in replies] == [("Ask here.", thread), (f"In topic {thread}: noted.", thread)]
    assert MOD not in wire.stand.bots  # one bot only in this story
