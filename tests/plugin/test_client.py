"""The testing client (tgfake.testing) against a real stand: the plugin's session stand, reset per test.

The test plays both sides here: the person through the client, the bot through raw Bot API calls.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from typing import Any

import aiohttp
import pytest

from tests.media.media_helpers import image_bytes
from tgfake.testing import (
    DEFAULT_GROUP_ID,
    AsyncStandClient,
    SimAPIError,
    StandClient,
    person,
)

KEYBOARD = json.dumps(
    {"inline_keyboard": [[{"text": "Ping", "callback_data": "ping"}], [{"text": "Docs", "url": "https://example.com"}]]}
)


def bot_call(client: StandClient, method: str, **params: Any) -> tuple[int, dict[str, Any]]:
    """A Bot API call as a bot makes it (form-encoded)."""
    data = urllib.parse.urlencode({k: str(v) for k, v in params.items()}).encode()
    req = urllib.request.Request(f"{client.url}/bot123:abc/{method}", data=data, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as f:
            return f.status, json.loads(f.read())
    except urllib.error.HTTPError as e:
        with e:
            return e.code, json.loads(e.read())


def test_people_have_stable_ids_and_alice_is_the_stands_default_user() -> None:
    assert person("alice").user_id == 4242
    assert person("@Bob") == person("bob")
    assert person("zoe").user_id == person("zoe").user_id != person("zed").user_id
    assert person("zoe").first_name == "Zoe"


def test_send_writes_as_the_person_in_private_or_in_the_group(tgfake: StandClient) -> None:
    first = tgfake.send("hello")
    assert (first.chat_id, first.message_id) == (4242, 1)
    grouped = tgfake.send("hi all", user="bob", chat="group", mention=True)
    assert grouped.chat_id == DEFAULT_GROUP_ID
    assert tgfake.transcript(DEFAULT_GROUP_ID) == "[1] bob: @tgfake_bot hi all\n"
    assert tgfake.last_chat == DEFAULT_GROUP_ID


def test_expect_reply_matches_the_bots_messages_in_order(tgfake: StandClient) -> None:
    tgfake.send("hello")
    bot_call(tgfake, "sendMessage", chat_id=4242, text="one", reply_markup=KEYBOARD)
    bot_call(tgfake, "sendMessage", chat_id=4242, text="two")
    first = tgfake.expect_reply("one")
    assert first.keyboard == (("Ping",), ("Docs",))
    assert first.keyboard_text() == "[Ping]\n[Docs]"
    assert tgfake.expect_reply(containing="tw").text == "two"


def test_a_wrong_reply_fails_with_the_transcript_and_the_outbox(tgfake: StandClient) -> None:
    tgfake.send("hello")
    bot_call(tgfake, "sendMessage", chat_id=4242, text="You said: hello")
    started = time.monotonic()
    with pytest.raises(AssertionError) as failed:
        tgfake.expect_reply("You said: hallo", timeout=5)
    assert time.monotonic() - started < 4, "a settled wrong reply fails before the deadline"
    text = str(failed.value)
    assert "to read 'You said: hallo'" in text
    assert "[2] bot: You said: hello" in text
    assert "sendMessage -> 200" in text


def test_expect_no_reply_passes_on_silence_and_fails_on_a_message(tgfake: StandClient) -> None:
    tgfake.send("hello")
    tgfake.expect_no_reply(within=0.2)
    bot_call(tgfake, "sendMessage", chat_id=4242, text="unexpected")
    with pytest.raises(AssertionError, match="the bot sent a further message: \\[2\\] 'unexpected'"):
        tgfake.expect_no_reply(within=0.2)


def test_tap_presses_a_button_and_an_unknown_label_is_the_stands_404(tgfake: StandClient) -> None:
    tgfake.send("/start")
    bot_call(tgfake, "sendMessage", chat_id=4242, text="menu", reply_markup=KEYBOARD)
    tapped = tgfake.tap("Ping")
    assert tapped.callback_query_id == "cbq-1"
    status, body = bot_call(tgfake, "getUpdates")
    assert status == 200
    assert body["result"][-1]["callback_query"]["data"] == "ping"
    with pytest.raises(SimAPIError) as refused:
        tgfake.tap("Pong")
    assert (refused.value.status, refused.value.message) == (404, 'message 2 has no button "Pong"')


def test_wait_call_is_held_by_the_stand_and_a_timeout_shows_the_evidence(tgfake: StandClient) -> None:
    bot_call(tgfake, "getMe")
    assert [c.method for c in tgfake.wait_call("getMe")] == ["getMe"]
    with pytest.raises(AssertionError, match=r"timed out after 0\.2s waiting for 1 sendMessage calls \(saw 0\)"):
        tgfake.wait_call("sendMessage", timeout=0.2)
    assert tgfake.wait_call("sendMessage", timeout=0.2, strict=False) == []


def test_a_fault_refuses_the_bots_next_call_and_the_outbox_records_it(tgfake: StandClient) -> None:
    faults = tgfake.fault("sendMessage", 429, retry_after=1, times=1)
    assert faults[0]["retry_after"] == 1
    status, body = bot_call(tgfake, "sendMessage", chat_id=4242, text="x")
    assert (status, body["description"], body["parameters"]) == (
        429,
        "Too Many Requests: retry after 1",
        {"retry_after": 1},
    )
    assert bot_call(tgfake, "sendMessage", chat_id=4242, text="x")[0] == 200
    assert [c.status for c in tgfake.outbox("sendMessage")] == [429, 200]
    assert tgfake.count("sendMessage") == 2


def test_reset_forgets_the_conversation_and_the_reading_position(tgfake: StandClient) -> None:
    tgfake.send("hello")
    bot_call(tgfake, "sendMessage", chat_id=4242, text="hi")
    tgfake.expect_reply("hi")
    tgfake.reset()
    assert tgfake.transcript(4242) == ""
    assert tgfake.outbox() == []


def test_wait_until_rechecks_after_each_call_of_the_bot(tgfake: StandClient) -> None:
    tgfake.send("hello")
    bot_call(tgfake, "sendChatAction", chat_id=4242, action="typing")
    got = tgfake.wait_until(lambda: tgfake.chat(4242)["typing"] or None, what="typing")
    assert got is True


async def test_the_async_client_wakes_when_the_bot_answers(tgfake: StandClient) -> None:
    async with AsyncStandClient(tgfake.url) as client, aiohttp.ClientSession() as bot:
        await client.send("hello")
        waiting = asyncio.ensure_future(client.expect_reply("You said: hello", timeout=5))
        await client.wait_call("getMe", timeout=0.1, strict=False)  # let the wait reach the stand
        assert not waiting.done()
        reply_call = {"chat_id": "4242", "text": "You said: hello"}
        async with bot.post(f"{client.url}/bot123:abc/sendMessage", data=reply_call):
            pass
        reply = await waiting
        assert (reply.message_id, reply.from_bot) == (2, True)
        assert await client.transcript() == "[1] alice: hello\n[2] bot: You said: hello\n"
        assert [c.method for c in await client.outbox()] == ["sendMessage"]


def test_the_person_sends_a_photo_and_a_document_the_bot_can_fetch(tgfake: StandClient) -> None:
    gif = image_bytes("GIF", (2, 3))
    photo = tgfake.send_photo(gif, name="dot.gif", caption="/describe")
    doc = tgfake.send_document(b"%PDF-1.4\n", name="a.pdf", user="bob", chat="group")
    assert (photo.chat_id, photo.message_id, photo.file_id) == (4242, 1, "file_1")
    assert (doc.chat_id, doc.file_id) == (DEFAULT_GROUP_ID, "file_2")
    assert tgfake.transcript(4242) == "[1] alice: [photo dot.gif 2x3] /describe\n"
    assert tgfake.transcript(DEFAULT_GROUP_ID) == "[1] bob: [document a.pdf]\n"
    status, body = bot_call(tgfake, "getFile", file_id=doc.file_id)
    assert (status, body["result"]["file_path"]) == (200, "documents/file_2.pdf")
    with urllib.request.urlopen(f"{tgfake.url}/file/bot123:abc/documents/file_2.pdf", timeout=10) as f:
        assert f.read() == b"%PDF-1.4\n"
    with pytest.raises(SimAPIError) as refused:
        tgfake.send_photo(b"not an image")
    assert "photo is not a PNG, JPEG or GIF image" in str(refused.value)


async def test_the_async_client_sends_files_too(tgfake: StandClient) -> None:
    async with AsyncStandClient(tgfake.url) as client:
        sent = await client.send_document(b"notes\n", name="notes.txt", caption="read me")
        assert sent.file_id == "file_1"
        assert await client.transcript() == "[1] alice: [document notes.txt] read me\n"
