"""Streaming pace, measured against deadlines; disconnects; the bounded wait at shutdown."""

from __future__ import annotations

import asyncio
import json
import statistics

from aiohttp import ClientResponse

from llmstub.streaming import send_paced
from tests.llm.llm_support import MakeStand

TWENTY_WORDS = " ".join(f"w{n}" for n in range(1, 21))


async def _frames(response: ClientResponse) -> list[tuple[float, bytes]]:
    """Every SSE frame with the loop time it arrived at."""
    loop = asyncio.get_running_loop()
    frames: list[tuple[float, bytes]] = []
    while True:
        frame = await response.content.readuntil(b"\n\n")
        if not frame:
            return frames
        frames.append((loop.time(), frame))


def _piece(frame: bytes) -> str | None:
    payload = frame.removeprefix(b"data: ").strip()
    if payload == b"[DONE]":
        return None
    choices = json.loads(payload)["choices"]
    content: str | None = choices[0]["delta"].get("content") if choices else None
    return content


async def test_a_paced_answer_arrives_piece_by_piece_on_its_deadlines(make_llm: MakeStand) -> None:
    delay = 0.05
    stand = await make_llm(answers=[TWENTY_WORDS], delay=delay)
    response = await stand.chat({"stream": True, "messages": [{"role": "user", "content": "go"}]})
    frames = await _frames(response)
    start = frames[0][0]  # the role chunk goes out before the first pause
    assert _piece(frames[0][1]) == ""
    content = [(at, _piece(frame)) for at, frame in frames[1:] if _piece(frame)]
    assert [text for _, text in content] == [w + " " for w in TWENTY_WORDS.split()[:-1]] + ["w20"]
    # Lateness of each piece against its deadline start + i * delay (client-side, so it includes transit).
    lateness = [at - (start + i * delay) for i, (at, _) in enumerate(content, start=1)]
    print(f"lateness ms: median {statistics.median(lateness) * 1000:.2f}, max {max(lateness) * 1000:.2f}")
    assert min(lateness) > -0.005  # never early
    assert statistics.median(lateness) < 0.02
    assert lateness[-1] < 0.04  # no drift accumulated over 20 pauses (the tolerance absorbs a busy CI)
    # finish, usage and [DONE] follow the last piece with no pause.
    assert frames[-1][1] == b"data: [DONE]\n\n"
    assert frames[-1][0] - content[-1][0] < 0.01


async def test_deadlines_absorb_slow_writes_without_drift() -> None:
    loop = asyncio.get_running_loop()
    delay, cost = 0.05, 0.025
    written: list[float] = []

    async def slow_write(data: bytes) -> None:
        written.append(loop.time())
        await asyncio.sleep(cost)  # a transport that takes 25 ms per write

    pieces = [b"p"] * 10
    await send_paced(slow_write, b"head", pieces, b"tail", delay)
    start = written[0] + cost  # the pace starts once the head is written
    lateness = [at - (start + i * delay) for i, at in enumerate(written[1:], start=1)]
    # Sleeping `delay` after each write would make each piece 25 ms later than the one before (the last 250 ms late).
    # What a busy event loop adds (a wake-up 10-20 ms late under load) does not accumulate: the drift over nine
    # pieces stays under one write's cost.
    assert statistics.median(lateness) < 0.04, lateness
    assert lateness[-1] - lateness[0] < cost, lateness


async def test_no_pause_sends_everything_in_one_write() -> None:
    writes: list[bytes] = []

    async def write(data: bytes) -> None:
        writes.append(data)

    await send_paced(write, b"h", [b"a", b"b", b"c"], b"t", 0.0)
    assert writes == [b"habct"]
    writes.clear()
    await send_paced(write, b"h", [b"a", b"b"], b"t", 0.01)
    assert writes == [b"h", b"a", b"bt"]


async def test_a_client_that_disconnects_mid_stream_ends_the_server_task(make_llm: MakeStand) -> None:
    stand = await make_llm(answers=[TWENTY_WORDS + " " + TWENTY_WORDS], delay=0.05)  # 2 s in all
    loop = asyncio.get_running_loop()
    response = await stand.chat({"stream": True, "messages": [{"role": "user", "content": "go"}]})
    await response.content.readuntil(b"\n\n")  # role
    await response.content.readuntil(b"\n\n")  # first piece
    left = loop.time()
    response.close()
    await asyncio.wait_for(stand.model.wait_idle(), 1.0)
    assert loop.time() - left < 0.5
    entry = stand.model.log()[0]
    assert (entry.status, entry.cancelled, entry.stream) == (499, True, True)
    assert '"content":"w1 "' in entry.response
    assert "[DONE]" not in entry.response


async def test_shutdown_waits_for_a_short_stream(make_llm: MakeStand) -> None:
    stand = await make_llm(answers=["a b c d e"], delay=0.02, shutdown_grace=2.0)
    response = await stand.chat({"stream": True, "messages": [{"role": "user", "content": "go"}]})
    await response.content.readuntil(b"\n\n")
    await stand.client.server.close()
    rest = await response.content.read()
    assert rest.endswith(b"data: [DONE]\n\n")
    assert stand.model.log()[0].status == 200


async def test_shutdown_ends_a_long_stream_after_the_grace(make_llm: MakeStand) -> None:
    stand = await make_llm(answers=[TWENTY_WORDS], delay=1.0, shutdown_grace=0.2)  # 20 s unstopped
    loop = asyncio.get_running_loop()
    response = await stand.chat({"stream": True, "messages": [{"role": "user", "content": "go"}]})
    await response.content.readuntil(b"\n\n")
    stopping = loop.time()
    await stand.client.server.close()
    took = loop.time() - stopping
    assert 0.15 < took < 1.5, took
    entry = stand.model.log()[0]
    assert (entry.status, entry.cancelled) == (499, True)
