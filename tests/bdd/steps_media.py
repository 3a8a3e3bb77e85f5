"""Steps for the lifecycle and Mini App features: synchronous, over HTTP, with the stand's clock moved."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from pytest_bdd import given, parsers, then, when

from tests.bdd.stand_thread import ThreadedStand
from tgfake import webapp

TOKEN = "123456:scenario-token"


@pytest.fixture
def stand() -> Iterator[ThreadedStand]:
    served = ThreadedStand().start()
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture
def ctx() -> dict[str, Any]:
    """What one step leaves for the next (the latest launch, mostly)."""
    return {}


def quoted(text: str) -> list[str]:
    return re.findall(r'"([^"]*)"', text)


# --- the person and the bot ------------------------------------------------------------------------------------


@given(parsers.parse('the person said "{text}"'))
def person_said(stand: ThreadedStand, text: str) -> None:
    stand.sim("POST", "/sim/message", {"text": text})


@when("the bot subscribes to callback queries only")
def subscribe_to_callbacks(stand: ThreadedStand) -> None:
    stand.bot(TOKEN, "getUpdates", timeout=0, limit=1, offset=-1, allowed_updates='["callback_query"]')


@then(parsers.parse('the bot\'s next poll carries the message "{text}"'))
def poll_carries_message(stand: ThreadedStand, text: str) -> None:
    updates = stand.bot(TOKEN, "getUpdates", timeout=0)
    assert [u["message"]["text"] for u in updates] == [text]


@given(
    parsers.re(r'the bot streams rich draft (?P<draft_id>-?\d+) saying "(?P<text>[^"]*)"(?P<stop> with a Stop button)?')
)
def bot_streams_rich_draft(stand: ThreadedStand, draft_id: str, text: str, stop: str | None) -> None:
    params: dict[str, Any] = {"chat_id": 4242, "draft_id": draft_id, "rich_message": json.dumps({"markdown": text})}
    if stop:
        params["can_stop"] = "true"
    assert stand.bot(TOKEN, "sendRichMessageDraft", **params) is True


@when(parsers.re(r"the bot streams the draft (?P<draft_id>-?\d+) as (?P<texts>.+)"))
def bot_streams_text_draft(stand: ThreadedStand, draft_id: str, texts: str) -> None:
    for text in quoted(texts):
        assert stand.bot(TOKEN, "sendMessageDraft", chat_id=4242, draft_id=draft_id, text=text) is True
        stand.clock.advance(0.25)


@when(parsers.parse('the bot sends the message "{text}"'))
def bot_sends_message(stand: ThreadedStand, text: str) -> None:
    stand.bot(TOKEN, "sendMessage", chat_id=4242, text=text)


@when(parsers.parse("{seconds:d} seconds pass without a revision"))
def time_passes(stand: ThreadedStand, seconds: int) -> None:
    stand.clock.advance(seconds)


@then(parsers.re(r"the chat shows (?P<count>\d+) previews?"))
def chat_shows_previews(stand: ThreadedStand, count: str) -> None:
    assert len(stand.sim("GET", "/sim/chat/4242")["drafts"]) == int(count)


@when("the person presses Stop")
def person_presses_stop(stand: ThreadedStand) -> None:
    stand.sim("POST", "/sim/draft/stop", {})


@then(
    parsers.parse("the bot's next poll carries a stopped generation of draft {draft_id:d} in private chat {chat_id:d}")
)
def poll_carries_stop(stand: ThreadedStand, draft_id: int, chat_id: int) -> None:
    [update] = stand.bot(TOKEN, "getUpdates", timeout=0)
    stopped = update["stopped_message_generation"]
    assert stopped["draft_id"] == draft_id
    assert (stopped["chat"]["id"], stopped["chat"]["type"]) == (chat_id, "private")


@then(parsers.re(r"the history of draft (?P<draft_id>-?\d+) shows the texts (?P<texts>.+)"))
def history_shows(stand: ThreadedStand, draft_id: str, texts: str) -> None:
    history = stand.sim("GET", f"/sim/chat/4242/drafts/{draft_id}")
    assert [r["text"] for r in history["revisions"]] == quoted(texts)
    times = [r["at_unix"] for r in history["revisions"]]
    assert times == sorted(times)


@then("the chat transcript is:")
def transcript_is(stand: ThreadedStand, docstring: str) -> None:
    assert stand.text() == docstring.strip("\n") + "\n"


# --- Mini Apps ---------------------------------------------------------------------------------------------------


@given(parsers.parse('the bot sent a button "{label}" opening "{url}"'))
def bot_sent_web_app_button(stand: ThreadedStand, label: str, url: str) -> None:
    keyboard = {"inline_keyboard": [[{"text": label, "web_app": {"url": url}}]]}
    stand.bot(TOKEN, "sendMessage", chat_id=4242, text="Open the app", reply_markup=json.dumps(keyboard))


@given(parsers.parse('the bot set its menu button to "{url}"'))
def bot_set_menu_button(stand: ThreadedStand, url: str) -> None:
    button = {"type": "web_app", "text": "App", "web_app": {"url": url}}
    assert stand.bot(TOKEN, "setChatMenuButton", menu_button=json.dumps(button)) is True


@then(parsers.parse('the chat shows a menu button opening "{url}"'))
def chat_shows_menu_button(stand: ThreadedStand, url: str) -> None:
    assert stand.sim("GET", "/sim/chat/4242")["menu_button"] == {
        "type": "web_app",
        "text": "App",
        "web_app": {"url": url},
    }


@when(parsers.parse('the person opens the Mini App of the button "{label}"'))
def person_opens_button(stand: ThreadedStand, ctx: dict[str, Any], label: str) -> None:
    [message] = stand.sim("GET", "/sim/chat/4242")["messages"]
    [button] = [b for row in message["keyboard"] for b in row if b["text"] == label]
    ctx["launch"] = stand.sim("POST", "/sim/webapp/launch", {"url": button["web_app"]["url"]})


@when("the person opens the Mini App from the menu button")
def person_opens_menu(stand: ThreadedStand, ctx: dict[str, Any]) -> None:
    ctx["launch"] = stand.sim("POST", "/sim/webapp/launch", {"chat_id": 4242})


@then(parsers.parse('the app gets "{url}" with the launch parameters in the fragment'))
def app_gets_url(ctx: dict[str, Any], url: str) -> None:
    launch = ctx["launch"]
    base, _, fragment = launch["url"].partition("#")
    assert base == url
    params = dict(parse_qsl(fragment, strict_parsing=True))
    assert params["tgWebAppData"] == launch["init_data"]
    assert (params["tgWebAppVersion"], params["tgWebAppPlatform"]) == ("10.1", "tgfake")
    assert json.loads(params["tgWebAppThemeParams"]) == launch["theme_params"]
    assert urlsplit(base).fragment == ""


def independent_hash(fields: dict[str, str], token: str) -> str:
    """Telegram's documented check, written out here rather than taken from tgfake."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()


# Telegram's published example: the independent checker must reproduce it before it judges anything.
KNOWN_TOKEN = "123456:ABC-DEF1234ghIkl"
KNOWN_FIELDS = {
    "auth_date": "1700000000",
    "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
    "user": '{"id":279058397,"first_name":"Vladislav","username":"vdkfrost","language_code":"ru"}',
}
KNOWN_HASH = "d16b987afd609aa3c33232cac13427d98b80535d6e4b3e4025a02a336fd343ef"


@then("the launch data checks out with the bot's token")
def launch_data_checks_out(ctx: dict[str, Any]) -> None:
    assert independent_hash(KNOWN_FIELDS, KNOWN_TOKEN) == KNOWN_HASH
    init_data = ctx["launch"]["init_data"]
    fields = webapp.validate(init_data, TOKEN)
    assert fields["hash"] == independent_hash(fields, TOKEN)
    assert json.loads(fields["user"])["id"] == 4242
    with pytest.raises(webapp.BadHash):
        webapp.validate(init_data, "654321:another-bot")
