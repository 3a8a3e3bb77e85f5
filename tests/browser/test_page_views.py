"""The chat page's read-only views: the chat list and a chat as Bot API Message objects (aiogram parses them)."""

from __future__ import annotations

import json
from typing import Any

from aiogram.types import Message

from tests.conftest import Wire

GROUP = -1001234


async def group_with_bot(wire: Wire) -> None:
    await wire.ok("getMe")
    status, body = await wire.sim(
        "POST",
        "/sim/chats",
        {"type": "supergroup", "id": GROUP, "title": "Tea club", "is_forum": True, "admins": ["@tgfake_bot"]},
    )
    assert status == 200, body


async def view(wire: Wire, path: str) -> dict[str, Any]:
    status, body = await wire.sim("GET", path)
    assert status == 200, body
    return dict(body)


async def test_the_chat_list_names_the_bots_chats_people_and_forum_topics(wire: Wire) -> None:
    await group_with_bot(wire)
    status, topic = await wire.sim("POST", f"/sim/chats/{GROUP}/topics", {"name": "Recipes"})
    assert status == 200, topic
    assert (await wire.sim("POST", "/sim/clock", {"advance": 5}))[0] == 200
    await wire.say("hello there", user_id=77, username="bob")
    listed = await view(wire, "/sim/page/chats")
    assert listed["bot"]["username"] == "tgfake_bot"
    assert {p["username"] for p in listed["people"]} >= {"bob"}
    by_id = {c["chat"]["id"]: c for c in listed["chats"]}
    assert by_id[77]["title"] == "Bob"
    assert by_id[77]["last"]["text"] == "hello there"
    shared = {"user_id": 77, "poll": {"question": "Tea?", "options": ["Yes", "No"]}}
    assert (await wire.sim("POST", "/sim/share", shared))[0] == 200
    listed = await view(wire, "/sim/page/chats")
    assert listed["chats"][0]["last"]["text"] == "[poll 'Tea?'] [Yes: 0] [No: 0]"  # content reads as the transcript
    assert listed["chats"][0]["chat"]["id"] == 77  # the chat with the newest message first
    forum = by_id[GROUP]
    assert forum["title"] == "Tea club"
    assert forum["last"]["text"] == "alice created the topic 'Recipes'"  # a service message says what happened
    assert [t["name"] for t in forum["topics"]] == ["General", "Recipes"]
    assert forum["topics"][1]["message_thread_id"] == topic["message_thread_id"]


async def test_a_chat_is_bot_api_messages_with_reactions_and_the_persons_keyboard(wire: Wire) -> None:
    await group_with_bot(wire)
    said = await wire.say("/start", chat_id=GROUP)
    keyboard = {"keyboard": [[{"text": "Menu"}]], "resize_keyboard": True}
    sent = await wire.ok(
        "sendMessage",
        chat_id=GROUP,
        text="<b>Hi</b> there",
        parse_mode="HTML",
        reply_markup=json.dumps(keyboard),
        reply_to_message_id=said["message_id"],
    )
    status, body = await wire.sim(
        "POST", "/sim/react", {"chat_id": GROUP, "message_id": sent["message_id"], "emoji": ["👍"]}
    )
    assert status == 200, body
    status, body = await wire.sim("POST", "/sim/delete", {"chat_id": GROUP, "message_id": said["message_id"]})
    assert status == 200, body
    got = await view(wire, f"/sim/page/chat/{GROUP}?user=4242")
    assert got["title"] == "Tea club"
    ids = [m["message_id"] for m in got["messages"]]
    assert said["message_id"] not in ids  # deleted ones are gone
    assert ids[-1] == sent["message_id"]
    assert "supergroup_chat_created" in got["messages"][0]  # service messages as their Bot API fields
    shown = got["messages"][-1]
    parsed = Message.model_validate(shown)  # a Bot API Message, as a bot library reads it
    assert parsed.entities is not None
    assert parsed.entities[0].type == "bold"
    assert shown["reply_to_message"]["text"] == "/start"
    assert shown["reactions"] == [{"type": {"type": "emoji", "emoji": "👍"}, "total_count": 1}]
    assert shown["reply_keyboard"]["keyboard"] == [[{"text": "Menu"}]]
    assert got["keyboard"]["keyboard"] == [[{"text": "Menu"}]]
    assert got["keyboard"]["message_id"] == sent["message_id"]
    assert got["topics"][0]["name"] == "General"


async def test_an_unknown_chat_is_an_empty_view_and_a_bad_id_is_refused(wire: Wire) -> None:
    got = await view(wire, "/sim/page/chat/999")
    assert got["messages"] == []
    assert got["keyboard"] is None
    assert got["chat"]["type"] == "private"
    assert await wire.sim("GET", "/sim/page/chat/x") == (400, {"error": "chat id must be an integer"})
    assert await wire.sim("GET", "/sim/page/chat/-5?user=y") == (400, {"error": "user must be an integer"})
    assert await wire.sim("GET", "/sim/page/chats?bot=nobot") == (404, {"error": "bot nobot not found"})
    assert await wire.sim("GET", "/sim/page/chat/1?bot=nobot") == (404, {"error": "bot nobot not found"})
