"""An invoice on the chat page: an ordinary message of the bot's (not a service line) with the invoice's title,
description and price under it, and its pay button (Chromium through Playwright)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM
from tgfake.testing import StandClient

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")

TOKEN = "31:shop"


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as resp:
        return json.loads(resp.read())


def test_an_invoice_is_a_message_bubble_with_its_pay_button(tgfake: StandClient, page: Any) -> None:
    post(f"{tgfake.url}/sim/message", {"text": "/buy"})
    sent = post(
        f"{tgfake.url}/bot{TOKEN}/sendInvoice",
        {
            "chat_id": 4242,
            "title": "Green tea",
            "description": "A tin of sencha",
            "payload": "tea-1",
            "currency": "XTR",
            "prices": [{"label": "Tea", "amount": 25}],
            "reply_markup": {"inline_keyboard": [[{"text": "Pay 25 XTR", "pay": True}]]},
        },
    )
    assert sent["ok"], sent
    page.goto(tgfake.url + "/")
    page.locator('.chat-item[data-chat-id="4242"]').click()
    bubble = page.locator(".msg.in", has=page.locator(".tile", has_text="Green tea"))
    bubble.wait_for()
    assert bubble.locator(".tile .label").inner_text() == "Green tea"
    assert bubble.locator(".tile .muted").inner_text() == "A tin of sencha · 25 XTR"
    assert page.locator(".service", has_text="invoice").count() == 0
    assert page.locator(".chat-item[data-chat-id='4242']").inner_text().count("[invoice 'Green tea': 25 XTR]") == 1
    assert bubble.get_by_role("button", name="Pay 25 XTR").is_visible()
    with urllib.request.urlopen(f"{tgfake.url}/sim/chat/4242", timeout=30) as resp:
        view = json.loads(resp.read())
    assert [m.get("kind", "text") for m in view["messages"]] == ["text", "invoice"]
