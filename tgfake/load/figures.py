"""The figures of a load run: what was offered, delivered and answered, how fast, and what went wrong.

Every update the people cause is an :class:`Offer` (its update id, chat, message or callback query, when). It is
*delivered* when a ``getUpdates`` answer carries it or a webhook POST of it is confirmed (timed when the POST went
out), and *answered* by the bot's first successful call that answers it: ``answerCallbackQuery`` for a tap; a send
or an edit in its chat otherwise, matched by the message it replies to when it names one, else to the chat's oldest
open update. Its latency runs from delivery to that call; an update counts as answered once both are known, so
answered ≤ delivered ≤ offered always holds. Service updates (a join, a leave, a block) are offered and delivered
but nobody expects them answered. docs/load.md explains each figure.
"""

from __future__ import annotations

import json
import math
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from tgfake.world.flood import COUNTED
from tgfake.world.state import Call

ANSWERS = COUNTED | {"editmessagetext", "editmessagecaption", "editmessagereplymarkup", "editmessagemedia"}
"""Calls that answer a person's update in its chat (besides ``answerCallbackQuery``, which names its query)."""


@dataclass(slots=True)
class Offer:
    """One update the people caused, and what became of it (times on the stand's clock, 0: not yet)."""

    update_id: int
    chat_id: int
    at: float
    message_id: int = 0
    query_id: str = ""
    answerable: bool = True
    delivered: float = 0.0
    answered: float = 0.0  # the answering call's time (counted as answered once delivered too)
    counted: bool = False


@dataclass(slots=True)
class Second:
    """One second of the run."""

    offered: int = 0
    delivered: int = 0
    answered: int = 0
    calls: int = 0
    errors: int = 0
    too_many: int = 0
    webhook_failures: int = 0
    latencies: list[float] = field(default_factory=list)
    backlog: int = 0
    cpu: float = 0.0
    rss_mb: float = 0.0

    def json(self, index: int) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        return {
            "t": index,
            "offered": self.offered,
            "delivered": self.delivered,
            "answered": self.answered,
            "calls": self.calls,
            "errors": self.errors,
            "too_many": self.too_many,
            "webhook_failures": self.webhook_failures,
            **{k: _ms(v) for k, v in percentiles(ordered).items()},
            "backlog": self.backlog,
            "cpu": round(self.cpu, 1),
            "rss_mb": round(self.rss_mb, 1),
        }


def percentiles(ordered: list[float]) -> dict[str, float]:
    """p50, p90, p99 (nearest rank) and max of sorted values; zeros when there are none."""
    if not ordered:
        return {"p50": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0}
    n = len(ordered)
    return {
        "p50": ordered[max(math.ceil(0.50 * n) - 1, 0)],
        "p90": ordered[max(math.ceil(0.90 * n) - 1, 0)],
        "p99": ordered[max(math.ceil(0.99 * n) - 1, 0)],
        "max": ordered[-1],
    }


def _ms(seconds: float) -> float:
    return round(seconds * 1000.0, 3)


class Figures:
    """The run's counters, fed by the engine (offers, webhook deliveries, samples) and the outbox (calls)."""

    def __init__(self, t0: float, bot_id: int) -> None:
        self.t0 = t0
        self.bot_id = bot_id
        self.offers: dict[int, Offer] = {}
        self.open: dict[int, deque[int]] = {}  # chat id -> its answerable updates not answered yet, oldest first
        self.by_message: dict[tuple[int, int], int] = {}  # (chat id, message id) -> update id
        self.by_query: dict[str, int] = {}
        self.seconds: list[Second] = []
        self.calls: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.latencies: list[float] = []
        self.delivered = 0
        self.answered = 0
        self.answerable = 0
        self.webhook_deliveries = 0
        self.webhook_failures = 0
        self.webhook_retries = 0
        self.backlog_max = 0

    def second(self, at: float) -> Second:
        index = max(int(at - self.t0), 0)
        while len(self.seconds) <= index:
            self.seconds.append(Second())
        return self.seconds[index]

    # --- what the engine tells ----------------------------------------------------------------------------------
    def offer(self, offer: Offer) -> None:
        if not offer.update_id or offer.update_id in self.offers:
            return
        self.offers[offer.update_id] = offer
        self.second(offer.at).offered += 1
        if not offer.answerable:
            return
        self.answerable += 1
        if offer.query_id:
            self.by_query[offer.query_id] = offer.update_id
        else:
            self.open.setdefault(offer.chat_id, deque()).append(offer.update_id)
            if offer.message_id:
                self.by_message[(offer.chat_id, offer.message_id)] = offer.update_id

    def deliver(self, update_id: int, at: float) -> None:
        offer = self.offers.get(update_id)
        if offer is None or offer.delivered:
            return
        offer.delivered = at
        self.delivered += 1
        self.second(at).delivered += 1
        if offer.answered:
            self._count(offer)

    def webhook(self, update_id: int, started: float, attempt: int, failed: bool) -> None:
        self.webhook_deliveries += 1
        if attempt > 1:
            self.webhook_retries += 1
        if failed:
            self.webhook_failures += 1
            self.second(started).webhook_failures += 1
        else:
            self.deliver(update_id, started)

    def sample(self, at: float, backlog: int, cpu: float, rss_mb: float) -> None:
        sec = self.second(at)
        sec.backlog, sec.cpu, sec.rss_mb = backlog, cpu, rss_mb
        self.backlog_max = max(self.backlog_max, backlog)

    # --- what the outbox tells ----------------------------------------------------------------------------------
    def call(self, call: Call) -> None:
        """One recorded Bot API call of the bot (others' are not ours)."""
        if call.bot_id != self.bot_id:
            return
        method = call.method
        key = method.lower()
        self.calls[method] += 1
        sec = self.second(call.at)
        sec.calls += 1
        if call.status != 200:
            sec.errors += 1
            if call.status == 429:
                sec.too_many += 1
            self.refusals[_description(call)] += 1
            return
        if key == "getupdates":
            for update_id in _update_ids(call.body):
                self.deliver(update_id, call.at)
        elif key == "answercallbackquery":
            self._answer(self.by_query.pop(call.params.get("callback_query_id", ""), 0), call.at)
        elif key in ANSWERS:
            self._answer_in_chat(call)

    def _answer_in_chat(self, call: Call) -> None:
        chat_id = _int(call.params.get("chat_id", ""))
        if not chat_id:
            return
        replied = _int(call.params.get("reply_to_message_id", "")) or _reply_parameters(call.params)
        if replied:
            update_id = self.by_message.get((chat_id, replied), 0)
            if update_id and not self.offers[update_id].answered:
                self._answer(update_id, call.at)
                return
        waiting = self.open.get(chat_id)
        while waiting:
            update_id = waiting.popleft()
            if not self.offers[update_id].answered:
                self._answer(update_id, call.at)
                return

    def _answer(self, update_id: int, at: float) -> None:
        offer = self.offers.get(update_id)
        if offer is None or offer.answered:
            return
        offer.answered = at
        if offer.delivered:
            self._count(offer)

    def _count(self, offer: Offer) -> None:
        if offer.counted:
            return
        offer.counted = True
        self.answered += 1
        latency = max(offer.answered - offer.delivered, 0.0)
        self.latencies.append(latency)
        sec = self.second(offer.answered)
        sec.answered += 1
        sec.latencies.append(latency)

    # --- the report ---------------------------------------------------------------------------------------------
    def totals(self, elapsed: float) -> dict[str, Any]:
        offered = len(self.offers)
        ordered = sorted(self.latencies)
        span = max(elapsed, 1e-9)
        cpus = [s.cpu for s in self.seconds if s.rss_mb]
        rss = [s.rss_mb for s in self.seconds if s.rss_mb]
        return {
            "offered": offered,
            "delivered": self.delivered,
            "answered": self.answered,
            "answerable": self.answerable,
            "unanswered": self.answerable - self.answered,
            "rate": {
                "offered": round(offered / span, 1),
                "delivered": round(self.delivered / span, 1),
                "answered": round(self.answered / span, 1),
            },
            "latency_ms": {
                **{k: _ms(v) for k, v in percentiles(ordered).items()},
                "mean": _ms(sum(ordered) / len(ordered)) if ordered else 0.0,
                "count": len(ordered),
            },
            "calls": dict(sorted(self.calls.items(), key=lambda kv: (-kv[1], kv[0]))),
            "calls_total": sum(self.calls.values()),
            "refusals": dict(self.refusals.most_common()),
            "too_many": sum(s.too_many for s in self.seconds),
            "errors": sum(s.errors for s in self.seconds),
            "backlog": {"max": self.backlog_max, "final": self.seconds[-1].backlog if self.seconds else 0},
            "webhook": {
                "deliveries": self.webhook_deliveries,
                "failures": self.webhook_failures,
                "retries": self.webhook_retries,
            },
            "stand": {
                "cpu_mean": round(sum(cpus) / len(cpus), 1) if cpus else 0.0,
                "cpu_max": round(max(cpus), 1) if cpus else 0.0,
                "rss_max_mb": round(max(rss), 1) if rss else 0.0,
                "rss_final_mb": round(rss[-1], 1) if rss else 0.0,
            },
        }

    def series(self) -> list[dict[str, Any]]:
        return [s.json(i) for i, s in enumerate(self.seconds)]


def _update_ids(body: bytes) -> list[int]:
    try:
        result = json.loads(body).get("result") or []
    except ValueError:
        return []
    return [u["update_id"] for u in result if isinstance(u, dict) and isinstance(u.get("update_id"), int)]


def _description(call: Call) -> str:
    try:
        return str(json.loads(call.body).get("description") or f"HTTP {call.status}")
    except ValueError:
        return f"HTTP {call.status}"


def _int(text: str) -> int:
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() and len(text) < 20 else 0


def _reply_parameters(params: dict[str, str]) -> int:
    raw = params.get("reply_parameters", "")
    if not raw:
        return 0
    try:
        value = json.loads(raw)
    except ValueError:
        return 0
    got = value.get("message_id") if isinstance(value, dict) else None
    return got if isinstance(got, int) else 0
