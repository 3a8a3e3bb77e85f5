"""Business connections and the account methods: a bot acts on a person's business account within the rights
the person gave it (tgfake/world/business.py keeps the connections and the rules).

Client.cpp reads each method's own parameters first (``first_name``, ``photo``, ``accepted_gift_types``...), then
asks TDLib for the connection (``check_business_connection``: ``business connection not found`` for an id that is
not this bot's), and TDLib asks Telegram's server, which refuses a disabled connection
(``BUSINESS_CONNECTION_INVALID``) and a call the connection has no right for (``BOT_ACCESS_FORBIDDEN``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.fields import FieldError, decode_param, refuse
from tgfake.botapi.forwards import message_ids
from tgfake.botapi.registry import bot_method
from tgfake.botapi.settings import input_profile_photo
from tgfake.params import Params, to_bool, to_integer
from tgfake.world import business

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

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

MAX_INT32 = 2**31 - 1


def _connection(p: Params) -> str:
    return p.text("business_connection_id")


@bot_method("getBusinessConnection")
async def get_business_connection(ctx: BotCall, p: Params) -> Any:
    """The connection as the bot was told of it last (a disabled one too: ``is_enabled`` false)."""
    return business.connection_of(ctx.telegram, ctx.bot, _connection(p)).json()


@bot_method("readBusinessMessage")
async def read_business_message(ctx: BotCall, p: Params) -> Any:
    """A customer's message marked read on the owner's behalf (``can_read_messages``)."""
    message_id = max(0, min(to_integer(p.text("message_id")), MAX_INT32))
    business.read_message(ctx.telegram, ctx.bot, _connection(p), p.text("chat_id"), message_id)
    return True


@bot_method("deleteBusinessMessages")
async def delete_business_messages(ctx: BotCall, p: Params) -> Any:
    """Messages of the account deleted for both sides: the bot's own with ``can_delete_sent_messages``, any with
    ``can_delete_all_messages``."""
    ids = message_ids(p)
    business.delete_messages(ctx.telegram, ctx.bot, _connection(p), ids)
    return True


@bot_method("setBusinessAccountName")
async def set_business_account_name(ctx: BotCall, p: Params) -> Any:
    """The owner's first and last name (``can_edit_name``); td keeps 64 characters of each."""
    conn = business.managed(ctx.telegram, ctx.bot, _connection(p), "can_edit_name")
    business.set_name(conn, p.text("first_name"), p.text("last_name"))
    return True


@bot_method("setBusinessAccountUsername")
async def set_business_account_username(ctx: BotCall, p: Params) -> Any:
    """The owner's username (``can_edit_username``); empty removes it."""
    conn = business.managed(ctx.telegram, ctx.bot, _connection(p), "can_edit_username")
    business.set_username(ctx.telegram, conn, p.text("username"))
    return True


@bot_method("setBusinessAccountBio")
async def set_business_account_bio(ctx: BotCall, p: Params) -> Any:
    """The owner's bio (``can_edit_bio``), at most 70 characters; empty removes it."""
    conn = business.managed(ctx.telegram, ctx.bot, _connection(p), "can_edit_bio")
    business.set_bio(ctx.telegram, conn, p.text("bio"))
    return True


@bot_method("setBusinessAccountProfilePhoto")
async def set_business_account_profile_photo(ctx: BotCall, p: Params) -> Any:
    """The owner's profile photo, or with ``is_public`` the one shown to people who may not see it
    (``can_edit_profile_photo``); the photo is read first, as setMyProfilePhoto's."""
    kind, upload = input_profile_photo(p)
    conn = business.managed(ctx.telegram, ctx.bot, _connection(p), "can_edit_profile_photo")
    photo = {"type": kind, "size": len(upload.data)}
    business.set_photo(ctx.telegram, conn, photo, public=p.flag("is_public"))
    return True


@bot_method("removeBusinessAccountProfilePhoto")
async def remove_business_account_profile_photo(ctx: BotCall, p: Params) -> Any:
    conn = business.managed(ctx.telegram, ctx.bot, _connection(p), "can_edit_profile_photo")
    business.set_photo(ctx.telegram, conn, None, public=p.flag("is_public"))
    return True


GIFT_TYPES_MISSING = "Accepted gift types aren't specified"
GIFT_TYPES_NOT_OBJECT = "Object expected as accepted gift types"
REQUIRED_GIFT_TYPES = ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription")


def accepted_gift_types(p: Params) -> dict[str, bool]:
    """``get_accepted_gift_types``: four required Booleans and ``gifts_from_channels`` (true unless given)."""
    if not p.text("accepted_gift_types"):
        raise refuse(GIFT_TYPES_MISSING)
    value = decode_param(p, "accepted_gift_types", "accepted gift types")
    if not isinstance(value, dict):
        raise refuse(GIFT_TYPES_NOT_OBJECT)
    out: dict[str, bool] = {}
    try:
        for name in REQUIRED_GIFT_TYPES:
            if name not in value:
                raise FieldError(errors.FIELD_MISSING.format(name=name))
            if not isinstance(value[name], bool):
                raise FieldError(errors.FIELD_NOT_BOOLEAN.format(name=name))
            out[name] = value[name]
        channels = value.get("gifts_from_channels", True)
        if not isinstance(channels, bool):
            raise FieldError(errors.FIELD_NOT_BOOLEAN.format(name="gifts_from_channels"))
        out["gifts_from_channels"] = channels
    except FieldError as exc:
        raise refuse(exc.message) from None
    return out


@bot_method("setBusinessAccountGiftSettings")
async def set_business_account_gift_settings(ctx: BotCall, p: Params) -> Any:
    """Whether the gift button shows and which gifts the owner accepts (``can_change_gift_settings``)."""
    show = to_bool(p.text("show_gift_button"))
    accepted = accepted_gift_types(p)
    conn = business.managed(ctx.telegram, ctx.bot, _connection(p), "can_change_gift_settings")
    business.set_gift_settings(ctx.telegram, conn, show, accepted)
    return True


@bot_method("getBusinessAccountStarBalance")
async def get_business_account_star_balance(ctx: BotCall, p: Params) -> Any:
    """The account's Stars as a StarAmount (``can_view_gifts_and_stars``)."""
    conn = business.managed(ctx.telegram, ctx.bot, _connection(p), "can_view_gifts_and_stars")
    return {"amount": business.star_balance(ctx.telegram, conn)}


@bot_method("transferBusinessAccountStars")
async def transfer_business_account_stars(ctx: BotCall, p: Params) -> Any:
    """Stars from the account to the bot (``can_transfer_stars``): 1-10000, within the account's balance."""
    star_count = max(0, min(to_integer(p.text("star_count")), 1_000_000_000))  # get_integer_arg clamps
    conn = business.managed(ctx.telegram, ctx.bot, _connection(p), "can_transfer_stars")
    business.transfer_stars(ctx.telegram, ctx.bot, conn, star_count)
    return True
