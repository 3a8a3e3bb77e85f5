"""aiogram 3's own example bots (the ``examples/`` directory of aiogram/aiogram), run against the stand: each test
builds a bot of the example's shape (its handlers, calls and parameters, in our own words), plays the person
through the testing client, and asserts what the person sees and what the bot got. aiogram's warnings and errors
(a handler that raised, an update it could not parse, a call the stand refused) fail the test.

Here: payments in Stars (stars_invoice.py); the shared helpers are in ``aiogram_support.py``."""

from __future__ import annotations

from aiogram import Bot, Dispatcher, F, Router
from aiogram.filters import Command
from aiogram.types import LabeledPrice, Message, PreCheckoutQuery

from tests.conftest import Wire
from tests.contract import aiogram_support
from tests.contract.aiogram_support import running

complaints = aiogram_support.complaints  # the autouse fixture: a complaint logged fails every test here


# --- stars_invoice.py --------------------------------------------------------------------------------------------
def stars_dispatcher(goods: dict[str, int]) -> Dispatcher:
    """stars_invoice.py: /start sends a 42-Star invoice, the pre-checkout query is confirmed while ``goods`` has
    stock, and a successful payment is refunded at once."""
    router = Router(name="stars_invoice")

    @router.message(Command("start"))
    async def command_start(message: Message) -> None:
        await message.answer_invoice(
            title="Demo invoice",
            description="Demo invoice description",
            prices=[LabeledPrice(label="Demo", amount=42)],
            payload="demo",
            currency="XTR",
        )

    @router.pre_checkout_query(F.invoice_payload == "demo")
    async def pre_checkout_query(query: PreCheckoutQuery) -> None:
        if goods.get(query.invoice_payload, 0) > 0:
            await query.answer(ok=True)
        else:
            await query.answer(ok=False, error_message="The product is out of stock")

    @router.message(F.successful_payment)
    async def successful_payment(message: Message, bot: Bot) -> None:
        assert message.from_user is not None
        assert message.successful_payment is not None
        await bot.refund_star_payment(
            user_id=message.from_user.id,
            telegram_payment_charge_id=message.successful_payment.telegram_payment_charge_id,
        )
        await message.answer("Thanks. Your payment has been refunded.")

    dp = Dispatcher()
    dp.include_router(router)
    return dp


async def test_stars_invoice_is_paid_and_refunded(wire: Wire) -> None:
    async with running(wire, stars_dispatcher({"demo": 1, "another": 0})) as person:
        await person.send("/start")
        [invoice] = await person.wait_call("sendInvoice")
        assert invoice.ok, invoice.response
        assert invoice.response["result"]["invoice"] == {
            "title": "Demo invoice",
            "description": "Demo invoice description",
            "start_parameter": "",
            "currency": "XTR",
            "total_amount": 42,
        }
        status, paid = await wire.sim("POST", "/sim/pay", {"message_id": invoice.response["result"]["message_id"]})
        assert (status, paid["status"], paid["total_amount"]) == (200, "paid", 42), paid
        [refund] = await person.wait_call("refundStarPayment")
        assert refund.ok
        assert refund.params["telegram_payment_charge_id"] == paid["telegram_payment_charge_id"]
        await person.wait_call("sendMessage")
        assert (await person.transcript()).splitlines()[1:] == [
            "[2] bot: [invoice 'Demo invoice': 42 XTR] Demo invoice description",
            "[3] * alice paid 42 XTR",
            "[4] * alice was refunded 42 XTR",
            "[5] bot: Thanks. Your payment has been refunded.",
        ]


async def test_stars_invoice_out_of_stock_is_declined(wire: Wire) -> None:
    async with running(wire, stars_dispatcher({"demo": 0})) as person:
        await person.send("/start")
        assert (await person.expect_reply()).raw["invoice"]["total_amount"] == 42
        status, declined = await wire.sim("POST", "/sim/pay", {})
        assert (status, declined["status"], declined["error_message"]) == (
            200,
            "declined",
            "The product is out of stock",
        ), declined
        assert (await person.chat())["payment_notices"] == [{"text": "The product is out of stock"}]
        await person.expect_no_reply(within=0.2)
