"""Inline keyboards: parsing reply_markup, every button refusal in its order, equality for "not modified"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Wire

TEXT_BUTTONS = "Bad Request: Text buttons are not allowed in the inline keyboard"
TYPE_INVALID = "Bad Request: BUTTON_TYPE_INVALID"
DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
NOT_ARRAY = 'Bad Request: Field "inline_keyboard" must be of type Array'
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same "
    "as a current content and reply markup of the message"
)


def markup(*rows: list[dict[str, Any]]) -> str:
    return json.dumps({"inline_keyboard": list(rows)})


def cb(text: str, data: str) -> dict[str, Any]:
    return {"text": text, "callback_data": data}


def web_app(text: str, url: str) -> dict[str, Any]:
    return {"text": text, "web_app": {"url": url}}


async def test_a_keyboard_is_returned_viewed_and_transcribed(wire: Wire) -> None:
    kb = markup(
        [cb("A", "a"), {"text": "Site", "url": "https://example.com"}],
        [web_app("App", "https://app.example.com/")],
    )
    sent = await wire.ok("sendMessage", chat_id=4242, text="pick", reply_markup=kb)
    assert sent["reply_markup"] == {
        "inline_keyboard": [
            [{"text": "A", "callback_data": "a"}, {"text": "Site", "url": "https://example.com"}],
            [{"text": "App", "web_app": {"url": "https://app.example.com/"}}],
        ]
    }
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["messages"][0]["keyboard"] == sent["reply_markup"]["inline_keyboard"]
    assert await wire.text() == "[1] bot: pick\n    [A] [Site]\n    [App]\n"


async def test_callback_data_is_limited_to_64_bytes(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=markup([cb("ok", "я" * 32)]))
    await wire.refused(
        "sendMessage", 400, DATA_INVALID, chat_id=4242, text="x", reply_markup=markup([cb("no", "я" * 32 + "a")])
    )


@pytest.mark.parametrize(
    "button",
    [
        {"text": "plain"},
        cb("empty", ""),
        {"text": "login", "login_url": {"url": "https://x"}},
        {"text": "w", "web_app": None},
    ],
)
async def test_a_button_without_a_modelled_action_is_a_text_button(wire: Wire, button: dict[str, Any]) -> None:
    await wire.refused("sendMessage", 400, TEXT_BUTTONS, chat_id=4242, text="x", reply_markup=markup([button]))


@pytest.mark.parametrize(
    "button",
    [
        {"text": "two", "callback_data": "a", "url": "https://x.org"},
        {"text": "two", "url": "https://x.org", "web_app": {"url": "https://x.org"}},
        {"text": "long", "callback_data": "x" * 65, "url": "https://x.org"},
    ],
)
async def test_more_than_one_action_is_button_type_invalid(wire: Wire, button: dict[str, Any]) -> None:
    await wire.refused("sendMessage", 400, TYPE_INVALID, chat_id=4242, text="x", reply_markup=markup([button]))


@pytest.mark.parametrize(
    ("rows", "description"),
    [
        ([[{"text": "plain"}, cb("long", "x" * 65)]], TEXT_BUTTONS),
        ([[cb("long", "x" * 65)], [{"text": "plain"}]], DATA_INVALID),
        ([[web_app("App", "https://app.example.com/")], [cb("long", "x" * 65)]], TYPE_INVALID),
    ],
)
async def test_the_first_failing_button_wins(wire: Wire, rows: list[Any], description: str) -> None:
    await wire.refused("sendMessage", 400, description, chat_id=-100, text="x", reply_markup=markup(*rows))


@pytest.mark.parametrize("value", ["null", "{}", '"[]"', "0", '[{"text":"a"}]', "[1]"])
async def test_inline_keyboard_must_be_an_array_of_rows(wire: Wire, value: str) -> None:
    await wire.refused(
        "sendMessage", 400, NOT_ARRAY, chat_id=4242, text="x", reply_markup='{"inline_keyboard":' + value + "}"
    )


async def test_inline_keyboard_null_in_a_json_body(wire: Wire) -> None:
    status, body = await wire.call_json(
        "sendMessage", {"chat_id": 4242, "text": "x", "reply_markup": {"inline_keyboard": None}}
    )
    assert (status, body["description"]) == (400, NOT_ARRAY)


async def test_a_button_that_is_no_object_is_refused(wire: Wire) -> None:
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: can't parse inline keyboard button: InlineKeyboardButton must be an Object",
        chat_id=4242,
        text="x",
        reply_markup='{"inline_keyboard":[["Ping"]]}',
    )


@pytest.mark.parametrize(
    "value",
    [
        '{"inline_keyboard":[]}',
        '{"remove_keyboard":true}',
        '{"force_reply":true}',
        '{"keyboard":[[{"text":"Reply"}]]}',
        "[1]",
        "not json",
        "5",
        "",
    ],
)
async def test_markups_accepted_without_a_keyboard(wire: Wire, value: str) -> None:
    sent = await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=value)
    assert "reply_markup" not in sent
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert "keyboard" not in chat["messages"][0]


# --- Mini App buttons -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "url",
    [
        "https://app.example.com/",
        "http://127.0.0.1:18792/",
        "http://127.5.0.1/",
        "http://localhost:5173/",
        "http://LocalHost/",
        "http://[::1]:8080/",
        " https://app.example.com/ ",
    ],
)
async def test_web_app_addresses_accepted(wire: Wire, url: str) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=markup([web_app("App", url)]))


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://app.example.com/", "Web App URL 'http://app.example.com/' is invalid: Only HTTPS links are allowed"),
        ("http://10.0.0.1/", "Web App URL 'http://10.0.0.1/' is invalid: Only HTTPS links are allowed"),
        ("ftp://app.example.com/", "Web App URL 'ftp://app.example.com/' is invalid"),
        ("app.example.com", "Web App URL 'app.example.com' is invalid"),
        ("", "Web App URL '' is invalid"),
        ("https://:443/app", "Web App URL 'https://:443/app' is invalid"),
        ("https://:/x", "Web App URL 'https://:/x' is invalid"),
    ],
)
async def test_web_app_addresses_refused(wire: Wire, url: str, problem: str) -> None:
    await wire.refused(
        "sendMessage",
        400,
        f"Bad Request: inline keyboard button {problem}",
        chat_id=4242,
        text="x",
        reply_markup=markup([web_app("App", url)]),
    )


async def test_a_web_app_without_an_address_is_refused(wire: Wire) -> None:
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: inline keyboard button Web App URL '' is invalid",
        chat_id=4242,
        text="x",
        reply_markup=markup([{"text": "App", "web_app": {}}]),
    )


async def test_web_app_buttons_only_in_private_chats(wire: Wire) -> None:
    kb = markup([web_app("App", "https://app.example.com/")])
    await wire.refused("sendMessage", 400, TYPE_INVALID, chat_id=-100, text="x", reply_markup=kb)
    await wire.say("hi", chat_type="group", chat_id=-555)
    await wire.refused("sendMessage", 400, TYPE_INVALID, chat_id=-555, text="x", reply_markup=kb)
    await wire.refused("sendMessage", 400, TYPE_INVALID, chat_id=-555, text="x", reply_markup=kb)
    await wire.ok("sendMessage", chat_id=-555, text="plain")
    await wire.refused("editMessageReplyMarkup", 400, TYPE_INVALID, chat_id=-555, message_id=2, reply_markup=kb)
    await wire.ok("sendMessage", chat_id=556, text="x", reply_markup=kb)


# --- equality for "not modified" ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "other",
    [
        markup([web_app("App", "https://app.example.com/other")]),
        markup([{"text": "App", "url": "https://app.example.com/"}]),
        markup([web_app("App2", "https://app.example.com/")]),
        markup([web_app("App", "https://app.example.com/")], []),
        markup([web_app("App", "https://app.example.com/"), cb("B", "b")]),
    ],
)
async def test_keyboards_differ_by_shape_text_and_every_action(wire: Wire, other: str) -> None:
    kb = markup([web_app("App", "https://app.example.com/")])
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=kb)
    await wire.refused("editMessageReplyMarkup", 400, NOT_MODIFIED, chat_id=4242, message_id=1, reply_markup=kb)
    await wire.refused("editMessageText", 400, NOT_MODIFIED, chat_id=4242, message_id=1, text="x", reply_markup=kb)
    await wire.ok("editMessageReplyMarkup", chat_id=4242, message_id=1, reply_markup=other)
