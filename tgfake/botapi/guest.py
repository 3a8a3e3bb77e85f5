"""Guest queries: the stand has no guest messages, so answering one is Telegram's ``QUERY_ID_INVALID``.

A ``guest_message`` update (a bot summoned into a chat it is not in) is not modelled, so no guest query is open.
telegram-bot-api reads ``result`` first (``get_inline_query_result``: present, JSON, an object with a ``type`` and
an ``id``); the stand checks that much, then answers the unknown query as the server words ``QUERY_ID_INVALID``.
The full InlineQueryResult check is inline mode's (answerInlineQuery).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import fields
from tgfake.botapi.fields import FieldError
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True


@bot_method("answerGuestQuery")
async def answer_guest_query(ctx: BotCall, p: Params) -> Any:
    """``result`` checked as an InlineQueryResult's outline; no guest query is open, so ``query ID is invalid``."""
    value = fields.required_json(p, "result", errors.RESULT_BAD_JSON, missing=errors.RESULT_NOT_SPECIFIED)
    if not isinstance(value, dict):
        raise bad_request(errors.RESULT_NOT_OBJECT)
    try:
        fields.required_string(value, "type")
        fields.required_string(value, "id")
    except FieldError as exc:
        raise fields.refuse(exc.message) from None
    raise bad_request(errors.QUERY_TOO_OLD)
