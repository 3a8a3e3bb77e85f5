"""Issue 25 item 8: the test environment's paths, and a channel post's edit or deletion reaching its automatic
forward in the discussion group."""

from __future__ import annotations

from typing import Any

from aiogram import Bot as AiogramBot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import BufferedInputFile
from telegram import Bot as PTBBot

from tests.conftest import Wire
from tests.world.helpers import forget_updates, make_chat, messages, pending

NOT_FOUND = {"ok": False, "error_code": 404, "description": "Not Found"}


def origin(wire: Wire) -> str:
    return str(wire.client.make_url("")).rstrip("/")


# --- the test environment --------------------------------------------------------------------------------------------
async def test_aiogram_configured_for_the_test_environment_sends_and_downloads(wire: Wire) -> None:
    """aiogram's ``TelegramAPIServer`` in the shape of its ``TEST`` server (``/bot{token}/test/{method}``,
    ``/file/bot{token}/test/{path}``) talks to the stand as to Telegram's test servers."""
    base = origin(wire)
    server = TelegramAPIServer(
        base=f"{base}/bot{{token}}/test/{{method}}", file=f"{base}/file/bot{{token}}/test/{{path}}"
    )
    bot = AiogramBot(wire.token, session=AiohttpSession(api=server))
    try:
        assert (await bot.get_me()).id == 123
        await wire.say("hi")
        sent = await bot.send_document(4242, document=BufferedInputFile(b"test bytes", filename="t.txt"))
        assert sent.document is not None
        got = await bot.get_file(sent.document.file_id)
        assert got.file_path is not None
        data = await bot.download_file(got.file_path)
        assert data is not None
        assert data.read() == b"test bytes"
    finally:
        await bot.session.close()
    assert [c["response"]["ok"] for c in await wire.outbox("sendDocument")] == [True]


async def test_ptb_configured_for_the_test_environment_sends(wire: Wire) -> None:
    """python-telegram-bot's documented test-environment ``base_url`` (``.../bot{token}/test``)."""
    base = origin(wire)
    async with PTBBot(
        wire.token, base_url=f"{base}/bot{{token}}/test", base_file_url=f"{base}/file/bot{{token}}/test"
    ) as bot:
        await wire.say("hi")
        sent = await bot.send_message(4242, "from the test servers")
        assert sent.text == "from the test servers"
    assert "from the test servers" in await wire.text(4242)


async def test_a_path_that_is_not_test_slash_is_not_found(wire: Wire) -> None:
    """HttpConnection skips ``/test`` after the token, then wants a ``/``: ``/testing`` is no method path."""
    for path in (f"/bot{wire.token}/testgetMe", f"/bot{wire.token}/test", f"/file/bot{wire.token}/test/nothing"):
        resp = await wire.client.get(path)
        assert (resp.status, await resp.json()) == (404, NOT_FOUND), path
    status, body = await wire.call("test/getMe")
    assert (status, body["result"]["id"]) == (200, 123)


# --- a channel post's edit and deletion in its discussion group ------------------------------------------------------
async def channel_and_group(wire: Wire) -> tuple[int, int]:
    """alice's channel News (the bot its administrator) and its discussion group (the bot an administrator)."""
    channel = await make_chat(wire, type="channel", title="News", username="tgfake_news", admins=["@tgfake_bot"])
    group = await make_chat(wire, title="News chat", members=["bob"], admins=["@tgfake_bot"], linked_chat_id=channel)
    forget_updates(wire)
    return channel, group


def in_chat(updates: list[dict[str, Any]], kind: str, chat_id: int) -> list[dict[str, Any]]:
    return [u[kind] for u in updates if kind in u and u[kind]["chat"]["id"] == chat_id]


async def test_a_channel_posts_edit_reaches_its_automatic_forward(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    post = await wire.ok("sendMessage", chat_id=channel, text="first words")
    [forward] = in_chat(await pending(wire), "message", group)
    forget_updates(wire)
    edited = await wire.ok(
        "editMessageText", chat_id=channel, message_id=post["message_id"], text="*better*", parse_mode="Markdown"
    )
    [copy] = in_chat(await pending(wire), "edited_message", group)
    assert copy["message_id"] == forward["message_id"]
    assert (copy["text"], copy["entities"], copy["edit_date"]) == ("better", edited["entities"], edited["edit_date"])
    assert copy["is_automatic_forward"] is True
    assert copy["forward_origin"] == forward["forward_origin"]
    [shown] = [m for m in await messages(wire, group) if m["message_id"] == forward["message_id"]]
    assert shown["text"] == "better"


async def test_a_keyboard_edit_leaves_the_forward_alone(wire: Wire) -> None:
    """The forward carries no keyboard, so a post's new keyboard changes nothing in the group."""
    channel, group = await channel_and_group(wire)
    post = await wire.ok("sendMessage", chat_id=channel, text="vote")
    forget_updates(wire)
    keyboard = '{"inline_keyboard":[[{"text":"Open","url":"https://example.com"}]]}'
    await wire.ok("editMessageReplyMarkup", chat_id=channel, message_id=post["message_id"], reply_markup=keyboard)
    assert in_chat(await pending(wire), "edited_message", group) == []


async def forwards(wire: Wire, group: int) -> dict[str, bool]:
    """The group's automatic forwards: text -> deleted."""
    return {m["text"]: m["deleted"] for m in await messages(wire, group) if "forwarded_from" in m}


async def test_deleting_a_channel_post_deletes_its_automatic_forward(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    kept = await wire.ok("sendMessage", chat_id=channel, text="kept")
    gone = await wire.ok("sendMessage", chat_id=channel, text="gone")
    await wire.ok("deleteMessage", chat_id=channel, message_id=gone["message_id"])
    assert await forwards(wire, group) == {"kept": False, "gone": True}
    await wire.ok("deleteMessages", chat_id=channel, message_ids=f"[{kept['message_id']}]")
    assert await forwards(wire, group) == {"kept": True, "gone": True}
