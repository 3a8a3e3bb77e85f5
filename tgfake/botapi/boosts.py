"""getUserChatBoosts: the boosts a person gave a chat (people boost through ``POST /sim/chats/{id}/boost``).

Client.cpp resolves the chat (``check_chat``), then the person without failing (``check_user_no_fail``); the
stand still answers ``user not found`` for an id it has never met, as before. Administrator rights in the chat are
not checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.absent import known_chat, known_user
from tgfake.botapi.registry import bot_method
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


@bot_method("getUserChatBoosts")
async def get_user_chat_boosts(ctx: BotCall, p: Params) -> Any:
    """UserChatBoosts: the person's live boosts of the chat, oldest first (``{"boosts":[]}`` for none)."""
    chat_id = known_chat(ctx, p)
    user_id = known_user(ctx, p)
    boosts = ctx.world.channels.boosts_of(chat_id, user_id, ctx.unix_now())
    return {"boosts": [b.json() for b in boosts]}
