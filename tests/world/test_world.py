"""The Telegram world through the wire: many bots, groups and members, visibility, membership updates, blocking,
forum topics, migration and channels (the people's side is `/sim/...`, the bots' side the Bot API)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Wire, WireFactory

HELPER = "2002:helper"


async def updates(wire: Wire, token: str | None = None) -> list[dict[str, Any]]:
    """Everything pending for a bot, confirmed so the next read starts fresh."""
    got: list[dict[str, Any]] = (await wire.call("getUpdates", token=token, timeout=0))[1]["result"]
    if got:
        await wire.call("getUpdates", token=token, timeout=0, offset=got[-1]["update_id"] + 1)
    return got


def kinds(batch: list[dict[str, Any]]) -> list[str]:
    return [next(k for k in u if k != "update_id") for u in batch]


async def sim_ok(wire: Wire, path: str, body: Any = None) -> Any:
    status, answer = await wire.sim("POST", path, body if body is not None else {})
    assert status == 200, answer
    return answer


async def new_group(wire: Wire, **fields: Any) -> int:
    answer = await sim_ok(wire, "/sim/chats", {"type": "supergroup", "title": "Club", **fields})
    return int(answer["chat_id"])


async def helper_bot(wire: Wire, **flags: Any) -> None:
    await sim_ok(wire, "/sim/bots", {"token": HELPER, "username": "helper_bot", "first_name": "Helper", **flags})


# --- bots -----------------------------------------------------------------------------------------------------
async def test_a_bot_id_is_its_tokens_number_and_the_first_token_claims_the_default_bot(wire: Wire) -> None:
    await wire.say("early")  # before any bot called: queued for the default bot
    me = (await wire.call("getMe", token="555:first"))[1]["result"]
    assert (me["id"], me["username"]) == (555, "tgfake_bot")
    [update] = await updates(wire, "555:first")
    assert update["message"]["text"] == "early"
    assert (await wire.call("getMe", token="777:second"))[1]["result"]["id"] == 777
    await wire.refused("getMe", 401, "Unauthorized", token="777:forged")


async def test_updates_queued_before_the_first_token_name_the_bot_by_its_token_id(wire: Wire) -> None:
    """A group made with the bot before it ever called: once its token claims the default bot, the queued
    my_chat_member and new_chat_members name it by the id its getMe answers, never a placeholder."""
    await new_group(wire, members=["@tgfake_bot"])
    me = (await wire.call("getMe", token="555:first"))[1]["result"]
    joined, arrival = await updates(wire, "555:first")
    bot = {"id": me["id"], "is_bot": True, "first_name": "tgfake", "username": "tgfake_bot"}
    assert joined["my_chat_member"]["new_chat_member"]["user"] == bot
    assert arrival["message"]["new_chat_members"] == [bot]
    assert me["id"] == 555
    status, view = await wire.sim("GET", f"/sim/page/chat/{joined['my_chat_member']['chat']['id']}")
    assert status == 200, view
    assert view["messages"][-1]["new_chat_members"] == [bot]  # the stored service message too


async def test_sim_bots_makes_a_bot_with_botfather_flags(wire: Wire) -> None:
    answer = await sim_ok(
        wire, "/sim/bots", {"username": "quiz_bot", "first_name": "Quiz", "supports_inline_queries": True}
    )
    token = answer["token"]
    me = (await wire.call("getMe", token=token))[1]["result"]
    assert me == answer["bot"]
    assert (me["username"], me["supports_inline_queries"], me["can_read_all_group_messages"]) == (
        "quiz_bot",
        True,
        False,
    )
    assert await wire.sim("POST", "/sim/bots", {"username": "QUIZ_bot"}) == (
        409,
        {"error": "username @QUIZ_bot is taken"},
    )
    assert await wire.sim("POST", "/sim/bots", {"username": "quiz"}) == (
        400,
        {"error": "username 'quiz' must end in 'bot', as BotFather requires"},
    )
    listed = (await wire.sim("GET", "/sim/bots"))[1]["bots"]
    # quiz_bot called the Bot API last: it is "the bot" now (docs/world.md#bots)
    assert [(b["username"], b["default"]) for b in listed] == [("tgfake_bot", False), ("quiz_bot", True)]


async def test_fixed_tokens_are_the_only_bots(make_wire: WireFactory) -> None:
    async with make_wire(token="1:a", tokens=("2:b",)) as wire:
        assert (await wire.call("getMe", token="1:a"))[1]["result"]["id"] == 1
        assert (await wire.call("getMe", token="2:b"))[1]["result"]["id"] == 2
        await wire.refused("getMe", 401, "Unauthorized", token="3:c")


async def test_each_bot_has_its_own_private_chat_with_a_person(wire: Wire) -> None:
    await helper_bot(wire)
    await wire.say("to the default bot")
    await wire.say("to the helper", bot="helper_bot")
    assert [u["message"]["text"] for u in await updates(wire)] == ["to the default bot"]
    assert [u["message"]["text"] for u in await updates(wire, HELPER)] == ["to the helper"]
    await wire.call("sendMessage", token=HELPER, chat_id=4242, text="hi from helper")
    resp = await wire.client.get("/sim/chat/4242", params={"format": "text", "bot": "tgfake_bot"})
    assert await resp.text() == "[1] alice: to the default bot\n"
    await wire.ok("getMe")  # the first bot calls last: it is "the bot" again, the helper is named
    resp = await wire.client.get("/sim/chat/4242", params={"format": "text", "bot": "helper_bot"})
    assert await resp.text() == "[1] alice: to the helper\n[2] helper_bot: hi from helper\n"


# --- privacy mode and visibility ------------------------------------------------------------------------------
async def test_a_bot_in_privacy_mode_gets_commands_mentions_replies_and_service_messages(wire: Wire) -> None:
    await wire.ok("getMe")
    cid = await new_group(wire, members=["bob", "tgfake_bot"])
    batch = await updates(wire)
    assert kinds(batch) == ["my_chat_member", "message"]
    assert batch[0]["my_chat_member"]["new_chat_member"]["status"] == "member"
    assert batch[1]["message"]["new_chat_members"][0]["username"] == "tgfake_bot"
    for text in ("just chatting", "/start@other_bot", "mail me at x@tgfake_bot.com"):
        await wire.say(text, chat_id=cid)
    assert await updates(wire) == []
    sent = await wire.ok("sendMessage", chat_id=cid, text="I only hear commands")
    await wire.say("/help", chat_id=cid, username="bob")
    await wire.say("/help@tgfake_bot", chat_id=cid)
    await wire.say("hey @TGFAKE_BOT look", chat_id=cid)
    await wire.say("a reply", chat_id=cid, reply_to_message_id=sent["message_id"])
    got = [u["message"]["text"] for u in await updates(wire)]
    assert got == ["/help", "/help@tgfake_bot", "hey @TGFAKE_BOT look", "a reply"]


async def test_privacy_off_and_admin_bots_get_everything(wire: Wire) -> None:
    await wire.ok("getMe")
    await helper_bot(wire, can_read_all_group_messages=True)
    cid = await new_group(wire, members=["helper_bot"], admins=["tgfake_bot"])
    await updates(wire)
    await updates(wire, HELPER)
    await wire.say("plain talk", chat_id=cid)
    assert [u["message"]["text"] for u in await updates(wire)] == ["plain talk"]
    assert [u["message"]["text"] for u in await updates(wire, HELPER)] == ["plain talk"]


async def test_bots_never_see_each_others_messages(wire: Wire) -> None:
    await wire.ok("getMe")
    await helper_bot(wire, can_read_all_group_messages=True)
    cid = await new_group(wire, admins=["tgfake_bot", "helper_bot"])
    await updates(wire)
    await updates(wire, HELPER)
    await wire.ok("sendMessage", chat_id=cid, text="/start@helper_bot from a bot")
    assert await updates(wire, HELPER) == []
    await wire.say("/start@helper_bot", chat_id=cid)
    assert [u["message"]["text"] for u in await updates(wire, HELPER)] == ["/start@helper_bot"]
    assert [u["message"]["text"] for u in await updates(wire)] == ["/start@helper_bot"]  # admins see all


# --- membership updates ---------------------------------------------------------------------------------------
async def test_joins_and_departures_post_service_messages_and_chat_member_only_on_request(wire: Wire) -> None:
    await wire.ok("getUpdates", timeout=0, allowed_updates='["message","chat_member","my_chat_member"]')
    cid = await new_group(wire, admins=["tgfake_bot"])
    await updates(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/join", {"user": "bob"})
    batch = await updates(wire)
    assert kinds(batch) == ["chat_member", "message"]
    change = batch[0]["chat_member"]
    assert (change["old_chat_member"]["status"], change["new_chat_member"]["status"]) == ("left", "member")
    assert change["from"]["username"] == "bob"
    assert batch[1]["message"]["new_chat_members"] == [
        {"id": 4343, "is_bot": False, "first_name": "Bob", "username": "bob"}
    ]
    await sim_ok(wire, f"/sim/chats/{cid}/leave", {"user": "bob"})
    batch = await updates(wire)
    assert kinds(batch) == ["chat_member", "message"]
    assert batch[1]["message"]["left_chat_member"]["username"] == "bob"
    transcript = await wire.client.get(f"/sim/chat/{cid}", params={"format": "text"})
    assert await transcript.text() == (
        "[1] * alice created the supergroup\n[2] * alice added tgfake_bot\n[3] * bob joined\n[4] * bob left\n"
    )


async def test_without_asking_a_bot_gets_no_chat_member_updates(wire: Wire) -> None:
    cid = await new_group(wire, admins=["tgfake_bot"])
    await updates(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/join", {"user": "bob"})
    assert kinds(await updates(wire)) == ["message"]


async def test_a_promoted_bot_sees_its_new_rights(wire: Wire) -> None:
    cid = await new_group(wire, members=["tgfake_bot"])
    await updates(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/promote", {"user": "tgfake_bot", "rights": {"can_delete_messages": True}})
    [update] = await updates(wire)
    new = update["my_chat_member"]["new_chat_member"]
    assert (new["status"], new["can_delete_messages"], new["can_restrict_members"]) == ("administrator", True, False)
    assert new["can_be_edited"] is False  # promoted by a person, not by this bot


async def test_a_removed_bot_gets_telegrams_403(wire: Wire) -> None:
    cid = await new_group(wire, members=["tgfake_bot"])
    await sim_ok(wire, f"/sim/chats/{cid}/remove", {"user": "tgfake_bot"})
    assert (await updates(wire))[-1]["my_chat_member"]["new_chat_member"]["status"] == "kicked"
    await wire.refused("sendMessage", 403, "Forbidden: bot was kicked from the supergroup chat", chat_id=cid, text="x")
    other = await new_group(wire, type="group")
    await wire.refused("sendMessage", 403, "Forbidden: bot is not a member of the group chat", chat_id=other, text="x")


async def test_only_people_with_the_right_may_act(wire: Wire) -> None:
    cid = await new_group(wire, members=["bob", "carol"])
    status, answer = await wire.sim("POST", f"/sim/chats/{cid}/remove", {"user": "carol", "by": "bob"})
    assert (status, answer) == (403, {"error": f"bob may not do that in chat {cid} (needs can_restrict_members)"})
    assert await wire.sim("POST", "/sim/chats/-1/add", {"user": "bob"}) == (
        404,
        {"error": "chat -1 not found (create it with POST /sim/chats)"},
    )


# --- blocking -------------------------------------------------------------------------------------------------
async def test_a_blocked_bot_gets_403_until_unblocked(wire: Wire) -> None:
    await wire.say("/start")
    await updates(wire)
    await sim_ok(wire, "/sim/block", {"user": "alice"})
    [update] = await updates(wire)
    change = update["my_chat_member"]
    assert (change["old_chat_member"]["status"], change["new_chat_member"]["status"]) == ("member", "kicked")
    await wire.refused("sendMessage", 403, "Forbidden: bot was blocked by the user", chat_id=4242, text="x")
    status, answer = await wire.sim("POST", "/sim/message", {"text": "hi"})
    assert status == 403
    assert answer == {"error": "alice blocked @tgfake_bot: unblock it first (POST /sim/unblock)"}
    await sim_ok(wire, "/sim/unblock", {"user": "alice"})
    assert (await updates(wire))[0]["my_chat_member"]["new_chat_member"]["status"] == "member"
    await wire.ok("sendMessage", chat_id=4242, text="welcome back")


# --- forums, migration, channels -----------------------------------------------------------------------------
async def test_a_forum_topic_conversation(wire: Wire) -> None:
    cid = await new_group(wire, is_forum=True, admins=["tgfake_bot"])
    topic = await sim_ok(wire, f"/sim/chats/{cid}/topics", {"name": "Support"})
    thread = topic["message_thread_id"]
    await updates(wire)
    await wire.say("help me", chat_id=cid, message_thread_id=thread)
    [update] = await updates(wire)
    msg = update["message"]
    assert (msg["message_thread_id"], msg["is_topic_message"]) == (thread, True)
    sent = await wire.ok("sendMessage", chat_id=cid, message_thread_id=thread, text="on it")
    assert (sent["message_thread_id"], sent["is_topic_message"]) == (thread, True)


async def test_a_group_that_became_a_supergroup_answers_with_migrate_to_chat_id(wire: Wire) -> None:
    cid = await new_group(wire, type="group", members=["tgfake_bot"])
    await updates(wire)
    moved = await sim_ok(wire, f"/sim/chats/{cid}/migrate")
    new_id = moved["chat_id"]
    assert new_id < -1_000_000_000_000
    batch = await updates(wire)
    assert [u["message"].get("migrate_to_chat_id") or u["message"].get("migrate_from_chat_id") for u in batch] == [
        new_id,
        cid,
    ]
    body = await wire.refused(
        "sendMessage", 400, "Bad Request: group chat was upgraded to a supergroup chat", chat_id=cid, text="x"
    )
    assert body["parameters"] == {"migrate_to_chat_id": new_id}
    await wire.ok("sendMessage", chat_id=new_id, text="here now")


async def test_an_admin_bot_gets_channel_posts(wire: Wire) -> None:
    cid = await new_group(wire, type="channel", admins=["tgfake_bot"])
    await updates(wire)
    await wire.say("news", chat_id=cid)
    [update] = await updates(wire)
    post = update["channel_post"]
    assert (post["text"], post["sender_chat"]["id"], "from" in post) == ("news", cid, False)


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"type": "forum", "title": "x"}, "type must be one of group, supergroup, channel, not 'forum'"),
        ({"type": "group", "title": "x", "is_forum": True}, "only a supergroup can be a forum"),
        ({"type": "group", "title": " "}, "title is empty"),
        ({"type": "group", "title": "x", "id": 5}, "chat id 5 must be negative"),
    ],
)
async def test_chat_creation_refusals(wire: Wire, body: dict[str, Any], error: str) -> None:
    assert await wire.sim("POST", "/sim/chats", body) == (400, {"error": error})


async def test_a_persons_last_name_is_in_their_messages_and_their_membership(wire: Wire) -> None:
    """python-telegram-bot's suite expects its test user "PTB Test user" as the channel's creator."""
    person = {"user_id": 675666224, "first_name": "PTB", "last_name": "Test user"}
    await sim_ok(wire, "/sim/message", {**person, "text": "/start"})
    [update] = await updates(wire)
    sender = update["message"]["from"]
    assert sender == {"id": 675666224, "is_bot": False, "first_name": "PTB", "last_name": "Test user"}
    cid = await new_group(wire, type="channel", creator=675666224, admins=["@tgfake_bot"])
    member = await wire.ok("getChatMember", chat_id=cid, user_id=675666224)
    assert (member["status"], member["user"]["last_name"]) == ("creator", "Test user")
    await sim_ok(wire, "/sim/message", {"user_id": 675666224, "last_name": "Renamed", "text": "again"})
    assert (await wire.ok("getChatMember", chat_id=cid, user_id=675666224))["user"]["last_name"] == "Renamed"
    await sim_ok(wire, "/sim/message", {"user_id": 675666224, "text": "no name given"})
    assert (await wire.ok("getChatMember", chat_id=cid, user_id=675666224))["user"]["last_name"] == "Renamed"


async def test_the_chat_views_members_carry_first_name_and_username_apart(wire: Wire) -> None:
    cid = await new_group(wire, members=["carol", "@tgfake_bot"])
    await wire.say("hi", chat_id=cid, user_id=5555, first_name="Dana", last_name="Scully")
    status, view = await wire.sim("GET", f"/sim/chat/{cid}")
    assert status == 200, view
    members = {m["first_name"]: m for m in view["members"]}
    assert members["Carol"] == {
        "user_id": 4444,
        "first_name": "Carol",
        "username": "carol",
        "is_bot": False,
        "status": "member",
    }
    assert members["Dana"] == {
        "user_id": 5555,
        "first_name": "Dana",
        "last_name": "Scully",
        "is_bot": False,
        "status": "member",
    }
    assert members["tgfake"]["username"] == "tgfake_bot"
    assert all("name" not in m for m in view["members"])
    made = await sim_ok(wire, "/sim/chats", {"type": "group", "title": "Book club", "members": ["carol"]})
    assert [(m["first_name"], m.get("username"), m["status"]) for m in made["chat"]["members"]] == [
        ("Alice", "alice", "creator"),
        ("Carol", "carol", "member"),
    ]
