"""What the refusal-only families share: naming a person or a chat the way Client.cpp's checks resolve them.

The stand's world knows a person once a private chat with them exists, and a chat once it exists; anything else
is what TDLib cannot find (``check_user`` answers ``user not found``, ``check_chat`` ``chat not found``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tgfake import errors
from tgfake.botapi.schema import to_integer
from tgfake.errors import TelegramError, bad_request
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.stand import Stand


def known_user(stand: Stand, p: Params, param: str = "user_id") -> int:
    """``check_user``: the person named by ``param`` (read as ``get_user_id`` reads it), or ``user not found``."""
    user_id = to_integer(p.text(param))
    chat = stand.chat(user_id)
    if chat is None or chat.type != "private":
        raise bad_request(errors.USER_NOT_FOUND)
    return user_id


def known_chat(stand: Stand, p: Params, param: str = "chat_id") -> int:
    """``check_chat``: an ``@username`` or id the stand has no chat for is ``chat not found``."""
    value = p.text(param)
    chat = None if value.startswith("@") else stand.chat(to_integer(value))
    if chat is None:
        raise bad_request(errors.CHAT_NOT_FOUND)
    return chat.id


def no_business_connection() -> TelegramError:
    """No person of the stand has connected the bot to a business account: every connection id is unknown."""
    return bad_request(errors.BUSINESS_CONNECTION_NOT_FOUND)
