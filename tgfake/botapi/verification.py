"""Verification on behalf of an organisation, for a bot the sim made a verifier (``POST /sim/verifiers``).

Client.cpp resolves the person (``check_user``) or the chat (``check_chat``), then TDLib's
``setMessageSenderBotVerification``; Telegram refuses a bot that is no organisation's verifier with the MTProto
error ``BOT_VERIFIER_FORBIDDEN`` (a 403 in capitals, which the Bot API server turns into a 400). The removals
resolve without failing (``check_user_no_fail``, ``check_chat_no_fail``). A mark is kept per verifier with its
``custom_description`` (TDLib's option ``bot_verification_custom_description_length_max`` is 70; the server's
refusal of a longer one is not modelled); ``GET /sim/verifiers`` shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_chat, known_user
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, to_integer

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


def _verifier(ctx: BotCall) -> None:
    if ctx.bot.id not in ctx.world.channels.verifiers:
        raise bad_request(errors.BOT_VERIFIER_FORBIDDEN)


@bot_method("verifyUser")
async def verify_user(ctx: BotCall, p: Params) -> Any:
    """A known person, then the mark (`BOT_VERIFIER_FORBIDDEN` unless the sim made the bot a verifier)."""
    user_id = known_user(ctx, p)
    _verifier(ctx)
    ctx.world.channels.verified[(ctx.bot.id, user_id)] = p.text("custom_description")
    return True


@bot_method("verifyChat")
async def verify_chat(ctx: BotCall, p: Params) -> Any:
    """A known chat, then the mark (`BOT_VERIFIER_FORBIDDEN` unless the bot is a verifier)."""
    chat_id = known_chat(ctx, p)
    _verifier(ctx)
    ctx.world.channels.verified[(ctx.bot.id, chat_id)] = p.text("custom_description")
    return True


@bot_method("removeUserVerification")
async def remove_user_verification(ctx: BotCall, p: Params) -> Any:
    """The bot's mark on any valid user id is removed (none there is no error); not a verifier: forbidden."""
    _verifier(ctx)
    ctx.world.channels.verified.pop((ctx.bot.id, to_integer(p.text("user_id"))), None)
    return True


@bot_method("removeChatVerification")
async def remove_chat_verification(ctx: BotCall, p: Params) -> Any:
    """The bot's mark on any Integer chat id is removed; not a verifier: forbidden."""
    _verifier(ctx)
    ctx.world.channels.verified.pop((ctx.bot.id, to_integer(p.text("chat_id"))), None)
    return True
