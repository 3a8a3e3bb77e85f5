"""``@username`` chat ids: Client.cpp's ``check_chat`` asks ``searchPublicChat`` for them, and takes a public
supergroup or channel (or a bot); anything else is ``chat not found``. Then the usual access rules apply."""

from __future__ import annotations

import pytest
from telegram import Bot
from telegram.error import BadRequest, Forbidden
from telegram.request import HTTPXRequest

from tests.conftest import Wire
from tests.world.helpers import ALICE, MOD_TOKEN, add_bot, make_chat, sim_ok


async def news(wire: Wire) -> int:
    """A public channel whose administrator is the default bot."""
    return await make_chat(wire, type="channel", title="News", username="tgfake_news", admins=["@tgfake_bot"])


async def test_a_bot_posts_to_its_channel_by_username(wire: Wire) -> None:
    cid = await news(wire)
    posted = await wire.ok("sendMessage", chat_id="@tgfake_news", text="hello, subscribers")
    assert (posted["chat"]["id"], posted["chat"]["username"], posted["text"]) == (
        cid,
        "tgfake_news",
        "hello, subscribers",
    )
    again = await wire.ok("sendMessage", chat_id="@TGFAKE_News", text="letter case does not matter")
    assert again["chat"]["id"] == cid
    [first, _] = [c for c in wire.stand.world.calls if c.method == "sendMessage"]
    assert first.params["chat_id"] == "@tgfake_news"  # the outbox keeps what the bot sent


async def test_every_chat_parameter_reads_a_username(wire: Wire) -> None:
    cid = await news(wire)
    posted = await wire.ok("sendMessage", chat_id=cid, text="to be forwarded")
    group = await make_chat(wire, title="Readers", username="tgfake_readers", admins=["@tgfake_bot"])
    forwarded = await wire.ok(
        "forwardMessage", chat_id="@tgfake_readers", from_chat_id="@tgfake_news", message_id=posted["message_id"]
    )
    assert (forwarded["chat"]["id"], forwarded["forward_origin"]["chat"]["id"]) == (group, cid)
    edited = await wire.ok(
        "editMessageText", chat_id="@tgfake_news", message_id=posted["message_id"], text="edited by name"
    )
    assert edited["text"] == "edited by name"
    assert await wire.ok("pinChatMessage", chat_id="@tgfake_news", message_id=posted["message_id"]) is True
    assert (await wire.ok("getChat", chat_id="@tgfake_news"))["pinned_message"]["message_id"] == posted["message_id"]
    assert await wire.ok("deleteMessage", chat_id="@tgfake_news", message_id=posted["message_id"]) is True


async def test_a_public_chat_reads_from_outside_and_refuses_writes(wire: Wire) -> None:
    cid = await make_chat(wire, title="Open", username="open_club", members=["bob"])
    assert (await wire.ok("getChat", chat_id="@open_club"))["id"] == cid
    await wire.refused(
        "sendMessage", 403, "Forbidden: bot is not a member of the supergroup chat", chat_id="@open_club", text="x"
    )


@pytest.mark.parametrize("name", ["@nobody_here", "@alice", "@", "@ open_club"])
async def test_a_username_nobody_public_has_is_not_found(wire: Wire, name: str) -> None:
    """A person's username does not name their chat for a bot (only bots and public chats do)."""
    await make_chat(wire, title="Open", username="open_club", members=["bob"])
    await sim_ok(wire, "/sim/message", {"user_id": ALICE, "username": "alice", "text": "hi"})
    await wire.refused("sendMessage", 400, "Bad Request: chat not found", chat_id=name, text="x")
    await wire.refused("getChat", 400, "Bad Request: chat not found", chat_id=name)


async def test_a_group_renamed_or_made_private_no_longer_answers_to_its_old_name(wire: Wire) -> None:
    cid = await news(wire)
    wire.stand.world.chats[cid].username = ""
    await wire.refused("sendMessage", 400, "Bad Request: chat not found", chat_id="@tgfake_news", text="x")


async def test_python_telegram_bot_posts_by_channel_username(wire: Wire) -> None:
    """PTB's own online tests name their channel as ``@pythontelegrambottests``: the string goes through as sent."""
    await add_bot(wire)
    cid = await make_chat(wire, type="channel", title="PTB", username="ptb_tests", admins=["@mod_bot"])
    base = str(wire.client.make_url("/bot"))
    async with Bot(MOD_TOKEN, base_url=base, request=HTTPXRequest()) as bot:
        message = await bot.send_message("@ptb_tests", "from PTB")
        assert (message.chat.id, message.chat.username) == (cid, "ptb_tests")
        chat = await bot.get_chat("@ptb_tests")
        assert chat.id == cid
        with pytest.raises(BadRequest, match="Chat not found"):
            await bot.send_message("@no_such_channel", "x")


async def test_a_bot_outside_a_public_channel_reads_it_but_may_not_post(wire: Wire) -> None:
    await add_bot(wire)
    await news(wire)
    base = str(wire.client.make_url("/bot"))
    async with Bot(MOD_TOKEN, base_url=base, request=HTTPXRequest()) as bot:
        assert (await bot.get_chat("@tgfake_news")).title == "News"
        with pytest.raises(Forbidden, match="bot is not a member of the channel chat"):
            await bot.send_message("@tgfake_news", "x")
