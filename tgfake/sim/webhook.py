"""The webhook from the test's side: its configuration, every delivery attempt, and a server-held wait on them."""

from __future__ import annotations

import asyncio

from aiohttp import web

from tgfake.errors import SimError
from tgfake.sim import answers
from tgfake.sim.common import bot_of, query_int, query_wait, stand_of
from tgfake.sim.inspect import TIMEOUT
from tgfake.sim.openapi import BOT, documented, query
from tgfake.wire import sim_json
from tgfake.world.bots import Bot

routes = web.RouteTableDef()

DELIVERED = query("delivered", "Wait for this many confirmed (2xx) deliveries", "integer", minimum=1)
ATTEMPTS = query("attempts", "Wait for this many delivery attempts", "integer", minimum=1)


def webhook_view(bot: Bot) -> dict[str, object]:
    loop = asyncio.get_running_loop()
    return bot.webhook.view(loop.time(), len(bot.pending), bot.allowed_json())


@routes.get("/sim/webhook")
@documented(answers.WebhookView, params=(BOT,))
async def webhook(request: web.Request) -> web.Response:
    return sim_json(webhook_view(bot_of(request)))


@routes.get("/sim/webhook/wait")
@documented(answers.WebhookView, params=(BOT, DELIVERED, ATTEMPTS, TIMEOUT), errors=(408,))
async def wait(request: web.Request) -> web.Response:
    """Hold until ``delivered`` updates were confirmed (2xx) or ``attempts`` POSTs were made, since the last reset."""
    delivered = query_int(request, "delivered")
    attempts = query_int(request, "attempts")
    if (delivered > 0) == (attempts > 0):
        raise SimError(400, "give exactly one of delivered or attempts (a positive count)")
    timeout = query_wait(request, 5.0)
    stand = stand_of(request)
    bot = bot_of(request)
    ok_only, count = (True, delivered) if delivered else (False, attempts)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (seen := bot.webhook.delivered(ok_only)) < count:
        remaining = deadline - loop.time()
        if remaining <= 0 or stand.closing:
            what = "confirmed deliveries" if ok_only else "delivery attempts"
            raise SimError(408, f"timed out after {timeout:g}s waiting for {count} {what} (saw {seen})")
        await stand.calls_signal.wait(remaining)
    return sim_json(webhook_view(bot))
