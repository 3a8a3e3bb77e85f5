"""Inline mode from the person's side: type ``@bot query``, read the bot's answer, scroll on, pick a result."""

from __future__ import annotations

import asyncio

from aiohttp import web

from tgfake.errors import SimError
from tgfake.models import MAX_WAIT, InlineIn, InlineModeIn, InlinePickIn
from tgfake.sim import answers
from tgfake.sim.common import query_int, query_wait, read_body, stand_of
from tgfake.sim.openapi import BOT, documented, path, query
from tgfake.wire import sim_json
from tgfake.world import inline

routes = web.RouteTableDef()


@routes.post("/sim/inline")
@documented(answers.Answer, body=InlineIn, errors=(403, 404))
async def ask(request: web.Request) -> web.Response:
    """An ``inline_query`` update to the bot; answers with the query's id (and the chat a pick goes to)."""
    return sim_json(inline.ask(stand_of(request), await read_body(request, InlineIn)).asked())


@routes.get("/sim/inline")
@documented(
    answers.Answer,
    params=(
        query("inline_query_id", "The query (else the newest of the bot and person)"),
        BOT,
        query("user_id", "The person who typed it", "integer"),
        query(
            "timeout",
            "Seconds to hold until the bot answers (none: answer at once)",
            "number",
            minimum=0,
            maximum=MAX_WAIT,
        ),
    ),
    errors=(404,),
)
async def results(request: web.Request) -> web.Response:
    """The newest inline query (``?bot=``, ``?user_id=``, or ``?inline_query_id=``) and the bot's answer.

    With ``?timeout=`` seconds the request is held until the query is answered (or the time is up).
    """
    stand = stand_of(request)
    timeout = query_wait(request, 0.0)
    qid = request.query.get("inline_query_id", "")
    bot_ref = request.query.get("bot", "")
    bot_id = stand.find_bot(bot_ref).id if bot_ref else 0
    user_id = query_int(request, "user_id", 0)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = stand.world.inline.queries.get(qid) if qid else stand.world.inline.latest(bot_id, user_id)
        remaining = deadline - loop.time()
        if found is not None and (found.answer is not None or remaining <= 0):
            return sim_json(found.json())
        if remaining <= 0 or stand.closing:
            if found is None:
                raise SimError(404, f"inline query {qid} not found" if qid else "no inline query yet")
            return sim_json(found.json())
        await stand.calls_signal.wait(remaining)


@routes.post("/sim/inline/more")
@documented(answers.Answer, body=InlinePickIn, errors=(404, 409))
async def more(request: web.Request) -> web.Response:
    """The next page: the same query again with the answer's ``next_offset``."""
    return sim_json(inline.more(stand_of(request), await read_body(request, InlinePickIn)).asked())


@routes.post("/sim/inline/choose")
@documented(answers.Sent, body=InlinePickIn, errors=(403, 404, 409))
async def choose(request: web.Request) -> web.Response:
    """Pick a result: the message it sends (via the bot) and, with inline feedback, the chosen_inline_result."""
    return sim_json(inline.choose(stand_of(request), await read_body(request, InlinePickIn)))


@routes.post("/sim/bots/{bot}/inline")
@documented(answers.BotUser, body=InlineModeIn, params=(path("bot", "The bot (id or @username)"),), errors=(404,))
async def inline_mode(request: web.Request) -> web.Response:
    """BotFather's ``/setinline`` and ``/setinlinefeedback`` for a bot that exists (the default bot too)."""
    stand = stand_of(request)
    bot = stand.find_bot(request.match_info["bot"])
    body = await read_body(request, InlineModeIn)
    bot.supports_inline_queries = body.enabled
    bot.inline_feedback = 100 if body.feedback is True else int(body.feedback)
    return sim_json({**bot.get_me(), "inline_feedback": bot.inline_feedback})
