"""aiogram 3 bots in the world: a chat_member welcome router, privacy mode on and off with two bots in one
group, /ban by an admin bot and by one that is not, a blocked bot, and a forum topic conversation."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

from aiogram import Bot, Dispatcher, F
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.filters import IS_MEMBER, IS_NOT_MEMBER, PROMOTED_TRANSITION, ChatMemberUpdatedFilter, Command
from aiogram.types import ChatMemberUpdated, Message

from tests.clients import aiogram_bot, aiogram_polling
from tests.conftest import Wire
from tests.world.helpers import BOB, BOT, MOD, MOD_TOKEN, add_bot, bot_lines, make_chat, sim_ok


@contextlib.asynccontextmanager
async def polling(wire: Wire, token: str, setup: Callable[[Dispatcher], None]) -> AsyncIterator[Bot]:
    bot = aiogram_bot(wire, token)
    dp = Dispatcher()
    setup(dp)
    async with aiogram_polling(bot, dp, allowed_updates=dp.resolve_used_update_types()):
        await wire.ok("getMe", token=token)
        assert await wire.stand.wait_polling(5, wire.stand.tokens[token])
        yield bot


def welcome(dp: Dispatcher) -> None:
    @dp.chat_member(ChatMemberUpdatedFilter(IS_NOT_MEMBER >> IS_MEMBER))
    async def joined(event: ChatMemberUpdated) -> None:
        await event.answer(f"Welcome, {event.new_chat_member.user.first_name}!")

    @dp.chat_member(ChatMemberUpdatedFilter(IS_MEMBER >> IS_NOT_MEMBER))
    async def left(event: ChatMemberUpdated) -> None:
        await event.answer(f"Goodbye, {event.new_chat_member.user.first_name}.")

    @dp.chat_member(ChatMemberUpdatedFilter(PROMOTED_TRANSITION))
    async def promoted(event: ChatMemberUpdated) -> None:
        await event.answer(f"{event.new_chat_member.user.first_name} is an admin now.")


async def test_an_aiogram_welcome_router_sees_joins_promotions_and_leaves(wire: Wire) -> None:
    cid = await make_chat(wire, admins=[BOT])
    async with polling(wire, wire.token, welcome):
        await sim_ok(wire, f"/sim/chats/{cid}/join", {"user": "bob"})
        await wire.stand.wait_calls("sendMessage", 1, 5)
        await sim_ok(wire, f"/sim/chats/{cid}/promote", {"user": "bob"})
        await wire.stand.wait_calls("sendMessage", 2, 5)
        await sim_ok(wire, f"/sim/chats/{cid}/remove", {"user": "bob"})
        await wire.stand.wait_calls("sendMessage", 3, 5)
    assert bot_lines(wire, cid) == ["Welcome, Bob!", "Bob is an admin now.", "Goodbye, Bob."]


def echo(dp: Dispatcher) -> None:
    @dp.message(F.text)
    async def said(message: Message) -> None:
        await message.answer(f"heard: {message.text}")


async def test_privacy_mode_on_and_off_with_two_aiogram_bots_in_one_group(wire: Wire) -> None:
    """The default bot is in privacy mode (commands only); mod_bot reads everything; neither hears the other."""
    await add_bot(wire, can_read_all_group_messages=True)
    cid = await make_chat(wire, members=["bob", BOT, MOD])
    async with polling(wire, wire.token, echo), polling(wire, MOD_TOKEN, echo):
        await sim_ok(wire, "/sim/message", {"text": "good morning", "chat_id": cid, "user_id": BOB, "username": "bob"})
        await wire.stand.wait_calls("sendMessage", 1, 5)
        await sim_ok(wire, "/sim/message", {"text": "/status", "chat_id": cid, "user_id": BOB})
        await wire.stand.wait_calls("sendMessage", 3, 5)
    assert bot_lines(wire, cid) == ["heard: /status"]
    assert bot_lines(wire, cid, MOD) == ["heard: good morning", "heard: /status"]


def banning(dp: Dispatcher) -> None:
    @dp.message(Command("ban"), F.reply_to_message)
    async def ban(message: Message, bot: Bot) -> None:
        assert message.reply_to_message is not None
        target = message.reply_to_message.from_user
        assert target is not None
        try:
            await bot.ban_chat_member(message.chat.id, target.id)
        except TelegramBadRequest as exc:
            await message.reply(f"Can't: {exc.message}")
            return
        await message.reply(f"Banned {target.first_name}.")


async def test_ban_by_an_admin_aiogram_bot_and_refused_for_a_member_one(wire: Wire) -> None:
    await add_bot(wire)
    cid = await make_chat(wire, members=["bob", MOD], admins=[BOT])
    spam = await sim_ok(wire, "/sim/message", {"text": "buy now", "chat_id": cid, "user_id": BOB, "username": "bob"})
    async with polling(wire, wire.token, banning), polling(wire, MOD_TOKEN, banning):
        body = {"chat_id": cid, "reply_to_message_id": spam["message_id"]}
        await sim_ok(wire, "/sim/message", {"text": "/ban@mod_bot", **body})
        await wire.stand.wait_calls("sendMessage", 1, 5)
        await sim_ok(wire, "/sim/message", {"text": "/ban@tgfake_bot", **body})
        await wire.stand.wait_calls("sendMessage", 2, 5)
    assert bot_lines(wire, cid, MOD) == ["Can't: Bad Request: not enough rights to restrict/unrestrict chat member"]
    assert bot_lines(wire, cid) == ["Banned Bob."]
    assert (await wire.ok("getChatMember", chat_id=cid, user_id=BOB))["status"] == "kicked"


async def test_an_aiogram_bot_blocked_and_unblocked(wire: Wire) -> None:
    statuses: list[str] = []
    refusals: list[str] = []

    def setup(dp: Dispatcher) -> None:
        @dp.my_chat_member()
        async def changed(event: ChatMemberUpdated, bot: Bot) -> None:
            statuses.append(event.new_chat_member.status)
            try:
                await bot.send_message(event.chat.id, "Still there?")
            except TelegramForbiddenError as exc:
                refusals.append(exc.message)

    await wire.say("hi")
    async with polling(wire, wire.token, setup):
        await sim_ok(wire, "/sim/block", {"user": "alice"})
        await wire.stand.wait_calls("sendMessage", 1, 5)
        await sim_ok(wire, "/sim/unblock", {"user": "alice"})
        await wire.stand.wait_calls("sendMessage", 2, 5)
    assert statuses == ["kicked", "member"]
    assert refusals == ["Forbidden: bot was blocked by the user"]
    assert bot_lines(wire, 4242) == ["Still there?"]


async def test_an_aiogram_bot_talks_in_a_forum_topic(wire: Wire) -> None:
    def setup(dp: Dispatcher) -> None:
        @dp.message(Command("support"))
        async def open_topic(message: Message, bot: Bot) -> None:
            topic = await bot.create_forum_topic(message.chat.id, "Support")
            await bot.send_message(message.chat.id, "Ask here.", message_thread_id=topic.message_thread_id)

        @dp.message(F.is_topic_message)
        async def answer(message: Message) -> None:
            await message.answer(f"In topic {message.message_thread_id}: noted.")  # answer keeps the thread

    cid = await make_chat(wire, is_forum=True, admins=[BOT])
    async with polling(wire, wire.token, setup):
        await sim_ok(wire, "/sim/message", {"text": "/support", "chat_id": cid})
        await wire.stand.wait_calls("sendMessage", 1, 5)
        thread = next(iter(wire.stand.world.chats[cid].topics))
        await sim_ok(wire, "/sim/message", {"text": "it broke", "chat_id": cid, "message_thread_id": thread})
        await wire.stand.wait_calls("sendMessage", 2, 5)
    chat = wire.stand.world.chats[cid]
    replies = [m for m in chat.messages.values() if m.sender is not None and m.sender.id == BOT and m.text]
    assert [(m.text, m.thread_id) for m in replies] == [("Ask here.", thread), (f"In topic {thread}: noted.", thread)]
