"""Drive a stand from tests: a typed client over the HTTP sim API, a threaded stand, a bot subprocess.

Everything here talks HTTP to ``/sim/...`` (never to the stand's Python objects), so the same test runs against a
stand in this process, one started by ``tgfake`` elsewhere, or one in a compose container. The client comes in a sync
form (:class:`StandClient`, for pytest-bdd steps and plain tests) and an async one (:class:`AsyncStandClient`); both
are thin drivers over one description of their methods (each written once, as an operation that yields the requests
it needs: :mod:`tgfake.testing.drivers`), so the two cannot disagree.

The parts: ``values`` (people, calls, messages), ``core`` (the shared state and waits), ``drivers`` (urllib, aiohttp
and the ``op`` descriptor), ``person``, ``world`` and ``reading`` (the methods), ``clients``, ``processes`` (a
threaded stand, a bot as a subprocess).
"""

from __future__ import annotations

from tgfake.harness import BotProcess, ThreadedStand, bot_environment
from tgfake.testing.clients import AsyncModelClient, AsyncStandClient, ModelClient, StandClient
from tgfake.testing.values import (
    DEFAULT_BOT_TOKEN,
    DEFAULT_GROUP_ID,
    DEFAULT_READY_TIMEOUT,
    DEFAULT_TIMEOUT,
    POLL_GRACE,
    QUIET_PERIOD,
    SETTLE,
    AlbumItem,
    Call,
    ChatMessage,
    ChatRef,
    Person,
    Sent,
    SimAPIError,
    person,
)
from tgfake.testing.world import BotInfo, BulkWorld, ChatInfo, Membership

__all__ = [
    "DEFAULT_BOT_TOKEN",
    "DEFAULT_GROUP_ID",
    "DEFAULT_READY_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "POLL_GRACE",
    "QUIET_PERIOD",
    "SETTLE",
    "AlbumItem",
    "AsyncModelClient",
    "AsyncStandClient",
    "BotInfo",
    "BotProcess",
    "BulkWorld",
    "Call",
    "ChatInfo",
    "ChatMessage",
    "ChatRef",
    "Membership",
    "ModelClient",
    "Person",
    "Sent",
    "SimAPIError",
    "StandClient",
    "ThreadedStand",
    "bot_environment",
    "person",
]
