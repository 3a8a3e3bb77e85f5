"""The Bot API pipeline: one call from its token to its recorded answer, in the reference stand's check order.

auth (the token names a bot; a logged-out bot) → faults (``POST /sim/fault``) → dispatch's checks (the method
exists, the parameter prechecks, ``@username`` chats) → flood control (``--flood-control``) → the method itself
(tgfake/botapi/*: :func:`~tgfake.botapi.registry.lookup`) → record (the outbox). The app calls
:meth:`Pipeline.serve` for ``/bot<token>/<method>``; the pipeline reads and changes the world through its root
(:class:`~tgfake.world.telegram.Telegram`) and never imports the stand.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tgfake import errors
from tgfake.botapi import lookup
from tgfake.botapi.context import BotCall, Described
from tgfake.botapi.schema import check
from tgfake.errors import TelegramError
from tgfake.outbox import Outbox
from tgfake.params import Params
from tgfake.world import visibility
from tgfake.world.bots import Bot
from tgfake.world.flood import COUNTED
from tgfake.world.polls import close_due
from tgfake.world.state import Call
from tgfake.world.suggested import publish_due
from tgfake.world.telegram import Telegram

CHAT_PARAMS = ("chat_id", "from_chat_id")
"""The parameters ``check_chat`` reads a chat from, so an ``@username`` there names a public chat."""


class Pipeline:
    """Serves the Bot API calls of one world and records them in its outbox."""

    def __init__(self, telegram: Telegram, outbox: Outbox) -> None:
        self.telegram = telegram
        self.outbox = outbox

    async def call(self, token: str, method: str, params: Params) -> tuple[int, dict[str, Any]]:
        """Serve one Bot API call and record it; returns (status, envelope) for in-process callers."""
        served = await self.serve(token, method, params)
        return served.status, served.response

    before_call: Callable[[BotCall, str, Params], Awaitable[None] | None] | None = None
    """Run once the token, the method, the parameter prechecks, ``@username`` chats and flood limits are through,
    before the method: the app's downloads of files named by URL (tgfake/urlfiles.py ``UrlFetcher.before_call``,
    which checks the chat first); None (a bare Stand) fetches nothing."""

    async def serve(self, token: str, method: str, params: Params) -> Call:
        """Serve one Bot API call in the reference stand's check order and record it; returns the recorded call.

        A call cancelled while held (its client went away) raises CancelledError and is neither answered nor recorded.
        """
        telegram = self.telegram
        bot_id = 0
        try:
            bot = telegram.bot_for_token(token)
            bot_id = bot.id
            telegram.latest_bot = bot  # "the bot" from now on, unless a default is pinned (default_bot)
            if telegram.named_bot is None:
                telegram.named_bot = bot
            if bot.logged_out and method.lower() not in ("logout", "close"):
                raise TelegramError(400, errors.LOGGED_OUT)
            fault = telegram.world.faults.fire(method, params)
            if fault is not None:
                raise fault
            handler = lookup(method)
            if handler is None:
                raise TelegramError(404, errors.METHOD_NOT_FOUND)
            check(method, params)
            values = params.values
            if values.get("chat_id", "")[:1] == "@" or values.get("from_chat_id", "")[:1] == "@":
                self._name_public_chats(params)
            close_due(telegram)  # timed polls close on the stand's clock, seen at the next call
            publish_due(telegram)  # as do approved suggested posts whose date has come
            flood_chat = self._flood_chat(bot, method, params)
            waiting = self.before_call(BotCall(telegram, bot), method, params) if self.before_call else None
            if waiting is not None:
                await waiting
            status, envelope = 200, envelope_of(await handler(BotCall(telegram, bot), params))
            if flood_chat:
                telegram.world.flood.note(bot.id, flood_chat, telegram.now())
        except TelegramError as exc:
            status, envelope = exc.status, envelope_of(exc)
        return self.outbox.record(method, params, status, envelope, bot_id)

    def _name_public_chats(self, params: Params) -> None:
        """Resolve ``@username`` chat parameters once, before the method reads them (:meth:`Params.chat`)."""
        for name in CHAT_PARAMS:
            value = params.values.get(name)
            if value and value[0] == "@":
                if params.chats is None:
                    params.chats = {}
                params.chats[name] = visibility.public_chat_id(self.telegram, value)

    def _flood_chat(self, bot: Bot, method: str, params: Params) -> int:
        """With ``--flood-control``, the chat a counted send goes to (0: not counted), refused while over a limit."""
        if not self.telegram.options.flood_control or method.lower() not in COUNTED:
            return 0
        chat_id = params.chat()
        if not chat_id:
            return 0
        wait = self.telegram.world.flood.retry_after(bot.id, chat_id, self.telegram.now())
        if wait:
            raise TelegramError(429, f"{errors.TOO_MANY}: retry after {wait}", retry_after=wait)
        return chat_id


def envelope_of(outcome: Any) -> dict[str, Any]:
    """The one envelope: a refusal (``parameters.retry_after`` only when set), a described result, or a result."""
    if isinstance(outcome, TelegramError):
        out: dict[str, Any] = {"ok": False, "error_code": outcome.status, "description": outcome.description}
        if outcome.migrate_to_chat_id:
            out["parameters"] = {"migrate_to_chat_id": outcome.migrate_to_chat_id}
        elif outcome.retry_after > 0:
            out["parameters"] = {"retry_after": outcome.retry_after}
        return out
    if isinstance(outcome, Described):
        return {"ok": True, "result": outcome.result, "description": outcome.description}
    return {"ok": True, "result": outcome}
