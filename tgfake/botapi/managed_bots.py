"""Managed bots: the stand has no bot managed by this one; its people are people.

Client.cpp resolves the user (``check_user``), then TDLib wants bot data of them (``get_bot_data``) and refuses
a person with ``User is not a bot``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_user
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True

METHODS = ("getManagedBotToken", "replaceManagedBotToken", "getManagedBotAccessSettings", "setManagedBotAccessSettings")


async def not_a_managed_bot(ctx: BotCall, p: Params) -> Any:
    """A known person is `user is not a bot` (an unknown id `user not found`)."""
    known_user(ctx, p)
    raise bad_request(errors.NOT_A_BOT)


for _name in METHODS:
    bot_method(_name)(not_a_managed_bot)
