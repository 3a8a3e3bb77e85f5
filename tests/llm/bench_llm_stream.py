"""Throughput of streamed answers with no pause: how many 40-word streams per second one model serves.

Run ``python tests/llm/bench_llm_stream.py`` from the repository root (pytest does not collect it).
It serves the model on a free port and drives it with one aiohttp client, ``--concurrency``
requests in flight.
"""

from __future__ import annotations

import argparse
import asyncio
import time

import aiohttp
from aiohttp import web

from llmstub import Model, ModelOptions

ANSWER = " ".join(f"word{n}" for n in range(40))
BODY = '{"stream": true, "messages": [{"role": "user", "content": "go"}]}'


async def run(total: int, concurrency: int, delay: float) -> float:
    app = web.Application()
    Model(ModelOptions(answers=[ANSWER], delay=delay)).register(app)
    runner = web.AppRunner(app, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    url = f"http://127.0.0.1:{port}/v1/chat/completions"
    queue: asyncio.Queue[None] = asyncio.Queue()
    for _ in range(total):
        queue.put_nowait(None)

    async with aiohttp.ClientSession() as session:

        async def worker() -> None:
            while not queue.empty():
                queue.get_nowait()
                async with session.post(url, data=BODY) as response:
                    body = await response.read()
                    assert body.endswith(b"data: [DONE]\n\n")

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    await runner.cleanup()
    return total / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    rate = asyncio.run(run(args.requests, args.concurrency, args.delay))
    print(f"{rate:.0f} streamed answers/s ({args.requests} requests, concurrency {args.concurrency})")


if __name__ == "__main__":
    main()
