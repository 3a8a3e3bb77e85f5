"""The chat page shows an ephemeral message to its receiver only: bob's page has the bot's answer under "Only you
can see this message", alice's page of the same group does not (Chromium, as tests/browser drives it)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.browser.conftest import browser, page  # the browser tests' fixtures
from tgfake.testing import StandClient

__all__ = ["browser", "page"]


def bot_call(url: str, method: str, **params: Any) -> Any:
    data = json.dumps(params).encode()
    request = urllib.request.Request(f"{url}/bot123:abc/{method}", data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as resp:
        return json.loads(resp.read())["result"]


def test_only_the_receiver_sees_an_ephemeral_message(tgfake: StandClient, page: Any) -> None:
    bot_call(tgfake.url, "getMe")
    club = tgfake.create_chat("Club", members=["bob", "@tgfake_bot"])
    params = json.dumps({"receiver_user_id": 4343})
    bot_call(tgfake.url, "sendMessage", chat_id=club.id, text="psst, bob", ephemeral_message_parameters=params)
    bot_call(tgfake.url, "sendMessage", chat_id=club.id, text="hello all")
    page.goto(f"{tgfake.url}/#user=4343&username=bob&chat={club.id}")
    page.reload()
    page.locator("#log .msg", has_text="hello all").wait_for()
    secret = page.locator("#log .msg.ephemeral")
    assert secret.count() == 1
    assert "psst, bob" in secret.inner_text()
    assert "Only you can see this message" in secret.inner_text()
    page.goto(f"{tgfake.url}/#user=4242&username=alice&chat={club.id}")
    page.reload()
    page.locator("#log .msg", has_text="hello all").wait_for()
    assert page.locator("#log .msg.ephemeral").count() == 0
    assert page.locator("#log").get_by_text("psst, bob").count() == 0  # (the outbox panel lists the call)
