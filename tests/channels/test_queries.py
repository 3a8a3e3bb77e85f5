"""Join request queries (a chat assigns the bot its join requests through the sim; the bot answers each request's
query) and guest queries (a person summons the bot into a group it is not in: guest_message, answerGuestQuery)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aiogram import types

from tests.channels.support import aiogram_bot
from tests.conftest import Wire
from tests.world.helpers import ALICE, BOB, CAROL, make_chat, messages

ARTICLE = {"type": "article", "id": "1", "title": "x", "input_message_content": {"message_text": "again"}}
TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


async def club(wire: Wire) -> int:
    return await make_chat(wire, title="Club", admins=["@tgfake_bot"], join_by_request=True)


async def test_a_chat_hands_its_join_requests_to_the_bot_which_approves_them(wire: Wire) -> None:
    """Actions: POST /sim/chats/{id}/join-request-bot, then POST /sim/chats/{id}/join-request (bob, carol)."""
    chat = await club(wire)
    async with aiogram_bot(wire) as bot:

        @bot.router.chat_join_request()
        async def request(event: types.ChatJoinRequest) -> None:
            bot.saw("chat_join_request", event)
            assert event.query_id is not None
            verdict = "approve" if event.from_user.id == BOB else "decline"
            assert await bot.bot.answer_chat_join_request_query(event.query_id, verdict) is True

        await bot.drain()
        status, body = await wire.sim("POST", f"/sim/chats/{chat}/join-request-bot", {})
        assert (status, body["bot"]) == (200, "tgfake_bot"), body
        for who in ("bob", "carol"):
            assert (await wire.sim("POST", f"/sim/chats/{chat}/join-request", {"user": who}))[0] == 200
        await bot.drain()
        assert [e.from_user.id for e in bot.seen["chat_join_request"]] == [BOB, CAROL]
    member = await wire.ok("getChatMember", chat_id=chat, user_id=BOB)
    assert member["status"] == "member"
    assert (await wire.ok("getChatMember", chat_id=chat, user_id=CAROL))["status"] == "left"
    assert wire.stand.world.chats[chat].join_requests == {}


async def queried(wire: Wire, chat: int, who: str = "bob") -> str:
    await wire.sim("POST", f"/sim/chats/{chat}/join-request", {"user": who})
    updates = await wire.ok("getUpdates")
    await wire.ok("getUpdates", offset=updates[-1]["update_id"] + 1)  # confirmed: the next read starts after it
    request = [u["chat_join_request"] for u in updates if "chat_join_request" in u][-1]
    assert request["from"]["username"] == who
    return str(request["query_id"])


async def test_join_request_queries_are_answered_once_within_ten_seconds(wire: Wire, clock: Any) -> None:
    chat = await club(wire)
    await wire.ok("getUpdates")
    await wire.sim("POST", f"/sim/chats/{chat}/join-request", {"user": "carol"})
    unassigned = [u["chat_join_request"] for u in await wire.ok("getUpdates") if "chat_join_request" in u]
    assert "query_id" not in unassigned[-1]  # no chat has assigned the bot yet
    await wire.sim("POST", f"/sim/chats/{chat}/join-request-bot", {})
    query = await queried(wire, chat)
    answer = {"chat_join_request_query_id": query}
    await wire.refused(
        "answerChatJoinRequestQuery", 400, "Bad Request: invalid result specified", result="ok", **answer
    )
    assert await wire.ok("sendChatJoinRequestWebApp", web_app_url="https://example.com/check", **answer) is True
    status, body = await wire.sim("POST", f"/sim/chats/{chat}/join-request-bot", {})
    assert [q["web_app_url"] for q in body["queries"] if q["query_id"] == query] == ["https://example.com/check"]
    assert await wire.ok("answerChatJoinRequestQuery", result="queue", **answer) is True
    assert BOB in wire.stand.world.chats[chat].join_requests  # left to the administrators
    await wire.refused("answerChatJoinRequestQuery", 400, TOO_OLD, result="approve", **answer)
    await wire.ok("approveChatJoinRequest", chat_id=chat, user_id=BOB)
    late = await queried(wire, chat, "dave")
    clock.advance(11)
    await wire.refused("answerChatJoinRequestQuery", 400, TOO_OLD, chat_join_request_query_id=late, result="approve")
    await wire.refused("sendChatJoinRequestWebApp", 400, TOO_OLD, chat_join_request_query_id="99", web_app_url="x")
    off = await wire.sim("POST", f"/sim/chats/{chat}/join-request-bot", {"enabled": False})
    assert off[1]["bot"] is None
    group = await make_chat(wire, title="No rights", admins=[])
    status, body = await wire.sim("POST", f"/sim/chats/{group}/join-request-bot", {})
    assert (status, body) == (409, {"error": f"@tgfake_bot is no administrator of chat {group} that may invite users"})


async def test_alice_summons_the_bot_into_a_group_it_is_not_in(wire: Wire) -> None:
    """Action: POST /sim/guest-message (alice mentions the bot in a group without it): guest_message."""
    group = await make_chat(wire, title="Friends", members=["bob"])
    async with aiogram_bot(wire) as bot:
        answered: list[str] = []

        @bot.router.guest_message()
        async def guest(message: types.Message) -> None:
            bot.saw("guest_message", message)
            assert message.guest_query_id is not None
            result = types.InlineQueryResultArticle(
                id="1", title="Hi", input_message_content=types.InputTextMessageContent(message_text="Hello, friends")
            )
            sent = await bot.bot.answer_guest_query(message.guest_query_id, result)
            answered.append(sent.inline_message_id)

        await bot.drain()
        status, body = await wire.sim("POST", "/sim/guest-message", {"chat_id": group, "text": "say hello"})
        assert status == 200, body
        assert await bot.drain() == 1
        [summons] = bot.seen["guest_message"]
        assert (summons.chat.id, summons.from_user.id, summons.text) == (group, ALICE, "@tgfake_bot say hello")
        assert summons.entities is not None
        assert (summons.entities[0].type, summons.entities[0].length) == ("mention", 11)
        assert summons.guest_query_id == body["guest_query_id"]
        assert len(answered) == 1
        assert await bot.bot.edit_message_text("Hello again", inline_message_id=answered[0]) is True
    reply = [m for m in await messages(wire, group) if m["from"] == "bot"]
    assert [(m["text"], m["reply_to_message_id"]) for m in reply] == [("Hello again", body["message_id"])]
    assert reply[0]["content"]["guest_bot_caller_user"]["id"] == ALICE
    await wire.refused(
        "answerGuestQuery",
        400,
        TOO_OLD,
        guest_query_id=body["guest_query_id"],
        result=json.dumps(ARTICLE),
    )


async def test_a_bot_in_the_chat_is_no_guest(wire: Wire) -> None:
    group = await make_chat(wire, title="With bot", members=["@tgfake_bot"])
    status, body = await wire.sim("POST", "/sim/guest-message", {"chat_id": group, "text": "hi"})
    assert (status, body) == (
        409,
        {"error": f"@tgfake_bot is in chat {group}: it gets the message itself, not as a guest"},
    )
    status, body = await wire.sim("POST", "/sim/guest-message", {"chat_id": group, "user": "zed", "text": "hi"})
    assert status == 409  # the bot's presence is checked first


@pytest.mark.parametrize(
    ("result", "description"),
    [
        (None, "Bad Request: result isn't specified"),
        ("{oops", "Bad Request: can't parse JSON encoded web view query results Opening '\"' expected"),
        ("[]", "Bad Request: inline query result must be an object"),
        ("{}", 'Bad Request: can\'t find field "type"'),
        ('{"type": "article"}', 'Bad Request: can\'t find field "id"'),
        ('{"type": "article", "id": []}', 'Bad Request: field "id" must be of type String'),
        (json.dumps(ARTICLE), TOO_OLD),
    ],
)
async def test_a_guest_querys_result_is_read_before_the_query(wire: Wire, result: str | None, description: str) -> None:
    """Client.cpp's ``get_inline_query_result`` (answerWebAppQuery's words), then the query: ``5`` is no open one."""
    params: dict[str, Any] = {"guest_query_id": "5"}
    if result is not None:
        params["result"] = result
    await wire.refused("answerGuestQuery", 400, description, **params)
