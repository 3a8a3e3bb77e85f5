"""Join request queries: a chat that assigned the bot its join requests (``POST /sim/chats/{id}/join-request-bot``)
hands it each request with a ``query_id``, which the bot answers within 10 seconds.

The telegram-bot-api source read (Client.cpp of May 2026) predates these methods; this is the stand's reading of
TDLib (``answerChatJoinRequestQuery query_id:int64 result:ChatJoinRequestResult url:string``): the id is an
integer the server looks up, and an unknown, answered or expired query is ``QUERY_ID_INVALID``, which
telegram-bot-api words as for every other query. ``result`` is ``approve``, ``decline`` or ``queue``; anything
else is refused in the shape of Client.cpp's other enumerations (``invalid result specified``) before the query.
sendChatJoinRequestWebApp shows the person a Mini App (kept on the query; the sim shows it) and leaves the query
open for its answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params
from tgfake.world import channels
from tgfake.world.channel_state import JoinQuery

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

RESULTS = ("approve", "decline", "queue")


def _query(ctx: BotCall, p: Params) -> JoinQuery:
    query = channels.open_join_query(ctx.telegram, ctx.bot, p.text("chat_join_request_query_id").strip())
    if query is None:
        raise bad_request(errors.QUERY_TOO_OLD)
    return query


@bot_method("answerChatJoinRequestQuery")
async def answer_chat_join_request_query(ctx: BotCall, p: Params) -> Any:
    """``approve`` lets the person in, ``decline`` drops the request, ``queue`` leaves it to the administrators."""
    result = p.text("result")
    if result not in RESULTS:
        raise bad_request(errors.JOIN_QUERY_RESULT_INVALID)
    channels.answer_join_query(ctx.telegram, _query(ctx, p), result)
    return True


@bot_method("sendChatJoinRequestWebApp")
async def send_chat_join_request_web_app(ctx: BotCall, p: Params) -> Any:
    """The person is shown the Mini App at ``web_app_url``; the query stays open for answerChatJoinRequestQuery."""
    query = _query(ctx, p)
    query.web_app_url = p.text("web_app_url")
    return True
