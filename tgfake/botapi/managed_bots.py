"""Managed bots: bots a person created through this bot (``POST /sim/managed-bots`` plays the person's
``request_managed_bot`` button), whose token and access settings this bot manages.

Client.cpp resolves the user (``check_user``: ``user not found``), then TDLib wants bot data of them
(``get_bot_data``: a person is ``user is not a bot``); then Telegram's ``bots.*`` queries refuse a bot the caller
does not manage with the MTProto error ``BOT_INVALID``. setManagedBotAccessSettings reads ``added_user_ids`` (at most
10, Client.cpp's ``get_user_ids``) only when ``is_access_restricted`` is true, before the user is resolved.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_user
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, parse_int, to_bool
from tgfake.world import channels
from tgfake.world.channel_state import ManagedBot

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall
    from tgfake.world.bots import Bot

MAX_ADDED_USERS = 10


def managed(ctx: BotCall, p: Params) -> tuple[Bot, ManagedBot]:
    """The bot named by ``user_id`` that the calling bot manages, or Telegram's refusal."""
    user_id = known_user(ctx, p)
    bot = ctx.telegram.bots.get(user_id)
    if bot is None:
        raise bad_request(errors.NOT_A_BOT)
    record = ctx.world.channels.managed.get(user_id)
    if record is None or record.manager_id != ctx.bot.id:
        raise bad_request(errors.BOT_INVALID)
    return bot, record


@bot_method("getManagedBotToken")
async def get_managed_bot_token(ctx: BotCall, p: Params) -> Any:
    """The managed bot's token."""
    bot, _ = managed(ctx, p)
    return bot.token


@bot_method("replaceManagedBotToken")
async def replace_managed_bot_token(ctx: BotCall, p: Params) -> Any:
    """A new token (the old one is ``Unauthorized`` from now on); the bot gets ``managed_bot`` again."""
    bot, _ = managed(ctx, p)
    return channels.replace_token(ctx.telegram, bot)


@bot_method("getManagedBotAccessSettings")
async def get_managed_bot_access_settings(ctx: BotCall, p: Params) -> Any:
    """BotAccessSettings: restricted or not, and the people added (Client.cpp's ``JsonBotAccessSettings``)."""
    _, record = managed(ctx, p)
    out: dict[str, Any] = {"is_access_restricted": record.restricted}
    users = [ctx.world.users[u].json() for u in record.added_users if u in ctx.world.users]
    if users:
        out["added_users"] = users
    return out


@bot_method("setManagedBotAccessSettings")
async def set_managed_bot_access_settings(ctx: BotCall, p: Params) -> Any:
    """Restricts the managed bot to its owner and ``added_user_ids`` (up to 10 known people), or opens it."""
    restricted = to_bool(p.text("is_access_restricted"))
    added = added_user_ids(p) if restricted and p.get("added_user_ids") is not None else []
    _, record = managed(ctx, p)
    if any(u not in ctx.world.users for u in added):
        raise bad_request(errors.USER_NOT_FOUND)
    record.restricted, record.added_users = restricted, added
    return True


def added_user_ids(p: Params) -> list[int]:
    """Client.cpp's ``get_user_ids(query, 10, "added_user_ids")``, word for word."""
    raw = p.text("added_user_ids")
    if not raw:
        raise bad_request(errors.USER_IDS_EMPTY)
    try:
        value = json.loads(raw)
    except ValueError:
        raise bad_request(errors.MESSAGE_IDS_BAD.format(name="added_user_ids")) from None
    if not isinstance(value, list):
        raise bad_request(errors.USER_IDS_NOT_ARRAY)
    if len(value) > MAX_ADDED_USERS:
        raise bad_request(errors.USER_IDS_TOO_MANY)
    out = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, (int, float, str)):
            raise bad_request(errors.USER_ID_NOT_NUMBER)
        number = parse_int(str(item)) if not isinstance(item, float) else None
        if number is None:
            raise bad_request(errors.USER_ID_UNPARSABLE)
        if number <= 0:
            raise bad_request(errors.USER_ID_INVALID)
        out.append(number)
    return out
