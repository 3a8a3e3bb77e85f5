"""The one method registry: Bot API method name (case-insensitive) -> coroutine serving it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

BotMethod = Callable[["BotCall", Params], Awaitable[Any]]

_METHODS: dict[str, tuple[str, BotMethod]] = {}


def bot_method(name: str) -> Callable[[BotMethod], BotMethod]:
    """Register ``async def f(ctx, params) -> result`` as Bot API method ``name``; TelegramError refuses.

    ``ctx`` is a :class:`~tgfake.botapi.context.BotCall`: the world and the bot making the call.
    """

    def register(fn: BotMethod) -> BotMethod:
        _METHODS[name.lower()] = (name, fn)
        return fn

    return register


def lookup(name: str) -> BotMethod | None:
    entry = _METHODS.get(name.lower())
    return entry[1] if entry is not None else None


def method_names() -> list[str]:
    """Every served method, spelled as Telegram documents it (for docs and the coverage test)."""
    return sorted(spelled for spelled, _ in _METHODS.values())
