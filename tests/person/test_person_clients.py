"""The testing client (sync and async) and the Gherkin steps drive the person's reply keyboard."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator

import pytest

from tgfake.bdd import bot_shows_reply_keyboard, person_presses
from tgfake.options import Options
from tgfake.testing import AsyncStandClient, StandClient, ThreadedStand

TOKEN = "123:abc"
MARKUP: dict[str, object] = {"keyboard": [["Boy", "Girl"], [{"text": "Where", "request_location": True}]]}


def bot_sends(url: str, text: str, markup: dict[str, object]) -> None:
    data = json.dumps({"chat_id": 4242, "text": text, "reply_markup": markup}).encode()
    req = urllib.request.Request(
        f"{url}/bot{TOKEN}/sendMessage", data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        assert json.loads(resp.read())["ok"] is True


@pytest.fixture
def stand_url() -> Iterator[str]:
    with ThreadedStand(Options(poll_max=0.05)) as stand:
        yield stand.url


def test_sync_client_and_steps(stand_url: str) -> None:
    client = StandClient(stand_url)
    bot_sends(stand_url, "pick", MARKUP)
    bot_shows_reply_keyboard(client, "[Boy] [Girl] / [Where]")
    with pytest.raises(AssertionError, match=r"reply keyboard is \[Boy\] \[Girl\] / \[Where\], expected \[Boy\]"):
        bot_shows_reply_keyboard(client, "[Boy]")
    sent = client.press("Girl")
    assert sent.message_id == 2
    person_presses(client, "alice", "Where", "1.5", "2.5")
    [*_, where] = client.messages()
    assert where.raw["content"] == {"location": {"latitude": 1.5, "longitude": 2.5}}
    assert client.messages()[0].reply_keyboard == (("Boy", "Girl"), ("Where",))


async def test_async_client_presses(stand_url: str) -> None:
    bot_sends(stand_url, "pick", MARKUP)
    async with AsyncStandClient(stand_url) as client:
        sent = await client.press("Where", latitude=-1.0, longitude=3.0)
        assert sent.update_id > 0
        assert "[2] alice: [location -1.0, 3.0]" in await client.transcript()
