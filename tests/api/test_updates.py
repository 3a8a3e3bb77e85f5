"""Update delivery: numbering, subscription, offset/limit, entities, and the held long poll."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.conftest import Wire, WireFactory
from tgfake import errors
from tgfake.stand import Stand


class PollSpy:
    """Signals when a getUpdates starts holding and when a held one is cancelled (no sleeps, no guessing)."""

    def __init__(self, stand: Stand, monkeypatch: pytest.MonkeyPatch) -> None:
        self.held = asyncio.Event()
        self.cancelled = asyncio.Event()
        self.waits = 0
        original = stand.updates_signal.wait

        async def wait(timeout: float) -> None:
            self.waits += 1
            self.held.set()
            try:
                await original(timeout)
            except asyncio.CancelledError:
                self.cancelled.set()
                raise

        monkeypatch.setattr(stand.updates_signal, "wait", wait)


@pytest.fixture
def spy(wire: Wire, monkeypatch: pytest.MonkeyPatch) -> PollSpy:
    return PollSpy(wire.stand, monkeypatch)


async def ids(wire: Wire, **params: Any) -> list[int]:
    return [u["update_id"] for u in await wire.ok("getUpdates", timeout=0, **params)]


# --- numbering ------------------------------------------------------------------------------------------------
async def test_update_ids_start_at_one_and_survive_a_reset(wire: Wire) -> None:
    assert (await wire.say("a"))["update_id"] == 1
    assert (await wire.say("b"))["update_id"] == 2
    assert await ids(wire) == [1, 2]
    assert (await wire.sim("POST", "/sim/reset"))[0] == 200
    assert await ids(wire) == []
    assert (await wire.say("c")) == {"message_id": 1, "update_id": 3}
    assert await ids(wire) == [3]


async def test_a_message_update_as_delivered(wire: Wire) -> None:
    await wire.say("hello")
    [update] = await wire.ok("getUpdates")
    assert update == {
        "update_id": 1,
        "message": {
            "message_id": 1,
            "from": {"id": 4242, "is_bot": False, "first_name": "Alice", "username": "alice"},
            "chat": {"id": 4242, "type": "private", "first_name": "Alice", "username": "alice"},
            "date": 1_700_000_000,
            "text": "hello",
        },
    }


# --- subscription ---------------------------------------------------------------------------------------------
async def test_updates_filtered_out_at_creation_still_consume_ids(wire: Wire) -> None:
    assert await wire.ok("getUpdates", timeout=0, allowed_updates='["callback_query"]') == []
    assert (await wire.say("dropped"))["update_id"] == 1
    assert await ids(wire, allowed_updates="[]") == []
    assert (await wire.say("kept"))["update_id"] == 2
    assert await ids(wire) == [2]


async def test_queued_updates_are_delivered_after_the_subscription_narrows(wire: Wire) -> None:
    await wire.say("queued")
    assert await ids(wire, allowed_updates='["callback_query"]') == [1]


async def test_the_subscription_persists_and_is_reported(wire: Wire) -> None:
    await wire.ok("getUpdates", timeout=0, allowed_updates='["message","callback_query"]')
    for keep in ({}, {"allowed_updates": "null"}, {"allowed_updates": "  "}, {"allowed_updates": ""}):
        await wire.ok("getUpdates", timeout=0, **keep)
        info = await wire.ok("getWebhookInfo")
        assert info["allowed_updates"] == ["message", "callback_query"], keep
    await wire.sim("POST", "/sim/reset")
    assert (await wire.sim("GET", "/sim/state"))[1]["allowed_updates"] == ["message", "callback_query"]
    await wire.ok("getUpdates", timeout=0, allowed_updates="[]")
    assert (await wire.ok("getWebhookInfo"))["allowed_updates"] is None
    assert (await wire.sim("GET", "/sim/state"))[1]["allowed_updates"] is None


async def test_the_initial_subscription_comes_from_the_options(make_wire: WireFactory) -> None:
    async with make_wire(allowed_updates=("callback_query",)) as wire:
        await wire.say("dropped")
        assert await ids(wire) == []
        assert (await wire.ok("getWebhookInfo"))["allowed_updates"] == ["callback_query"]


@pytest.mark.parametrize("bad", ["nope", '"message"', '{"message":1}', '["message",1]', "[null]", "1", "[message]"])
async def test_a_bad_allowed_updates_is_refused_before_the_offset_applies(wire: Wire, bad: str) -> None:
    await wire.say("a")
    await wire.say("b")
    await wire.refused(
        "getUpdates",
        400,
        "Bad Request: can't parse allowed_updates JSON array",
        offset=3,
        timeout=0,
        allowed_updates=bad,
    )
    assert await ids(wire) == [1, 2]
    assert (await wire.ok("getWebhookInfo"))["allowed_updates"] is None


# --- offset and limit -----------------------------------------------------------------------------------------
async def test_offset_confirms_what_is_below_it_and_returned_updates_stay(wire: Wire) -> None:
    for text in "abc":
        await wire.say(text)
    assert await ids(wire) == [1, 2, 3]
    assert await ids(wire) == [1, 2, 3]
    assert await ids(wire, offset=2) == [2, 3]
    assert await ids(wire) == [2, 3]
    assert await ids(wire, offset="garbage") == [2, 3]
    assert await ids(wire, offset=4) == []
    assert (await wire.ok("getWebhookInfo"))["pending_update_count"] == 0


async def test_a_negative_offset_keeps_only_the_newest(wire: Wire) -> None:
    for text in "abcd":
        await wire.say(text)
    assert await ids(wire, offset=-9) == [1, 2, 3, 4]
    assert await ids(wire, offset=-4) == [1, 2, 3, 4]
    assert await ids(wire, offset=-2) == [3, 4]
    assert await ids(wire) == [3, 4]


async def test_limit_takes_the_oldest_and_out_of_range_means_100(wire: Wire) -> None:
    for n in range(101):
        wire.stand.push_update("message", {"n": n})
    assert await ids(wire, limit=2) == [1, 2]
    assert await ids(wire, limit=1) == [1]
    for limit in (0, -1, 101, "x", 100):
        assert await ids(wire, limit=limit) == list(range(1, 101)), limit


async def test_a_fault_on_get_updates_confirms_nothing(wire: Wire) -> None:
    await wire.say("a")
    await wire.sim("POST", "/sim/fault", {"method": "getUpdates", "code": 502, "times": 1})
    await wire.refused("getUpdates", 502, "Bad Gateway", offset=5, allowed_updates="[]")
    assert await ids(wire) == [1]


# --- entities -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "entities"),
    [
        ("/start", [{"type": "bot_command", "offset": 0, "length": 6}]),
        ("/start@tgfake_bot deep", [{"type": "bot_command", "offset": 0, "length": 17}]),
        ("/buy_2 🙂", [{"type": "bot_command", "offset": 0, "length": 6}]),
        ("say /start", [{"type": "bot_command", "offset": 4, "length": 6}]),  # anywhere, as Telegram finds them
        ("a/start", None),
        ("/ start", None),
        ("/ёжик", None),
    ],
)
async def test_bot_command_entity(wire: Wire, text: str, entities: list[dict[str, Any]] | None) -> None:
    await wire.say(text)
    [update] = await wire.ok("getUpdates")
    assert update["message"]["text"] == text
    assert update["message"].get("entities") == entities


async def test_a_mention_in_a_supergroup(wire: Wire) -> None:
    reply = await wire.say("/start hi", chat_type=" SuperGroup ", mention=True)
    assert reply == {"message_id": 1, "update_id": 1}
    [update] = await wire.ok("getUpdates")
    msg = update["message"]
    assert msg["text"] == "@tgfake_bot /start hi"
    assert msg["entities"] == [
        {"type": "mention", "offset": 0, "length": 11},
        {"type": "bot_command", "offset": 12, "length": 6},
    ]
    assert msg["chat"] == {"id": -100000004242, "type": "supergroup", "title": "Fake group"}


async def test_mention_length_counts_utf16_units(make_wire: WireFactory) -> None:
    async with make_wire(bot_username="𝔹ot") as wire:
        await wire.say("hi", mention=True)
        [update] = await wire.ok("getUpdates")
        assert update["message"]["text"] == "@𝔹ot hi"
        assert update["message"]["entities"] == [{"type": "mention", "offset": 0, "length": 5}]


async def test_a_reply_to_the_bot_carries_the_quote_without_its_own_quote(wire: Wire) -> None:
    await wire.say("q")
    await wire.ok("sendMessage", chat_id=4242, text="answer", reply_to_message_id=1)
    await wire.say("thanks", reply_to_message_id=2)
    updates = await wire.ok("getUpdates")
    quoted = updates[1]["message"]["reply_to_message"]
    assert quoted["message_id"] == 2
    assert quoted["text"] == "answer"
    assert quoted["from"]["is_bot"] is True
    assert "reply_to_message" not in quoted


# --- the held poll --------------------------------------------------------------------------------------------
async def test_a_held_poll_is_woken_at_once_by_a_new_update(make_wire: WireFactory, monkeypatch: Any) -> None:
    async with make_wire(poll_max=60.0) as wire:
        spy = PollSpy(wire.stand, monkeypatch)
        poll = asyncio.create_task(wire.call("getUpdates", timeout=50))
        await spy.held.wait()
        loop = asyncio.get_running_loop()
        started = loop.time()
        await wire.say("wake up")
        status, body = await asyncio.wait_for(poll, 10)
        elapsed = loop.time() - started
        assert status == 200
        assert [u["message"]["text"] for u in body["result"]] == ["wake up"]
        assert elapsed < 5, elapsed  # a missed wake would hold for the full 50 s and trip wait_for


async def test_a_reset_wakes_held_polls_which_keep_waiting(wire: Wire, spy: PollSpy) -> None:
    poll = asyncio.create_task(wire.call("getUpdates", timeout=50))
    await spy.held.wait()
    spy.held.clear()
    await wire.sim("POST", "/sim/reset")
    await spy.held.wait()
    assert spy.waits == 2
    assert not poll.done()
    await wire.say("after reset")
    status, body = await asyncio.wait_for(poll, 10)
    assert status == 200
    assert [u["update_id"] for u in body["result"]] == [1]


@pytest.mark.parametrize("timeout", [0, -5, "1.5", "soon"])
async def test_timeout_zero_negative_or_garbage_answers_at_once(wire: Wire, spy: PollSpy, timeout: Any) -> None:
    assert await wire.ok("getUpdates", timeout=timeout) == []
    assert spy.waits == 0


async def test_poll_max_caps_the_timeout(make_wire: WireFactory) -> None:
    async with make_wire(poll_max=0.2) as wire:
        loop = asyncio.get_running_loop()
        started = loop.time()
        status, body = await asyncio.wait_for(wire.call("getUpdates", timeout=50), 10)
        assert (status, body) == (200, {"ok": True, "result": []})
        assert 0.2 <= loop.time() - started < 5
        [call] = await wire.outbox()
        assert (call["method"], call["status"]) == ("getUpdates", 200)


async def test_a_held_poll_whose_client_goes_away_is_neither_answered_nor_recorded(wire: Wire, spy: PollSpy) -> None:
    poll = asyncio.create_task(wire.client.post("/bot1/getUpdates", data={"timeout": "50"}))
    await spy.held.wait()
    poll.cancel()
    await asyncio.wait_for(spy.cancelled.wait(), 10)
    await wire.say("later")
    assert await wire.outbox() == []
    assert await ids(wire) == [1]


async def test_close_releases_a_held_poll_with_what_it_has(wire: Wire, spy: PollSpy) -> None:
    poll = asyncio.create_task(wire.call("getUpdates", timeout=50, offset=1))
    await spy.held.wait()
    wire.stand.close()
    status, body = await asyncio.wait_for(poll, 10)
    assert (status, body) == (200, {"ok": True, "result": []})
    [call] = await wire.outbox()
    assert call["params"] == {"timeout": "50", "offset": "1"}


async def test_a_second_held_poll_terminates_the_first_with_409(wire: Wire, spy: PollSpy) -> None:
    """Two instances of a bot: Telegram answers the older waiting poll with 409 and keeps the newer one."""
    first = asyncio.create_task(wire.call("getUpdates", timeout=50))
    await spy.held.wait()
    second = asyncio.create_task(wire.call("getUpdates", timeout=50))
    status, body = await asyncio.wait_for(first, 10)
    assert (status, body["description"]) == (409, errors.CONFLICT_POLLS)
    assert body["description"] == (
        "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
    )
    await wire.say("for the newer one")
    status, body = await asyncio.wait_for(second, 10)
    assert (status, [u["update_id"] for u in body["result"]]) == (200, [1])
    assert [c.status for c in wire.stand.calls("getUpdates")] == [409, 200]


async def test_an_immediately_answered_poll_terminates_nothing(wire: Wire, spy: PollSpy) -> None:
    held = asyncio.create_task(wire.call("getUpdates", timeout=50))
    await spy.held.wait()
    assert await ids(wire) == []  # timeout 0: answered at once, so the held poll is not terminated
    assert not held.done()
    await wire.say("for the held one")
    status, body = await asyncio.wait_for(held, 10)
    assert (status, [u["update_id"] for u in body["result"]]) == (200, [1])


async def test_allowed_updates_is_read_as_json_text_from_a_json_body(wire: Wire) -> None:
    status, body = await wire.call_json("getUpdates", {"allowed_updates": ["callback_query"], "timeout": 0})
    assert (status, body) == (200, {"ok": True, "result": []})
    assert (await wire.ok("getWebhookInfo"))["allowed_updates"] == ["callback_query"]
    status, body = await wire.call_json("getUpdates", {"allowed_updates": None, "timeout": 0})
    assert (status, body) == (200, {"ok": True, "result": []})
    assert (await wire.ok("getWebhookInfo"))["allowed_updates"] == ["callback_query"]


async def test_a_held_poll_rereads_with_its_offset_and_keeps_waiting(wire: Wire, spy: PollSpy) -> None:
    poll = asyncio.create_task(wire.call("getUpdates", timeout=50, offset=2))
    await spy.held.wait()
    spy.held.clear()
    await wire.say("below the offset")
    await spy.held.wait()
    assert (spy.waits, poll.done()) == (2, False)
    await wire.say("at the offset")
    status, body = await asyncio.wait_for(poll, 10)
    assert (status, [u["update_id"] for u in body["result"]]) == (200, [2])
    assert await ids(wire) == [2]
