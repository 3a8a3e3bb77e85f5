"""Optional flood control (``--flood-control``): Telegram's 429 with ``retry_after``, on the stand's clock."""

from __future__ import annotations

from tests.conftest import WireFactory
from tgfake.cli import build_parser
from tgfake.clock import ManualClock


def too_many(seconds: int) -> str:
    return f"Too Many Requests: retry after {seconds}"


async def test_off_by_default_many_sends_pass(make_wire: WireFactory) -> None:
    async with make_wire() as wire:
        for _ in range(40):
            await wire.ok("sendMessage", chat_id=4242, text="x")


async def test_one_message_per_second_in_a_private_chat(make_wire: WireFactory, clock: ManualClock) -> None:
    async with make_wire(flood_control=True) as wire:
        await wire.ok("sendMessage", chat_id=4242, text="one")
        body = await wire.refused("sendMessage", 429, too_many(1), chat_id=4242, text="two")
        assert body["parameters"] == {"retry_after": 1}
        resp = await wire.client.post(f"/bot{wire.token}/sendMessage", data={"chat_id": "4242", "text": "x"})
        assert resp.headers["Retry-After"] == "1"
        await wire.ok("sendMessage", chat_id=5, text="another chat is free")
        await wire.ok("sendChatAction", chat_id=4242, action="typing")  # not a message
        clock.advance(1.0)
        await wire.ok("sendMessage", chat_id=4242, text="two")


async def test_twenty_per_minute_in_a_group(make_wire: WireFactory, clock: ManualClock) -> None:
    async with make_wire(flood_control=True) as wire:
        for _ in range(20):
            await wire.ok("sendMessage", chat_id=-5, text="x")
            clock.advance(0.5)
        await wire.refused("sendMessage", 429, too_many(50), chat_id=-5, text="x")
        clock.advance(50)
        await wire.ok("sendMessage", chat_id=-5, text="x")


async def test_thirty_per_second_per_bot(make_wire: WireFactory, clock: ManualClock) -> None:
    async with make_wire(flood_control=True) as wire:
        for chat in range(1, 31):
            await wire.ok("sendMessage", chat_id=chat, text="x")
        await wire.refused("sendMessage", 429, too_many(1), chat_id=31, text="x")
        assert (await wire.call("sendMessage", token="9:other", chat_id=31, text="x"))[0] == 200  # another bot


async def test_refused_sends_do_not_count(make_wire: WireFactory, clock: ManualClock) -> None:
    async with make_wire(flood_control=True) as wire:
        await wire.refused("sendMessage", 400, "Bad Request: message text is empty", chat_id=4242, text="")
        await wire.ok("sendMessage", chat_id=4242, text="first real one")


def test_the_flag() -> None:
    assert build_parser().parse_args(["--flood-control"]).flood_control is True
    assert build_parser().parse_args([]).flood_control is False


async def test_the_stand_tells_whether_its_flood_limits_are_on(make_wire: WireFactory) -> None:
    """``GET /sim/options`` (under a session too): what a tool on a running stand needs to judge a 429."""
    async with make_wire() as wire:
        assert await wire.sim("GET", "/sim/options") == (
            200,
            {"flood_control": False, "strict": False, "poll_max": 2.0, "url_files": "default"},
        )
    async with make_wire(flood_control=True, strict=True) as wire:
        status, session = await wire.sim("POST", "/sim/sessions")
        assert status == 200
        status, seen = await wire.sim("GET", f"/s/{session['id']}/sim/options")
        assert (status, seen["flood_control"], seen["strict"]) == (200, True, True)
