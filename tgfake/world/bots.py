"""Bots: the account, its BotFather settings, and its own projection of the world.

Each bot has what Telegram keeps per token: its update queue with its own ids, offset and subscription
(``allowed_updates``), its webhook, its commands and menu buttons, and the callback queries waiting for its answer.
The identity, the update id counter, the subscription and the webhook's configuration survive a reset (Telegram
keeps them with the token); the queue and the conversation state do not (:meth:`Bot.forget`).
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
from dataclasses import dataclass, field
from typing import Any

from tgfake import errors
from tgfake.errors import TelegramError
from tgfake.menus import MenuButtons
from tgfake.params import to_integer
from tgfake.webhooks import Webhook
from tgfake.world.people import User
from tgfake.world.settings import DEFAULT_SCOPE, BotSettings

# Telegram's default subscription: every kind but these, which a bot must ask for by name.
OPT_IN_KINDS = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


class Signal:
    """Wakes every current waiter at once; waiters re-check their condition (no sleep loops anywhere)."""

    def __init__(self) -> None:
        self._event: asyncio.Event | None = None

    def fire(self) -> None:
        if self._event is not None:
            self._event.set()
            self._event = None

    async def wait(self, timeout: float) -> None:
        """Wait for the next ``fire`` or ``timeout`` seconds, whichever comes first."""
        if self._event is None:
            self._event = asyncio.Event()
        event = self._event
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


def _update_id(update: dict[str, Any]) -> int:
    return int(update["update_id"])


def token_bot_id(token: str) -> int | None:
    """The number before the token's colon, as Telegram's bot ids are (``123:abc`` → 123), else None."""
    head, sep, secret = token.partition(":")
    if not sep or not secret or not head.isascii() or not head.isdigit() or len(head) > 15:
        return None
    value = int(head)
    return value or None


MAX_TOKEN_LENGTH = 80
BOT_ID_LIMIT = 1 << 54


def check_token_shape(token: str) -> None:
    """Telegram's look at a token before any bot is looked up (telegram-bot-api ``ClientManager::send``), in its
    order: a token that starts with ``0``, is longer than 80, holds a ``/`` or no ``:`` is ``401 Unauthorized:
    invalid token specified``; a bot id that is not an integer as ``td::to_integer_safe`` reads one is ``421
    Misdirected Request: unallowed token specified``; one outside 1..2^54-1 is the 401 again."""
    if not token or token[0] == "0" or len(token) > MAX_TOKEN_LENGTH or "/" in token or ":" not in token:
        raise TelegramError(401, errors.INVALID_TOKEN)
    head = token.partition(":")[0]
    bot_id = to_integer(head)
    if str(bot_id) != head:  # to_integer_safe: the integer must read back as exactly the text
        raise TelegramError(421, errors.UNALLOWED_TOKEN)
    if not 0 < bot_id < BOT_ID_LIMIT:
        raise TelegramError(401, errors.INVALID_TOKEN)


@dataclass(slots=True)
class Bot:
    """One bot: its account, its token and flags, and the state Telegram keeps for it."""

    user: User
    token: str = ""  # empty until a token claims the stand's default bot
    can_join_groups: bool = True
    can_read_all_group_messages: bool = False
    supports_inline_queries: bool = False
    inline_feedback: int = 0  # BotFather's inline feedback: the percentage of chosen results reported
    allowed_updates: tuple[str, ...] | None = None
    next_update_id: int = 1
    pending: list[dict[str, Any]] = field(default_factory=list)
    webhook: Webhook = field(default_factory=Webhook)
    settings: BotSettings = field(default_factory=BotSettings)  # setMy*: names, descriptions, commands, rights
    logged_out: bool = False  # after logOut every call but logOut and close answers "Logged out"
    menus: MenuButtons = field(default_factory=MenuButtons)
    callback_queries: dict[str, int] = field(default_factory=dict)  # unanswered query id -> chat id
    updates_signal: Signal = field(default_factory=Signal)
    held_polls: int = 0  # getUpdates requests waiting right now: a bot holding one is idle
    polls_started: int = 0  # numbers held polls; the newest one terminates the older ones, as Telegram does
    newest_poll: int = 0
    instance: int = 0  # bumped by close and logOut: polls held by the instance before end at once

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def username(self) -> str:
        return self.user.username

    @property
    def commands(self) -> list[dict[str, str]]:
        """The default scope's list without a language (what ``/sim/state`` shows)."""
        return self.settings.get_commands(DEFAULT_SCOPE, "")

    def get_me(self) -> dict[str, Any]:
        """``getMe``: the account with the BotFather flags, keys in Telegram's order."""
        return {
            "can_join_groups": self.can_join_groups,
            "can_read_all_group_messages": self.can_read_all_group_messages,
            "first_name": self.settings.names.get("") or self.user.first_name,
            "id": self.user.id,
            "is_bot": True,
            "supports_inline_queries": self.supports_inline_queries,
            "username": self.user.username,
        }

    def forget(self) -> None:
        """A reset: the queue and the conversation state go; identity, ids, subscription and webhook config stay."""
        self.pending = []
        self.settings = BotSettings()
        self.logged_out = False
        self.menus = MenuButtons()
        self.callback_queries = {}
        self.webhook.forget()
        self.updates_signal.fire()

    def closing_polls(self) -> None:
        """close and logOut: every held poll answers now with what is pending (``long_poll_wakeup(true)``)."""
        self.instance += 1
        self.updates_signal.fire()

    # --- the update queue ----------------------------------------------------------------------------------------
    def wants(self, kind: str) -> bool:
        """Whether the subscription takes this kind (``None``: Telegram's default, without the opt-in kinds)."""
        if self.allowed_updates is None:
            return kind not in OPT_IN_KINDS
        return kind in self.allowed_updates

    def push(self, kind: str, payload: dict[str, Any]) -> int:
        """Mint the next update id and queue the update if the subscription wants its kind."""
        update_id = self.next_update_id
        self.next_update_id += 1
        if self.wants(kind):
            self.pending.append({"update_id": update_id, kind: payload})
            self.updates_signal.fire()
        return update_id

    def set_allowed_updates(self, kinds: list[str] | None) -> None:
        """``None`` or ``[]`` means Telegram's default subscription."""
        self.allowed_updates = tuple(kinds) if kinds else None

    def allowed_json(self) -> list[str] | None:
        return list(self.allowed_updates) if self.allowed_updates is not None else None

    def confirm(self, offset: int) -> None:
        """Forget confirmed updates; a negative offset keeps only the newest ``-offset`` ones."""
        pending = self.pending
        if offset > 0:  # the queue is in update id order: cut it where the offset falls (a long backlog stays cheap)
            self.pending = pending[bisect.bisect_left(pending, offset, key=_update_id) :]
        elif offset < 0 and -offset < len(pending):
            self.pending = pending[offset:]

    async def get_updates(
        self, offset: int, limit: int, timeout: float, *, poll_max: float, closing: Any, on_hold: Signal
    ) -> list[dict[str, Any]]:
        """Confirm by ``offset`` at once, then hold until something is pending, the deadline, or close.

        Only one poll is held at a time: a new poll that has to wait terminates the one already waiting with
        ``409 Conflict: terminated by other getUpdates request``, as Telegram does when two instances of a bot run.
        ``closing`` is a zero-argument callable (the stand shutting down); ``on_hold`` fires when a poll starts
        holding, so ``/sim/wait?polling=1`` sees an idle bot.
        """
        self.confirm(offset)
        if limit <= 0 or limit > 100:
            limit = 100
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(timeout, poll_max)
        poll = 0
        instance = self.instance
        while True:
            if poll and poll != self.newest_poll:
                raise TelegramError(409, errors.CONFLICT_POLLS)
            if self.webhook.active:
                raise TelegramError(409, errors.CONFLICT_SET_WEBHOOK if poll else errors.CONFLICT_WEBHOOK)
            batch = self.pending[:limit]
            remaining = deadline - loop.time()
            if batch or remaining <= 0 or closing() or instance != self.instance:
                return list(batch)
            if not poll:  # about to hold: a poll already held (another bot instance) is terminated
                self.polls_started += 1
                poll = self.newest_poll = self.polls_started
                self.updates_signal.fire()
            self.held_polls += 1
            on_hold.fire()
            try:
                await self.updates_signal.wait(remaining)
            finally:
                self.held_polls -= 1
            self.confirm(offset)
