"""Payments and Stars through the wire: invoice refusals in the server's order, the pay flow, refunds, balance.

Descriptions are Client.cpp's and TDLib's (InputInvoice.cpp, LabeledPricePart.cpp) and the MTProto server's
(``STARS_INVOICE_INVALID``, ``PAYMENT_PROVIDER_INVALID``, ``CHARGE_ALREADY_REFUNDED``, ``CHARGE_ID_INVALID``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.conftest import Wire

STARS = {"title": "Boost", "description": "A boost", "payload": "boost-1", "currency": "XTR"}
USD = {**STARS, "currency": "USD", "provider_token": "284685063:TEST:abc", "payload": "order-7"}
ONE = json.dumps([{"label": "Boost", "amount": 50}])


async def refused(wire: Wire, method: str, words: str, **params: Any) -> None:
    """``Wire.refused`` for invoices (their ``description`` parameter would clash with its argument)."""
    status, body = await wire.call(method, **params)
    assert (status, body.get("description"), body["ok"]) == (400, words, False), body


async def next_update(wire: Wire, kind: str) -> dict[str, Any]:
    """The bot's next update of ``kind`` (held poll: wakes as soon as it is queued), confirming what it read."""
    offset = 0
    while True:
        updates = await wire.ok("getUpdates", offset=offset, timeout=5)
        assert updates, f"no {kind} update"
        offset = updates[-1]["update_id"] + 1
        await wire.ok("getUpdates", offset=offset, timeout=0)
        found = [u[kind] for u in updates if kind in u]
        if found:
            return dict(found[0])


# --- sendInvoice and createInvoiceLink refusals -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({}, 'Bad Request: parameter "title" is required'),
        ({"title": "t"}, 'Bad Request: parameter "description" is required'),
        ({"title": "t", "description": "d"}, 'Bad Request: parameter "payload" is required'),
        ({**STARS, "currency": ""}, 'Bad Request: parameter "currency" is required'),
        (STARS, 'Bad Request: parameter "prices" is required'),
        ({**STARS, "prices": "["}, "Bad Request: can't parse prices JSON object"),
        ({**STARS, "prices": "{}"}, "Bad Request: expected an Array of labeled prices"),
        ({**STARS, "prices": "[]"}, "Bad Request: there must be at least one price"),
        ({**STARS, "prices": "[1]"}, "Bad Request: can't parse labeled price: LabeledPrice must be an Object"),
        ({**STARS, "prices": '[{"amount":1}]'}, "Bad Request: can't parse labeled price: Can't find field \"label\""),
        (
            {**STARS, "prices": '[{"label":"","amount":1}]'},
            "Bad Request: can't parse labeled price: LabeledPrice label must be non-empty",
        ),
        (
            {**STARS, "prices": '[{"label":"a","amount":"x"}]'},
            'Bad Request: can\'t parse labeled price: Field "amount" must be a valid Number',
        ),
        ({**STARS, "prices": ONE, "max_tip_amount": "1.5"}, 'Bad Request: can\'t parse "max_tip_amount" as Number'),
        (
            {**STARS, "prices": ONE, "suggested_tip_amounts": "["},
            "Bad Request: can't parse suggested_tip_amounts JSON object",
        ),
        (
            {**STARS, "prices": ONE, "suggested_tip_amounts": "{}"},
            "Bad Request: expected an Array of suggested tip amounts",
        ),
        (
            {**STARS, "prices": ONE, "suggested_tip_amounts": "[true]"},
            "Bad Request: suggested tip amount must be of type Number or String",
        ),
        (
            {**STARS, "prices": ONE, "suggested_tip_amounts": '["1x"]'},
            "Bad Request: can't parse suggested tip amount as Number",
        ),
        (
            {**STARS, "prices": '[{"label":"a","amount":1000000000000}]'},
            "Bad Request: too big amount of the currency specified",
        ),
        ({**STARS, "prices": '[{"label":"a","amount":0}]'}, "Bad Request: total price must be positive"),
        (
            {**STARS, "prices": '[{"label":"a","amount":999999999999},{"label":"b","amount":1}]'},
            "Bad Request: total price is too big",
        ),
        (
            {**USD, "prices": ONE, "max_tip_amount": "-1"},
            "Bad Request: invalid max_tip_amount of the currency specified",
        ),
        ({**USD, "prices": ONE, "suggested_tip_amounts": "[0]"}, "Bad Request: suggested tip amount must be positive"),
        (
            {**USD, "prices": ONE, "max_tip_amount": "5", "suggested_tip_amounts": "[6]"},
            "Bad Request: suggested tip amount can't be bigger than max_tip_amount",
        ),
        (
            {**USD, "prices": ONE, "max_tip_amount": "9", "suggested_tip_amounts": "[1,2,3,4,5]"},
            "Bad Request: there can be at most 4 suggested tip amounts",
        ),
        ({**STARS, "prices": ONE, "provider_token": "x"}, "Bad Request: STARS_INVOICE_INVALID"),
        (
            {**STARS, "prices": '[{"label":"a","amount":1},{"label":"b","amount":1}]'},
            "Bad Request: STARS_INVOICE_INVALID",
        ),
        ({**STARS, "prices": ONE, "max_tip_amount": "5"}, "Bad Request: STARS_INVOICE_INVALID"),
        ({**USD, "prices": ONE, "provider_token": ""}, "Bad Request: PAYMENT_PROVIDER_INVALID"),
    ],
)
async def test_bad_invoices_are_refused_in_the_servers_order(
    wire: Wire, params: dict[str, str], description: str
) -> None:
    for method in ("sendInvoice", "createInvoiceLink"):
        await refused(wire, method, description, chat_id=4242, **params)
    assert wire.stand.world.payments.invoices == {}


async def test_the_chat_is_named_after_the_invoice(wire: Wire) -> None:
    await wire.refused("sendInvoice", 400, 'Bad Request: parameter "title" is required')
    await refused(wire, "sendInvoice", "Bad Request: chat_id is empty", prices=ONE, **STARS)


async def test_an_invoice_message_and_a_link(wire: Wire) -> None:
    sent = await wire.ok("sendInvoice", chat_id=4242, prices=ONE, start_parameter="go", **STARS)
    assert sent["invoice"] == {
        "title": "Boost",
        "description": "A boost",
        "start_parameter": "go",
        "currency": "XTR",
        "total_amount": 50,
    }
    assert "text" not in sent
    link = await wire.ok("createInvoiceLink", prices=ONE, **STARS)
    assert link.startswith("https://t.me/$")


# --- the flow ---------------------------------------------------------------------------------------------------------
async def test_a_stars_invoice_is_paid_refunded_and_counted(wire: Wire) -> None:
    await wire.say("/buy")
    sent = await wire.ok("sendInvoice", chat_id=4242, prices=ONE, **STARS)
    paying = asyncio.create_task(wire.sim("POST", "/sim/pay", {"message_id": sent["message_id"]}))
    query = await next_update(wire, "pre_checkout_query")
    assert {k: query[k] for k in ("currency", "total_amount", "invoice_payload")} == {
        "currency": "XTR",
        "total_amount": 50,
        "invoice_payload": "boost-1",
    }
    assert "order_info" not in query
    assert query["from"]["id"] == 4242
    assert await wire.ok("answerPreCheckoutQuery", pre_checkout_query_id=query["id"], ok="true") is True
    status, outcome = await paying
    assert (status, outcome["status"], outcome["total_amount"]) == (200, "paid", 50)
    charge = outcome["telegram_payment_charge_id"]
    message = (await next_update(wire, "message"))["successful_payment"]
    assert message == {
        "currency": "XTR",
        "total_amount": 50,
        "invoice_payload": "boost-1",
        "telegram_payment_charge_id": charge,
        "provider_payment_charge_id": "",
    }
    assert await wire.ok("getMyStarBalance") == {"amount": 50}
    await wire.refused(
        "answerPreCheckoutQuery",
        400,
        "Bad Request: query is too old and response timeout expired or query ID is invalid",
        pre_checkout_query_id=query["id"],
        ok="true",
    )
    await wire.refused(
        "refundStarPayment", 400, "Bad Request: CHARGE_ID_INVALID", user_id=4343, telegram_payment_charge_id=charge
    )
    await wire.refused(
        "refundStarPayment", 400, "Bad Request: CHARGE_ID_INVALID", user_id=4242, telegram_payment_charge_id="nope"
    )
    assert await wire.ok("refundStarPayment", user_id=4242, telegram_payment_charge_id=charge) is True
    await wire.refused(
        "refundStarPayment",
        400,
        "Bad Request: CHARGE_ALREADY_REFUNDED",
        user_id=4242,
        telegram_payment_charge_id=charge,
    )
    refunded = (await next_update(wire, "message"))["refunded_payment"]
    assert refunded == {
        "currency": "XTR",
        "total_amount": 50,
        "invoice_payload": "boost-1",
        "telegram_payment_charge_id": charge,
    }
    assert await wire.ok("getMyStarBalance") == {"amount": 0}
    history = (await wire.ok("getStarTransactions"))["transactions"]
    assert [("source" in t, "receiver" in t, t["amount"], t["id"]) for t in history] == [
        (False, True, 50, charge),
        (True, False, 50, charge),
    ]
    assert history[1]["source"]["user"]["id"] == 4242
    assert (await wire.ok("getStarTransactions", offset=1, limit=1))["transactions"] == history[1:]


async def test_a_flexible_invoice_asks_for_shipping_then_checks_out(wire: Wire) -> None:
    sent = await wire.ok(
        "sendInvoice", chat_id=4242, prices=ONE, is_flexible="true", need_name="true", max_tip_amount="10", **USD
    )
    body = {
        "message_id": sent["message_id"],
        "tip": 5,
        "shipping_option_id": "fast",
        "shipping_address": {"city": "Oslo"},
    }
    paying = asyncio.create_task(wire.sim("POST", "/sim/pay", body))
    shipping = await next_update(wire, "shipping_query")
    assert shipping["invoice_payload"] == "order-7"
    assert shipping["shipping_address"]["city"] == "Oslo"
    options = [
        {"id": "slow", "title": "Post", "prices": [{"label": "Post", "amount": 3}]},
        {"id": "fast", "title": "Courier", "prices": [{"label": "Courier", "amount": 20}]},
    ]
    await wire.refused(
        "answerShippingQuery",
        400,
        'Bad Request: parameter "shipping_options" is required',
        shipping_query_id=shipping["id"],
        ok="true",
    )
    await wire.ok(
        "answerShippingQuery", shipping_query_id=shipping["id"], ok="true", shipping_options=json.dumps(options)
    )
    query = await next_update(wire, "pre_checkout_query")
    assert (query["total_amount"], query["shipping_option_id"]) == (50 + 5 + 20, "fast")
    assert query["order_info"]["name"] == "Alice"
    assert query["order_info"]["shipping_address"]["city"] == "Oslo"
    await wire.ok("answerPreCheckoutQuery", pre_checkout_query_id=query["id"], ok="true")
    status, outcome = await paying
    assert (status, outcome["status"], outcome["total_amount"]) == (200, "paid", 75)
    paid = (await next_update(wire, "message"))["successful_payment"]
    assert (paid["shipping_option_id"], paid["order_info"]["name"], paid["currency"]) == ("fast", "Alice", "USD")
    await wire.refused(
        "refundStarPayment",
        400,
        "Bad Request: CHARGE_ID_INVALID",
        user_id=4242,
        telegram_payment_charge_id=paid["telegram_payment_charge_id"],
    )


async def test_a_declined_checkout_shows_the_bots_words_to_the_person(wire: Wire) -> None:
    link = await wire.ok("createInvoiceLink", prices=ONE, **STARS)
    paying = asyncio.create_task(wire.sim("POST", "/sim/pay", {"link": link}))
    query = await next_update(wire, "pre_checkout_query")
    await wire.refused(
        "answerPreCheckoutQuery",
        400,
        'Bad Request: parameter "error_message" is required',
        pre_checkout_query_id=query["id"],
    )
    await wire.ok("answerPreCheckoutQuery", pre_checkout_query_id=query["id"], ok="false", error_message="Sold out")
    assert await paying == (200, {"status": "declined", "error_message": "Sold out"})
    view = (await wire.sim("GET", "/sim/chat/4242"))[1]
    assert view["payment_notices"] == [{"text": "Sold out"}]
    assert wire.stand.world.payments.charges == {}


async def test_a_refused_shipping_query_ends_the_payment(wire: Wire) -> None:
    sent = await wire.ok("sendInvoice", chat_id=4242, prices=ONE, is_flexible="1", **USD)
    paying = asyncio.create_task(wire.sim("POST", "/sim/pay", {"message_id": sent["message_id"]}))
    shipping = await next_update(wire, "shipping_query")
    await wire.ok(
        "answerShippingQuery", shipping_query_id=shipping["id"], ok="false", error_message="We do not ship there"
    )
    assert await paying == (200, {"status": "shipping_refused", "error_message": "We do not ship there"})


async def test_an_unanswered_query_times_out(wire: Wire) -> None:
    await wire.ok("sendInvoice", chat_id=4242, prices=ONE, **STARS)
    assert await wire.sim("POST", "/sim/pay", {"timeout": 0}) == (
        200,
        {"status": "timeout", "step": "pre_checkout_query"},
    )


@pytest.mark.parametrize(
    ("offered", "description"),
    [
        ("[", "Bad Request: can't parse shipping options JSON object"),
        ("{}", "Bad Request: expected an Array of shipping options"),
        ("[]", "Bad Request: there must be at least one shipping option"),
        ("[1]", "Bad Request: can't parse shipping option: ShippingOption must be an Object"),
        (
            '[{"id":"","title":"t","prices":[]}]',
            "Bad Request: can't parse shipping option: ShippingOption identifier must be non-empty",
        ),
        (
            '[{"id":"a","title":"","prices":[]}]',
            "Bad Request: can't parse shipping option: ShippingOption title must be non-empty",
        ),
        ('[{"id":"a","title":"t"}]', "Bad Request: can't parse shipping option: Can't find field \"prices\""),
        (
            '[{"id":"a","title":"t","prices":{}}]',
            'Bad Request: can\'t parse shipping option: Field "prices" must be of type Array',
        ),
        (
            '[{"id":"a","title":"t","prices":[]}]',
            "Bad Request: can't parse shipping option: Can't parse shipping option prices: "
            "There must be at least one price",
        ),
    ],
)
async def test_bad_shipping_options_are_refused(wire: Wire, offered: str, description: str) -> None:
    await wire.refused(
        "answerShippingQuery", 400, description, shipping_query_id="1", ok="true", shipping_options=offered
    )


async def test_answers_to_unknown_queries_are_too_old(wire: Wire) -> None:
    old = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    await wire.refused("answerShippingQuery", 400, old, shipping_query_id="5", ok="false", error_message="x")
    await wire.refused("answerPreCheckoutQuery", 400, old, pre_checkout_query_id="5", ok="true")


async def test_the_sim_refuses_what_cannot_be_paid(wire: Wire) -> None:
    assert (await wire.sim("POST", "/sim/pay", {}))[0] == 404
    assert (await wire.sim("POST", "/sim/pay", {"link": "https://t.me/$nope"}))[0] == 404
    await wire.ok("sendInvoice", chat_id=4242, prices=ONE, **STARS)
    assert await wire.sim("POST", "/sim/pay", {"tip": 1}) == (400, {"error": "a Stars invoice takes no tip"})


async def test_balance_and_history_start_empty(wire: Wire) -> None:
    assert await wire.ok("getMyStarBalance") == {"amount": 0}
    assert await wire.ok("getStarTransactions") == {"transactions": []}
    await wire.refused(
        "editUserStarSubscription",
        400,
        "Bad Request: CHARGE_ID_INVALID",
        user_id=4242,
        telegram_payment_charge_id="x",
        is_canceled="true",
    )


async def test_an_invoice_keeps_its_pay_button(wire: Wire) -> None:
    markup = {"inline_keyboard": [[{"text": "Pay 50 XTR", "pay": True}]]}
    sent = await wire.ok("sendInvoice", chat_id=4242, prices=ONE, reply_markup=json.dumps(markup), **STARS)
    assert sent["reply_markup"] == markup


async def test_an_invoice_is_an_ordinary_message_in_the_view_and_the_transcript(wire: Wire) -> None:
    """On Telegram an invoice is a message whose content is the invoice, not a service message."""
    markup = {"inline_keyboard": [[{"text": "Pay 50 XTR", "pay": True}]]}
    await wire.say("/buy")
    sent = await wire.ok("sendInvoice", chat_id=4242, prices=ONE, reply_markup=json.dumps(markup), **STARS)
    status, view = await wire.sim("GET", "/sim/chat/4242")
    assert status == 200, view
    shown = view["messages"][-1]
    assert "service" not in shown
    assert (shown["message_id"], shown["from"], shown["kind"]) == (sent["message_id"], "bot", "invoice")
    assert shown["invoice"] == {
        "title": "Boost",
        "description": "A boost",
        "start_parameter": "",
        "currency": "XTR",
        "total_amount": 50,
    }
    assert await wire.text() == "[1] alice: /buy\n[2] bot: [invoice 'Boost': 50 XTR] A boost\n    [Pay 50 XTR]\n"
    status, page = await wire.sim("GET", "/sim/page/chats")
    assert status == 200, page
    [item] = page["chats"]
    assert item["last"]["text"] == "[invoice 'Boost': 50 XTR] A boost"
    status, page_chat = await wire.sim("GET", "/sim/page/chat/4242")
    assert status == 200, page_chat
    assert page_chat["messages"][-1]["invoice"]["title"] == "Boost"
    assert "text" not in page_chat["messages"][-1]


async def test_the_bot_pins_and_deletes_its_invoice_as_any_message_of_its_own(wire: Wire) -> None:
    await wire.say("/buy")
    sent = await wire.ok("sendInvoice", chat_id=4242, prices=ONE, **STARS)
    assert await wire.ok("pinChatMessage", chat_id=4242, message_id=sent["message_id"]) is True
    assert await wire.ok("deleteMessage", chat_id=4242, message_id=sent["message_id"]) is True
    assert await wire.text() == "[1] alice: /buy\n[3] * bot pinned message 2\n"
