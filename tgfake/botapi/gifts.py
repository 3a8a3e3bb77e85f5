"""Gifts: the catalogue the sim sets (``PUT /sim/gifts``), sendGift paid from the bot's Stars, the gifts people and
chats own, and a business account's gifts managed through its connection (tgfake/world/gifts.py).

giftPremiumSubscription is modelled in tgfake/botapi/premium.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.absent import known_chat, known_user
from tgfake.botapi.common import entities_json
from tgfake.botapi.registry import bot_method
from tgfake.botapi.schema import user
from tgfake.errors import bad_request
from tgfake.params import Params, to_integer
from tgfake.text import format_text
from tgfake.world import business, gifts

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

FILTERS = (
    "exclude_unsaved",
    "exclude_saved",
    "exclude_unlimited",
    "exclude_limited",
    "exclude_unique",
    "sort_by_price",
)


def _page(p: Params) -> tuple[dict[str, bool], str, int]:
    """The filters every list of owned gifts reads, ``offset`` and ``limit`` (clamped to 1..100, 100 if absent)."""
    limit = max(1, min(to_integer(p.text("limit")), 100)) if p.text("limit") else 100
    return {name: p.flag(name) for name in FILTERS}, p.text("offset"), limit


@bot_method("getAvailableGifts")
async def get_available_gifts(ctx: BotCall, p: Params) -> Any:
    """The catalogue the sim set (``PUT /sim/gifts``): `{"gifts": [Gift...]}`, a limited gift with what is left."""
    return {"gifts": gifts.available(ctx.telegram)}


@bot_method("getUserGifts")
async def get_user_gifts(ctx: BotCall, p: Params) -> Any:
    """The gifts a known person owns (`user not found` for an unknown id), newest first, without their
    ``owned_gift_id``."""
    user_id = known_user(ctx, p)
    flags, offset, limit = _page(p)
    return gifts.owned_by(ctx.telegram, user_id, flags, offset, limit, managed=False)


@bot_method("getChatGifts")
async def get_chat_gifts(ctx: BotCall, p: Params) -> Any:
    """The gifts a known chat owns (`chat not found` for an unknown one)."""
    chat_id = known_chat(ctx, p)
    flags, offset, limit = _page(p)
    return gifts.owned_by(ctx.telegram, chat_id, flags, offset, limit, managed=False)


@bot_method("sendGift")
async def send_gift(ctx: BotCall, p: Params) -> Any:
    """A catalogue gift to `chat_id` when given, else to `user_id`, paid from the bot's Stars (with its upgrade
    when ``pay_for_upgrade``): the text first, then the receiver, then the gift (`STARGIFT_INVALID`), sold out
    (`STARGIFT_USAGE_LIMITED`) or `BALANCE_TOO_LOW`."""
    text = format_text(p.text("text"), p.text("text_parse_mode"), p.get("text_entities"), allow_empty=True)
    if p.text("chat_id"):
        receiver = known_chat(ctx, p)
    else:
        problem = user().refuses(p)  # read only on this branch, so not an up-front check
        if problem is not None:
            raise bad_request(problem)
        receiver = known_user(ctx, p)
    gift_id = str(to_integer(p.text("gift_id")))
    entities = entities_json(ctx, text)
    gifts.send(ctx.telegram, ctx.bot, receiver, gift_id, text.text, entities, upgrade=p.flag("pay_for_upgrade"))
    return True


@bot_method("getBusinessAccountGifts")
async def get_business_account_gifts(ctx: BotCall, p: Params) -> Any:
    """The gifts the business account owns with their ``owned_gift_id`` (``can_view_gifts_and_stars``)."""
    conn = business.managed(ctx.telegram, ctx.bot, p.text("business_connection_id"), "can_view_gifts_and_stars")
    flags, offset, limit = _page(p)
    return gifts.owned_by(ctx.telegram, conn.owner.id, flags, offset, limit, managed=True)


@bot_method("convertGiftToStars")
async def convert_gift_to_stars(ctx: BotCall, p: Params) -> Any:
    """A regular gift of the account becomes Stars on the account (``can_convert_gifts_to_stars``;
    `STARGIFT_NOT_FOUND`, another's `STARGIFT_OWNER_INVALID`, a unique one `STARGIFT_ALREADY_UPGRADED`)."""
    conn = gifts.managing(ctx.telegram, ctx.bot, p.text("business_connection_id"), "can_convert_gifts_to_stars")
    gifts.convert(ctx.telegram, conn, p.text("owned_gift_id"))
    return True


@bot_method("upgradeGift")
async def upgrade_gift(ctx: BotCall, p: Params) -> Any:
    """A gift of the account becomes unique (``can_transfer_and_upgrade_gifts``): upgradable
    (`STARGIFT_UPGRADE_UNAVAILABLE`), once (`STARGIFT_ALREADY_UPGRADED`), its price paid by the bot unless prepaid."""
    star_count = max(0, min(to_integer(p.text("star_count")), 1_000_000))
    conn = gifts.managing(ctx.telegram, ctx.bot, p.text("business_connection_id"), "can_transfer_and_upgrade_gifts")
    gifts.upgrade(ctx.telegram, ctx.bot, conn, p.text("owned_gift_id"), star_count, p.flag("keep_original_details"))
    return True


@bot_method("transferGift")
async def transfer_gift(ctx: BotCall, p: Params) -> Any:
    """A unique gift of the account goes to ``new_owner_chat_id`` (``can_transfer_and_upgrade_gifts``; a regular
    gift: `STARGIFT_NOT_UNIQUE`), the chat read beside the connection as an Integer."""
    star_count = max(0, min(to_integer(p.text("star_count")), 1_000_000))
    new_owner = business.business_chat_id(p.text("new_owner_chat_id"))
    conn = gifts.managing(ctx.telegram, ctx.bot, p.text("business_connection_id"), "can_transfer_and_upgrade_gifts")
    gifts.transfer(ctx.telegram, ctx.bot, conn, p.text("owned_gift_id"), new_owner, star_count)
    return True
