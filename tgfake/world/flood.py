"""Telegram's flood limits, optional (``--flood-control``): approximations of what Telegram documents.

Telegram asks bots to send about one message per second to one chat, no more than 20 messages per minute to one
group, and about 30 messages per second overall; past that it answers ``429 Too Many Requests: retry after N``
with ``parameters.retry_after``. The stand keeps a sliding window of each bot's sends per chat and overall, on the
stand's clock (tests move time instead of sleeping), and counts only sends that succeeded. Telegram's real limits
are adaptive and not published exactly; these are the documented rules of thumb.

Telegram lets short bursts through to one chat ("we may allow short bursts that go over this limit"): ``burst``
(1 unless set) is how many sends a private chat takes within ``burst`` seconds, which keeps the pace at one a
second. ``tgfake load`` sets 3 (``--chat-burst``), so a bot that answers with two or three messages at once is not
refused for it; ``--flood-control`` alone keeps the strict one a second.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

PRIVATE_LIMIT = (1, 1.0)  # one message per second to a private chat
GROUP_LIMIT = (20, 60.0)  # twenty messages per minute to a group, supergroup or channel
BOT_LIMIT = (30, 1.0)  # thirty messages per second in all

# What counts as sending a message (drafts and chat actions do not).
COUNTED = frozenset(
    m.lower()
    for m in (
        "sendMessage", "sendPhoto", "sendDocument", "sendVideo", "sendAudio", "sendVoice", "sendAnimation",
        "sendSticker", "sendVideoNote", "sendMediaGroup", "sendLocation", "sendVenue", "sendContact", "sendDice",
        "sendPoll", "sendPaidMedia", "sendInvoice", "sendGame", "sendRichMessage", "sendChecklist",
        "forwardMessage", "forwardMessages", "copyMessage", "copyMessages",
    )
)  # fmt: skip


@dataclass(slots=True)
class FloodControl:
    """Each bot's recent sends: per chat and overall, oldest first (times on the stand's clock)."""

    chats: dict[tuple[int, int], deque[float]] = field(default_factory=dict)
    bots: dict[int, deque[float]] = field(default_factory=dict)
    burst: int = 1  # sends a private chat takes within this many seconds (1: strictly one a second)

    def retry_after(self, bot_id: int, chat_id: int, now: float) -> int:
        """Seconds until this send would be within every limit; 0 when it is now."""
        wait = 0.0
        chat_limit = (self.burst, float(self.burst)) if chat_id > 0 else GROUP_LIMIT
        for window, (count, span) in (
            (self.chats.get((bot_id, chat_id)), chat_limit),
            (self.bots.get(bot_id), BOT_LIMIT),
        ):
            if window is None:
                continue
            _expire(window, now - span)
            if len(window) >= count:
                wait = max(wait, window[len(window) - count] + span - now)
        return math.ceil(wait) if wait > 0 else 0

    def note(self, bot_id: int, chat_id: int, now: float) -> None:
        self.chats.setdefault((bot_id, chat_id), deque()).append(now)
        self.bots.setdefault(bot_id, deque()).append(now)


def _expire(window: deque[float], before: float) -> None:
    while window and window[0] <= before:
        window.popleft()
