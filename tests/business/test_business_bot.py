"""A business bot written with python-telegram-bot (tests/business/business_bot.py, a subprocess) against the
stand: each update kind of a business account is produced by a person's action through the sim and received by
the library's bot, which answers customers on the owner's behalf, marks their messages read and manages the
account within its rights, and is refused outside them.

The person's action behind each update kind:

- ``business_connection``: the owner connects the bot (``connect_business``), changes its rights (again), and
  disconnects it (``disconnect_business``);
- ``business_message``: a customer writes to the owner (``customer_writes``);
- ``edited_business_message``: the customer edits that message (``customer_edits``);
- ``deleted_business_messages``: the customer deletes it (``customer_deletes``).
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tgfake.options import Options
from tgfake.testing import BotProcess, Call, StandClient, ThreadedStand, bot_environment

HERE = Path(__file__).parent
ALICE, BOB = 4242, 4343
TOKEN = "7100:business-bot"


@pytest.fixture(scope="module")
def stand() -> Iterator[StandClient]:
    """One stand and one bot for the module (per worker under -n): each test connects the bot with the rights it
    needs first, so they pass in any order."""
    with ThreadedStand(Options(poll_max=1.0)) as served:
        client = StandClient(served.url, timeout=10)
        command = [sys.executable, str(HERE / "business_bot.py")]
        with BotProcess(command, env=bot_environment(served.url, token=TOKEN)) as bot:
            bot.wait_ready(client, timeout=30)
            client.wait_call("getUpdates", token=TOKEN)  # polling: every update from here on reaches it
            yield client


def next_call(stand: StandClient, method: str, since: int) -> Call:
    [call] = stand.wait_call(method, since=since)
    return call


def connected(stand: StandClient, **rights: bool) -> dict[str, Any]:
    """The owner connects the bot with these rights (again: the same connection, new rights), and the bot has
    handled the ``business_connection`` update (it told the owner): each test stands on its own, in any order."""
    since = stand.count()
    conn = stand.connect_business("alice", **rights)
    told = next_call(stand, "sendMessage", since)
    assert told.params["text"] == f"Connected: {', '.join(sorted(rights))}"
    return conn


def test_connecting_tells_the_bot(stand: StandClient) -> None:
    """business_connection, from the owner connecting the bot."""
    since = stand.count()
    conn = connected(stand, can_reply=True, can_read_messages=True)
    [told] = stand.outbox("sendMessage", since=since)
    assert told.params["chat_id"] == str(ALICE)
    assert conn["is_enabled"] is True


def test_the_bot_answers_a_customer_as_the_owner_and_marks_it_read(stand: StandClient) -> None:
    """business_message, from a customer writing to the owner."""
    connected(stand, can_reply=True, can_read_messages=True)
    since = stand.count()
    asked = stand.customer_writes("price", customer="bob")
    answer = next_call(stand, "sendMessage", since)
    sent = answer.response["result"]
    assert sent["text"] == "Roses: 3 stars each"
    assert sent["from"]["id"] == ALICE
    assert sent["sender_business_bot"]["id"] == 7100
    assert sent["chat"]["id"] == BOB
    [read] = stand.outbox("readBusinessMessage", since=since)
    assert read.ok
    assert read.params["message_id"] == str(asked.message_id)
    assert stand.business_account("alice")["connections"][0]["read"][str(BOB)] == asked.message_id


def test_outside_its_rights_the_bot_is_refused_and_within_them_it_renames_the_account(stand: StandClient) -> None:
    """business_connection again, from the owner changing the bot's rights."""
    connected(stand, can_reply=True, can_read_messages=True)
    since = stand.count()
    stand.customer_writes("rename", customer="bob")
    told = next_call(stand, "sendMessage", since)
    assert told.params["text"] == "refused: Bot_access_forbidden"  # PTB capitalises the description it reads
    [refused] = stand.outbox("setBusinessAccountName", since=since)
    assert (refused.status, refused.response["description"]) == (400, "Bad Request: BOT_ACCESS_FORBIDDEN")
    assert stand.business_account("alice")["user"]["first_name"] == "Alice"

    since = stand.count()
    stand.connect_business("alice", can_reply=True, can_read_messages=True, can_edit_name=True)
    assert (
        next_call(stand, "sendMessage", since).params["text"]
        == "Connected: can_edit_name, can_read_messages, can_reply"
    )
    since = stand.count()
    stand.customer_writes("rename", customer="bob")
    assert next_call(stand, "sendMessage", since).params["text"] == "Renamed"
    assert stand.business_account("alice")["user"]["first_name"] == "Alice's Flowers"


def test_an_edit_reaches_the_bot(stand: StandClient) -> None:
    """edited_business_message, from the customer editing their message."""
    connected(stand, can_reply=True, can_read_messages=True)
    since = stand.count()
    asked = stand.customer_writes("two roses", customer="bob")
    next_call(stand, "readBusinessMessage", since)  # the bot has handled the message itself
    since = stand.count()
    stand.customer_edits(asked.message_id, "three roses", customer="bob")
    assert next_call(stand, "sendMessage", since).params["text"] == "Noted: three roses"


def test_a_deletion_reaches_the_bot(stand: StandClient) -> None:
    """deleted_business_messages, from the customer deleting their message."""
    connected(stand, can_reply=True, can_read_messages=True)
    since = stand.count()
    asked = stand.customer_writes("never mind", customer="bob")
    next_call(stand, "readBusinessMessage", since)
    since = stand.count()
    stand.customer_deletes([asked.message_id], customer="bob")
    told = next_call(stand, "sendMessage", since)
    assert (told.params["chat_id"], told.params["text"]) == (str(ALICE), "Bob deleted 1")


def test_disconnecting_tells_the_bot_and_its_sends_are_refused(stand: StandClient) -> None:
    """business_connection, from the owner disconnecting the bot."""
    connected(stand, can_reply=True, can_read_messages=True)
    since = stand.count()
    stand.customer_writes("are you open?", customer="bob")  # bob is a customer the stand knows
    next_call(stand, "readBusinessMessage", since)  # and the bot has handled his message
    since = stand.count()
    conn = stand.disconnect_business("alice")
    assert next_call(stand, "sendMessage", since).params["text"] == "Disconnected"
    assert conn["is_enabled"] is False
    form = urllib.parse.urlencode({"business_connection_id": conn["id"], "chat_id": BOB, "text": "still here?"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{stand.url}/bot{TOKEN}/sendMessage", data=form.encode(), timeout=10)
    assert refused.value.code == 400
    assert json.loads(refused.value.read())["description"] == "Bad Request: BUSINESS_CONNECTION_INVALID"
