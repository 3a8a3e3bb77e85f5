"""The stand: one session's fake Telegram, a facade over parts with one job each.

Nothing here knows about aiohttp; tests and the in-process API drive it directly, the app serves it. The parts:

- the world's root, its state and its registry of bots and people (:class:`~tgfake.world.telegram.Telegram`, which
  the stand *is*; :mod:`tgfake.world.registry`), the chats and who a message reaches (:mod:`tgfake.world.rooms`),
  the person's actions (:mod:`tgfake.world.person`) and every other rule of tgfake/world/;
- the outbox and its waits (:class:`~tgfake.outbox.Outbox`);
- the Bot API pipeline (:class:`~tgfake.botapi.pipeline.Pipeline`: auth → faults → flood → dispatch → record);
- the views (:mod:`tgfake.views`).

The methods below keep the documented in-process API (README "In-process Python API") and the sim's calls in one
place; each is a line that hands over to its part. docs/architecture.md draws the layers.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

from tgfake import heap
from tgfake.botapi.context import BotCall, Described
from tgfake.botapi.pipeline import Pipeline
from tgfake.chats import Chat, StoredMessage, message_json
from tgfake.clock import Clock
from tgfake.content import Media
from tgfake.errors import SimError
from tgfake.faults import Fault
from tgfake.models import CallbackIn, ClockIn, FaultIn, MessageIn, SenderFields
from tgfake.options import Options
from tgfake.outbox import Outbox
from tgfake.params import Params
from tgfake.views import ChatView
from tgfake.views import chat_summaries as _chat_summaries
from tgfake.views import chat_text as _chat_text
from tgfake.views import chat_view as _chat_view
from tgfake.views import sender_name as _sender_name
from tgfake.views import settings_view as _settings_view
from tgfake.views import state as _state
from tgfake.views import view as _view
from tgfake.webhooks import Webhook
from tgfake.world import person, rooms
from tgfake.world.bots import Bot, Signal
from tgfake.world.people import DEFAULT_USER_ID, User
from tgfake.world.polls import close_due
from tgfake.world.state import Call, World
from tgfake.world.suggested import publish_due
from tgfake.world.telegram import Telegram

__all__ = ["DEFAULT_USER_ID", "BotCall", "Call", "Described", "Signal", "Stand", "World"]


class Stand(Telegram):
    """A fake Telegram: the world (bots, people, chats, faults), its outbox, its Bot API pipeline and its views."""

    def __init__(self, options: Options | None = None, clock: Clock | None = None) -> None:
        super().__init__(options, clock)
        self.outbox = Outbox(self)
        self.pipeline = Pipeline(self, self.outbox)
        self.reset_hooks: list[Callable[[], None]] = []  # other parts of the origin (the model) reset with us

    # --- identity of the default bot (the in-process API of a one-bot stand) --------------------------------------
    @property
    def bot_user(self) -> dict[str, Any]:
        return self.default_bot.user.json()

    def get_me(self) -> dict[str, Any]:
        return self.default_bot.get_me()

    @property
    def webhook(self) -> Webhook:
        """The default bot's webhook."""
        return self.default_bot.webhook

    @property
    def updates_signal(self) -> Signal:
        return self.default_bot.updates_signal

    @property
    def next_update_id(self) -> int:
        return self.default_bot.next_update_id

    @property
    def allowed_updates(self) -> tuple[str, ...] | None:
        return self.default_bot.allowed_updates

    @property
    def signing_token(self) -> str:
        """The token Mini App launches are signed with: the default bot's (the latest caller's unless pinned)."""
        return self.default_bot.token

    def push_update(self, kind: str, payload: dict[str, Any]) -> int:
        """Queue an update for the default bot."""
        return self.default_bot.push(kind, payload)

    # --- the clock ----------------------------------------------------------------------------------------------
    def move_clock(self, body: ClockIn) -> None:
        """``POST /sim/clock``: exactly one of ``advance`` (seconds, may be negative) or ``set`` (a Unix time).

        Whatever reads time lazily (drafts, the typing window, ``until_date``) sees the new time at once; held sim
        waits re-check their condition.
        """
        if (body.advance is None) == (body.set is None):
            raise SimError(400, "give exactly one of advance (seconds) or set (a Unix time)")
        amount = body.advance if body.advance is not None else body.set
        if amount is None or not math.isfinite(amount):
            raise SimError(400, "the clock moves by a finite number of seconds")
        if body.set is not None:
            if body.set < 0:
                raise SimError(400, "set must be a Unix time (seconds since 1970), not negative")
            self.clock.set(body.set)
        else:
            self.clock.advance(amount)
        close_due(self)  # a timed poll whose time has come closes now: its bot hears of it
        publish_due(self)  # an approved suggested post whose date has come is published
        self.calls_signal.fire()

    def clock_json(self) -> dict[str, Any]:
        now = self.now()
        return {"now": now, "unix": int(now), "offset": self.clock.offset}

    # --- lifecycle -----------------------------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget the conversation (see :class:`Telegram` for what stays); held polls keep waiting."""
        frozen = self.forget()
        for hook in self.reset_hooks:
            hook()
        if frozen:
            heap.release()  # a long history's memory back to the system (a full collection costs milliseconds)
        self.calls_signal.fire()

    def close(self) -> None:
        """Release every held poll (answered with what it has); idempotent."""
        self.closing = True
        for bot in self.bots.values():
            bot.updates_signal.fire()
        self.calls_signal.fire()
        self.bots_signal.fire()

    # --- chats (tgfake/world/rooms.py) ---------------------------------------------------------------------------
    def chat_for_send(self, bot: Bot, chat_id: int) -> Chat:
        return rooms.chat_for_send(self, bot, chat_id)

    def deliver(self, chat: Chat, msg: StoredMessage, *, edited: bool = False) -> dict[int, int]:
        return rooms.deliver(self, chat, msg, edited=edited)

    def message_json(self, chat: Chat, msg: StoredMessage) -> dict[str, Any]:
        return message_json(chat, msg)

    # --- the person (tgfake/world/person.py) ---------------------------------------------------------------------
    def inject_message(self, body: MessageIn) -> tuple[int, int]:
        """The person sends a text; returns (message_id, update_id)."""
        return person.inject_message(self, body)

    def person_chat(self, body: SenderFields, who: User, bot: Bot) -> Chat:
        return person.person_chat(self, body, who, bot)

    def inject(
        self,
        body: SenderFields,
        text: str,
        extra: dict[str, Any] | None = None,
        reply_to: int | None = None,
        media: Media | None = None,
        media_group_id: str = "",
        entities: list[dict[str, Any]] | None = None,
    ) -> tuple[int, int]:
        return person.inject(self, body, text, extra, reply_to, media, media_group_id, entities)

    def inject_callback(self, body: CallbackIn) -> tuple[str, int]:
        """The person taps a button (by label, or sends ``data`` as if they had); returns (query id, update id)."""
        return person.inject_callback(self, body)

    # --- the outbox (tgfake/outbox.py) ---------------------------------------------------------------------------
    @property
    def call_listeners(self) -> list[Callable[[Call], None]]:
        return self.outbox.call_listeners

    @call_listeners.setter
    def call_listeners(self, listeners: list[Callable[[Call], None]]) -> None:
        self.outbox.call_listeners = listeners  # a session shares the root's (--verbose logs every session's calls)

    def record(self, method: str, params: Params, status: int, envelope: dict[str, Any], bot_id: int = 0) -> Call:
        return self.outbox.record(method, params, status, envelope, bot_id)

    def calls(self, method: str = "", since: int = 0, bot_id: int = 0) -> list[Call]:
        return self.outbox.calls(method, since, bot_id)

    async def wait_call(self, method: str, count: int = 1, timeout: float = 5.0) -> list[Call]:
        """The in-process twin of ``GET /sim/wait``: the matching calls once there are ``count`` of them."""
        return await self.outbox.wait_call(method, count, timeout)

    async def wait_calls(self, method: str, count: int, timeout: float, since: int = 0, bot_id: int = 0) -> list[Call]:
        return await self.outbox.wait_calls(method, count, timeout, since, bot_id)

    @property
    def held_polls(self) -> int:
        return self.outbox.held_polls

    async def wait_polling(self, timeout: float, bot: Bot | None = None) -> bool:
        return await self.outbox.wait_polling(timeout, bot)

    # --- faults --------------------------------------------------------------------------------------------------
    def schedule_fault(self, body: FaultIn) -> None:
        if body.clear:
            self.world.faults.clear(body.method)
            return
        if body.code and not 400 <= body.code <= 599:
            raise SimError(400, f"code {body.code} is not an HTTP error status (400-599)")
        self.world.faults.set(
            Fault(
                method=body.method,
                code=body.code or 500,
                description=body.description,
                retry_after=body.retry_after,
                times=body.times,
                contains=body.contains,
            )
        )

    # --- the Bot API (tgfake/botapi/pipeline.py) -----------------------------------------------------------------
    @property
    def before_call(self) -> Callable[[BotCall, str, Params], Awaitable[None] | None] | None:
        """The pipeline's hook before the method (the app's downloads of files named by URL)."""
        return self.pipeline.before_call

    @before_call.setter
    def before_call(self, hook: Callable[[BotCall, str, Params], Awaitable[None] | None] | None) -> None:
        self.pipeline.before_call = hook

    async def call(self, token: str, method: str, params: Params) -> tuple[int, dict[str, Any]]:
        """Serve one Bot API call and record it; returns (status, envelope) for in-process callers."""
        return await self.pipeline.call(token, method, params)

    async def serve(self, token: str, method: str, params: Params) -> Call:
        return await self.pipeline.serve(token, method, params)

    # --- views (tgfake/views.py) ---------------------------------------------------------------------------------
    def view(self, chat_id: int, bot: Bot | None = None) -> ChatView:
        """A chat as tests read it: ``.json()`` (the sim view), ``.text()`` (the transcript), ``.find_button()``."""
        return _view(self, chat_id, bot)

    def sender_name(self, msg: StoredMessage) -> str:
        return _sender_name(self, msg)

    def chat_view(self, chat_id: int, bot: Bot | None = None) -> dict[str, Any]:
        return _chat_view(self, chat_id, bot)

    def settings_view(self, bot: Bot, chat: Chat) -> dict[str, Any]:
        return _settings_view(self, bot, chat)

    def chat_text(self, chat_id: int, bot: Bot | None = None) -> str:
        return _chat_text(self, chat_id, bot)

    def chat_summaries(self, bot: Bot | None = None) -> list[dict[str, Any]]:
        return _chat_summaries(self, bot)

    def chats(self) -> list[dict[str, Any]]:
        return _chat_summaries(self)

    def state(self) -> dict[str, Any]:
        return _state(self)
