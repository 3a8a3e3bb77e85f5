"""A refused Bot API call changes nothing (issue 21): every method parses its parameters, in Client.cpp's order,
before it changes anything. ``stopPoll … reply_markup={bad`` closed the poll and answered 200.

The property: over a world with a private chat (a text, a message with an inline keyboard, a poll, a live
location) and a forum supergroup the bot administers, a state-changing call with one parameter spoiled either
succeeds or leaves everything observable as it was: ``GET /sim/state`` (less its call counter), both chat views
(messages, polls, keyboards, members, topics), the chat list and the pending updates.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.test_robustness import request
from tgfake.botapi.schema import method as described
from tgfake.options import Options
from tgfake.testing import ThreadedStand

TOKEN = "123:abc"
GROUP = -1000000000001
KEYBOARD = json.dumps({"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]})
OTHER_KEYBOARD = json.dumps({"inline_keyboard": [[{"text": "B", "callback_data": "b"}]]})
MENU = json.dumps({"type": "web_app", "text": "App", "web_app": {"url": "https://app.example.com/"}})
STARS = {"title": "Boost", "description": "A boost", "payload": "p", "currency": "XTR"}

# Each method with parameters it succeeds with in the world below; message 2 has a keyboard, 3 is a poll, 4 a
# live location, all the bot's, in alice's private chat (4242).
CALLS: dict[str, dict[str, str]] = {
    "sendMessage": {"chat_id": "4242", "text": "hey", "reply_markup": KEYBOARD},
    "editMessageText": {"chat_id": "4242", "message_id": "2", "text": "edited", "reply_markup": OTHER_KEYBOARD},
    "editMessageReplyMarkup": {"chat_id": "4242", "message_id": "2", "reply_markup": OTHER_KEYBOARD},
    "stopPoll": {"chat_id": "4242", "message_id": "3", "reply_markup": KEYBOARD},
    "sendPoll": {"chat_id": "4242", "question": "Q", "options": '["a","b"]', "reply_markup": KEYBOARD},
    "editMessageLiveLocation": {
        "chat_id": "4242",
        "message_id": "4",
        "latitude": "1.5",
        "longitude": "2.5",
        "reply_markup": KEYBOARD,
    },
    "stopMessageLiveLocation": {"chat_id": "4242", "message_id": "4", "reply_markup": KEYBOARD},
    "deleteMessage": {"chat_id": "4242", "message_id": "2"},
    "setMessageReaction": {"chat_id": "4242", "message_id": "1", "reaction": '[{"type":"emoji","emoji":"👍"}]'},
    "pinChatMessage": {"chat_id": "4242", "message_id": "2"},
    "setMyCommands": {"commands": '[{"command":"start","description":"Start"}]'},
    "sendLocation": {"chat_id": "4242", "latitude": "1", "longitude": "2", "reply_markup": KEYBOARD},
    "sendContact": {"chat_id": "4242", "phone_number": "+100", "first_name": "Bob", "reply_markup": KEYBOARD},
    "sendVenue": {
        "chat_id": "4242",
        "latitude": "1",
        "longitude": "2",
        "title": "Cafe",
        "address": "Main St",
        "reply_markup": KEYBOARD,
    },
    "sendDice": {"chat_id": "4242", "reply_markup": KEYBOARD},
    "sendInvoice": {"chat_id": "4242", "prices": '[{"label":"x","amount":5}]', "reply_markup": KEYBOARD, **STARS},
    "copyMessage": {"chat_id": str(GROUP), "from_chat_id": "4242", "message_id": "1", "reply_markup": KEYBOARD},
    "forwardMessage": {"chat_id": str(GROUP), "from_chat_id": "4242", "message_id": "1"},
    "setChatTitle": {"chat_id": str(GROUP), "title": "New"},
    "setChatDescription": {"chat_id": str(GROUP), "description": "About"},
    "banChatMember": {"chat_id": str(GROUP), "user_id": "4343", "until_date": "0"},
    "restrictChatMember": {"chat_id": str(GROUP), "user_id": "4343", "permissions": '{"can_send_messages":false}'},
    "promoteChatMember": {"chat_id": str(GROUP), "user_id": "4343", "can_pin_messages": "true"},
    "setChatPermissions": {"chat_id": str(GROUP), "permissions": '{"can_send_messages":true}'},
    "createForumTopic": {"chat_id": str(GROUP), "name": "Tea", "icon_color": "7322096"},
    "deleteMessages": {"chat_id": "4242", "message_ids": "[1,2]"},
    "setChatMenuButton": {"chat_id": "4242", "menu_button": MENU},
    "setMyName": {"name": "Helper", "language_code": "en"},
    "setMyDescription": {"description": "Helps", "language_code": "en"},
    "setMyShortDescription": {"short_description": "Helps", "language_code": "en"},
    "setMyDefaultAdministratorRights": {"rights": '{"can_pin_messages":true}', "for_channels": "false"},
    "exportChatInviteLink": {"chat_id": str(GROUP)},
    "sendChatAction": {"chat_id": "4242", "action": "typing"},
}
SPOILED = [
    "{bad",
    "[1]",
    "null",
    "5",
    "-1",
    "2147483648",
    "x" * 5000,
    '{"inline_keyboard":[["x"]]}',
    '{"keyboard":"x"}',
    '[{"type":"emoji","emoji":"nope"}]',
    "true",
    "",
    "nan",
    " 1",
]


def params_of(method: str) -> list[str]:
    """Every parameter the method takes (the Bot API's list), the ones given first."""
    given = list(CALLS[method])
    schema = described(method)
    assert schema is not None
    return given + [p.name for p in schema.params if p.name not in given]


def call(origin: str, method: str, values: dict[str, str]) -> tuple[int, dict[str, Any]]:
    status, body = request(
        f"{origin}/bot{TOKEN}/{method}",
        data=urllib.parse.urlencode(values).encode(),
        ctype="application/x-www-form-urlencoded",
    )
    return status, json.loads(body)


def sim(origin: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    status, answer = request(
        f"{origin}{path}", data=data, ctype="application/json", method="GET" if data is None else "POST"
    )
    assert status == 200, answer
    return json.loads(answer)


def build_world(origin: str) -> None:
    """Reset, then: alice's text (1), the bot's keyboard (2), poll (3) and live location (4); the forum."""
    sim(origin, "/sim/reset", {})
    sim(origin, "/sim/message", {"text": "hi"})
    for method, values in (
        ("sendMessage", {"chat_id": "4242", "text": "menu", "reply_markup": KEYBOARD}),
        ("sendPoll", {"chat_id": "4242", "question": "Tea?", "options": '["Yes","No"]'}),
        ("sendLocation", {"chat_id": "4242", "latitude": "1", "longitude": "2", "live_period": "600"}),
    ):
        status, answer = call(origin, method, values)
        assert status == 200, answer
    forum = {"title": "Club", "is_forum": True, "admins": ["@tgfake_bot"], "members": ["bob"]}
    assert sim(origin, "/sim/chats", forum)["chat_id"] == GROUP


READS: tuple[tuple[str, dict[str, str]], ...] = (
    ("getChat", {"chat_id": "4242"}),
    ("getChat", {"chat_id": str(GROUP)}),
    ("getChatMember", {"chat_id": str(GROUP), "user_id": "4343"}),
    ("getChatMenuButton", {"chat_id": "4242"}),
    ("getMyCommands", {}),
    ("getMyName", {"language_code": "en"}),
    ("getMyDescription", {"language_code": "en"}),
    ("getMyShortDescription", {"language_code": "en"}),
    ("getMyDefaultAdministratorRights", {}),
)
"""What the sim's views leave out (a description, permissions, rights, the menu button), read as the bot reads it."""


def observed(origin: str) -> tuple[Any, ...]:
    """Everything a refusal must leave as it was."""
    state = sim(origin, "/sim/state")
    state.pop("calls", None)
    views = [sim(origin, path) for path in ("/sim/chat/4242", f"/sim/chat/{GROUP}", "/sim/chats")]
    return state, views, [call(origin, method, values) for method, values in READS]


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with ThreadedStand(Options(poll_max=0.05, token=TOKEN)) as stand:
        call(stand.url, "getMe", {})
        yield stand.url


def test_every_baseline_call_succeeds(origin: str) -> None:
    """The property below would hold vacuously if the unspoiled calls were refused."""
    for method, values in CALLS.items():
        build_world(origin)
        status, answer = call(origin, method, values)
        assert status == 200, (method, answer)


def test_stop_poll_with_a_markup_that_is_no_json_leaves_the_poll_open(origin: str) -> None:
    build_world(origin)
    before = observed(origin)
    status, answer = call(origin, "stopPoll", {"chat_id": "4242", "message_id": "3", "reply_markup": "{bad"})
    assert (status, answer["description"]) == (400, "Bad Request: can't parse reply keyboard markup JSON object")
    assert observed(origin) == before
    poll = next(m for m in before[1][0]["messages"] if m["message_id"] == 3)["poll"]
    assert poll["is_closed"] is False


@pytest.mark.parametrize(
    ("values", "description"),
    [
        ({"reply_markup": "{bad"}, "Bad Request: can't parse reply keyboard markup JSON object"),
        ({"reply_markup": "[1]"}, "Bad Request: object expected as reply markup"),
        ({"reply_markup": KEYBOARD, "business_connection_id": "x"}, "Bad Request: chat identifier is empty"),
        (
            {"reply_markup": KEYBOARD, "business_connection_id": "x", "chat_id": "4242"},
            "Bad Request: business connection not found",
        ),
        ({"reply_markup": KEYBOARD}, "Bad Request: chat_id is empty"),
    ],
)
def test_stop_poll_reads_the_markup_before_the_chat(origin: str, values: dict[str, str], description: str) -> None:
    """``process_stop_poll_query``: the markup, then the business connection's chat (an Integer) and the connection,
    else the chat (none given here)."""
    status, answer = call(origin, "stopPoll", {"message_id": "3", **values})
    assert (status, answer["description"]) == (400, description)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), method=st.sampled_from(sorted(CALLS)), value=st.sampled_from(SPOILED) | st.text(max_size=8))
def test_a_refused_call_changes_nothing(origin: str, data: Any, method: str, value: str) -> None:
    name = data.draw(st.sampled_from(params_of(method)), label="parameter")
    build_world(origin)
    before = observed(origin)
    status, answer = call(origin, method, {**CALLS[method], name: value})
    assert status < 500, answer
    if status != 200:
        assert observed(origin) == before, (method, name, value, answer)
