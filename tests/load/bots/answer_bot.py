"""A minimal aiohttp bot for load tests and benchmarks: one sendMessage per message, answerCallbackQuery per tap.

Environment: TELEGRAM_API, BOT_TOKEN; BOT_MODE=webhook with WEBHOOK_URL, WEBHOOK_PORT and WEBHOOK_SECRET serves a
webhook (max_connections 40), else it long-polls. SLEEP (seconds) makes it slow: it handles one update at a time
and sleeps that long before answering. SENDS answers each message with that many messages at once, ignoring
retry_after (a bot that does not respect Telegram's limits). TIMINGS names a file where, on SIGTERM, it writes
its sendMessage round trips (seconds, one a line, as it measured them): the benchmarks read them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import aiohttp
from aiohttp import web

API = os.environ["TELEGRAM_API"].rstrip("/") + "/bot" + os.environ["BOT_TOKEN"]
SLEEP = float(os.environ.get("SLEEP", "0") or 0)
SENDS = int(os.environ.get("SENDS", "1") or 1)
TIMINGS = os.environ.get("TIMINGS", "")
ROUND_TRIPS: list[float] = []


async def call(session: aiohttp.ClientSession, method: str, **params: Any) -> Any:
    async with session.post(f"{API}/{method}", json=params) as resp:
        return await resp.json()


async def handle(session: aiohttp.ClientSession, update: dict[str, Any]) -> None:
    if SLEEP:
        await asyncio.sleep(SLEEP)
    query = update.get("callback_query")
    if query:
        await call(session, "answerCallbackQuery", callback_query_id=query["id"])
        return
    message = update.get("message")
    if message and ("text" in message or "photo" in message):
        for _ in range(SENDS):
            began = time.perf_counter()
            await call(session, "sendMessage", chat_id=message["chat"]["id"], text="ok")
            if TIMINGS:
                ROUND_TRIPS.append(time.perf_counter() - began)


async def poll(session: aiohttp.ClientSession) -> None:
    await call(session, "deleteWebhook")  # as the libraries do before they poll
    offset = 0
    while True:
        got = await call(session, "getUpdates", offset=offset, timeout=10)
        updates = got.get("result") or []
        if updates:
            offset = updates[-1]["update_id"] + 1
        if SLEEP:
            for update in updates:
                await handle(session, update)
        else:
            await asyncio.gather(*(handle(session, u) for u in updates))


async def serve(session: aiohttp.ClientSession) -> None:
    lock = asyncio.Lock()

    async def hook(request: web.Request) -> web.Response:
        update = await request.json()
        if SLEEP:
            async with lock:
                await handle(session, update)
        else:
            await handle(session, update)
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", int(os.environ["WEBHOOK_PORT"])).start()
    await call(
        session, "setWebhook", url=os.environ["WEBHOOK_URL"], secret_token=os.environ["WEBHOOK_SECRET"],
        max_connections=40,
    )  # fmt: skip
    await asyncio.Event().wait()


def write_timings() -> None:
    with open(TIMINGS, "w", encoding="ascii") as out:
        out.write("".join(f"{t:.6f}\n" for t in ROUND_TRIPS))
    os._exit(0)


async def main() -> None:
    if TIMINGS:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, write_timings)
    connector = aiohttp.TCPConnector(limit=100)
    async with aiohttp.ClientSession(connector=connector) as session:
        await (serve(session) if os.environ.get("BOT_MODE") == "webhook" else poll(session))


if __name__ == "__main__":
    asyncio.run(main())
