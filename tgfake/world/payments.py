"""Payments as the stand keeps them: invoices, the queries waiting for the bot's answer, charges and Stars.

Plain objects; the sim route (``tgfake/sim/payments.py``) plays the person's side and waits here, on asyncio
events, for the bot's answerShippingQuery / answerPreCheckoutQuery (no sleeps). A reset forgets all of it (it lives
on the World).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

STARS = "XTR"


@dataclass(slots=True)
class Invoice:
    """What sendInvoice or createInvoiceLink was given, after the server's checks."""

    bot_id: int
    title: str
    description: str
    payload: str
    currency: str
    prices: list[dict[str, Any]]
    start_parameter: str = ""
    max_tip_amount: int = 0
    suggested_tip_amounts: list[int] = field(default_factory=list)
    need_name: bool = False
    need_phone_number: bool = False
    need_email: bool = False
    need_shipping_address: bool = False
    is_flexible: bool = False
    subscription_period: int = 0
    photo_url: str = ""

    @property
    def total(self) -> int:
        return sum(int(p["amount"]) for p in self.prices)

    def message_json(self) -> dict[str, Any]:
        """The ``invoice`` field of the message (Client.cpp's JsonInvoice)."""
        return {
            "title": self.title,
            "description": self.description,
            "start_parameter": self.start_parameter,
            "currency": self.currency,
            "total_amount": self.total,
        }


@dataclass(slots=True)
class Answer:
    """A query waiting for the bot: ``done`` is set by its answer (``ok``, options, error message)."""

    done: asyncio.Event = field(default_factory=asyncio.Event)
    ok: bool = False
    error_message: str = ""
    shipping_options: list[dict[str, Any]] = field(default_factory=list)

    async def wait(self, timeout: float) -> bool:
        """True when the bot answered within ``timeout`` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.done.wait(), timeout)
        return self.done.is_set()


@dataclass(slots=True)
class Charge:
    """One successful payment: what refundStarPayment and editUserStarSubscription name."""

    charge_id: str
    bot_id: int
    user_id: int
    chat_id: int
    currency: str
    amount: int
    payload: str
    date: int
    subscription_period: int = 0
    refunded: bool = False
    canceled: bool = False


@dataclass(slots=True)
class PaidOffer:
    """A sendPaidMedia message: its price, the bot's payload, what buying unlocks, and who bought it."""

    bot_id: int
    chat_id: int
    message_id: int
    star_count: int
    payload: str
    paid_media: list[dict[str, Any]]  # PaidMediaPhoto / PaidMediaVideo / live photo, as the bot sees them
    buyers: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Payments:
    """Every invoice, open query, charge and Star transaction of the session."""

    invoices: dict[tuple[int, int], Invoice] = field(default_factory=dict)  # (chat id, message id) -> invoice
    links: dict[str, Invoice] = field(default_factory=dict)  # createInvoiceLink slug -> invoice
    shipping: dict[str, Answer] = field(default_factory=dict)  # open shipping queries by id
    pre_checkout: dict[str, Answer] = field(default_factory=dict)  # open pre-checkout queries by id
    charges: dict[str, Charge] = field(default_factory=dict)
    transactions: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # bot id -> oldest first
    notices: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # chat id -> what the person was told
    paid_media: dict[tuple[int, int], PaidOffer] = field(default_factory=dict)  # (chat id, message id) -> offer
    next_id: int = 1

    def mint(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value

    def query_id(self) -> str:
        """Shipping and pre-checkout query ids are decimal numbers (the server reads them with ``to_integer``)."""
        return str(7_000_000_000_000_000 + self.mint())

    def balance(self, bot_id: int) -> int:
        return sum(int(t["signed"]) for t in self.transactions.get(bot_id, []))

    def record(self, bot_id: int, signed: int, entry: dict[str, Any]) -> None:
        """One Star transaction of the bot (``signed`` > 0 comes in); getStarTransactions shows ``entry``."""
        self.transactions.setdefault(bot_id, []).append({"signed": signed, "json": entry})

    def transaction_id(self) -> str:
        """An id for a transaction that no charge names (a Premium gift, a paid media purchase)."""
        return f"stxtgfake{self.mint()}"
