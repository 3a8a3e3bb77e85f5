"""Inline keyboards: parsing reply_markup, every button refusal in its order, equality for "not modified"."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import Wire
from tgfake.text.links import LinkError, check_link

TEXT_BUTTONS = "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
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
            [{"text": "A", "callback_data": "a"}, {"text": "Site", "url": "https://example.com/"}],
            [{"text": "App", "web_app": {"url": "https://app.example.com/"}}],
        ]
    }  # a url button's link comes back as Telegram writes it: with a path
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
        {"text": "w", "web_app": None},
    ],
)
async def test_a_button_without_a_modelled_action_is_a_text_button(wire: Wire, button: dict[str, Any]) -> None:
    await wire.refused("sendMessage", 400, TEXT_BUTTONS, chat_id=4242, text="x", reply_markup=markup([button]))


async def test_a_login_url_button_is_sent_and_shown_as_its_url(wire: Wire) -> None:
    """Telegraf's login-bot: Telegram takes a login_url button and writes it back as a url button (Client.cpp)."""
    login = {"url": "http://domain.tld/hash", "bot_username": "my_bot", "request_write_access": True}
    sent = await wire.ok(
        "sendMessage", chat_id=4242, text="Hello", reply_markup=markup([{"text": "Login", "login_url": login}])
    )
    assert sent["reply_markup"] == {"inline_keyboard": [[{"text": "Login", "url": "http://domain.tld/hash"}]]}


@pytest.mark.parametrize(
    ("login_url", "problem"),
    [
        ("https://x.org", 'Field "login_url" must be of type Object'),
        ({"bot_username": "my_bot"}, 'Can\'t find field "url"'),
        ({"url": "https://x.org", "bot_username": "my-bot"}, "LoginUrl bot username is invalid"),
        ({"url": "https://x.org", "bot_username": "@"}, "LoginUrl bot username is invalid"),
        (
            {"url": "https://x.org", "request_write_access": "yes"},
            'Field "request_write_access" must be of type Boolean',
        ),
    ],
)
async def test_a_login_url_is_parsed_as_telegram_parses_it(wire: Wire, login_url: Any, problem: str) -> None:
    description = f"Bad Request: can't parse inline keyboard button: {problem}"
    button = {"text": "Login", "login_url": login_url}
    await wire.refused("sendMessage", 400, description, chat_id=4242, text="x", reply_markup=markup([button]))


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


# --- url buttons: td's check_link ------------------------------------------------------------------------------
URL_INVALID = "Bad Request: inline keyboard button URL '{}' is invalid: {}"


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("javascript://alert(1)", "Unsupported URL protocol"),
        ("file:///etc/passwd", "Unsupported URL protocol"),
        ("ftp://files.example.com/", "Unsupported URL protocol"),
        ("chrome://settings", "Unsupported URL protocol"),
        ("javascript:alert(1)", "Wrong port number specified in the URL"),  # no "//": read as host:port
        ("data:text/html,<script>x</script>", "Wrong port number specified in the URL"),
        ("https://example.com:0/", "Wrong port number specified in the URL"),
        ("https://example.com:65536/", "Wrong port number specified in the URL"),
        ("http://localhost:8080/", "Wrong HTTP URL"),
        ("https://intranet/", "Wrong HTTP URL"),
        ("https:///path", "URL host is empty"),
        ("https://./", "Host is invalid"),
        ("https://[zz::1]/", "Wrong IPv6 address specified in the URL"),
        ("https://exa mple.com/", "Disallowed character in URL host"),
        ("https://ex%4.com/", "Wrong percent-encoded symbol in URL host"),
        ("https://us<er@example.com/", "Disallowed character in URL userinfo"),
        (" https://example.com", "Unsupported URL protocol"),
        ("tg://https://example.com", "Wrong tg URL"),
        ("tg://resolve:80", "Wrong tg URL"),
        ("tg://a.b", "Unallowed characters in URL host"),
        ("ton://user@wallet", "Wrong ton URL"),
    ],
)
async def test_a_url_button_telegram_cannot_open_is_refused_in_its_words(wire: Wire, url: str, reason: str) -> None:
    kb = markup([{"text": "Go", "url": url}])
    await wire.refused("sendMessage", 400, URL_INVALID.format(url, reason), chat_id=4242, text="x", reply_markup=kb)
    assert await wire.text() == ""


@pytest.mark.parametrize(
    ("url", "stored"),
    [
        ("https://example.com", "https://example.com/"),
        ("HTTPS://Example.COM/Path?q=A#Frag", "https://example.com/Path?q=A#Frag"),
        ("example.com/page", "http://example.com/page"),
        ("http://example.com:080/a b", "http://example.com:80/a%20b"),
        ("https://user:pw@example.com", "https://user:pw@example.com/"),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
        ("https://пример.рф/путь", "https://пример.рф/путь"),
        ("tg://resolve?domain=tgfake_bot", "tg://resolve?domain=tgfake_bot"),
        ("TG:resolve?domain=x", "tg://resolve?domain=x"),
        ("tg://user?id=4242", "tg://user?id=4242"),
        ("ton://wallet", "ton://wallet/"),
        ("tonsite://Site.ton/page", "tonsite://site.ton/page"),
    ],
)
async def test_a_url_button_is_stored_as_telegram_writes_it(wire: Wire, url: str, stored: str) -> None:
    sent = await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=markup([{"text": "Go", "url": url}]))
    assert sent["reply_markup"]["inline_keyboard"][0][0] == {"text": "Go", "url": stored}
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["messages"][0]["keyboard"][0][0]["url"] == stored


async def test_an_edit_to_the_same_link_written_otherwise_is_not_a_modification(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=markup([{"text": "Go", "url": "https://a.org"}]))
    await wire.refused(
        "editMessageReplyMarkup",
        400,
        "Bad Request: message is not modified: specified new message content and reply markup are exactly "
        "the same as a current content and reply markup of the message",
        chat_id=4242,
        message_id=1,
        reply_markup=markup([{"text": "Go", "url": "HTTPS://A.ORG/"}]),
    )


LINK_PIECES = [*"aZ09.-_:/?#@[]%! ~*'()&+=;,$<>\"\\\t\x00é", "http", "https", "tg", "ton", "://", "%4A"]
link_text = st.lists(st.sampled_from(LINK_PIECES), max_size=20).map("".join)
PREFIXES = ["", "http://", "HTTPS://", "tg:", "tg://", "ton://", "tonsite://", "javascript:"]


@settings(max_examples=400, deadline=None)
@given(prefix=st.sampled_from(PREFIXES), rest=link_text)
def test_check_link_refuses_in_words_or_returns_a_link_it_keeps(prefix: str, rest: str) -> None:
    """Any text is refused with a LinkError or normalised once and for all (a stored link checks as itself)."""
    try:
        stored = check_link(prefix + rest)
    except LinkError as exc:
        reason = str(exc)
    else:
        reason = ""
        assert stored.split("://", 1)[0] in ("http", "https", "tg", "ton", "tonsite")
        assert check_link(stored) == stored
        assert not any(ord(c) <= 0x20 for c in stored)
    assert reason or stored
