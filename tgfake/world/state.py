"""The world's state: what a reset forgets (:class:`World`), and the outbox's records (:class:`Call`).

Plain objects, no rules and no transport: the rules that act on them live beside them in tgfake/world/, the
outbox's waits in tgfake/outbox.py, the Bot API pipeline that records calls in tgfake/botapi/pipeline.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tgfake.faults import Faults
from tgfake.world.business_state import Business
from tgfake.world.channel_state import ChannelState
from tgfake.world.flood import FloodControl
from tgfake.world.games import Games
from tgfake.world.grants import Grants
from tgfake.world.inline_state import Inline
from tgfake.world.payments import Payments
from tgfake.world.profiles import Profiles
from tgfake.world.stickers import Stickers

if TYPE_CHECKING:
    from tgfake.chats import Chat, StoredMessage
    from tgfake.content import StoredFile
    from tgfake.world.people import User

FREEZE_EVERY = 8192
"""Recorded calls between two ``gc.freeze()``: the history only grows until a reset, so the collector need not
scan it again and again (a full collection over 100k stored calls took tens of milliseconds: the p99)."""

_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # built once: json.dumps builds one per call


def dump(value: Any) -> str:
    """Compact UTF-8 JSON, as Telegram writes it."""
    return _COMPACT.encode(value)


@dataclass(slots=True)
class Call:
    """One Bot API call as the outbox records it (``bot_id``: which bot made it).

    The answer is kept as the compact UTF-8 JSON that went out on the wire (``body``), not as nested dicts: one
    bytes object per call instead of a tree of small objects keeps a long history small and out of the garbage
    collector's way. ``response`` decodes it when someone reads the outbox.
    """

    seq: int
    at: float
    method: str
    params: dict[str, str]
    status: int
    body: bytes
    bot_id: int = 0
    retry_after: int = 0

    @property
    def response(self) -> dict[str, Any]:
        decoded: dict[str, Any] = json.loads(self.body)
        return decoded

    def json(self) -> dict[str, Any]:
        at = datetime.fromtimestamp(self.at).astimezone().isoformat()
        return {
            "seq": self.seq,
            "at": at,
            "method": self.method,
            "params": self.params,
            "status": self.status,
            "response": self.response,
            "bot_id": self.bot_id,
        }


POLL_ID_BASE = 5_000_000_000_000_000_000


@dataclass(slots=True)
class Polls:
    """The world's polls beyond their JSON: votes by person, and the timed ones still to close."""

    next_id: int = 0
    votes: dict[str, dict[int, list[int]]] = field(default_factory=dict)  # poll id -> person id -> option indexes
    closing: dict[str, tuple[int, StoredMessage]] = field(default_factory=dict)  # poll id -> (close date, message)

    def mint_id(self) -> str:
        self.next_id += 1
        return str(POLL_ID_BASE + self.next_id)

    def close_at(self, poll: dict[str, Any], msg: StoredMessage) -> None:
        """Remember when a timed poll closes (its ``close_date``)."""
        if poll.get("close_date") and not poll["is_closed"]:
            self.closing[poll["id"]] = (int(poll["close_date"]), msg)


@dataclass(slots=True)
class World:
    """What a reset forgets: people, chats, the outbox and faults. Reset builds a new one instead of clearing."""

    users: dict[int, User] = field(default_factory=dict)
    chats: dict[int, Chat] = field(default_factory=dict)  # groups, supergroups and channels by id
    private: dict[tuple[int, int], Chat] = field(default_factory=dict)  # (bot id, person id) -> their private chat
    calls: list[Call] = field(default_factory=list)
    faults: Faults = field(default_factory=Faults)
    flood: FloodControl = field(default_factory=FloodControl)
    next_cbq: int = 1
    polls: Polls = field(default_factory=Polls)  # votes and timed closes of every poll (tgfake/world/polls.py)
    files: dict[str, StoredFile] = field(default_factory=dict)  # uploads by file id (file_1, ...)
    payments: Payments = field(default_factory=Payments)  # invoices, open queries, charges, Stars
    games: Games = field(default_factory=Games)  # game messages and their high scores
    stickers: Stickers = field(default_factory=Stickers)  # sticker sets owned by bots, uploaded sticker files
    grants: Grants = field(default_factory=Grants)  # emoji status access, passport data errors
    profiles: Profiles = field(default_factory=Profiles)  # the people's profile photos and audios
    inline: Inline = field(default_factory=Inline)  # inline queries and answers, inline and prepared messages
    channels: ChannelState = field(default_factory=ChannelState)  # boosts, verification, managed bots, queries
    business: Business = field(default_factory=Business)  # business connections, chats and accounts, gifts
