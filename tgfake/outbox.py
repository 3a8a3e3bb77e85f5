"""The outbox: every answered Bot API call, and the waits on it.

The pipeline (tgfake/botapi/pipeline.py) records each call here once it is answered; tests and the sim read the
calls back (``GET /sim/outbox``) and hold until enough have come (``GET /sim/wait``). The calls themselves are the
world's (:attr:`World.calls`: a reset starts a new outbox); every wait is bounded by its deadline.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import Any

from tgfake.params import Params
from tgfake.world import state
from tgfake.world.bots import Bot
from tgfake.world.state import Call, dump
from tgfake.world.telegram import Telegram


class Outbox:
    """The recorded calls of one world, their listeners (the log) and the waits on them."""

    def __init__(self, telegram: Telegram) -> None:
        self.telegram = telegram
        self.call_listeners: list[Callable[[Call], None]] = []

    def record(self, method: str, params: Params, status: int, envelope: dict[str, Any], bot_id: int = 0) -> Call:
        """Keep one answered call in the outbox (its envelope encoded once, as it goes out)."""
        retry = envelope.get("parameters", {}).get("retry_after", 0) if status == 429 else 0
        call = Call(
            seq=len(self.telegram.world.calls) + 1,
            at=self.telegram.now(),
            method=method,
            params=params.summary(),
            status=status,
            body=dump(envelope).encode(),
            bot_id=bot_id,
            retry_after=retry,
        )
        self.telegram.world.calls.append(call)
        if call.seq % state.FREEZE_EVERY == 0:
            gc.freeze()  # what is stored so far is long-lived: keep it out of every later collection
        for listener in self.call_listeners:
            listener(call)
        self.telegram.calls_signal.fire()
        return call

    def calls(self, method: str = "", since: int = 0, bot_id: int = 0) -> list[Call]:
        """Recorded calls, oldest first; ``method`` compares case-insensitively, ``bot_id`` picks one bot's.

        ``seq`` is the position in the outbox plus one (calls are only appended; a reset starts a new outbox), so
        ``since`` slices instead of scanning: a server-held wait costs only the calls it has not seen.
        """
        want = method.lower()
        recent = self.telegram.world.calls[max(since, 0) :]
        return [c for c in recent if (not want or c.method.lower() == want) and (not bot_id or c.bot_id == bot_id)]

    async def wait_call(self, method: str, count: int = 1, timeout: float = 5.0) -> list[Call]:
        """The in-process twin of ``GET /sim/wait``: the matching calls once there are ``count`` of them."""
        return await self.wait_calls(method, count, timeout)

    async def wait_calls(self, method: str, count: int, timeout: float, since: int = 0, bot_id: int = 0) -> list[Call]:
        """Hold until at least ``count`` matching calls are recorded or the deadline passes; returns the matches."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = self.calls(method, since, bot_id)
            remaining = deadline - loop.time()
            if len(found) >= count or remaining <= 0 or self.telegram.closing:
                return found
            await self.telegram.calls_signal.wait(remaining)

    @property
    def held_polls(self) -> int:
        return self.telegram.default_bot.held_polls

    async def wait_polling(self, timeout: float, bot: Bot | None = None) -> bool:
        """Hold until the bot has a getUpdates held (it is idle, waiting for updates) or the deadline."""
        target = bot or self.telegram.default_bot
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not target.held_polls:
            remaining = deadline - loop.time()
            if remaining <= 0 or self.telegram.closing:
                return False
            await self.telegram.calls_signal.wait(remaining)
        return True
