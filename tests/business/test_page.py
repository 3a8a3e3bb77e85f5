"""The chat page shows the person their business chats, where Telegram shows them: in the owner's chat list, with
the customers' messages and what the connected bot answered on their behalf (aiogram parses each message)."""

from __future__ import annotations

import urllib.parse
import urllib.request
from typing import Any

from aiogram.types import Message

from tests.browser.conftest import sync_api
from tests.conftest import Wire
from tgfake.testing import StandClient

BOB = 4343


async def test_the_owner_sees_the_business_chat_and_answers_by_hand(wire: Wire) -> None:
    status, got = await wire.sim("POST", "/sim/business/connect", {"user": "alice", "rights": {"can_reply": True}})
    bc = got["connection"]["id"]
    await wire.sim("POST", "/sim/business/message", {"owner": "alice", "customer": "bob", "text": "Any roses?"})
    await wire.ok("sendMessage", business_connection_id=bc, chat_id=BOB, text="Yes, red ones")
    status, by_hand = await wire.sim(
        "POST", "/sim/business/message", {"owner": "alice", "customer": "bob", "text": "Come by!", "by_owner": True}
    )
    assert status == 200, by_hand
    status, listed = await wire.sim("GET", "/sim/business/chats?user=alice")
    assert status == 200
    [item] = listed["chats"]
    assert (item["chat"]["id"], item["title"], item["connection_id"], item["bot"]) == (BOB, "Bob", bc, "tgfake_bot")
    assert item["last"]["text"] == "Come by!"
    status, shown = await wire.sim("GET", f"/sim/business/chat?user=alice&customer={BOB}")
    assert status == 200
    texts = [Message.model_validate(m).text for m in shown["messages"]]
    assert texts == ["Any roses?", "Yes, red ones", "Come by!"]
    assert shown["messages"][1]["sender_business_bot"]["username"] == "tgfake_bot"
    status, missing = await wire.sim("GET", "/sim/business/chat?user=alice&customer=999")
    assert (status, missing["error"]) == (404, "alice has no business chat with '999'")
    status, nobody = await wire.sim("GET", "/sim/business/chats?user=carol")
    assert (status, nobody) == (200, {"chats": []})


def test_in_the_browser_the_owner_opens_the_business_chat_and_answers(tgfake: StandClient, page: Any) -> None:
    """Chromium: the owner's chat list shows the business chat; opening it shows the customer's message and the
    bot's answer on the owner's behalf; the owner's own text goes to the customer by hand."""
    connection = tgfake.connect_business("alice", can_reply=True)
    tgfake.customer_writes("Any roses?", customer="bob")
    form = urllib.parse.urlencode(
        {"business_connection_id": connection["id"], "chat_id": BOB, "text": "Yes, red ones"}
    ).encode()
    with urllib.request.urlopen(f"{tgfake.url}/bot1:page-business/sendMessage", data=form, timeout=10):
        pass
    page.goto(tgfake.url + "/?user=4242")
    item = page.locator(".chat-item", has_text="business")
    sync_api.expect(item).to_contain_text("Bob")
    item.click()
    sync_api.expect(page.locator(".msg .body").first).to_have_text("Any roses?")
    sync_api.expect(page.locator(".msg .body").last).to_have_text("Yes, red ones")
    page.locator("#text").fill("Come by!")
    page.locator("#text").press("Enter")
    sync_api.expect(page.locator(".msg .body").last).to_have_text("Come by!")
    shown = tgfake.sim("GET", "business/chat", query={"user": "alice", "customer": str(BOB)})
    assert [m["text"] for m in shown["messages"]] == ["Any roses?", "Yes, red ones", "Come by!"]
    assert shown["messages"][2]["from"]["id"] == 4242
