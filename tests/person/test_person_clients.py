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
    poll_shows,
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


def bot_polls(url: str, **params: object) -> int:
    data = json.dumps({"chat_id": 4242, "question": "Lunch?", "options": ["Soup", "Salad"], **params}).encode()
    req = urllib.request.Request(f"{url}/bot{TOKEN}/sendPoll", data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return int(json.loads(resp.read())["result"]["message_id"])


def test_the_clients_read_and_vote_in_the_bots_poll(stand_url: str) -> None:
    client = StandClient(stand_url)
    client.send("hi")
    mid = bot_polls(stand_url, is_anonymous=False)
    [message] = [m for m in client.messages() if m.message_id == mid]
    assert message.kind == "poll"
    assert message.poll is not None
    assert [o["text"] for o in message.poll["options"]] == ["Soup", "Salad"]
    assert message.poll_option("Salad") == 1
    person_votes(client, "alice", "Salad", str(mid))
    [message] = [m for m in client.messages() if m.message_id == mid]
    assert message.poll is not None
    assert [o["voter_count"] for o in message.poll["options"]] == [0, 1]
    poll_shows(client, str(mid), 'Soup: 0", "Salad: 1')
    with pytest.raises(AssertionError, match=r"shows \['Soup: 0', 'Salad: 1'\], expected \['Soup: 1'\]"):
        poll_shows(client, str(mid), "Soup: 1")
    assert client.messages()[0].poll is None
    with pytest.raises(AssertionError, match="message 1 is not a poll"):
        person_votes(client, "alice", "Soup", "1")
    assert f"[{mid}] bot: [poll 'Lunch?'] [Soup: 0] [Salad: 1]" in client.transcript()


async def test_the_async_client_votes_and_retracts(stand_url: str) -> None:
    async with AsyncStandClient(stand_url) as client:
        await client.send("hi")
        mid = bot_polls(stand_url, allows_multiple_answers=True)
        await client.vote(mid, [0, 1])
        assert f"[{mid}] bot: [poll 'Lunch?'] [Soup: 1] [Salad: 1]" in await client.transcript()
        await client.vote(mid, [])
        assert f"[{mid}] bot: [poll 'Lunch?'] [Soup: 0] [Salad: 0]" in await client.transcript()
