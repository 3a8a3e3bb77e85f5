"""Messages on behalf of chats: a channel's discussion group with its automatic forwards and comment threads, a
person writing as their channel, and anonymous administrators (Client.cpp ``create_message``: td's stand-in
senders 777000, 136817688 and 1087968824)."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import Bot, Message

from tests.conftest import Wire
from tests.world.helpers import ALICE, BOB, forget_updates, make_chat, pending, sim_ok

TELEGRAM = {"id": 777000, "is_bot": False, "first_name": "Telegram"}
CHANNEL_BOT = {"id": 136817688, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot"}
GROUP_BOT = {"id": 1087968824, "is_bot": True, "first_name": "Group", "username": "GroupAnonymousBot"}


async def channel_and_group(wire: Wire) -> tuple[int, int]:
    """alice's channel News (the bot its administrator) and its discussion group (the bot an administrator)."""
    channel = await make_chat(wire, type="channel", title="News", username="tgfake_news", admins=["@tgfake_bot"])
    group = await make_chat(wire, title="News chat", members=["bob"], admins=["@tgfake_bot"], linked_chat_id=channel)
    forget_updates(wire)
    return channel, group


async def group_messages(wire: Wire, group: int) -> list[dict[str, Any]]:
    return [u["message"] for u in await pending(wire) if "message" in u and u["message"]["chat"]["id"] == group]


async def test_a_channel_and_its_discussion_group_name_each_other(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    assert (await wire.ok("getChat", chat_id=channel))["linked_chat_id"] == group
    assert (await wire.ok("getChat", chat_id=group))["linked_chat_id"] == channel
    alone = await make_chat(wire, title="Alone", admins=["@tgfake_bot"])
    assert "linked_chat_id" not in await wire.ok("getChat", chat_id=alone)


async def test_a_channel_post_is_forwarded_into_the_discussion_group_automatically(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    post = await wire.ok("sendMessage", chat_id=channel, text="big *news*", parse_mode="Markdown")
    [forward] = await group_messages(wire, group)
    assert forward["from"] == TELEGRAM
    assert forward["sender_chat"]["id"] == channel
    assert forward["is_automatic_forward"] is True
    assert forward["forward_origin"] == {
        "type": "channel",
        "chat": post["chat"],
        "message_id": post["message_id"],
        "date": post["date"],
    }
    assert (forward["forward_from_chat"]["id"], forward["forward_from_message_id"]) == (channel, post["message_id"])
    assert (forward["text"], forward["entities"]) == ("big news", post["entities"])
    keys = list(forward)
    assert keys.index("from") < keys.index("sender_chat") < keys.index("chat")
    assert keys.index("forward_origin") < keys.index("is_automatic_forward") < keys.index("forward_from_chat")
    message = Message.de_json(forward, Bot("1:x"))
    assert message is not None
    assert message.is_automatic_forward
    assert message.sender_chat is not None
    assert message.sender_chat.id == channel
    assert f"[{forward['message_id']}] tgfake_news: [forwarded from tgfake_news] big **news**" in await wire.text(group)


async def test_comments_reply_in_the_forwards_thread_and_the_bot_answers_there(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    await wire.ok("sendMessage", chat_id=channel, text="what do you think?")
    [forward] = await group_messages(wire, group)
    comment = await sim_ok(
        wire,
        "/sim/message",
        {"chat_id": group, "user_id": BOB, "text": "great", "reply_to_message_id": forward["message_id"]},
    )
    got = (await group_messages(wire, group))[-1]
    assert (got["message_id"], got["message_thread_id"]) == (comment["message_id"], forward["message_id"])
    assert got["reply_to_message"]["is_automatic_forward"] is True
    assert "is_topic_message" not in got
    answer = await wire.ok("sendMessage", chat_id=group, text="thanks", reply_to_message_id=got["message_id"])
    assert answer["message_thread_id"] == forward["message_id"]


async def test_a_post_with_a_keyboard_is_forwarded_without_it(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    keyboard = '{"inline_keyboard":[[{"text":"Open","url":"https://example.com"}]]}'
    await wire.ok("sendMessage", chat_id=channel, text="with a button", reply_markup=keyboard)
    [forward] = await group_messages(wire, group)
    assert "reply_markup" not in forward


async def test_a_person_writes_on_behalf_of_their_channel(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    sent = await sim_ok(wire, "/sim/message", {"chat_id": group, "sender_chat_id": channel, "text": "as News"})
    [got] = await group_messages(wire, group)
    assert (got["message_id"], got["from"], got["sender_chat"]["id"]) == (sent["message_id"], CHANNEL_BOT, channel)
    assert f"[{sent['message_id']}] tgfake_news: as News" in await wire.text(group)
    view = await wire.sim("GET", f"/sim/chat/{group}")
    [mine] = [m for m in view[1]["messages"] if m["message_id"] == sent["message_id"]]
    assert (mine["from"], mine["sender_chat"]) == ("user", {"id": channel, "title": "News"})


async def test_an_anonymous_administrator_writes_as_the_group_signed_with_their_title(wire: Wire) -> None:
    _channel, group = await channel_and_group(wire)
    await sim_ok(wire, f"/sim/chats/{group}/promote", {"user": "bob", "custom_title": "Editor"})
    forget_updates(wire)
    await sim_ok(wire, "/sim/message", {"chat_id": group, "user_id": BOB, "sender_chat_id": group, "text": "hush"})
    [got] = await group_messages(wire, group)
    assert (got["from"], got["author_signature"], got["sender_chat"]["id"]) == (GROUP_BOT, "Editor", group)
    keys = list(got)
    assert keys.index("from") < keys.index("author_signature") < keys.index("sender_chat")


async def test_a_privacy_mode_bot_is_not_told_a_stand_in_bot_wrote(wire: Wire) -> None:
    """A message on behalf of a chat is the person's: bots that see the group's messages get it (td's stand-in
    is a bot account, but the stand never drops it as a message from another bot)."""
    channel, group = await channel_and_group(wire)
    await sim_ok(wire, "/sim/message", {"chat_id": group, "sender_chat_id": channel, "text": "/start"})
    assert [m["text"] for m in await group_messages(wire, group)] == ["/start"]


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"user_id": BOB}, 403, "bob is not an administrator of 'News'"),
        ({"sender_chat": -1000000009999}, 404, "sender_chat_id -1000000009999 is not a channel of the stand"),
        ({"sender_chat": "group", "user_id": BOB}, 403, "bob is not an administrator of 'News chat'"),
    ],
)
async def test_writing_on_behalf_of_a_chat_one_may_not_is_refused(
    wire: Wire, body: dict[str, Any], status: int, error: str
) -> None:
    channel, group = await channel_and_group(wire)
    sender = {"group": group, None: channel}.get(body.get("sender_chat"), body.get("sender_chat", channel))
    request = {"chat_id": group, "user_id": body.get("user_id", ALICE), "sender_chat_id": sender, "text": "x"}
    got, answer = await wire.sim("POST", "/sim/message", request)
    assert (got, answer["error"]) == (status, error)
    assert await group_messages(wire, group) == []


async def test_a_channel_the_group_banned_may_not_write_there(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    assert await wire.ok("banChatSenderChat", chat_id=group, sender_chat_id=channel) is True
    got, answer = await wire.sim("POST", "/sim/message", {"chat_id": group, "sender_chat_id": channel, "text": "x"})
    assert (got, answer["error"]) == (403, "'News' is banned in 'News chat' (banChatSenderChat)")
    assert await wire.ok("unbanChatSenderChat", chat_id=group, sender_chat_id=channel) is True
    await sim_ok(wire, "/sim/message", {"chat_id": group, "sender_chat_id": channel, "text": "back"})


async def test_only_a_supergroup_takes_messages_on_behalf_of_chats(wire: Wire) -> None:
    channel, _group = await channel_and_group(wire)
    basic = await make_chat(wire, type="group", title="Basic", admins=["@tgfake_bot"])
    got, answer = await wire.sim("POST", "/sim/message", {"chat_id": basic, "sender_chat_id": channel, "text": "x"})
    assert (got, answer["error"]) == (400, "only in a supergroup can a person write on behalf of a chat")


async def test_linking_refuses_what_telegram_cannot_link(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    other = await make_chat(wire, type="channel", title="Other")
    cases: list[tuple[dict[str, Any], int, str]] = [
        (
            {"type": "supergroup", "linked_chat_id": -1000000009999},
            404,
            "no chat -1000000009999 to link: make it first",
        ),
        (
            {"type": "channel", "linked_chat_id": other},
            400,
            "a channel links to a supergroup (its discussion group), not a channel to a channel",
        ),
        ({"type": "supergroup", "linked_chat_id": channel}, 409, f"chat {channel} is already linked to chat {group}"),
        ({"type": "group", "username": "basic_one"}, 400, "a basic group has no username: make it a supergroup"),
    ]
    for body, status, error in cases:
        got, answer = await wire.sim("POST", "/sim/chats", {"title": "X", **body})
        assert (got, answer["error"]) == (status, error)
    assert len(wire.stand.world.chats) == 3


async def test_a_persons_channel_post_is_forwarded_too(wire: Wire) -> None:
    channel, group = await channel_and_group(wire)
    await sim_ok(wire, "/sim/message", {"chat_id": channel, "text": "written by alice"})
    [forward] = await group_messages(wire, group)
    assert (forward["text"], forward["is_automatic_forward"], forward["from"]) == ("written by alice", True, TELEGRAM)
