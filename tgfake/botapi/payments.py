"""Payments and Stars: invoices, the answers to shipping and pre-checkout queries, refunds, the Star balance.

Ported from telegram-bot-api's ``get_input_message_invoice``, ``get_labeled_price_parts``,
``get_suggested_tip_amounts``, ``get_shipping_options`` and the ``process_*`` methods (Client.cpp), then TDLib's
``InputInvoice::process_input_message_invoice`` and ``LabeledPricePart::get_labeled_price_parts``, then the two
MTProto refusals bots meet most (``STARS_INVOICE_INVALID``, ``PAYMENT_PROVIDER_INVALID``). The person's side (paying)
is the sim's: ``tgfake/sim/payments.py``; the flow is in docs/payments.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import fields
from tgfake.botapi.common import chat_id, post_message
from tgfake.botapi.fields import FieldError
from tgfake.botapi.keyboards import parse_inline_keyboard
from tgfake.botapi.registry import bot_method
from tgfake.content import Media
from tgfake.errors import bad_request
from tgfake.params import Params, loads, to_integer
from tgfake.world import business, checkout
from tgfake.world.payments import STARS, Answer, Invoice

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_AMOUNT = 9999_9999_9999  # TDLib's check_currency_amount


# --- reading an invoice ------------------------------------------------------------------------------------------
def _required(p: Params, name: str) -> str:
    value = p.text(name)
    if not value:
        raise bad_request(errors.PARAMETER_REQUIRED.format(name=name))
    return value


def labeled_prices(value: Any) -> list[dict[str, Any]]:
    """``get_labeled_price_parts``: a non-empty array of {label (non-empty), amount}; FieldError in TDLib's words."""
    if not isinstance(value, list):
        raise FieldError(errors.PRICES_NOT_ARRAY)
    prices = []
    for item in value:
        try:
            if not isinstance(item, dict):
                raise FieldError(errors.PRICE_NOT_OBJECT)
            label = fields.required_string(item, "label")
            if not label:
                raise FieldError(errors.PRICE_LABEL_EMPTY)
            amount = fields.required_long(item, "amount")
        except FieldError as exc:
            raise FieldError(errors.PRICE_PROBLEM.format(problem=exc.message)) from None
        prices.append({"label": label, "amount": amount})
    if not prices:
        raise FieldError(errors.PRICES_EMPTY)
    return prices


def _tips(p: Params) -> tuple[int, list[int]]:
    raw_max = p.text("max_tip_amount")
    max_tip = 0
    if raw_max:
        body = raw_max[1:] if raw_max[:1] == "-" else raw_max
        if not (body.isascii() and body.isdigit() and -(2**63) <= int(raw_max) < 2**63):
            raise bad_request(errors.MAX_TIP_BAD)
        max_tip = int(raw_max)
    tips: list[int] = []
    raw_tips = p.text("suggested_tip_amounts")
    if raw_tips:
        try:
            value = loads(raw_tips)
        except ValueError:
            raise bad_request(errors.CANT_PARSE_JSON.format(what="suggested_tip_amounts")) from None
        if not isinstance(value, list):
            raise bad_request(errors.TIPS_NOT_ARRAY)
        for item in value:
            if isinstance(item, bool) or not isinstance(item, int | float | str):
                raise bad_request(errors.TIP_NOT_NUMBER)
            text = item if isinstance(item, str) else str(item)
            body = text[1:] if text[:1] == "-" else text
            if not (body.isascii() and body.isdigit() and -(2**63) <= int(text) < 2**63):
                raise bad_request(errors.TIP_BAD_NUMBER)
            tips.append(int(text))
    return max_tip, tips


def read_invoice(ctx: BotCall, p: Params) -> Invoice:
    """The invoice of sendInvoice / createInvoiceLink, refused in the server's order (chat not included)."""
    title = _required(p, "title")
    description = _required(p, "description")
    payload = _required(p, "payload")
    provider_token = p.text("provider_token")
    currency = _required(p, "currency")
    prices_value = fields.required_json(p, "prices", errors.CANT_PARSE_JSON.format(what="prices"))
    try:
        prices = labeled_prices(prices_value)
    except FieldError as exc:
        raise fields.refuse(exc.message) from None
    max_tip, tips = _tips(p)
    invoice = Invoice(
        bot_id=ctx.bot.id,
        title=title,
        description=description,
        payload=payload,
        currency=currency,
        prices=prices,
        start_parameter=p.text("start_parameter"),
        max_tip_amount=max_tip,
        suggested_tip_amounts=tips,
        need_name=fields.to_bool(p.text("need_name")),
        need_phone_number=fields.to_bool(p.text("need_phone_number"))
        or fields.to_bool(p.text("send_phone_number_to_provider")),
        need_email=fields.to_bool(p.text("need_email")) or fields.to_bool(p.text("send_email_to_provider")),
        need_shipping_address=fields.to_bool(p.text("need_shipping_address")) or fields.to_bool(p.text("is_flexible")),
        is_flexible=fields.to_bool(p.text("is_flexible")),
        subscription_period=max(to_integer(p.text("subscription_period")), 0),
        photo_url=p.text("photo_url"),
    )
    check_amounts(invoice)
    if currency == STARS:
        if provider_token or len(prices) != 1 or max_tip or tips:
            raise bad_request(errors.STARS_INVOICE_INVALID)
    elif not provider_token:
        raise bad_request(errors.PAYMENT_PROVIDER_INVALID)
    return invoice


def check_amounts(invoice: Invoice) -> None:
    """TDLib's checks of the prices and the tips."""
    total = 0
    for price in invoice.prices:
        if abs(price["amount"]) > MAX_AMOUNT:
            raise bad_request(errors.AMOUNT_TOO_BIG)
        total += price["amount"]
    if total <= 0:
        raise bad_request(errors.TOTAL_NOT_POSITIVE)
    if total > MAX_AMOUNT:
        raise bad_request(errors.TOTAL_TOO_BIG)
    if not 0 <= invoice.max_tip_amount <= MAX_AMOUNT:
        raise bad_request(errors.MAX_TIP_INVALID)
    for tip in invoice.suggested_tip_amounts:
        if tip <= 0:
            raise bad_request(errors.TIP_NOT_POSITIVE)
        if tip > invoice.max_tip_amount:
            raise bad_request(errors.TIP_ABOVE_MAX)
    if len(invoice.suggested_tip_amounts) > 4:
        raise bad_request(errors.TIPS_TOO_MANY)


@bot_method("sendInvoice")
async def send_invoice(ctx: BotCall, p: Params) -> Any:
    """An invoice message in the chat (an ordinary message whose content is the invoice, as on Telegram); the person
    pays it with ``POST /sim/pay``."""
    invoice = read_invoice(ctx, p)
    cid = chat_id(p)
    keyboard = parse_inline_keyboard(p.get("reply_markup"), ctx.chat_type(cid))  # its first button is the pay one
    sent = post_message(ctx, p, cid, keyboard, media=Media("invoice", fields=invoice.message_json()))
    chat = ctx.chat(cid)
    assert chat is not None
    ctx.world.payments.invoices[(chat.id, int(sent["message_id"]))] = invoice
    return sent


@bot_method("createInvoiceLink")
async def create_invoice_link(ctx: BotCall, p: Params) -> Any:
    """A ``https://t.me/$<slug>`` link; the person pays it with ``POST /sim/pay`` ``{"link": ...}``."""
    invoice = read_invoice(ctx, p)
    if p.text("business_connection_id"):  # a link on behalf of the business account: the connection must be the bot's
        business.connection_of(ctx.telegram, ctx.bot, p.text("business_connection_id"))
    payments = ctx.world.payments
    slug = f"tgfake{payments.mint()}"
    payments.links[slug] = invoice
    return checkout.LINK_PREFIX + slug


# --- the bot's answers ---------------------------------------------------------------------------------------------
def shipping_options(p: Params) -> list[dict[str, Any]]:
    """``get_shipping_options``: a non-empty array of {id, title, prices}."""
    value = fields.required_json(p, "shipping_options", errors.SHIPPING_OPTIONS_BAD)
    if not isinstance(value, list):
        raise bad_request(errors.SHIPPING_OPTIONS_NOT_ARRAY)
    options = []
    for item in value:
        try:
            if not isinstance(item, dict):
                raise FieldError(errors.SHIPPING_OPTION_NOT_OBJECT)
            option_id = fields.required_string(item, "id")
            if not option_id:
                raise FieldError(errors.SHIPPING_OPTION_ID_EMPTY)
            title = fields.required_string(item, "title")
            if not title:
                raise FieldError(errors.SHIPPING_OPTION_TITLE_EMPTY)
            if "prices" not in item:
                raise FieldError(errors.FIELD_MISSING.format(name="prices"))
            if not isinstance(item["prices"], list):
                raise FieldError(errors.FIELD_NOT_ARRAY.format(name="prices"))
            try:
                prices = labeled_prices(item["prices"])
            except FieldError as inner:
                raise FieldError(errors.SHIPPING_OPTION_PRICES.format(problem=inner.message)) from None
        except FieldError as exc:
            raise bad_request(errors.SHIPPING_OPTION_PROBLEM.format(problem=exc.message)) from None
        options.append({"id": option_id, "title": title, "prices": prices})
    if not options:
        raise bad_request(errors.SHIPPING_OPTIONS_EMPTY)
    return options


def _answer(p: Params, waiting: dict[str, Answer], param: str) -> Answer:
    """The open query named by ``param`` (read with ``to_integer``), or Telegram's QUERY_ID_INVALID words."""
    answer = waiting.get(str(to_integer(p.text(param))))
    if answer is None or answer.done.is_set():
        raise bad_request(errors.QUERY_TOO_OLD)
    return answer


@bot_method("answerShippingQuery")
async def answer_shipping_query(ctx: BotCall, p: Params) -> Any:
    ok = fields.to_bool(p.text("ok"))
    options = shipping_options(p) if ok else []
    error_message = "" if ok else _required(p, "error_message")
    answer = _answer(p, ctx.world.payments.shipping, "shipping_query_id")
    answer.ok, answer.shipping_options, answer.error_message = ok, options, error_message
    answer.done.set()
    return True


@bot_method("answerPreCheckoutQuery")
async def answer_pre_checkout_query(ctx: BotCall, p: Params) -> Any:
    ok = fields.to_bool(p.text("ok"))
    error_message = "" if ok else _required(p, "error_message")
    answer = _answer(p, ctx.world.payments.pre_checkout, "pre_checkout_query_id")
    answer.ok, answer.error_message = ok, error_message
    answer.done.set()
    return True


# --- Stars -----------------------------------------------------------------------------------------------------
@bot_method("refundStarPayment")
async def refund_star_payment(ctx: BotCall, p: Params) -> Any:
    """Stars go back to the person; a ``refunded_payment`` message appears in their chat with the bot."""
    user_id = to_integer(p.text("user_id"))
    payments = ctx.world.payments
    charge = payments.charges.get(p.text("telegram_payment_charge_id"))
    if charge is None or charge.bot_id != ctx.bot.id or charge.user_id != user_id or charge.currency != STARS:
        raise bad_request(errors.CHARGE_ID_INVALID)
    if charge.refunded:
        raise bad_request(errors.CHARGE_ALREADY_REFUNDED)
    charge.refunded = True
    checkout.refund(ctx.telegram, ctx.bot, charge)
    return True


@bot_method("editUserStarSubscription")
async def edit_user_star_subscription(ctx: BotCall, p: Params) -> Any:
    user_id = to_integer(p.text("user_id"))
    charge = ctx.world.payments.charges.get(p.text("telegram_payment_charge_id"))
    if charge is None or charge.bot_id != ctx.bot.id or charge.user_id != user_id or not charge.subscription_period:
        raise bad_request(errors.CHARGE_ID_INVALID)
    charge.canceled = fields.to_bool(p.text("is_canceled"))
    return True


@bot_method("getMyStarBalance")
async def get_my_star_balance(ctx: BotCall, p: Params) -> Any:
    return {"amount": ctx.world.payments.balance(ctx.bot.id)}


@bot_method("getStarTransactions")
async def get_star_transactions(ctx: BotCall, p: Params) -> Any:
    """Newest first; ``offset`` skips, ``limit`` 1..100 (default 100), read as ``get_integer_arg`` clamps them."""
    offset = max(to_integer(p.text("offset")), 0)
    raw_limit = p.text("limit")
    limit = min(max(to_integer(raw_limit), 1), 100) if raw_limit else 100
    newest = list(reversed(ctx.world.payments.transactions.get(ctx.bot.id, [])))
    return {"transactions": [t["json"] for t in newest[offset : offset + limit]]}
