"""What the refusal-only families share: naming a person or a chat the way Client.cpp's checks resolve them.

The stand's world knows a person once the sim has met them (they wrote, or were put in a chat), and a chat once
it exists for the calling bot; anything else is what TDLib cannot find (``check_user`` answers ``user not found``,
``check_chat`` ``chat not found``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tgfake import errors
from tgfake.errors import TelegramError, bad_request
from tgfake.params import Params, to_integer

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


def known_user(ctx: BotCall, p: Params, param: str = "user_id") -> int:
    """``check_user``: the person named by ``param`` (read as ``get_user_id`` reads it), or ``user not found``."""
    user_id = to_integer(p.text(param))
    if user_id <= 0 or (user_id not in ctx.world.users and user_id not in ctx.telegram.bots):
        raise bad_request(errors.USER_NOT_FOUND)
    return user_id


def known_chat(ctx: BotCall, p: Params, param: str = "chat_id") -> int:
    """``check_chat``: an id or ``@username`` the stand has no chat for is ``chat not found``."""
    chat = ctx.chat(p.chat(param))
    if chat is None:
        raise bad_request(errors.CHAT_NOT_FOUND)
    return chat.id


def no_business_connection() -> TelegramError:
    """No person of the stand has connected the bot to a business account: every connection id is unknown."""
    return bad_request(errors.BUSINESS_CONNECTION_NOT_FOUND)
