"""Gifts: Telegram's catalogue is empty in the stand, and nobody owns a gift.

Reading lists answers empty lists in Telegram's shapes (``Gifts``, ``OwnedGifts``) for a person or chat the stand
knows; sending names a gift that does not exist, which Telegram refuses with the MTProto error
``STARGIFT_INVALID`` (a 400 in capitals, kept by the Bot API server). Owned gifts are managed through a business
connection, which the stand does not have. giftPremiumSubscription is modelled in tgfake/botapi/premium.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_chat, known_user, no_business_connection
from tgfake.botapi.registry import bot_method
from tgfake.botapi.schema import user
from tgfake.errors import bad_request
from tgfake.params import Params
from tgfake.world import business

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True

NO_OWNED_GIFTS: dict[str, Any] = {"total_count": 0, "gifts": []}


@bot_method("getAvailableGifts")
async def get_available_gifts(ctx: BotCall, p: Params) -> Any:
    """The catalogue is empty: `{"gifts":[]}`."""
    return {"gifts": []}


@bot_method("getUserGifts")
async def get_user_gifts(ctx: BotCall, p: Params) -> Any:
    """A known person owns nothing: `{"total_count":0,"gifts":[]}` (`user not found` for an unknown id)."""
    known_user(ctx, p)
    return dict(NO_OWNED_GIFTS, gifts=[])


@bot_method("getChatGifts")
async def get_chat_gifts(ctx: BotCall, p: Params) -> Any:
    """A known chat owns nothing: `{"total_count":0,"gifts":[]}` (`chat not found` for an unknown one)."""
    known_chat(ctx, p)
    return dict(NO_OWNED_GIFTS, gifts=[])


@bot_method("sendGift")
async def send_gift(ctx: BotCall, p: Params) -> Any:
    """To `chat_id` when given, else to `user_id`; once the receiver is known, no gift exists: `STARGIFT_INVALID`."""
    if p.text("chat_id"):
        known_chat(ctx, p)
    else:
        problem = user().refuses(p)  # read only on this branch, so not an up-front check
        if problem is not None:
            raise bad_request(problem)
        known_user(ctx, p)
    raise bad_request(errors.STARGIFT_INVALID)


@bot_method("getBusinessAccountGifts")
async def get_business_account_gifts(ctx: BotCall, p: Params) -> Any:
    """The gifts the business account owns (``can_view_gifts_and_stars``)."""
    business.managed(ctx.telegram, ctx.bot, p.text("business_connection_id"), "can_view_gifts_and_stars")
    return dict(NO_OWNED_GIFTS, gifts=[])


async def owned_gift_needs_business(ctx: BotCall, p: Params) -> Any:
    """Owned gifts are managed through a business connection: `business connection not found`."""
    raise no_business_connection()


for _name in ("convertGiftToStars", "upgradeGift", "transferGift"):
    bot_method(_name)(owned_gift_needs_business)
