"""Ephemeral messages (Bot API 10.3): an aiogram bot answers bob in a group with a message only bob sees, edits and
deletes it; nobody else (no other bot, no other person's view of the chat) has it."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
from aiogram import types

from tests.channels.support import aiogram_bot
from tests.conftest import Wire
from tests.world.helpers import BOB, MOD, MOD_TOKEN, add_bot, forget_updates, make_chat, pending

INVALID = "Bad Request: MESSAGE_ID_INVALID"


async def ephemeral_view(wire: Wire, chat: int) -> list[dict[str, Any]]:
    status, view = await wire.sim("GET", f"/sim/chat/{chat}")
    assert status == 200, view
    return list(view.get("ephemeral", []))


async def test_bob_alone_sees_the_bots_ephemeral_answer_which_it_edits_and_deletes(wire: Wire) -> None:
    await add_bot(wire, can_read_all_group_messages=True)
    group = await make_chat(wire, title="Club", members=["bob", "@tgfake_bot", "@mod_bot"])
    forget_updates(wire, MOD)
    async with aiogram_bot(wire) as bot:
        sent = await bot.bot.send_message(
            group,
            "only *you* see this",
            parse_mode="Markdown",
            ephemeral_message_parameters=types.EphemeralMessageParameters(receiver_user_id=BOB),
            reply_markup=types.InlineKeyboardMarkup(
                inline_keyboard=[[types.InlineKeyboardButton(text="Ok", callback_data="ok")]]
            ),
        )
        assert (sent.message_id, sent.ephemeral_message_id) == (0, 1)
        assert sent.receiver_user is not None
        assert sent.receiver_user.id == BOB
        assert (sent.text, sent.entities is not None) == ("only you see this", True)
        assert await pending(wire, MOD) == []  # no other bot hears of it
        [shown] = await ephemeral_view(wire, group)
        assert (shown["receiver_user_id"], shown["ephemeral_message_id"], shown["text"]) == (BOB, 1, sent.text)
        assert all(m["text"] != sent.text for m in (await wire.sim("GET", f"/sim/chat/{group}"))[1]["messages"])
        assert "only you see this" not in await wire.text(group)

        ids: dict[str, Any] = {"chat_id": group, "receiver_user_id": BOB, "ephemeral_message_id": 1}
        assert await bot.bot.edit_ephemeral_message_text(group, BOB, 1, text="changed") is True
        assert await bot.bot.edit_ephemeral_message_reply_markup(group, BOB, 1) is True
        [shown] = await ephemeral_view(wire, group)
        assert (shown["text"], shown["edited"], "keyboard" in shown) == ("changed", True, False)
        second = await bot.bot.send_message(group, "again", receiver_user_id=BOB)  # the deprecated parameter
        assert second.ephemeral_message_id == 2
        assert await bot.bot.delete_ephemeral_message(group, BOB, 1) is True
        assert [e["ephemeral_message_id"] for e in await ephemeral_view(wire, group)] == [2]
    await wire.refused("deleteEphemeralMessage", 400, INVALID, **ids)
    await wire.refused(
        "editEphemeralMessageText",
        400,
        INVALID,
        text="x",
        **{**ids, "ephemeral_message_id": 2, "receiver_user_id": 4242},
    )
    status, body = await wire.call(
        "editEphemeralMessageText", token=MOD_TOKEN, text="x", **{**ids, "ephemeral_message_id": 2}
    )
    assert (status, body["description"]) == (400, INVALID)  # another bot's


async def test_an_ephemeral_documents_caption_and_media_are_edited(wire: Wire) -> None:
    group = await make_chat(wire, title="Club", members=["bob", "@tgfake_bot"])
    form = aiohttp.FormData()
    form.add_field("chat_id", str(group))
    form.add_field("caption", "look")
    form.add_field("ephemeral_message_parameters", json.dumps({"receiver_user_id": BOB}))
    form.add_field("document", b"first bytes", filename="a.txt")
    resp = await wire.client.post(f"/bot{wire.token}/sendDocument", data=form)
    body = await resp.json()
    assert resp.status == 200, body
    sent = body["result"]
    assert (sent["message_id"], sent["caption"], sent["ephemeral_message_id"]) == (0, "look", 1)
    ids = {"chat_id": group, "receiver_user_id": BOB, "ephemeral_message_id": 1}
    assert await wire.ok("editEphemeralMessageCaption", caption="better", **ids) is True
    assert (await ephemeral_view(wire, group))[0]["caption"] == "better"
    assert await wire.ok("editEphemeralMessageText", text="via text", **ids) is True  # MTProto's message: the caption
    assert (await ephemeral_view(wire, group))[0]["caption"] == "via text"
    media = json.dumps({"type": "document", "media": sent["document"]["file_id"], "caption": "new"})
    assert await wire.ok("editEphemeralMessageMedia", media=media, **ids) is True
    [shown] = await ephemeral_view(wire, group)
    assert (shown["kind"], shown["caption"]) == ("document", "new")


async def test_ephemeral_sends_are_read_before_the_message(wire: Wire) -> None:
    group = await make_chat(wire, title="Club", members=["bob", "@tgfake_bot"])
    for raw, words in (
        ("{", "can't parse ephemeral message parameters JSON object"),
        ("[]", "object expected as ephemeral message parameters"),
        ("{}", "invalid receiver_user_id specified"),
    ):
        await wire.refused(
            "sendMessage", 400, f"Bad Request: {words}", chat_id=group, text="x", ephemeral_message_parameters=raw
        )
    await wire.refused(
        "sendMessage", 400, "Bad Request: can't access the user", chat_id=group, text="x", receiver_user_id=987654
    )
    await wire.refused("sendMessage", 400, "Bad Request: message text is empty", chat_id=group, receiver_user_id=BOB)


async def test_bobs_ephemeral_command_gets_an_ephemeral_reply(wire: Wire) -> None:
    """Action: POST /sim/ephemeral-command (bob sends /secret, which the bot's menu marks is_ephemeral); aiogram's
    Message.reply answers with an ephemeral message to bob, replying by ephemeral_message_id."""
    group = await make_chat(wire, title="Club", members=["bob", "@tgfake_bot"])
    async with aiogram_bot(wire) as bot:
        commands = [types.BotCommand(command="secret", description="Only you", is_ephemeral=True)]
        assert await bot.bot.set_my_commands(commands) is True
        [kept] = await bot.bot.get_my_commands()
        assert kept.is_ephemeral is True

        @bot.router.message()
        async def secret(message: types.Message) -> None:
            if message.ephemeral_message_id is None:
                return  # the group's service messages
            bot.saw("message", message)
            bot.saw("reply", await message.reply("just for you"))

        await bot.drain()
        body = {"chat_id": group, "user": "bob", "text": "/secret"}
        status, got = await wire.sim("POST", "/sim/ephemeral-command", body)
        assert (status, got["ephemeral_message_id"]) == (200, 1), got
        assert await bot.drain() == 1
        [incoming] = bot.seen["message"]
        assert (incoming.message_id, incoming.ephemeral_message_id, incoming.text) == (0, 1, "/secret")
        assert incoming.receiver_user is not None
        assert incoming.receiver_user.id == 123
        [reply] = bot.seen["reply"]
        assert reply.receiver_user is not None
        assert (reply.receiver_user.id, reply.ephemeral_message_id, reply.text) == (BOB, 2, "just for you")
    shown = {(e["receiver_user_id"], e["text"]) for e in await ephemeral_view(wire, group)}
    assert shown == {(123, "/secret"), (BOB, "just for you")}
    assert "secret" not in await wire.text(group)
    await wire.refused("deleteEphemeralMessage", 400, INVALID, chat_id=group, receiver_user_id=123,
                       ephemeral_message_id=1)  # bob's, not the bot's  # fmt: skip
    status, body = await wire.sim("POST", "/sim/ephemeral-command", {**body, "text": "/other"})
    assert (status, body) == (
        409,
        {"error": "/other is no ephemeral command of @tgfake_bot here (setMyCommands: is_ephemeral)"},
    )
