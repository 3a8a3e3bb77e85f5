"""python-telegram-bot's own example bots (``examples/`` of the 22.x line), each rewritten here in the same shape: the
same handlers, calls, parameters and flow, polling with ``allowed_updates=Update.ALL_TYPES`` as every example's
``run_polling`` does. The person plays the human through the testing client; each test checks what the person sees
and what the bot received. A difference from Telegram shows up as a library exception, a refused call, a missing
field or a wrong update kind.

Here: payments (paymentbot.py) and Telegram Passport (passportbot.py); the shared helpers are in
``ptb_support.py``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from telegram import LabeledPrice, ShippingOption, Update
from telegram.ext import (
    CommandHandler,
    ContextTypes,
    MessageHandler,
    PreCheckoutQueryHandler,
    ShippingQueryHandler,
    filters,
)

from tests.conftest import Wire
from tests.contract import test_conversation_oracles as professor
from tests.contract.ptb_support import example, refusals
from tests.contract.test_poll_oracles import until
from tests.person.test_passport import DETAILS

# The examples' ConversationHandlers mix message and callback handlers with per_message=False, as PTB warns.
pytestmark = pytest.mark.filterwarnings("ignore:If 'per_message=False':telegram.warnings.PTBUserWarning")

# --- paymentbot.py -------------------------------------------------------------------------------------------------
PAYMENT_PROVIDER_TOKEN = "PAYMENT_PROVIDER_TOKEN"  # the example's placeholder, as a bot run unmodified sends it


async def pay_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text(
        "Use /shipping to receive an invoice with shipping included, or /noshipping for an invoice without shipping."
    )


async def send_example_invoice(update: Update, context: ContextTypes.DEFAULT_TYPE, **shipping: Any) -> None:
    assert update.message is not None
    await context.bot.send_invoice(
        update.message.chat_id,
        "Payment Example",
        "Example of a payment process using the python-telegram-bot library.",
        "Custom-Payload",
        "USD",
        [LabeledPrice("Test", 1 * 100)],
        provider_token=PAYMENT_PROVIDER_TOKEN,
        **shipping,
    )


async def start_with_shipping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await send_example_invoice(
        update,
        context,
        need_name=True,
        need_phone_number=True,
        need_email=True,
        need_shipping_address=True,
        is_flexible=True,
    )


async def start_without_shipping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await send_example_invoice(update, context)


async def shipping_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.shipping_query
    assert query is not None
    if query.invoice_payload != "Custom-Payload":
        await query.answer(ok=False, error_message="Something went wrong...")
        return
    options = [ShippingOption("1", "Shipping Option A", [LabeledPrice("A", 100)])]
    options.append(ShippingOption("2", "Shipping Option B", [LabeledPrice("B1", 150), LabeledPrice("B2", 200)]))
    await query.answer(ok=True, shipping_options=options)


async def precheckout_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.pre_checkout_query
    assert query is not None
    context.bot_data.setdefault("orders", []).append(query.order_info)
    if query.invoice_payload != "Custom-Payload":
        await query.answer(ok=False, error_message="Something went wrong...")
    else:
        await query.answer(ok=True)


async def successful_payment_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    context.bot_data.setdefault("payments", []).append(update.message.successful_payment)
    await update.message.reply_text("Thank you for your payment.")


async def test_paymentbot(wire: Wire) -> None:
    handlers = [
        CommandHandler("start", pay_start),
        CommandHandler("shipping", start_with_shipping),
        CommandHandler("noshipping", start_without_shipping),
        ShippingQueryHandler(shipping_callback),
        PreCheckoutQueryHandler(precheckout_callback),
        MessageHandler(filters.SUCCESSFUL_PAYMENT, successful_payment_callback),
    ]
    async with example(wire, handlers) as (person, app):
        await person.send("/start")
        await person.expect_reply(containing="Use /shipping to receive an invoice")
        await person.send("/shipping")
        [invoice] = await person.wait_call("sendInvoice")
        assert (await person.expect_reply()).raw["invoice"]["title"] == "Payment Example"
        assert invoice.response["result"]["invoice"]["total_amount"] == 100
        address = {
            "country_code": "GB",
            "state": "",
            "city": "London",
            "street_line1": "221B Baker Street",
            "street_line2": "",
            "post_code": "NW1 6XE",
        }
        order = {"name": "Alice Liddell", "phone_number": "+441234567", "email": "alice@example.org"}
        status, paid = await wire.sim(
            "POST", "/sim/pay", {**order, "shipping_address": address, "shipping_option_id": "2"}
        )
        assert (status, paid["status"], paid["total_amount"]) == (200, "paid", 450), paid
        await person.expect_reply("Thank you for your payment.")
        [info] = app.bot_data["orders"]
        assert (info.name, info.phone_number, info.email) == ("Alice Liddell", "+441234567", "alice@example.org")
        assert info.shipping_address.city == "London"
        [payment] = app.bot_data["payments"]
        assert (payment.total_amount, payment.currency, payment.shipping_option_id) == (450, "USD", "2")
        await person.send("/noshipping")
        await person.wait_call("sendInvoice", 2)
        assert (await person.expect_reply()).raw["invoice"]["title"] == "Payment Example"
        status, paid = await wire.sim("POST", "/sim/pay", {})
        assert (status, paid["status"], paid["total_amount"]) == (200, "paid", 100), paid
        await person.expect_reply("Thank you for your payment.")
        assert app.bot_data["orders"][1] is None
    assert refusals(wire) == []


# --- passportbot.py ------------------------------------------------------------------------------------------------
def rsa_key() -> tuple[bytes, str]:
    """A bot's passport key pair: the private key for the builder, the public key BotFather (and the request) has."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, public.decode()


def passport_msg(seen: list[tuple[str, Any]]) -> Callable[..., Any]:
    """The example's handler, its log lines kept in ``seen``; downloads go to the working directory, as there."""

    async def msg(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        passport_data = update.message.passport_data
        assert passport_data is not None
        if passport_data.decrypted_credentials.nonce != "thisisatest":
            return
        for data in passport_data.decrypted_data:
            if data.type == "phone_number":
                seen.append(("Phone", data.phone_number))
            elif data.type == "email":
                seen.append(("Email", data.email))
            if data.type in ("personal_details", "passport", "driver_license", "identity_card", "internal_passport"):
                seen.append((data.type, data.data))
            if data.type in (
                "utility_bill",
                "bank_statement",
                "rental_agreement",
                "passport_registration",
                "temporary_registration",
            ):
                for file in data.files or ():
                    actual_file = await file.get_file()
                    seen.append((data.type + " file", await actual_file.download_to_drive()))
            if data.type in ("passport", "driver_license", "identity_card", "internal_passport") and data.front_side:
                front_file = await data.front_side.get_file()
                seen.append((data.type + " front", await front_file.download_to_drive()))
            if data.type in ("driver_license" and "identity_card") and data.reverse_side:  # the example's own test
                reverse_file = await data.reverse_side.get_file()
                seen.append((data.type + " reverse", await reverse_file.download_to_drive()))
            if data.type in ("passport", "driver_license", "identity_card", "internal_passport") and data.selfie:
                selfie_file = await data.selfie.get_file()
                seen.append((data.type + " selfie", await selfie_file.download_to_drive()))
            if data.translation:
                for file in data.translation:
                    actual_file = await file.get_file()
                    seen.append((data.type + " translation", await actual_file.download_to_drive()))

    return msg


def b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode()


async def test_passportbot(wire: Wire, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    private, public = rsa_key()
    seen: list[tuple[str, Any]] = []
    front, selfie, back, bill, translated = (professor.PHOTO_BYTES + bytes([n]) for n in range(5))
    elements = [
        {"type": "personal_details", "data": DETAILS},
        {
            "type": "passport",
            "data": {"document_no": "A123", "expiry_date": "01.01.2030"},
            "front_side": b64(front),
            "selfie": b64(selfie),
            "translation": [b64(translated)],
        },
        {
            "type": "identity_card",
            "data": {"document_no": "ID9", "expiry_date": ""},
            "front_side": b64(front),
            "reverse_side": b64(back),
        },
        {"type": "utility_bill", "files": [b64(bill)]},
        {"type": "phone_number", "phone_number": "441234567"},
        {"type": "email", "email": "alice@example.org"},
    ]
    handlers = [MessageHandler(filters.PASSPORT_DATA, passport_msg(seen))]
    async with example(wire, handlers, build=lambda b: b.private_key(private)) as (person, _):
        status, shared = await wire.sim(
            "POST", "/sim/passport", {"public_key": public, "nonce": "not the bot's", "elements": elements}
        )
        assert status == 200, shared
        status, shared = await wire.sim(
            "POST", "/sim/passport", {"public_key": public, "nonce": "thisisatest", "elements": elements}
        )
        assert status == 200, shared
        await person.wait_call("getFile", 6)
        await until(wire, lambda: len(seen) == 11)
        assert "[2] alice: [passport data: personal_details, passport, identity_card, utility_bill" in (
            await person.transcript()
        )
    got = dict(seen)
    assert (got["personal_details"].first_name, got["personal_details"].gender) == ("Alice", "female")
    assert (got["passport"].document_no, got["passport"].expiry_date) == ("A123", "01.01.2030")
    assert (got["Phone"], got["Email"]) == ("441234567", "alice@example.org")
    downloads = {what: where.read_bytes() for what, where in seen if isinstance(where, Path)}
    assert downloads == {
        "passport front": front,
        "passport selfie": selfie,
        "passport translation": translated,
        "identity_card front": front,
        "identity_card reverse": back,
        "utility_bill file": bill,
    }
    assert refusals(wire) == []
