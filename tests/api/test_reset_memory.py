"""``POST /sim/reset`` lets go of the world: no object of the old history is left alive, nothing stays frozen out of
the collector's sight, and a long history's reset hands its memory back (tgfake/heap.py). Counted in objects, not
in VmRSS (the RSS row is in ``python -m benchmarks --wrk``)."""

from __future__ import annotations

import gc

import pytest

from tests.conftest import Wire
from tgfake import heap
from tgfake.chats import StoredMessage
from tgfake.world import state as state_module
from tgfake.world.state import Call

SENDS = 40
FREEZE_EVERY = 16  # so SENDS calls make a long history here: frozen twice, and a reset that releases


def old_world(wire: Wire) -> set[int]:
    """The ids of the world's recorded calls and stored messages (ids only: holding them would keep them alive)."""
    world = wire.stand.world
    chats = [*world.chats.values(), *world.private.values()]
    return {id(c) for c in world.calls} | {id(m) for chat in chats for m in chat.messages.values()}


def still_alive(ids: set[int]) -> list[str]:
    """What of ``ids`` the collector can still reach (everything, once nothing is frozen)."""
    return [type(obj).__name__ for obj in gc.get_objects() if id(obj) in ids and type(obj) in (Call, StoredMessage)]


@pytest.fixture
def releases(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the resets that released memory (the real release still runs)."""
    seen: list[int] = []
    real = heap.release

    def counted() -> None:
        seen.append(1)
        real()

    monkeypatch.setattr(state_module, "FREEZE_EVERY", FREEZE_EVERY)
    monkeypatch.setattr(heap, "release", counted)
    return seen


async def test_a_reset_leaves_nothing_of_the_old_world_alive(wire: Wire, releases: list[int]) -> None:
    for i in range(SENDS):
        await wire.ok("sendMessage", chat_id=4242, text=f"message {i}")
    assert len(await wire.outbox("sendMessage")) == SENDS
    assert gc.get_freeze_count() > 0  # the history was frozen out of the collector's sight
    ids = old_world(wire)
    assert len(ids) >= 2 * SENDS

    status, _ = await wire.sim("POST", "/sim/reset")

    assert status == 200
    assert releases == [1]
    assert gc.get_freeze_count() == 0
    assert still_alive(ids) == []
    assert await wire.outbox() == []


async def test_a_short_history_resets_without_a_full_collection(wire: Wire, releases: list[int]) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="one message")
    ids = old_world(wire)
    status, _ = await wire.sim("POST", "/sim/reset")
    assert status == 200
    assert releases == []  # a full collection costs milliseconds: test suites reset after every test
    assert still_alive(ids) == []  # freed as the reset dropped it: the world holds no cycle
    assert await wire.outbox() == []
