"""Verification on behalf of an organisation: the stand's bot is no verification bot.

Client.cpp resolves the person (``check_user``) or the chat (``check_chat``), then Telegram refuses the bot with
the MTProto error ``BOT_VERIFIER_FORBIDDEN`` (a 403 in capitals, which the Bot API server turns into a 400).
The removals resolve without failing (``check_user_no_fail``, ``check_chat_no_fail``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_chat, known_user
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True


@bot_method("verifyUser")
async def verify_user(ctx: BotCall, p: Params) -> Any:
    """A known person, then `BOT_VERIFIER_FORBIDDEN`: the bot cannot assign verification marks."""
    known_user(ctx, p)
    raise bad_request(errors.BOT_VERIFIER_FORBIDDEN)


@bot_method("verifyChat")
async def verify_chat(ctx: BotCall, p: Params) -> Any:
    """A known chat, then `BOT_VERIFIER_FORBIDDEN`."""
    known_chat(ctx, p)
    raise bad_request(errors.BOT_VERIFIER_FORBIDDEN)


@bot_method("removeUserVerification")
async def remove_user_verification(ctx: BotCall, p: Params) -> Any:
    """`BOT_VERIFIER_FORBIDDEN` for any valid user id (the person is not looked up)."""
    raise bad_request(errors.BOT_VERIFIER_FORBIDDEN)


@bot_method("removeChatVerification")
async def remove_chat_verification(ctx: BotCall, p: Params) -> Any:
    """`BOT_VERIFIER_FORBIDDEN` for any Integer chat id (the chat is not looked up)."""
    raise bad_request(errors.BOT_VERIFIER_FORBIDDEN)
