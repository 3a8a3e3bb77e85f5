"""What the bot did: outbox, server-held waits, chats and transcripts, the stand's state."""

from __future__ import annotations

import asyncio

from aiohttp import web

from tgfake.errors import SimError
from tgfake.models import MAX_WAIT
from tgfake.params import parse_int
from tgfake.sim import answers
from tgfake.sim.common import bot_of, query_int, query_wait, stand_of
from tgfake.sim.openapi import BOT, CHAT_ID, documented, query
from tgfake.stand import Call, Stand
from tgfake.wire import sim_json

routes = web.RouteTableDef()

METHOD = query("method", "Only calls of this Bot API method (none: every method)")
SINCE = query("since", "Only calls after this outbox sequence number", "integer")
COUNT = query("count", "How many calls to wait for", "integer")
TIMEOUT = query("timeout", "Seconds to wait (an ``s`` suffix allowed)", "number", minimum=0, maximum=MAX_WAIT)
POLLING_VALUES = ("", "1", "true", "0", "false")
POLLING = query("polling", "``1``: wait until the bot has a getUpdates waiting instead", enum=list(POLLING_VALUES[1:]))
TOKEN = query("token", "Only calls made with this bot token (none until its first call): a bot process's readiness")
FORMAT = query("format", "``text``: the chat as a plain-text transcript", enum=["json", "text"])


@routes.get("/sim/outbox")
@documented(answers.Calls, params=(BOT, METHOD, SINCE))
async def outbox(request: web.Request) -> web.Response:
    stand = stand_of(request)
    bot_id = bot_of(request).id if request.query.get("bot") else 0
    calls = stand.calls(request.query.get("method", ""), query_int(request, "since"), bot_id)
    return sim_json({"calls": [c.json() for c in calls]})


@routes.get("/sim/outbox/count")
@documented(answers.Counted, params=(METHOD,))
async def outbox_count(request: web.Request) -> web.Response:
    return sim_json({"count": len(stand_of(request).calls(request.query.get("method", "")))})


@routes.get("/sim/wait")
@documented(
    answers.CallsWaited | answers.Polling, params=(BOT, METHOD, SINCE, COUNT, TIMEOUT, POLLING, TOKEN), errors=(408,)
)
async def wait(request: web.Request) -> web.Response:
    """Hold until the outbox has ``count`` calls of ``method`` (after ``since``), so tests never poll in a loop.

    ``?polling=1`` instead holds until the bot has a getUpdates waiting, i.e. it has handled everything so far.
    """
    method = request.query.get("method", "")
    count = query_int(request, "count", 1)
    since = query_int(request, "since")  # read (and refused when malformed) on either path
    timeout = query_wait(request, 5.0)
    polling = request.query.get("polling", "")
    if polling not in POLLING_VALUES:
        raise SimError(400, "polling is 1, true, 0 or false")
    if polling in ("1", "true"):
        if not await stand_of(request).wait_polling(timeout, bot_of(request)):
            raise SimError(408, f"timed out after {timeout:g}s waiting for the bot to poll")
        return sim_json({"polling": True})
    token = request.query.get("token", "")
    if token:
        calls = await _token_calls(stand_of(request), token, method, count, timeout, since)
    else:
        bot_id = bot_of(request).id if request.query.get("bot") else 0
        calls = await stand_of(request).wait_calls(method, count, timeout, since, bot_id)
    if len(calls) < count:
        what = f"{method} calls" if method else "calls"
        raise SimError(408, f"timed out after {timeout:g}s waiting for {count} {what} (saw {len(calls)})")
    return sim_json({"calls": [c.json() for c in calls], "count": len(calls)})


async def _token_calls(stand: Stand, token: str, method: str, count: int, timeout: float, since: int) -> list[Call]:
    """:meth:`Stand.wait_calls` for the bot a token names, which it names from its first call on (a bot not yet
    started has no calls: the wait holds until it makes one)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        bot = stand.tokens.get(token)
        found = stand.calls(method, since, bot.id) if bot is not None else []
        remaining = deadline - loop.time()
        if len(found) >= count or remaining <= 0 or stand.closing:
            return found
        await stand.calls_signal.wait(remaining)


def _chat_id(request: web.Request) -> int:
    """A 64-bit integer, as chat ids are (the reference parses it with ParseInt)."""
    raw = request.match_info["id"]
    value = parse_int(raw) if raw == raw.strip() else None
    if value is None:
        raise SimError(400, "chat id must be an integer")
    return value


@routes.get("/sim/chat/{id}")
@documented(answers.ChatViewAnswer, media=("text/plain",), params=(BOT, CHAT_ID, FORMAT))
async def chat(request: web.Request) -> web.Response:
    stand = stand_of(request)
    cid = _chat_id(request)
    bot = bot_of(request)
    shown = request.query.get("format") or "json"
    if shown not in ("json", "text"):
        raise SimError(400, "format is json or text")
    if shown == "text":
        return web.Response(text=stand.chat_text(cid, bot), content_type="text/plain", charset="utf-8")
    return sim_json(stand.chat_view(cid, bot))


@routes.get("/sim/chats")
@documented(answers.ChatList, params=(BOT,))
async def chats(request: web.Request) -> web.Response:
    return sim_json({"chats": stand_of(request).chat_summaries(bot_of(request))})


@routes.get("/sim/state")
@documented(answers.StandState)
async def state(request: web.Request) -> web.Response:
    return sim_json(stand_of(request).state())
