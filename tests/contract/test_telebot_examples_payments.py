"""pyTelegramBotAPI's own example bots (``examples/`` of eternnoir/pyTelegramBotAPI, sync ``TeleBot`` and
``asynchronous_telebot``), run against the stand: each test builds a bot of the example's shape (its handlers, calls
and parameters, in our own words), plays the person through the testing client, and asserts what the person sees
and what the bot got. telebot logs a handler that raised, a failed getUpdates or a refused call on its ``TeleBot``
logger: any error there fails the test.

Here: payments (payments_example.py, stars_payment.py); the shared helpers are in ``telebot_support.py``."""

from __future__ import annotations

from telebot import TeleBot, types

from tests.conftest import Wire
from tests.contract import telebot_support
from tests.contract.telebot_support import polling, refusals

complaints = telebot_support.complaints  # the autouse fixture: a complaint logged fails every test here


# --- payments_example.py ----------------------------------------------------------------------------------------
async def test_payments_example_sells_a_time_machine(wire: Wire) -> None:
    bot = TeleBot(wire.token)
    prices = invoice_prices = [
        types.LabeledPrice(label="Working Time Machine", amount=5750),
        types.LabeledPrice("Gift wrapping", 500),
    ]
    shipping_options = [
        types.ShippingOption(id="instant", title="WorldWide Teleporter").add_price(
            types.LabeledPrice("Teleporter", 1000)
        ),
        types.ShippingOption(id="pickup", title="Local pickup").add_price(types.LabeledPrice("Pickup", 300)),
    ]

    @bot.message_handler(commands=["buy"])
    def command_pay(message: types.Message) -> None:
        bot.send_message(
            message.chat.id,
            "Use this test card number to pay for your Time Machine: `4242 4242 4242 4242`",
            parse_mode="Markdown",
        )
        bot.send_invoice(
            message.chat.id,
            "Working Time Machine",
            "Want to visit your great-great-great-grandparents?",
            "HAPPY FRIDAYS COUPON",
            "1234567890:TEST:AAAABBBBCCCCDDDD",
            "usd",
            prices,
            photo_url="http://erkelzaar.tsudao.com/models/perrotta/TIME_MACHINE.jpg",
            photo_height=512,
            photo_width=512,
            photo_size=512,
            is_flexible=False,
            start_parameter="time-machine-example",
        )

    @bot.shipping_query_handler(func=lambda query: True)
    def shipping(shipping_query: types.ShippingQuery) -> None:
        bot.answer_shipping_query(shipping_query.id, ok=True, shipping_options=shipping_options, error_message="x")

    @bot.pre_checkout_query_handler(func=lambda query: True)
    def checkout(pre_checkout_query: types.PreCheckoutQuery) -> None:
        bot.answer_pre_checkout_query(pre_checkout_query.id, ok=True, error_message="Aliens tried to steal your CVV")

    @bot.message_handler(content_types=["successful_payment"])
    def got_payment(message: types.Message) -> None:
        paid = message.successful_payment
        assert paid is not None
        bot.send_message(
            message.chat.id,
            f"Hoooooray! Thanks for payment! We will proceed your order for `{paid.total_amount / 100} "
            f"{paid.currency}` as fast as possible!",
            parse_mode="Markdown",
        )

    async with polling(wire, bot, skip_pending=True) as person:
        await person.send("/buy")
        card = await person.expect_reply("Use this test card number to pay for your Time Machine: 4242 4242 4242 4242")
        assert [e["type"] for e in card.entities] == ["code"]
        invoice = await person.expect_reply()
        assert invoice.raw["invoice"]["total_amount"] == sum(p.amount for p in invoice_prices), invoice.raw
        status, paid = await wire.sim("POST", "/sim/pay", {"message_id": invoice.message_id})
        assert (status, paid["status"], paid["total_amount"]) == (200, "paid", 6250), paid
        thanks = await person.expect_reply(containing="Hoooooray!")
        assert "62.5 usd" in thanks.text.lower()  # the currency as sendInvoice named it
    assert refusals(wire) == []


# --- stars_payment.py -------------------------------------------------------------------------------------------
STARS = {"10 Stars": 10, "50 Stars": 45, "100 Stars": 80, "500 Stars": 350}


async def test_stars_payment_from_a_reply_keyboard(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.message_handler(commands=["start"])
    def send_welcome(message: types.Message) -> None:
        markup = types.ReplyKeyboardMarkup(row_width=2)
        markup.add(*[types.KeyboardButton(product) for product in STARS])
        bot.reply_to(
            message, "Welcome to Stars Payment Bot!\nPlease select amount of stars to purchase:", reply_markup=markup
        )

    @bot.message_handler(func=lambda message: message.text in STARS)
    def handle_product_selection(message: types.Message) -> None:
        product = message.text
        assert product is not None
        bot.send_invoice(
            message.chat.id,
            title=f"Purchase {product}",
            description=f"Buy {product} for your account",
            provider_token="",
            currency="XTR",
            prices=[types.LabeledPrice(label=product, amount=STARS[product])],
            start_parameter="stars-payment",
            invoice_payload=product,
        )

    @bot.pre_checkout_query_handler(func=lambda query: True)
    def process_pre_checkout_query(pre_checkout_query: types.PreCheckoutQuery) -> None:
        bot.answer_pre_checkout_query(pre_checkout_query.id, ok=True)

    @bot.message_handler(content_types=["successful_payment"])
    def handle_successful_payment(message: types.Message) -> None:
        assert message.successful_payment is not None
        bot.reply_to(message, f"Payment for {message.successful_payment.invoice_payload} successful!")

    async with polling(wire, bot, run="polling") as person:
        await person.send("/start")
        menu = await person.expect_reply("Welcome to Stars Payment Bot!\nPlease select amount of stars to purchase:")
        assert menu.reply_keyboard == (("10 Stars", "50 Stars"), ("100 Stars", "500 Stars"))
        await person.press("50 Stars")
        invoice = await person.expect_reply()
        assert invoice.raw["invoice"]["currency"] == "XTR", invoice.raw
        status, paid = await wire.sim("POST", "/sim/pay", {"message_id": invoice.message_id})
        assert (status, paid["status"], paid["total_amount"]) == (200, "paid", 45), paid
        await person.expect_reply("Payment for 50 Stars successful!")
    assert refusals(wire) == []
