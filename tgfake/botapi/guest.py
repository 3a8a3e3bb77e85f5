"""Guest queries: a person summons the bot into a chat it is not in (``POST /sim/guest-message``); the bot gets
``guest_message`` with a ``guest_query_id`` and answers it with answerGuestQuery.

Client.cpp reads ``result`` first (``get_inline_query_result``, the InlineQueryResult check of answerWebAppQuery),
then TDLib's ``answerGuestQuery`` finds the query: an unknown or answered one is ``QUERY_ID_INVALID`` as the server
words it. The answer enters the chat as the bot's message, replying to the summons and naming who summoned it
(``guest_bot_caller_user``, ``guest_bot_caller_chat``); the bot gets its ``inline_message_id`` (SentGuestMessage).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.inline import checked_result
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params
from tgfake.world import channels

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


@bot_method("answerGuestQuery")
async def answer_guest_query(ctx: BotCall, p: Params) -> Any:
    """``result`` checked as answerWebAppQuery's; then the open query, answered once: SentGuestMessage."""
    result = checked_result(ctx, p)
    query = ctx.world.channels.guest_queries.get(p.text("guest_query_id").strip())
    if query is None or query.bot_id != ctx.bot.id or query.answered:
        raise bad_request(errors.QUERY_TOO_OLD)
    return {"inline_message_id": channels.guest_reply(ctx.telegram, query, ctx.bot, result)}
