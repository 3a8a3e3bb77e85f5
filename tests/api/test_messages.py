"""Text messages: sendMessage, editMessageText, editMessageReplyMarkup, deleteMessage, sendChatAction."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Wire
from tgfake.clock import ManualClock

KB = json.dumps({"inline_keyboard": [[{"text": "Ping", "callback_data": "ping"}]]})
KB2 = json.dumps({"inline_keyboard": [[{"text": "Pong", "callback_data": "pong"}]]})
BAD_KB = json.dumps({"inline_keyboard": [[{"text": "plain"}]]})
BOT = {"id": 123, "is_bot": True, "first_name": "tgfake", "username": "tgfake_bot"}
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same "
    "as a current content and reply markup of the message"
)


async def view(wire: Wire, chat_id: int = 4242) -> dict[str, Any]:
    status, body = await wire.sim("GET", f"/sim/chat/{chat_id}")
    assert status == 200
    return dict(body)


# --- sendMessage ----------------------------------------------------------------------------------------------
async def test_send_message_returns_the_stored_message(wire: Wire) -> None:
    assert await wire.ok("sendMessage", chat_id=4242, text="hi") == {
        "message_id": 1,
        "from": BOT,
        "chat": {"id": 4242, "type": "private"},
        "date": 1_700_000_000,
        "text": "hi",
    }


async def test_message_ids_are_per_chat_and_shared_with_the_person(wire: Wire, clock: ManualClock) -> None:
    await wire.say("hello")
    clock.advance(3)
    sent = await wire.ok("sendMessage", chat_id=4242, text="hi")
    assert (sent["message_id"], sent["date"]) == (2, 1_700_000_003)
    assert sent["chat"] == {"id": 4242, "type": "private", "first_name": "Alice", "username": "alice"}
    assert (await wire.ok("sendMessage", chat_id=-5, text="group"))["message_id"] == 1
    assert (await wire.ok("sendMessage", chat_id=-5, text="group"))["chat"] == {"id": -5, "type": "group"}
    assert (await wire.say("again"))["message_id"] == 3


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"text": "x" * 5000, "reply_markup": BAD_KB}, "Bad Request: chat_id is empty"),
        ({"chat_id": 4242}, "Bad Request: message text is empty"),
        ({"chat_id": 4242, "text": "", "reply_markup": BAD_KB}, "Bad Request: message text is empty"),
        ({"chat_id": 4242, "text": "я" * 4097, "reply_markup": BAD_KB}, "Bad Request: message is too long"),
        (
            {"chat_id": 4242, "text": "x", "reply_markup": BAD_KB, "reply_to_message_id": 9},
            "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        ),
        ({"chat_id": 4242, "text": "x", "reply_to_message_id": 9}, "Bad Request: message to be replied not found"),
        (
            {"chat_id": 4242, "text": "x", "reply_parameters": "{", "reply_to_message_id": 1},
            "Bad Request: can't parse reply parameters JSON object",
        ),
    ],
)
async def test_send_message_refusals_in_order(wire: Wire, params: dict[str, Any], description: str) -> None:
    await wire.refused("sendMessage", 400, description, **params)


async def test_text_limits_count_code_points_and_refuse_blank_text(wire: Wire) -> None:
    assert (await wire.ok("sendMessage", chat_id=4242, text="я" * 4096))["text"] == "я" * 4096
    assert (await wire.ok("sendMessage", chat_id=4242, text="🙂" * 4096))["message_id"] == 2
    # Telegram trims the text; one left empty is refused in TDLib's words
    await wire.refused("sendMessage", 400, "Bad Request: text must be non-empty", chat_id=4242, text="  \n ")
    assert (await wire.ok("sendMessage", chat_id=4242, text="  hi\n "))["text"] == "hi"


async def test_a_refused_send_stores_and_mints_nothing(wire: Wire) -> None:
    await wire.refused("sendMessage", 400, "Bad Request: message is too long", chat_id=7, text="x" * 4097)
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        chat_id=7,
        text="x",
        reply_markup=BAD_KB,
    )
    assert (await wire.sim("GET", "/sim/chats"))[1] == {"chats": []}
    assert (await wire.ok("sendMessage", chat_id=7, text="ok"))["message_id"] == 1


async def test_a_send_refused_for_its_reply_target_leaves_an_empty_chat(wire: Wire) -> None:
    await wire.refused(
        "sendMessage", 400, "Bad Request: message to be replied not found", chat_id=7, text="x", reply_to_message_id=1
    )
    assert (await wire.sim("GET", "/sim/chats"))[1] == {"chats": [{"chat_id": 7, "type": "private", "messages": 0}]}
    assert (await wire.ok("sendMessage", chat_id=7, text="ok"))["message_id"] == 1


async def test_a_reply_quotes_its_target_one_level_deep(wire: Wire) -> None:
    await wire.say("question")
    first = await wire.ok("sendMessage", chat_id=4242, text="one", reply_to_message_id=1)
    assert first["reply_to_message"]["text"] == "question"
    assert first["reply_to_message"]["from"]["username"] == "alice"
    second = await wire.ok("sendMessage", chat_id=4242, text="two", reply_parameters='{"message_id":2}')
    assert second["reply_to_message"]["message_id"] == 2
    assert "reply_to_message" not in second["reply_to_message"]
    assert [m.get("reply_to_message_id") for m in (await view(wire))["messages"]] == [None, 1, 2]


async def test_reply_parameters_take_precedence_over_reply_to_message_id(wire: Wire) -> None:
    await wire.say("a")
    await wire.say("b")
    sent = await wire.ok(
        "sendMessage", chat_id=4242, text="x", reply_parameters='{"message_id":2}', reply_to_message_id=1
    )
    assert sent["reply_to_message"]["message_id"] == 2
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: message to be replied not found",
        chat_id=4242,
        text="x",
        reply_parameters='{"message_id":9}',
        reply_to_message_id=1,
    )


@pytest.mark.parametrize(
    "params",
    [
        {"reply_parameters": '{"message_id":1,"allow_sending_without_reply":true}'},
        {"reply_to_message_id": 1, "allow_sending_without_reply": "true"},
    ],
)
async def test_a_deleted_target_is_refused_unless_sending_without_reply(wire: Wire, params: dict[str, Any]) -> None:
    await wire.say("gone soon")
    await wire.ok("deleteMessage", chat_id=4242, message_id=1)
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: message to be replied not found",
        chat_id=4242,
        text="x",
        reply_to_message_id=1,
    )
    sent = await wire.ok("sendMessage", chat_id=4242, text="x", **params)
    assert "reply_to_message" not in sent
    assert "reply_to_message_id" not in (await view(wire))["messages"][-1]


@pytest.mark.parametrize(
    "bad",
    [
        "{",
        "[]",
        "5",
        '"text"',
        '{"message_id":"1"}',
        '{"message_id":1.0}',
        '{"message_id":true}',
        '{"message_id":1,"allow_sending_without_reply":"true"}',
    ],
)
async def test_broken_reply_parameters_are_refused(wire: Wire, bad: str) -> None:
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: can't parse reply parameters JSON object",
        chat_id=4242,
        text="x",
        reply_parameters=bad,
    )


async def test_the_view_shows_the_parsed_text_its_entities_and_the_parse_mode(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="<b>x</b>", parse_mode="HTML")
    assert (await view(wire))["messages"] == [
        {
            "message_id": 1,
            "from": "bot",
            "username": "tgfake_bot",
            "text": "x",
            "entities": [{"offset": 0, "length": 1, "type": "bold"}],
            "parse_mode": "HTML",
            "edited": False,
            "deleted": False,
            "rich": False,
        }
    ]


# --- editMessageText ------------------------------------------------------------------------------------------
async def test_edit_message_text_replaces_text_keyboard_and_parse_mode(wire: Wire, clock: ManualClock) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="old", reply_markup=KB, parse_mode="HTML")
    clock.advance(10)
    edited = await wire.ok("editMessageText", chat_id=4242, message_id=1, text="new", parse_mode="MarkdownV2")
    assert edited == {
        "message_id": 1,
        "from": BOT,
        "chat": {"id": 4242, "type": "private"},
        "date": 1_700_000_000,
        "edit_date": 1_700_000_010,
        "text": "new",
    }
    [msg] = (await view(wire))["messages"]
    assert (msg["text"], msg["parse_mode"], msg["edited"], "keyboard" in msg) == ("new", "MarkdownV2", True, False)


async def test_edit_message_text_not_modified(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="same", reply_markup=KB)
    await wire.refused("editMessageText", 400, NOT_MODIFIED, chat_id=4242, message_id=1, text="same", reply_markup=KB)
    await wire.ok("editMessageText", chat_id=4242, message_id=1, text="same", reply_markup=KB2)
    await wire.ok("editMessageText", chat_id=4242, message_id=1, text="same")
    await wire.refused("editMessageText", 400, NOT_MODIFIED, chat_id=4242, message_id=1, text="same")


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"message_id": 9, "text": ""}, "Bad Request: chat_id is empty"),
        ({"chat_id": 4242, "message_id": 9, "text": ""}, "Bad Request: message to edit not found"),
        ({"chat_id": 4242, "message_id": "x", "text": ""}, "Bad Request: message to edit not found"),
        ({"chat_id": 99, "message_id": 1, "text": ""}, "Bad Request: message to edit not found"),
        ({"chat_id": 4242, "message_id": 3, "text": ""}, "Bad Request: message to edit not found"),
        ({"chat_id": 4242, "message_id": 1, "text": ""}, "Bad Request: message can't be edited"),
        ({"chat_id": 4242, "message_id": 2}, "Bad Request: message text is empty"),
        (
            {"chat_id": 4242, "message_id": 2, "text": "я" * 4097, "reply_markup": BAD_KB},
            "Bad Request: message is too long",
        ),
        (
            {"chat_id": 4242, "message_id": 2, "text": "bot", "reply_markup": BAD_KB},
            "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        ),
        ({"chat_id": 4242, "message_id": 2, "text": "bot"}, NOT_MODIFIED),
    ],
)
async def test_edit_message_text_refusals_in_order(wire: Wire, params: dict[str, Any], description: str) -> None:
    await wire.say("person")
    await wire.ok("sendMessage", chat_id=4242, text="bot")
    await wire.ok("sendMessage", chat_id=4242, text="deleted")
    await wire.ok("deleteMessage", chat_id=4242, message_id=3)
    await wire.refused("editMessageText", 400, description, **params)
    assert [m["text"] for m in (await view(wire))["messages"]] == ["person", "bot", "deleted"]
    assert not any(m["edited"] for m in (await view(wire))["messages"])


async def test_edit_accepts_4096_code_points(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="short")
    assert (await wire.ok("editMessageText", chat_id=4242, message_id=1, text="я" * 4096))["text"] == "я" * 4096


async def test_a_refused_edit_leaves_the_message_intact(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="keep", reply_markup=KB)
    await wire.refused(
        "editMessageText",
        400,
        'Bad Request: Field "inline_keyboard" must be of type Array',
        chat_id=4242,
        message_id=1,
        text="changed",
        reply_markup='{"inline_keyboard":null}',
    )
    assert await wire.text() == "[1] bot: keep\n    [Ping]\n"


# --- editMessageReplyMarkup -----------------------------------------------------------------------------------
async def test_edit_reply_markup_replaces_and_removes_the_keyboard(wire: Wire, clock: ManualClock) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="t", reply_markup=KB, parse_mode="HTML")
    clock.advance(1)
    edited = await wire.ok("editMessageReplyMarkup", chat_id=4242, message_id=1, reply_markup=KB2)
    assert edited["reply_markup"] == json.loads(KB2)
    assert (edited["text"], edited["edit_date"]) == ("t", 1_700_000_001)
    removed = await wire.ok("editMessageReplyMarkup", chat_id=4242, message_id=1)
    assert "reply_markup" not in removed
    await wire.refused("editMessageReplyMarkup", 400, NOT_MODIFIED, chat_id=4242, message_id=1)
    await wire.refused(
        "editMessageReplyMarkup", 400, NOT_MODIFIED, chat_id=4242, message_id=1, reply_markup='{"inline_keyboard":[]}'
    )
    [msg] = (await view(wire))["messages"]
    assert (msg["parse_mode"], msg["edited"], "keyboard" in msg) == ("HTML", True, False)


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"message_id": 2, "reply_markup": BAD_KB}, "Bad Request: chat_id is empty"),
        ({"chat_id": 4242, "message_id": 7, "reply_markup": BAD_KB}, "Bad Request: message to edit not found"),
        ({"chat_id": 4242, "message_id": 1, "reply_markup": BAD_KB}, "Bad Request: message can't be edited"),
        (
            {"chat_id": 4242, "message_id": 2, "reply_markup": BAD_KB},
            "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        ),
        ({"chat_id": 4242, "message_id": 2, "reply_markup": KB}, NOT_MODIFIED),
    ],
)
async def test_edit_reply_markup_refusals_in_order(wire: Wire, params: dict[str, Any], description: str) -> None:
    await wire.say("person")
    await wire.ok("sendMessage", chat_id=4242, text="bot", reply_markup=KB)
    await wire.refused("editMessageReplyMarkup", 400, description, **params)
    assert await wire.text() == "[1] alice: person\n[2] bot: bot\n    [Ping]\n"


# --- deleteMessage --------------------------------------------------------------------------------------------
async def test_delete_flags_the_bots_and_the_persons_messages_once(wire: Wire) -> None:
    await wire.say("mine")
    await wire.ok("sendMessage", chat_id=4242, text="bots")
    assert await wire.ok("deleteMessage", chat_id=4242, message_id=1) is True
    assert await wire.ok("deleteMessage", chat_id=4242, message_id=2) is True
    await wire.refused("deleteMessage", 400, "Bad Request: message to delete not found", chat_id=4242, message_id=2)
    assert [m["deleted"] for m in (await view(wire))["messages"]] == [True, True]
    assert await wire.text() == ""
    await wire.refused(
        "editMessageText", 400, "Bad Request: message to edit not found", chat_id=4242, message_id=2, text="x"
    )


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"message_id": 1}, "Bad Request: chat_id is empty"),
        ({"chat_id": "@alice", "message_id": 1}, "Bad Request: chat not found"),  # a person is not public
        ({"chat_id": 4242}, "Bad Request: message to delete not found"),
        ({"chat_id": 4242, "message_id": 5}, "Bad Request: message to delete not found"),
        ({"chat_id": 77, "message_id": 1}, "Bad Request: message to delete not found"),
    ],
)
async def test_delete_refusals(wire: Wire, params: dict[str, Any], description: str) -> None:
    await wire.say("keep")
    await wire.refused("deleteMessage", 400, description, **params)
    assert await wire.text() == "[1] alice: keep\n"


# --- sendChatAction -------------------------------------------------------------------------------------------
async def test_chat_action_shows_typing_for_five_seconds(wire: Wire, clock: ManualClock) -> None:
    await wire.say("hi")
    assert await wire.ok("sendChatAction", chat_id=4242, action="typing") is True
    assert (await view(wire))["typing"] is True
    assert await wire.text() == "[1] alice: hi\ntyping…\n"
    clock.set(1_700_000_004.999)
    assert (await view(wire))["typing"] is True
    clock.set(1_700_000_005)
    assert (await view(wire))["typing"] is False
    assert await wire.text() == "[1] alice: hi\n"
    [call] = await wire.outbox("sendChatAction")
    assert call["params"] == {"chat_id": "4242", "action": "typing"}


async def test_chat_action_creates_an_unknown_chat(wire: Wire) -> None:
    await wire.ok("sendChatAction", chat_id=-77, action="upload_photo")
    assert (await wire.sim("GET", "/sim/chats"))[1] == {"chats": [{"chat_id": -77, "type": "group", "messages": 0}]}
    assert (await view(wire, -77))["typing"] is True


async def test_chat_action_needs_a_chat_id(wire: Wire) -> None:
    await wire.refused("sendChatAction", 400, "Bad Request: chat_id is empty", action="typing")
    await wire.refused("sendChatAction", 400, "Bad Request: chat not found", chat_id=0, action="typing")


async def test_chat_action_telegram_does_not_know_is_refused_before_the_chat(wire: Wire) -> None:
    """python-telegram-bot's suite sends "unknown action"; the check comes before the chat's, in Client.cpp's order."""
    wrong = "Bad Request: Wrong parameter action in request"
    await wire.refused("sendChatAction", 400, wrong, chat_id=4242, action="unknown action")
    await wire.refused("sendChatAction", 400, wrong, chat_id=0, action=" typing")
    await wire.refused("sendChatAction", 400, wrong, chat_id=4242)
    assert await wire.ok("sendChatAction", chat_id=4242, action="Record_Voice") is True
    assert await wire.ok("sendChatAction", chat_id=4242, action="find_location") is True


async def test_wire_objects_keep_telegrams_field_order(wire: Wire, clock: ManualClock) -> None:
    await wire.say("/start", chat_type="group", chat_id=-9)
    await wire.ok("sendMessage", chat_id=-9, text="pick", reply_to_message_id=1, reply_markup=KB)
    clock.advance(1)
    edited = await wire.ok("editMessageText", chat_id=-9, message_id=2, text="picked", reply_markup=KB)
    assert list(edited) == [
        "message_id",
        "from",
        "chat",
        "date",
        "edit_date",
        "text",
        "reply_to_message",
        "reply_markup",
    ]
    assert list(edited["from"]) == ["id", "is_bot", "first_name", "username"]
    assert list(edited["chat"]) == ["id", "type", "title"]
    await wire.say("again", chat_id=-9, reply_to_message_id=2)
    await wire.sim("POST", "/sim/callback", {"label": "Ping", "chat_id": -9})
    updates = await wire.ok("getUpdates")
    assert [list(u) for u in updates] == [["update_id", "message"]] * 2 + [["update_id", "callback_query"]]
    assert list(updates[0]["message"]) == ["message_id", "from", "chat", "date", "text", "entities"]
    assert list(updates[1]["message"]) == ["message_id", "from", "chat", "date", "text", "reply_to_message"]
    assert list(updates[2]["callback_query"]) == ["id", "from", "message", "chat_instance", "data"]
    assert list(updates[0]["message"]["entities"][0]) == ["offset", "length", "type"]  # as the Bot API writes them
    _, outbox = await wire.sim("GET", "/sim/outbox?method=editMessageText")
    assert list(outbox["calls"][0]) == ["seq", "at", "method", "params", "status", "response", "bot_id"]


async def test_reply_parameters_without_a_message_id_send_unthreaded(wire: Wire) -> None:
    await wire.say("q")
    for params in ("{}", '{"message_id":null}', '{"message_id":0,"allow_sending_without_reply":false}'):
        sent = await wire.ok("sendMessage", chat_id=4242, text="x", reply_parameters=params, reply_to_message_id=1)
        assert "reply_to_message" not in sent, params
