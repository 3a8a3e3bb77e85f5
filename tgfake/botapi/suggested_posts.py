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
    from tgfake.stand import Stand

REFUSAL_ONLY = True


@bot_method("approveSuggestedPost")
async def approve_suggested_post(stand: Stand, p: Params) -> Any:
    """A known chat, then `suggested post not found`."""
    known_chat(stand, p)
    raise bad_request(errors.SUGGESTED_POST_NOT_FOUND)


@bot_method("declineSuggestedPost")
async def decline_suggested_post(stand: Stand, p: Params) -> Any:
    """A known chat, then `suggested post not found`."""
    known_chat(stand, p)
    raise bad_request(errors.SUGGESTED_POST_NOT_FOUND)
