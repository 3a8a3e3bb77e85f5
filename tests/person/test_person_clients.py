"""The testing client (sync and async) and the Gherkin steps drive the person's reply keyboard."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator

import pytest

from tgfake.bdd import (
    bot_shows_reply_keyboard,
    person_edits,
    person_presses,
    person_reacts,
    person_shares_location,
    person_votes,
)
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
    assert (where.kind, where.content) == ("location", {"latitude": 1.5, "longitude": 2.5})
    assert client.messages()[0].reply_keyboard == (("Boy", "Girl"), ("Where",))


async def test_async_client_presses(stand_url: str) -> None:
    bot_sends(stand_url, "pick", MARKUP)
    async with AsyncStandClient(stand_url) as client:
        sent = await client.press("Where", latitude=-1.0, longitude=3.0)
        assert sent.update_id > 0
        assert "[2] alice: [location -1.0, 3.0]" in await client.transcript()


def test_sync_client_and_steps_for_the_persons_doings(stand_url: str) -> None:
    client = StandClient(stand_url)
    client.send("helo")
    person_edits(client, "alice", "1", "hello")
    person_reacts(client, "alice", "👍", "1")
    person_shares_location(client, "alice", "1.5", "2.5")
    client.share(poll={"question": "Tea?", "options": ["Yes", "No"], "allows_multiple_answers": True})
    person_votes(client, "alice", 'Yes", "No', "3")
    with pytest.raises(AssertionError, match=r"the poll of message 3 has no option 'Maybe'"):
        person_votes(client, "alice", "Maybe", "3")
    client.forward(text="fwd", origin={"type": "hidden_user", "name": "Ann"})
    client.delete(2)
    assert client.transcript() == (
        "[1] alice: hello\n    reactions: 👍 1\n[3] alice: [poll 'Tea?'] [Yes: 1] [No: 1]\n"
        "[4] alice: [forwarded from Ann] fwd\n"
    )


async def test_async_client_for_the_persons_doings(stand_url: str) -> None:
    async with AsyncStandClient(stand_url) as client:
        await client.send("hi")
        await client.edit(1, "hi!")
        await client.react(1, "🔥")
        await client.share(dice={"emoji": "🎲", "value": 3})
        await client.forward(from_chat_id=4242, message_id=1)
        await client.delete(1)
        assert await client.transcript() == "[2] alice: [dice 🎲 3]\n[3] alice: [forwarded from alice] hi!\n"
