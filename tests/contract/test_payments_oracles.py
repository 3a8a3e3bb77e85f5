"""Payments end to end with real libraries as oracles: a Stars invoice and a flexible-shipping invoice.

The bots have the shape of python-telegram-bot's ``paymentbot.py`` example and aiogram's payment handlers: send an
invoice on a command, answer the shipping query with options, approve the pre-checkout query, thank the payer on
``successful_payment``. The person pays through ``POST /sim/pay``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from aiogram import Dispatcher, F
from aiogram.filters import Command
from aiogram.types import LabeledPrice as AiogramPrice
from aiogram.types import Message, PreCheckoutQuery, ShippingQuery
from aiogram.types import ShippingOption as AiogramOption
from telegram import LabeledPrice, ShippingOption, Update
from telegram.ext import (
    CommandHandler,
    ContextTypes,
    MessageHandler,
    PreCheckoutQueryHandler,
    ShippingQueryHandler,
    filters,
)

from tests.clients import aiogram_bot, aiogram_polling, ptb_polling
from tests.conftest import Wire

PROVIDER = "284685063:TEST:tgfake"


async def stars(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    await context.bot.send_invoice(
        update.effective_chat.id, "Boost", "A boost", "stars-payload", "XTR", [LabeledPrice("Boost", 50)]
    )


async def shipped(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    await context.bot.send_invoice(
        update.effective_chat.id,
        "Mug",
        "A mug",
        "mug-payload",
        "USD",
        [LabeledPrice("Mug", 1000)],
        provider_token=PROVIDER,
        need_name=True,
        need_shipping_address=True,
        is_flexible=True,
    )


async def shipping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.shipping_query
    assert query is not None
    if query.invoice_payload != "mug-payload":
        await query.answer(ok=False, error_message="Something went wrong...")
        return
    options = [ShippingOption("post", "Post", [LabeledPrice("Post", 300)])]
    await query.answer(ok=True, shipping_options=options)


async def precheckout(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.pre_checkout_query
    assert query is not None
    if query.invoice_payload not in ("stars-payload", "mug-payload"):
        await query.answer(ok=False, error_message="Something went wrong...")
    else:
        await query.answer(ok=True)


async def thanks(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    assert update.message.successful_payment is not None
    paid = update.message.successful_payment
    await update.message.reply_text(f"Thank you for your payment of {paid.total_amount} {paid.currency}!")


@pytest_asyncio.fixture
async def ptb_shop(wire: Wire) -> AsyncIterator[Wire]:
    handlers = [
        CommandHandler("stars", stars),
        CommandHandler("mug", shipped),
        ShippingQueryHandler(shipping),
        PreCheckoutQueryHandler(precheckout),
        MessageHandler(filters.SUCCESSFUL_PAYMENT, thanks),
    ]
    async with ptb_polling(wire, handlers):
        yield wire


async def test_ptb_takes_a_stars_payment(ptb_shop: Wire) -> None:
    wire = ptb_shop
    await wire.say("/stars")
    await wire.stand.wait_calls("sendInvoice", 1, 5)
    status, outcome = await wire.sim("POST", "/sim/pay", {})
    assert (status, outcome["status"], outcome["total_amount"], outcome["message_id"]) == (200, "paid", 50, 3)
    assert outcome["telegram_payment_charge_id"].startswith("stx")
    await wire.stand.wait_calls("sendMessage", 1, 5)
    assert (await wire.text()).splitlines()[-1] == "[4] bot: Thank you for your payment of 50 XTR!"
    assert all(c.status == 200 for c in wire.stand.calls())


async def test_ptb_takes_a_flexible_shipping_payment(ptb_shop: Wire) -> None:
    wire = ptb_shop
    await wire.say("/mug")
    await wire.stand.wait_calls("sendInvoice", 1, 5)
    status, outcome = await wire.sim("POST", "/sim/pay", {"name": "Alice Liddell"})
    assert (status, outcome["status"], outcome["total_amount"]) == (200, "paid", 1300)
    await wire.stand.wait_calls("sendMessage", 1, 5)
    assert (await wire.text()).splitlines()[-1] == "[4] bot: Thank you for your payment of 1300 USD!"
    assert [c.method for c in wire.stand.calls() if c.method.startswith("answer")] == [
        "answerShippingQuery",
        "answerPreCheckoutQuery",
    ]
    assert all(c.status == 200 for c in wire.stand.calls())


async def test_aiogram_takes_stars_and_shipping_payments(wire: Wire) -> None:
    bot = aiogram_bot(wire)
    dp = Dispatcher()

    @dp.message(Command("stars"))
    async def send_stars(message: Message) -> None:
        await message.answer_invoice("Boost", "A boost", "stars", "XTR", [AiogramPrice(label="Boost", amount=7)])

    @dp.message(Command("mug"))
    async def send_mug(message: Message) -> None:
        await message.answer_invoice(
            "Mug",
            "A mug",
            "mug",
            "EUR",
            [AiogramPrice(label="Mug", amount=900)],
            provider_token=PROVIDER,
            is_flexible=True,
        )

    @dp.shipping_query()
    async def ship(query: ShippingQuery) -> None:
        price = AiogramPrice(label="Courier", amount=100)
        await query.answer(ok=True, shipping_options=[AiogramOption(id="courier", title="Courier", prices=[price])])

    @dp.pre_checkout_query()
    async def check(query: PreCheckoutQuery) -> None:
        await query.answer(ok=True)

    @dp.message(F.successful_payment)
    async def paid(message: Message) -> None:
        assert message.successful_payment is not None
        total = message.successful_payment.total_amount
        await message.answer(f"Paid {total} {message.successful_payment.currency}")

    async with aiogram_polling(bot, dp):
        await wire.say("/stars")
        await wire.stand.wait_calls("sendInvoice", 1, 5)
        assert (await wire.sim("POST", "/sim/pay", {}))[1]["status"] == "paid"
        await wire.stand.wait_calls("sendMessage", 1, 5)
        await wire.say("/mug")
        await wire.stand.wait_calls("sendInvoice", 2, 5)
        status, outcome = await wire.sim("POST", "/sim/pay", {})
        assert (status, outcome["status"], outcome["total_amount"]) == (200, "paid", 1000)
        await wire.stand.wait_calls("sendMessage", 2, 5)
        lines = (await wire.text()).splitlines()
        assert [lines[3], lines[-1]] == ["[4] bot: Paid 7 XTR", "[8] bot: Paid 1000 EUR"]
        assert await bot.get_my_star_balance() is not None
        assert (await bot.get_my_star_balance()).amount == 7
        history = await bot.get_star_transactions()
        assert [t.amount for t in history.transactions] == [7]
