"""The menu button: setChatMenuButton and getChatMenuButton (rules in :mod:`tgfake.menus`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.registry import bot_method
from tgfake.menus import menu_chat_id, parse_menu_button
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


@bot_method("setChatMenuButton")
async def set_chat_menu_button(ctx: BotCall, p: Params) -> Any:
    """The button is checked before the chat id; no ``chat_id`` sets the bot's own button."""
    button = parse_menu_button(p.get("menu_button"))
    ctx.bot.menus.set(menu_chat_id(p.get("chat_id")), button)
    return True


@bot_method("getChatMenuButton")
async def get_chat_menu_button(ctx: BotCall, p: Params) -> Any:
    """The button the chat shows (no ``chat_id``: the bot's own); ``default`` for a chat reset to default."""
    cid = menu_chat_id(p.get("chat_id"))
    return ctx.bot.menus.answered(cid, ctx.chat_type(cid) if cid else "private")
