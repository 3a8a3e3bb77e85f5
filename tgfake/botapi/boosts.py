"""Chat boosts: nobody in the stand boosts a chat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.absent import known_chat, known_user
from tgfake.botapi.registry import bot_method
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True


@bot_method("getUserChatBoosts")
async def get_user_chat_boosts(ctx: BotCall, p: Params) -> Any:
    """A known chat and person have no boosts: `{"boosts":[]}` (admin rights in the chat are not checked)."""
    known_chat(ctx, p)
    known_user(ctx, p)
    return {"boosts": []}
