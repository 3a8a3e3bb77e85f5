"""The person's sends and doings through the wire: shares, votes, edits, deletes, forwards, reactions, quotes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Wire
from tgfake.world.people import user_id_for

BOB = user_id_for("bob")


async def act(wire: Wire, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    got, answer = await wire.sim("POST", path, body)
    assert got == status, answer
    return dict(answer)


async def updates(wire: Wire) -> list[dict[str, Any]]:
    """Every pending update (the bot subscribed to every kind), confirmed as a polling bot confirms them."""
    await wire.ok("getMe")
    got = list(await wire.ok("getUpdates", timeout=0, allowed_updates=json.dumps(ALL)))
    if got:
        await wire.ok("getUpdates", timeout=0, offset=got[-1]["update_id"] + 1)
    return got


ALL = [
    "message",
    "edited_message",
    "channel_post",
    "edited_channel_post",
    "message_reaction",
    "message_reaction_count",
    "poll",
    "poll_answer",
    "callback_query",
]


async def test_location_venue_contact_dice_and_poll(wire: Wire) -> None:
    await act(wire, "/sim/share", {"location": {"latitude": 1.5, "longitude": 2.5, "live_period": 900}})
    venue = {"location": {"latitude": 1, "longitude": 2}, "title": "Cafe", "address": "Main St 1"}
    await act(wire, "/sim/share", {"venue": venue})
    await act(wire, "/sim/share", {"contact": {"phone_number": "+100", "first_name": "Bob"}})
    await act(wire, "/sim/share", {"dice": {"emoji": "🎯", "value": 6}})
    await act(wire, "/sim/share", {"poll": {"question": "Tea?", "options": ["Yes", "No"]}})
    got = [u["message"] for u in await updates(wire)]
    assert got[0]["location"] == {"latitude": 1.5, "longitude": 2.5, "live_period": 900}
    assert got[1]["venue"]["title"] == "Cafe"
    assert got[1]["location"] == {"latitude": 1, "longitude": 2}
    assert got[2]["contact"] == {"phone_number": "+100", "first_name": "Bob"}
    assert got[3]["dice"] == {"emoji": "🎯", "value": 6}
    assert got[4]["poll"]["question"] == "Tea?"
    assert await wire.text() == (
        "[1] alice: [location 1.5, 2.5 live 900s]\n[2] alice: [venue Cafe, Main St 1]\n"
        "[3] alice: [contact Bob +100]\n[4] alice: [dice 🎯 6]\n[5] alice: [poll 'Tea?'] [Yes: 0] [No: 0]\n"
    )


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({}, "give exactly one of location, venue, contact, dice, poll"),
        ({"location": {"latitude": 1}}, "location needs latitude and longitude (numbers)"),
        (
            {"location": {"latitude": 1, "longitude": 1, "live_period": 5}},
            "live_period is 60..86400 seconds, or 2147483647 (until stopped)",
        ),
        ({"venue": {"location": {"latitude": 1, "longitude": 1}}}, "venue.title is required"),
        ({"contact": {"first_name": "x"}}, "contact.phone_number is required"),
        ({"dice": {"emoji": "🏀", "value": 6}}, "dice.value is 1..5 for 🏀 (the stand throws no dice itself)"),
        ({"dice": {"emoji": "x", "value": 1}}, "dice.emoji is one of 🎲 🎯 🎳 🏀 ⚽ 🎰"),
    ],
)
async def test_share_refusals(wire: Wire, body: dict[str, Any], error: str) -> None:
    assert (await act(wire, "/sim/share", body, 400))["error"] == error


async def bot_poll(wire: Wire, chat_id: int = 4242, **params: Any) -> tuple[str, int]:
    """The bot sends a poll over the wire (``Best?``: A, B, C); returns its poll id and message id."""
    sent = await wire.ok("sendPoll", chat_id=chat_id, question="Best?", options=json.dumps(["A", "B", "C"]), **params)
    return str(sent["poll"]["id"]), int(sent["message_id"])


async def test_votes_reach_the_polls_bot_and_change_the_counts(wire: Wire) -> None:
    await wire.ok("getMe")
    group = (await act(wire, "/sim/chats", {"title": "Club", "members": ["bob"], "admins": [123]}))["chat"]["id"]
    poll_id, mid = await bot_poll(wire, group, is_anonymous="false", allows_multiple_answers="true")
    await updates(wire)  # the group's service messages
    answer = await act(wire, "/sim/vote", {"chat_id": group, "message_id": mid, "options": [0, 2]})
    assert answer["poll_id"] == poll_id
    await act(
        wire, "/sim/vote", {"chat_id": group, "message_id": mid, "options": [1], "user_id": BOB, "username": "bob"}
    )
    await act(wire, "/sim/vote", {"chat_id": group, "message_id": mid, "options": []})  # alice retracts
    got = await updates(wire)
    kinds = [next(k for k in u if k != "update_id") for u in got]
    assert kinds == ["poll_answer", "poll", "poll_answer", "poll", "poll_answer", "poll"]
    user = got[0]["poll_answer"]["user"]
    want = {"poll_id": poll_id, "user": user, "option_ids": [0, 2], "option_persistent_ids": ["0", "2"]}
    assert got[0]["poll_answer"] == want
    assert got[0]["poll_answer"]["user"]["id"] == 4242
    assert [o["voter_count"] for o in got[1]["poll"]["options"]] == [1, 0, 1]
    assert got[4]["poll_answer"]["option_ids"] == []
    assert ([o["voter_count"] for o in got[5]["poll"]["options"]], got[5]["poll"]["total_voter_count"]) == (
        [0, 1, 0],
        1,
    )
    assert f"[{mid}] bot: [poll 'Best?'] [A: 0] [B: 1] [C: 0]" in await wire.text(group)


async def test_anonymous_polls_and_quizzes(wire: Wire) -> None:
    await wire.say("hi")
    _, poll = await bot_poll(wire)
    _, quiz = await bot_poll(wire, type="quiz", correct_option_id=1)
    await updates(wire)
    await act(wire, "/sim/vote", {"message_id": poll, "options": [0]})
    assert [next(k for k in u if k != "update_id") for u in await updates(wire)] == ["poll"]  # anonymous: no answer
    assert (await act(wire, "/sim/vote", {"message_id": poll, "options": [0, 1]}, 400))[
        "error"
    ] == "this poll takes one answer"
    await act(wire, "/sim/vote", {"message_id": quiz, "options": [2]})
    refused = await act(wire, "/sim/vote", {"message_id": quiz, "options": [1]}, 409)
    assert refused["error"] == "this poll's answers can't be changed or retracted"
    assert (await act(wire, "/sim/vote", {"message_id": poll, "options": [5]}, 400))["error"] == "options are 0..2"


async def test_a_persons_own_poll_reaches_no_bot_with_votes(wire: Wire) -> None:
    await act(wire, "/sim/share", {"poll": {"question": "Q", "options": ["a", "b"], "is_anonymous": False}})
    await updates(wire)
    answer = await act(wire, "/sim/vote", {"message_id": 1, "options": [1]})
    assert answer["update_id"] == 0
    assert await wire.ok("getUpdates", timeout=0) == []


async def test_edits_are_delivered_as_edited_message(wire: Wire) -> None:
    await wire.ok("getMe")
    await wire.say("helo")
    answer = await act(wire, "/sim/edit", {"message_id": 1, "text": "hello"})
    got = await updates(wire)
    edited = got[1]["edited_message"]
    assert (edited["message_id"], edited["text"], "edit_date" in edited) == (1, "hello", True)
    assert answer["updates"] == {"123": got[1]["update_id"]}
    sent = await wire.ok("sendMessage", chat_id=4242, text="bot's")
    refused = await act(wire, "/sim/edit", {"message_id": sent["message_id"], "text": "x"}, 403)
    assert refused["error"] == "message 2 is not alice's"


async def test_channel_posts_and_their_edits(wire: Wire) -> None:
    await wire.ok("getMe")
    made = await act(wire, "/sim/chats", {"type": "channel", "title": "News", "admins": [123]})
    channel = made["chat"]["id"]
    await wire.say("first post", chat_id=channel)
    await act(wire, "/sim/edit", {"chat_id": channel, "message_id": 1, "text": "first post!"})
    got = await updates(wire)
    kinds = [next(k for k in u if k != "update_id") for u in got]
    assert kinds[-2:] == ["channel_post", "edited_channel_post"]
    assert got[-1]["edited_channel_post"]["text"] == "first post!"


async def test_deletes(wire: Wire) -> None:
    await wire.say("oops")
    sent = await wire.ok("sendMessage", chat_id=4242, text="reply")
    await act(wire, "/sim/delete", {"message_id": 1})
    await act(wire, "/sim/delete", {"message_id": sent["message_id"]})  # a private chat: for both sides
    assert await wire.text() == ""
    assert (await act(wire, "/sim/delete", {"message_id": 1}, 404))["error"] == "message 1 not found in chat 4242"


async def test_reactions_only_to_subscribed_bots(wire: Wire) -> None:
    await wire.say("nice")
    await wire.ok("getMe")
    await wire.ok("getUpdates", timeout=0)  # the default subscription: reactions are opt-in
    await act(wire, "/sim/react", {"message_id": 1, "emoji": ["👍"]})
    assert await wire.ok("getUpdates", offset=2, timeout=0) == []
    await updates(wire)  # now subscribed to every kind
    await act(wire, "/sim/react", {"message_id": 1, "emoji": ["🔥"]})
    got = await updates(wire)
    reaction = got[-1]["message_reaction"]
    assert reaction["old_reaction"] == [{"type": "emoji", "emoji": "👍"}]
    assert reaction["new_reaction"] == [{"type": "emoji", "emoji": "🔥"}]
    assert reaction["user"]["id"] == 4242
    assert "    reactions: 🔥 1" in await wire.text()


async def test_channel_reactions_are_counts(wire: Wire) -> None:
    await wire.ok("getMe")
    made = await act(wire, "/sim/chats", {"type": "channel", "title": "News", "admins": [123], "members": ["bob"]})
    channel = made["chat"]["id"]
    post = await wire.ok("sendMessage", chat_id=channel, text="post")
    await updates(wire)
    await act(
        wire,
        "/sim/react",
        {"chat_id": channel, "message_id": post["message_id"], "emoji": ["❤"], "username": "bob", "user_id": BOB},
    )
    [update] = (await updates(wire))[-1:]
    count = update["message_reaction_count"]
    assert count["reactions"] == [{"type": {"type": "emoji", "emoji": "❤"}, "total_count": 1}]
    assert "user" not in count


async def test_forwards_carry_each_origin(wire: Wire) -> None:
    await wire.ok("getMe")
    group = await act(wire, "/sim/chats", {"title": "Club", "members": ["bob"]})
    channel = await act(wire, "/sim/chats", {"type": "channel", "title": "News", "admins": [123]})
    said = await wire.say("from bob", chat_id=group["chat"]["id"], username="bob", user_id=BOB)
    source = {"from_chat_id": group["chat"]["id"], "message_id": said["message_id"]}
    await act(wire, "/sim/forward", source)
    await act(wire, "/sim/forward", {**source, "hidden": True})
    await act(
        wire,
        "/sim/forward",
        {"text": "news", "origin": {"type": "channel", "chat_id": channel["chat"]["id"], "message_id": 9}},
    )
    await act(wire, "/sim/forward", {"text": "hey", "origin": {"type": "chat", "chat_id": group["chat"]["id"]}})
    got = [u["message"] for u in await updates(wire) if "message" in u and u["message"]["chat"]["id"] == 4242]
    origins = [m["forward_origin"] for m in got]
    assert [o["type"] for o in origins] == ["user", "hidden_user", "channel", "chat"]
    assert origins[0]["sender_user"]["username"] == "bob"
    assert origins[1]["sender_user_name"] == "Bob"
    assert (origins[2]["chat"]["title"], origins[2]["message_id"]) == ("News", 9)
    assert [m["text"] for m in got] == ["from bob", "from bob", "news", "hey"]
    # The server still writes the pre-7.0 fields beside forward_origin (Client.cpp's JsonMessage), in this order.
    legacy = [{k: v for k, v in m.items() if k.startswith("forward_") and k != "forward_origin"} for m in got]
    assert legacy == [
        {"forward_from": origins[0]["sender_user"], "forward_date": origins[0]["date"]},
        {"forward_sender_name": "Bob", "forward_date": origins[1]["date"]},
        {"forward_from_chat": origins[2]["chat"], "forward_from_message_id": 9, "forward_date": origins[2]["date"]},
        {"forward_from_chat": origins[3]["sender_chat"], "forward_date": origins[3]["date"]},
    ]
    assert [list(d) for d in legacy][2] == ["forward_from_chat", "forward_from_message_id", "forward_date"]
    assert "[1] alice: [forwarded from bob] from bob" in await wire.text()
    refused = await act(wire, "/sim/forward", {"text": "x", "origin": {"type": "nobody"}}, 400)
    assert refused["error"] == "origin.type is user, hidden_user, chat or channel"


async def test_a_persons_forward_of_a_forward_keeps_the_first_origin(wire: Wire) -> None:
    await wire.ok("getMe")
    channel = await act(wire, "/sim/chats", {"type": "channel", "title": "News", "admins": [123]})
    news = channel["chat"]["id"]
    post = await wire.ok("sendMessage", chat_id=news, text="breaking")
    first = await wire.ok("forwardMessage", chat_id=4242, from_chat_id=news, message_id=post["message_id"])
    await updates(wire)
    await act(wire, "/sim/forward", {"from_chat_id": 4242, "message_id": first["message_id"]})
    [again] = [u["message"] for u in await updates(wire) if "message" in u]
    assert again["forward_origin"] == first["forward_origin"]
    assert (again["forward_origin"]["type"], again["forward_origin"]["message_id"]) == ("channel", post["message_id"])
    assert (again["from"]["id"], again["text"]) == (4242, "breaking")


async def test_a_persons_forward_keeps_the_formatting(wire: Wire) -> None:
    sent = await wire.ok("sendMessage", chat_id=4242, text="<b>bold</b> and https://example.com", parse_mode="HTML")
    await updates(wire)
    await act(wire, "/sim/forward", {"from_chat_id": 4242, "message_id": sent["message_id"]})
    [fwd] = [u["message"] for u in await updates(wire) if "message" in u]
    assert fwd["text"] == sent["text"]
    assert fwd["entities"] == sent["entities"]
    assert [e["type"] for e in fwd["entities"]] == ["bold", "url"]


async def test_a_persons_forward_of_someone_who_hides_forwards_names_them_only(wire: Wire) -> None:
    await wire.ok("getMe")
    group = await act(wire, "/sim/chats", {"title": "Club", "members": ["bob"]})
    await act(wire, "/sim/privacy", {"username": "bob", "user_id": BOB, "hide_forwards": True})
    said = await wire.say("from bob", chat_id=group["chat"]["id"], username="bob", user_id=BOB)
    await updates(wire)
    await act(wire, "/sim/forward", {"from_chat_id": group["chat"]["id"], "message_id": said["message_id"]})
    [fwd] = [u["message"] for u in await updates(wire) if "message" in u]
    assert fwd["forward_origin"] == {"type": "hidden_user", "sender_user_name": "Bob", "date": fwd["date"]}
    assert "[forwarded from Bob] from bob" in await wire.text()


async def test_quotes(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="Привет, world")
    await wire.say("yes", reply_to_message_id=1, quote="world")
    [*_, update] = await updates(wire)
    message = update["message"]
    assert message["quote"] == {"text": "world", "position": 8, "is_manual": True}
    assert message["reply_to_message"]["message_id"] == 1
    assert message["text"] == "yes"
    refused = await act(wire, "/sim/message", {"text": "no", "reply_to_message_id": 1, "quote": "moon"}, 400)
    assert refused["error"] == "message 1 does not contain the quote 'moon'"


async def test_url_and_web_app_buttons_are_no_callbacks_and_callback_urls_show(wire: Wire) -> None:
    markup = {
        "inline_keyboard": [
            [{"text": "Site", "url": "https://example.com"}, {"text": "Play", "callback_data": "g"}],
            [{"text": "App", "web_app": {"url": "https://app.example"}}],
        ]
    }
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=json.dumps(markup))
    refused = await act(wire, "/sim/callback", {"label": "Site"}, 400)
    assert refused["error"] == "[Site] is a url button: it opens https://example.com/, Telegram sends no callback"
    refused = await act(wire, "/sim/callback", {"label": "App"}, 400)
    assert refused["error"] == "[App] opens the Mini App https://app.example: POST /sim/webapp/launch with that url"
    tap = await act(wire, "/sim/callback", {"label": "Play"})
    url = "https://t.me/tgfake_bot?start=game"
    await wire.ok("answerCallbackQuery", callback_query_id=tap["callback_query_id"], url=url)
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["callbacks"] == [{"id": tap["callback_query_id"], "url": url}]


async def test_a_forwarded_poll_is_the_same_poll(wire: Wire) -> None:
    await wire.say("hi")
    poll_id, mid = await bot_poll(wire)
    forwarded = await act(wire, "/sim/forward", {"from_chat_id": 4242, "message_id": mid})
    await act(wire, "/sim/vote", {"message_id": forwarded["message_id"], "options": [1]})
    got = [u["message"] for u in await updates(wire) if "message" in u]
    assert got[-1]["poll"]["id"] == poll_id
    assert got[-1]["forward_origin"]["type"] == "user"
    lines = (await wire.text()).splitlines()
    assert lines[-2:] == [
        f"[{mid}] bot: [poll 'Best?'] [A: 0] [B: 1] [C: 0]",
        f"[{forwarded['message_id']}] alice: [forwarded from tgfake_bot] [poll 'Best?'] [A: 0] [B: 1] [C: 0]",
    ]
