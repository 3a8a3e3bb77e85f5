"""Reply keyboards, ReplyKeyboardRemove and ForceReply: Telegram's refusals, the person's current keyboard, presses."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Wire

GROUP = -100000004242


def kb(*rows: list[Any], **flags: Any) -> str:
    return json.dumps({"keyboard": list(rows), **flags})


async def updates(wire: Wire) -> list[dict[str, Any]]:
    return list(await wire.ok("getUpdates", timeout=0))


async def test_a_keyboard_is_kept_shown_transcribed_and_pressed(wire: Wire) -> None:
    sent = await wire.ok(
        "sendMessage", chat_id=4242, text="Are you a boy or a girl?", reply_markup=kb(["Boy", "Girl", "Other"])
    )
    assert "reply_markup" not in sent  # Message.reply_markup is only ever an inline keyboard
    assert await wire.text() == "[1] bot: Are you a boy or a girl?\n    keyboard: [Boy] [Girl] [Other]\n"
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["reply_keyboard"] == {
        "message_id": 1,
        "keyboard": [[{"text": "Boy"}, {"text": "Girl"}, {"text": "Other"}]],
    }
    assert chat["messages"][0]["reply_keyboard"]["keyboard"][0][1] == {"text": "Girl"}
    status, body = await wire.sim("POST", "/sim/reply-button", {"label": "Girl"})
    assert status == 200, body
    [update] = await updates(wire)
    assert update["update_id"] == body["update_id"]
    assert (update["message"]["text"], update["message"]["message_id"]) == ("Girl", 2)


async def test_one_time_keyboards_hide_after_a_press(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="pick", reply_markup=kb(["A"], one_time_keyboard=True))
    assert "keyboard: [A] (one-time)" in await wire.text()
    assert (await wire.sim("POST", "/sim/reply-button", {"label": "A"}))[0] == 200
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["reply_keyboard"]["hidden"] is True
    status, body = await wire.sim("POST", "/sim/reply-button", {"label": "A"})
    assert status == 409
    assert "hidden after a press" in body["error"]


async def test_remove_keyboard_takes_it_away(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="pick", reply_markup=kb(["A"]))
    await wire.ok("sendMessage", chat_id=4242, text="done", reply_markup='{"remove_keyboard":true}')
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert "reply_keyboard" not in chat
    assert (await wire.text()).endswith("[2] bot: done\n    keyboard removed\n")
    status, body = await wire.sim("POST", "/sim/reply-button", {"label": "A"})
    assert (status, body["error"]) == (404, "alice has no reply keyboard in chat 4242")


async def test_force_reply_is_shown_and_keeps_the_keyboard(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="pick", reply_markup=kb(["A"]))
    markup = '{"force_reply":true,"input_field_placeholder":"Your name"}'
    await wire.ok("sendMessage", chat_id=4242, text="name?", reply_markup=markup)
    assert (await wire.text()).endswith("[2] bot: name?\n    force reply 'Your name'\n")
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["reply_keyboard"]["message_id"] == 1
    assert chat["messages"][1]["reply_keyboard"] == {"force_reply": True, "input_field_placeholder": "Your name"}


async def test_unknown_labels_are_named(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="pick", reply_markup=kb(["A", "B"]))
    status, body = await wire.sim("POST", "/sim/reply-button", {"label": "C"})
    assert (status, body["error"]) == (404, "the reply keyboard of message 1 has no button 'C': [A] [B]")


@pytest.mark.parametrize(
    ("markup", "description"),
    [
        ('{"keyboard":5}', 'Bad Request: field "keyboard" must be of type Array'),
        ('{"keyboard":null}', 'Bad Request: field "keyboard" must be of type Array'),
        ('{"keyboard":["A"]}', 'Bad Request: field "keyboard" must be an Array of Arrays'),
        (
            '{"keyboard":[[5]]}',
            "Bad Request: can't parse keyboard button: KeyboardButton must be a String or an Object",
        ),
        ('{"keyboard":[[{}]]}', "Bad Request: can't parse keyboard button: Can't find field \"text\""),
        (
            '{"keyboard":[[{"text":true}]]}',
            'Bad Request: can\'t parse keyboard button: Field "text" must be of type String',
        ),
        (
            '{"keyboard":[[{"text":"x","request_location":"yes"}]]}',
            'Bad Request: can\'t parse keyboard button: Field "request_location" must be of type Boolean',
        ),
        (
            '{"keyboard":[[{"text":"x","request_users":{}}]]}',
            "Bad Request: can't parse keyboard button: Can't find field \"request_id\"",
        ),
        (
            '{"keyboard":[[{"text":"x","request_chat":{"request_id":"a"}}]]}',
            'Bad Request: can\'t parse keyboard button: Field "request_id" must be a valid Number',
        ),
        (
            '{"keyboard":[[{"text":"x","web_app":{}}]]}',
            "Bad Request: can't parse keyboard button: Can't find field \"url\"",
        ),
        (
            '{"keyboard":[[{"text":"x","web_app":{"url":"http://example.com"}}]]}',
            "Bad Request: keyboard button Web App URL 'http://example.com' is invalid: Only HTTPS links are allowed",
        ),
        ('{"remove_keyboard":1}', 'Bad Request: field "remove_keyboard" must be of type Boolean'),
        (
            '{"keyboard":[["A"]],"inline_keyboard":[["B"]]}',
            "Bad Request: can't parse inline keyboard button: InlineKeyboardButton must be an Object",
        ),
    ],
)
async def test_refusals_are_telegrams(wire: Wire, markup: str, description: str) -> None:
    await wire.refused("sendMessage", 400, description, chat_id=4242, text="x", reply_markup=markup)
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["messages"] == []


@pytest.mark.parametrize(
    ("button", "description"),
    [
        ({"text": "x", "request_contact": True}, "Bad Request: phone number can be requested in private chats only"),
        ({"text": "x", "request_location": True}, "Bad Request: location can be requested in private chats only"),
        ({"text": "x", "request_poll": {}}, "Bad Request: poll can be requested in private chats only"),
        (
            {"text": "x", "web_app": {"url": "https://a.example"}},
            "Bad Request: web App buttons can be used in private chats only",  # td's first letter lower-cased
        ),
        (
            {"text": "x", "request_users": {"request_id": 1}},
            "Bad Request: users can be requested in private chats only",
        ),
        ({"text": "x", "request_chat": {"request_id": 1}}, "Bad Request: chats can be requested in private chats only"),
    ],
)
async def test_request_buttons_are_for_private_chats(wire: Wire, button: dict[str, Any], description: str) -> None:
    await wire.say("hi", chat_type="group")
    await wire.refused("sendMessage", 400, description, chat_id=GROUP, text="x", reply_markup=kb([button]))


async def test_edits_and_channels_take_inline_keyboards_only(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="x")
    for markup in (kb(["A"]), '{"remove_keyboard":true}', '{"force_reply":true}'):
        await wire.refused(
            "editMessageText",
            400,
            "Bad Request: inline keyboard expected",
            chat_id=4242,
            message_id=1,
            text="y",
            reply_markup=markup,
        )
    await wire.ok("getMe")
    status, made = await wire.sim("POST", "/sim/chats", {"type": "channel", "title": "News", "admins": [123]})
    assert status == 200, made
    channel = made["chat"]["id"]
    await wire.refused(
        "sendMessage", 400, "Bad Request: inline keyboard expected", chat_id=channel, text="x", reply_markup=kb(["A"])
    )


async def test_td_skips_empty_labels_and_keeps_12_a_row(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=kb(["", {"text": ""}]))
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert "reply_keyboard" not in chat  # no button left: no markup
    await wire.ok("sendMessage", chat_id=4242, text="y", reply_markup=kb([str(i) for i in range(20)]))
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert [b["text"] for b in chat["reply_keyboard"]["keyboard"][0]] == [str(i) for i in range(12)]


async def test_a_non_empty_keyboard_wins_over_inline_and_remove(wire: Wire) -> None:
    markup = json.dumps(
        {"keyboard": [["A"]], "inline_keyboard": [[{"text": "B", "callback_data": "b"}]], "remove_keyboard": True}
    )
    sent = await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=markup)
    assert "reply_markup" not in sent
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["reply_keyboard"]["keyboard"] == [[{"text": "A"}]]


async def test_every_button_kind_sends_what_telegram_sends(wire: Wire) -> None:
    rows: list[list[Any]] = [
        [{"text": "Phone", "request_contact": True}, {"text": "Where", "request_location": True}],
        [{"text": "Poll", "request_poll": {"type": "quiz"}}, {"text": "App", "web_app": {"url": "https://a.example"}}],
        [{"text": "Friend", "request_users": {"request_id": 7, "request_username": True, "user_is_bot": False}}],
        [{"text": "Group", "request_chat": {"request_id": 8, "chat_is_channel": False, "request_title": True}}],
    ]
    await wire.ok("sendMessage", chat_id=4242, text="share", reply_markup=kb(*rows))
    status, made = await wire.sim("POST", "/sim/chats", {"title": "Club", "members": ["bob"]})
    assert status == 200, made
    presses: list[dict[str, Any]] = [
        {"label": "Phone", "phone_number": "+15550001"},
        {"label": "Where", "latitude": 51.5, "longitude": -0.12},
        {"label": "Poll", "poll": {"question": "2+2?", "options": ["3", "4"], "correct_option_id": 1}},
        {"label": "App", "data": '{"size":"L"}'},
        {"label": "Friend", "users": ["bob"]},
        {"label": "Group", "chat": made["chat"]["id"]},
    ]
    for press in presses:
        status, body = await wire.sim("POST", "/sim/reply-button", press)
        assert status == 200, body
    got = [u["message"] for u in await updates(wire)]
    assert got[0]["contact"] == {"phone_number": "+15550001", "first_name": "Alice", "user_id": 4242}
    assert got[1]["location"] == {"latitude": 51.5, "longitude": -0.12}
    poll = got[2]["poll"]
    assert (poll["type"], poll["correct_option_id"], [o["text"] for o in poll["options"]]) == ("quiz", 1, ["3", "4"])
    assert got[3]["web_app_data"] == {"data": '{"size":"L"}', "button_text": "App"}
    assert got[4]["users_shared"]["request_id"] == 7
    assert got[4]["users_shared"]["users"][0]["username"] == "bob"
    assert got[5]["chat_shared"] == {"request_id": 8, "chat_id": made["chat"]["id"], "title": "Club"}
    assert all("text" not in m for m in got)
    text = await wire.text()
    assert "[2] alice: [contact Alice +15550001]" in text
    assert "[3] alice: [location 51.5, -0.12]" in text
    assert "[4] alice: [quiz '2+2?'] [3: 0] [4: 0]" in text
    assert '[5] alice: [web app data from \'App\': {"size":"L"}]' in text
    assert "[6] alice: [shared users bob for request 7]" in text


@pytest.mark.parametrize(
    ("press", "error"),
    [
        ({"label": "Where"}, "[Where] shares a location: give latitude and longitude"),
        ({"label": "Where", "latitude": 91, "longitude": 0}, "latitude is -90..90 and longitude -180..180"),
        ({"label": "Poll"}, "[Poll] creates a poll: give poll (question, options)"),
        ({"label": "Poll", "poll": {"question": "q", "options": ["a"]}}, "a poll has 2-12 options"),
        ({"label": "App"}, "[App] opens a Mini App: give the data it sends (Telegram.WebApp.sendData)"),
        ({"label": "Friend"}, "[Friend] shares users: give users (ids or names)"),
        ({"label": "Friend", "users": ["bob", "carol"]}, "[Friend] shares at most 1 user(s)"),
        ({"label": "Group", "chat": -5}, "[Group] shares a chat: give chat, the id of a group or channel on the stand"),
    ],
)
async def test_a_press_without_what_the_button_shares_is_refused(wire: Wire, press: dict[str, Any], error: str) -> None:
    rows: list[list[Any]] = [
        [{"text": "Where", "request_location": True}, {"text": "Poll", "request_poll": {}}],
        [
            {"text": "App", "web_app": {"url": "https://a.example"}},
            {"text": "Friend", "request_users": {"request_id": 1}},
        ],
        [{"text": "Group", "request_chat": {"request_id": 2}}],
    ]
    await wire.ok("sendMessage", chat_id=4242, text="share", reply_markup=kb(*rows))
    status, body = await wire.sim("POST", "/sim/reply-button", press)
    assert (status, body["error"]) == (400, error)


async def test_selective_keyboards_are_for_the_mentioned_and_the_replied_to(wire: Wire) -> None:
    await wire.say("hi", chat_type="group")
    await wire.say("hey", chat_id=GROUP, username="bob", user_id=7)
    sent = await wire.ok("sendMessage", chat_id=GROUP, text="@bob pick", reply_markup=kb(["A"], selective=True))
    assert sent["message_id"] == 3
    _, chat = await wire.sim("GET", "/sim/chat/" + str(GROUP))
    assert "reply_keyboard" not in chat
    assert chat["personal_keyboards"]["7"]["selective"] is True
    status, body = await wire.sim("POST", "/sim/reply-button", {"label": "A", "chat_type": "group"})
    assert (status, body["error"]) == (404, f"alice has no reply keyboard in chat {GROUP}")
    status, body = await wire.sim(
        "POST", "/sim/reply-button", {"label": "A", "chat_id": GROUP, "username": "bob", "user_id": 7}
    )
    assert status == 200, body
    _, chat = await wire.sim("GET", "/sim/chat/" + str(GROUP))
    assert chat["messages"][-1]["reply_to_message_id"] == 3  # a personal keyboard's press answers its message
    await wire.ok("sendMessage", chat_id=GROUP, text="all", reply_markup=kb(["B"]))
    status, _ = await wire.sim("POST", "/sim/reply-button", {"label": "B", "chat_type": "group"})
    assert status == 200
    await wire.ok(
        "sendMessage",
        chat_id=GROUP,
        text="bye",
        reply_to_message_id=1,
        reply_markup=json.dumps({"remove_keyboard": True, "selective": True}),
    )
    _, chat = await wire.sim("GET", "/sim/chat/" + str(GROUP))
    assert chat["personal_keyboards"] == {"4242": None}
    assert chat["reply_keyboard"]["keyboard"] == [[{"text": "B"}]]
