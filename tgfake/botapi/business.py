"""Business connections: the stand's people connect no business account to the bot.

Client.cpp asks TDLib for the connection (``check_business_connection``) before anything else of these methods
except the parameter checks (``tgfake.botapi.schema``), and an unknown id answers ``business connection not
found``; so does every id here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.absent import no_business_connection
from tgfake.botapi.registry import bot_method
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True

METHODS = (
    "getBusinessConnection",
    "readBusinessMessage",
    "deleteBusinessMessages",
    "setBusinessAccountName",
    "setBusinessAccountUsername",
    "setBusinessAccountBio",
    "setBusinessAccountProfilePhoto",
    "removeBusinessAccountProfilePhoto",
    "setBusinessAccountGiftSettings",
    "getBusinessAccountStarBalance",
    "transferBusinessAccountStars",
    "getBusinessAccountGifts",
)


async def business_connection_not_found(ctx: BotCall, p: Params) -> Any:
    """No business connection exists: `business connection not found` (the photo and gift settings are not parsed)."""
    raise no_business_connection()


for _name in METHODS:
    bot_method(_name)(business_connection_not_found)
