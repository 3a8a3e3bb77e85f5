"""Suggested posts live in channels' direct-messages chats, which the stand does not have.

Client.cpp's ``check_message`` resolves the chat, then any message of it is ``suggested post not found``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_chat
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True


async def suggested_post_not_found(ctx: BotCall, p: Params) -> Any:
    """A known chat, then `suggested post not found` (approving and declining alike)."""
    known_chat(ctx, p)
    raise bad_request(errors.SUGGESTED_POST_NOT_FOUND)


for _name in ("approveSuggestedPost", "declineSuggestedPost"):
    bot_method(_name)(suggested_post_not_found)
