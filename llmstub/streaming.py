"""Paced delivery of a stream: pauses scheduled against absolute deadlines on the loop's monotonic clock.

Sleeping ``delay`` after each write would let every write's own cost pile up; aiming each piece
at ``start + i * delay`` keeps the pace exact over a long answer. With no pause everything goes in
one write, since per-frame writes cost several times the throughput.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

__all__ = ["send_paced"]


async def send_paced(
    write: Callable[[bytes], Awaitable[None]],
    head: bytes,
    pieces: Sequence[bytes],
    tail: bytes,
    delay: float,
) -> None:
    """Write ``head`` now, piece *i* (1-based) at ``start + i * delay``, and ``tail`` with the last piece.

    A cancelled task (the client went away, or the stand is stopping) stops at the current pause.
    """
    if delay <= 0 or not pieces:
        await write(head + b"".join(pieces) + tail)
        return
    loop = asyncio.get_running_loop()
    await write(head)
    start = loop.time()
    last = len(pieces)
    for number, piece in enumerate(pieces, start=1):
        remaining = start + number * delay - loop.time()
        if remaining > 0:
            await asyncio.sleep(remaining)
        await write(piece + tail if number == last else piece)
