"""Join request queries: the stand has none, so answering one is Telegram's ``QUERY_ID_INVALID``.

A ``chat_join_request`` carries a ``query_id`` only for a bot the chat assigned to process its join requests
(Bot API 10.3); the stand's chats assign none (their join requests, tgfake/world/groups.py, are answered with
approveChatJoinRequest / declineChatJoinRequest), so every query id is unknown. TDLib passes the id on to the server
(``set_join_chat_result``), whose ``QUERY_ID_INVALID`` telegram-bot-api words as for every other query.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True


@bot_method("answerChatJoinRequestQuery")
@bot_method("sendChatJoinRequestWebApp")
async def no_join_request_query(ctx: BotCall, p: Params) -> Any:
    """No chat assigns the bot its join requests, so no query is open: ``... query ID is invalid``."""
    raise bad_request(errors.QUERY_TOO_OLD)
