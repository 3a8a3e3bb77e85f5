"""The person's side of a payment: shipping query, pre-checkout query, then the successful_payment message.

The flow Telegram runs when a person pays an invoice (docs/payments.md): for a flexible invoice the bot gets a
``shipping_query`` and must answer it, then a ``pre_checkout_query`` it must answer; only then is the payment made
and a ``successful_payment`` service message appears in the chat. :func:`pay` waits on the bot's answers with
asyncio events (a timeout ends the payment as Telegram's client gives up). No transport types here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tgfake.errors import SimError
from tgfake.world.membership import post_service
from tgfake.world.payments import STARS, Answer, Charge, Invoice

if TYPE_CHECKING:
    from tgfake.chats import Chat
    from tgfake.world.bots import Bot
    from tgfake.world.people import User
    from tgfake.world.telegram import Telegram

LINK_PREFIX = "https://t.me/$"
DEFAULT_ADDRESS = {
    "country_code": "US",
    "state": "NY",
    "city": "New York",
    "street_line1": "1 Main Street",
    "street_line2": "",
    "post_code": "10001",
}


@dataclass(slots=True)
class Order:
    """What the person fills in on the payment form (the sim's defaults stand in for what they leave out)."""

    name: str = ""
    phone_number: str = ""
    email: str = ""
    shipping_address: dict[str, str] = field(default_factory=dict)
    shipping_option_id: str = ""
    tip: int = 0


def find_invoice(stand: Telegram, bot: Bot, chat_id: int, message_id: int, link: str) -> tuple[Chat, Invoice]:
    """The invoice the person pays: by link (paid in their private chat with its bot), else a message in a chat."""
    payments = stand.world.payments
    if link:
        invoice = payments.links.get(link.removeprefix(LINK_PREFIX))
        if invoice is None:
            raise SimError(404, f"invoice link {link} not found")
        return stand.private_chat(stand.bots[invoice.bot_id], chat_id), invoice
    chat = stand.chat_of(bot, chat_id)
    if chat is None:
        raise SimError(404, f"chat {chat_id} not found")
    if not message_id:
        ids = [mid for (cid, mid) in payments.invoices if cid == chat.id]
        if not ids:
            raise SimError(404, f"chat {chat.id} has no invoice")
        message_id = max(ids)
    invoice = payments.invoices.get((chat.id, message_id))
    if invoice is None:
        raise SimError(404, f"message {message_id} in chat {chat.id} is not an invoice")
    return chat, invoice


def order_info(invoice: Invoice, person: User, order: Order) -> dict[str, Any] | None:
    """The OrderInfo the bot is shown: only what the invoice asks for (Stars invoices ask for nothing)."""
    if invoice.currency == STARS:
        return None
    out: dict[str, Any] = {}
    if invoice.need_name:
        out["name"] = order.name or person.full_name
    if invoice.need_phone_number:
        out["phone_number"] = order.phone_number or "15550100000"
    if invoice.need_email:
        out["email"] = order.email or f"{person.username or person.id}@example.com"
    if invoice.need_shipping_address:
        out["shipping_address"] = {**DEFAULT_ADDRESS, **order.shipping_address}
    return out or None


async def ask(
    stand: Telegram, bot: Bot, waiting: dict[str, Answer], kind: str, payload: dict[str, Any], timeout: float
) -> Answer | None:
    """Queue one query for the bot and wait for its answer; None when it does not come in time."""
    query_id = stand.world.payments.query_id()
    answer = waiting[query_id] = Answer()
    bot.push(kind, {"id": query_id, **payload})
    try:
        return answer if await answer.wait(timeout) else None
    finally:
        waiting.pop(query_id, None)


def notice(stand: Telegram, chat: Chat, text: str) -> None:
    """What the payment form told the person (the chat view lists it under ``payment_notices``)."""
    stand.world.payments.notices.setdefault(chat.id, []).append({"text": text})


async def pay(
    stand: Telegram, bot: Bot, person: User, chat: Chat, invoice: Invoice, order: Order, timeout: float
) -> dict[str, Any]:
    """Run the whole payment; the outcome's ``status``: ``paid``, ``shipping_refused``, ``declined`` or ``timeout``."""
    payments = stand.world.payments
    owner = stand.bots[invoice.bot_id]
    if order.tip and invoice.currency == STARS:
        raise SimError(400, "a Stars invoice takes no tip")
    shipped_goods = invoice.is_flexible and invoice.currency != STARS
    if order.shipping_option_id and not shipped_goods:
        kind = "a Stars invoice" if invoice.currency == STARS else "an invoice without is_flexible"
        raise SimError(400, f"{kind} takes no shipping_option_id (there is no shipping query)")
    if order.tip < 0 or order.tip > invoice.max_tip_amount:
        raise SimError(400, f"tip must be 0..{invoice.max_tip_amount} (the invoice's max_tip_amount)")
    info = order_info(invoice, person, order)
    total = invoice.total + order.tip
    option_id = ""
    if shipped_goods:
        address = (info or {}).get("shipping_address", DEFAULT_ADDRESS)
        shipped = await ask(
            stand,
            owner,
            payments.shipping,
            "shipping_query",
            {"from": person.json(), "invoice_payload": invoice.payload, "shipping_address": address},
            timeout,
        )
        if shipped is None:
            notice(stand, chat, "The bot did not answer the shipping query")
            return {"status": "timeout", "step": "shipping_query"}
        if not shipped.ok:
            notice(stand, chat, shipped.error_message)
            return {"status": "shipping_refused", "error_message": shipped.error_message}
        options = {o["id"]: o for o in shipped.shipping_options}
        option_id = order.shipping_option_id or shipped.shipping_options[0]["id"]
        if option_id not in options:
            raise SimError(400, f"the bot offered no shipping option {option_id!r} (offered: {', '.join(options)})")
        total += sum(int(p["amount"]) for p in options[option_id]["prices"])
    query: dict[str, Any] = {
        "from": person.json(),
        "currency": invoice.currency,
        "total_amount": total,
        "invoice_payload": invoice.payload,
    }
    if option_id:
        query["shipping_option_id"] = option_id
    if info:
        query["order_info"] = info
    checked = await ask(stand, owner, payments.pre_checkout, "pre_checkout_query", query, timeout)
    if checked is None:
        notice(stand, chat, "The bot did not answer the pre-checkout query")
        return {"status": "timeout", "step": "pre_checkout_query"}
    if not checked.ok:
        notice(stand, chat, checked.error_message)
        return {"status": "declined", "error_message": checked.error_message}
    return settle(stand, owner, person, chat, invoice, total, option_id, info)


def settle(
    stand: Telegram,
    bot: Bot,
    person: User,
    chat: Chat,
    invoice: Invoice,
    total: int,
    option_id: str,
    info: dict[str, Any] | None,
) -> dict[str, Any]:
    """The payment is made: a charge, a Star transaction for XTR, and the successful_payment message."""
    payments = stand.world.payments
    number = payments.mint()
    stars = invoice.currency == STARS
    charge_id = f"stxtgfake{number}" if stars else f"tgfake_charge_{number}"
    charge = Charge(
        charge_id=charge_id,
        bot_id=bot.id,
        user_id=person.id,
        chat_id=chat.id,
        currency=invoice.currency,
        amount=total,
        payload=invoice.payload,
        date=stand.unix_now(),
        subscription_period=invoice.subscription_period,
    )
    payments.charges[charge_id] = charge
    paid: dict[str, Any] = {"currency": invoice.currency, "total_amount": total, "invoice_payload": invoice.payload}
    if option_id:
        paid["shipping_option_id"] = option_id
    if info:
        paid["order_info"] = info
    paid["telegram_payment_charge_id"] = charge_id
    paid["provider_payment_charge_id"] = "" if stars else f"provider_charge_{number}"
    if invoice.subscription_period:
        paid["is_recurring"] = True
        paid["is_first_recurring"] = True
        paid["subscription_expiration_date"] = charge.date + invoice.subscription_period
    if stars:
        _transaction(stand, bot, charge, person, total)
    msg = post_service(stand, chat, person, {"successful_payment": paid})
    return {
        "status": "paid",
        "telegram_payment_charge_id": charge_id,
        "total_amount": total,
        "message_id": msg.message_id,
    }


def _transaction(stand: Telegram, bot: Bot, charge: Charge, person: User, signed: int) -> None:
    """A Star transaction of the bot: incoming (``source``) for a payment, outgoing (``receiver``) for a refund."""
    partner = {"type": "user", "transaction_type": "invoice_payment", "user": person.json()}
    if charge.payload:
        partner["invoice_payload"] = charge.payload
    side = "source" if signed > 0 else "receiver"
    entry = {"id": charge.charge_id, "date": stand.unix_now(), side: partner, "amount": abs(signed)}
    stand.world.payments.record(bot.id, signed, entry)


def refund(stand: Telegram, bot: Bot, charge: Charge) -> None:
    """refundStarPayment: the Stars leave the bot's balance and a refunded_payment message appears."""
    person = stand.world.users.get(charge.user_id)
    chat = stand.chat_of(bot, charge.chat_id)
    if person is None or chat is None:
        return
    _transaction(stand, bot, charge, person, -charge.amount)
    refunded = {
        "currency": charge.currency,
        "total_amount": charge.amount,
        "invoice_payload": charge.payload,
        "telegram_payment_charge_id": charge.charge_id,
    }
    post_service(stand, chat, person, {"refunded_payment": refunded})
