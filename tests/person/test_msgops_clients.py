"""The testing client (sync and async) shows the bot's forwards, copies, edits and reactions, and sets forward
privacy."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tgfake.bdd import bot_forwards_from, bot_reacts, person_hides_forwards
from tgfake.options import Options
from tgfake.testing import AsyncStandClient, StandClient, ThreadedStand

TOKEN = "123:abc"


def bot_calls(url: str, method: str, **params: Any) -> Any:
    data = json.dumps(params).encode()
    req = urllib.request.Request(f"{url}/bot{TOKEN}/{method}", data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        body = json.loads(resp.read())
    assert body["ok"] is True, body
    return body["result"]


@pytest.fixture
def stand_url() -> Iterator[str]:
    with ThreadedStand(Options(poll_max=0.05)) as stand:
        yield stand.url


def test_sync_client_sees_forwards_copies_and_reactions(stand_url: str) -> None:
    client = StandClient(stand_url)
    said = client.send("look at this")
    bot_calls(stand_url, "forwardMessage", chat_id=4242, from_chat_id=4242, message_id=said.message_id)
    bot_calls(stand_url, "copyMessage", chat_id=4242, from_chat_id=4242, message_id=said.message_id)
    bot_calls(
        stand_url,
        "setMessageReaction",
        chat_id=4242,
        message_id=said.message_id,
        reaction=[{"type": "emoji", "emoji": "👀"}],
    )
    first, forwarded, copied = client.messages()
    assert first.reactions == {"👀": 1}
    assert (forwarded.forwarded_from, forwarded.body) == ("alice", "look at this")
    assert (copied.forwarded_from, copied.body) == ("", "look at this")
    assert client.transcript() == (
        "[1] alice: look at this\n    reactions: 👀 1\n[2] bot: [forwarded from alice] look at this\n"
        "[3] bot: look at this\n"
    )


async def test_async_client_hides_forwards(stand_url: str) -> None:
    async with AsyncStandClient(stand_url) as client:
        await client.hide_forwards("alice")
        said = await client.send("private")
        sent = bot_calls(stand_url, "forwardMessage", chat_id=4242, from_chat_id=4242, message_id=said.message_id)
        assert sent["forward_origin"]["type"] == "hidden_user"
        edited = bot_calls(stand_url, "sendMessage", chat_id=4242, text="v1")
        bot_calls(stand_url, "editMessageText", chat_id=4242, message_id=edited["message_id"], text="v2")
        *_, forwarded, last = await client.messages()
        assert forwarded.forwarded_from == "Alice"
        assert (last.body, last.edited) == ("v2", True)


def test_gherkin_steps_for_forwards_and_reactions(stand_url: str) -> None:
    client = StandClient(stand_url)
    person_hides_forwards(client, "alice")
    said = client.send("hi")
    bot_calls(stand_url, "forwardMessage", chat_id=4242, from_chat_id=4242, message_id=said.message_id)
    bot_calls(
        stand_url,
        "setMessageReaction",
        chat_id=4242,
        message_id=said.message_id,
        reaction=[{"type": "emoji", "emoji": "👍"}],
    )
    bot_forwards_from(client, "Alice")
    bot_reacts(client, "👍", str(said.message_id))
    assert client.messages()[0].reactions == {"👍": 1}  # the step found this one reaction, and no other
