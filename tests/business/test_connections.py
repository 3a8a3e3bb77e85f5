"""Business connections and business messages through the wire: a person connects the bot with rights, their
customers write, and the bot answers on the person's behalf within Telegram's rules (tgfake/world/business.py)."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.conftest import Wire
from tgfake.clock import ManualClock

ALICE, BOB, CAROL = 4242, 4343, 4444
REPLY = {"can_reply": True, "can_read_messages": True}
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


async def connect(wire: Wire, user: str = "alice", **rights: bool) -> dict[str, Any]:
    status, got = await wire.sim("POST", "/sim/business/connect", {"user": user, "rights": rights or REPLY})
    assert status == 200, got
    return dict(got["connection"])


async def customer_writes(wire: Wire, text: str, customer: str = "bob", owner: str = "alice") -> dict[str, Any]:
    status, got = await wire.sim("POST", "/sim/business/message", {"owner": owner, "customer": customer, "text": text})
    assert status == 200, got
    return dict(got)


async def updates(wire: Wire) -> list[dict[str, Any]]:
    return list(await wire.ok("getUpdates", timeout=0))


async def test_connecting_sends_business_connection_and_get_business_connection_reads_it(wire: Wire) -> None:
    conn = await connect(wire, can_reply=True, can_edit_bio=True)
    assert conn["user"]["id"] == ALICE
    assert conn["user_chat_id"] == ALICE
    assert (conn["is_enabled"], conn["can_reply"], conn["rights"]) == (
        True,
        True,
        {"can_reply": True, "can_edit_bio": True},
    )
    assert list(conn) == ["id", "user", "user_chat_id", "date", "is_enabled", "can_reply", "rights"]
    [update] = await updates(wire)
    assert update["business_connection"] == conn
    assert await wire.ok("getBusinessConnection", business_connection_id=conn["id"]) == conn


async def test_a_rights_change_and_a_disconnect_each_send_the_connection_again(wire: Wire) -> None:
    first = await connect(wire, can_reply=True)
    again = await connect(wire, can_read_messages=True)
    assert again["id"] == first["id"]
    assert again["rights"] == {"can_read_messages": True}
    assert not again["can_reply"]
    status, got = await wire.sim("POST", "/sim/business/disconnect", {"user": "alice"})
    assert status == 200
    assert got["connection"]["is_enabled"] is False
    kinds = [u["business_connection"]["is_enabled"] for u in await updates(wire)]
    assert kinds == [True, True, False]


async def test_an_unknown_connection_or_another_bots_is_not_found(wire: Wire) -> None:
    await wire.refused(
        "getBusinessConnection", 400, "Bad Request: business connection not found", business_connection_id="nope"
    )


async def test_customers_messages_edits_and_deletions_reach_the_bot(wire: Wire) -> None:
    conn = await connect(wire)
    sent = await customer_writes(wire, "Do you have roses?")
    status, _ = await wire.sim(
        "POST",
        "/sim/business/edit",
        {"owner": "alice", "customer": "bob", "message_id": sent["message_id"], "text": "Do you have tulips?"},
    )
    assert status == 200
    status, _ = await wire.sim(
        "POST", "/sim/business/delete", {"owner": "alice", "customer": "bob", "message_ids": [sent["message_id"]]}
    )
    assert status == 200
    got = await updates(wire)
    message = got[1]["business_message"]
    assert list(message)[:2] == ["business_connection_id", "message_id"]
    assert message["business_connection_id"] == conn["id"]
    assert (message["from"]["id"], message["chat"]["id"], message["text"]) == (BOB, BOB, "Do you have roses?")
    edited = got[2]["edited_business_message"]
    assert (edited["text"], edited["message_id"]) == ("Do you have tulips?", sent["message_id"])
    assert "edit_date" in edited
    assert got[3]["deleted_business_messages"] == {
        "business_connection_id": conn["id"],
        "chat": message["chat"],
        "message_ids": [sent["message_id"]],
    }


async def test_the_bot_answers_as_the_owner_with_sender_business_bot(wire: Wire) -> None:
    conn = await connect(wire)
    asked = await customer_writes(wire, "Open today?")
    sent = await wire.ok(
        "sendMessage",
        business_connection_id=conn["id"],
        chat_id=BOB,
        text="Until 6 pm",
        reply_parameters=f'{{"message_id": {asked["message_id"]}}}',
    )
    assert list(sent)[:3] == ["business_connection_id", "sender_business_bot", "message_id"]
    assert sent["from"]["id"] == ALICE
    assert sent["sender_business_bot"]["id"] == 123
    assert sent["chat"]["id"] == BOB
    assert sent["reply_to_message"]["text"] == "Open today?"
    assert sent["message_id"] == asked["message_id"] + 1  # one sequence of ids for the account
    photo = await wire.ok("sendLocation", business_connection_id=conn["id"], chat_id=BOB, latitude=1, longitude=2)
    assert photo["business_connection_id"] == conn["id"]
    assert "location" in photo


async def test_sends_are_refused_in_telegrams_order(wire: Wire, clock: ManualClock) -> None:
    conn = await connect(wire, can_read_messages=True)
    bc = conn["id"]
    await customer_writes(wire, "hi")
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: chat identifier must be a valid Integer",
        business_connection_id=bc,
        chat_id="@bob",
        text="x",
    )
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: business connection not found",
        business_connection_id="nope",
        chat_id=BOB,
        text="x",
    )
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: chat must be a private chat",
        business_connection_id=bc,
        chat_id=-100123,
        text="x",
    )
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: messages must not be sent to self",
        business_connection_id=bc,
        chat_id=ALICE,
        text="x",
    )
    await wire.refused(
        "sendMessage", 400, "Bad Request: BOT_ACCESS_FORBIDDEN", business_connection_id=bc, chat_id=BOB, text="x"
    )
    await connect(wire, can_reply=True)
    await wire.sim("POST", "/sim/business/message", {"owner": "alice", "customer": "carol", "text": "hello"})
    clock.advance(24 * 3600 + 1)
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: BUSINESS_PEER_USAGE_MISSING",
        business_connection_id=bc,
        chat_id=CAROL,
        text="late",
    )
    await customer_writes(wire, "still there?")
    assert (await wire.ok("sendMessage", business_connection_id=bc, chat_id=BOB, text="yes"))["text"] == "yes"
    await wire.sim("POST", "/sim/business/disconnect", {"user": "alice"})
    await wire.refused(
        "sendMessage", 400, "Bad Request: BUSINESS_CONNECTION_INVALID", business_connection_id=bc, chat_id=BOB, text="x"
    )
    assert await wire.text(BOB) == await wire.text(BOB)  # the refusals left the bot's own chat alone


async def test_reading_and_deleting_within_the_rights(wire: Wire) -> None:
    conn = await connect(wire, can_reply=True, can_read_messages=True, can_delete_sent_messages=True)
    bc = conn["id"]
    asked = await customer_writes(wire, "Price?")
    assert await wire.ok("readBusinessMessage", business_connection_id=bc, chat_id=BOB, message_id=asked["message_id"])
    _status, account = await wire.sim("GET", "/sim/business/account?user=alice")
    assert account["connections"][0]["read"] == {str(BOB): asked["message_id"]}
    answer = await wire.ok("sendMessage", business_connection_id=bc, chat_id=BOB, text="10 stars")
    await wire.refused(
        "deleteBusinessMessages",
        400,
        "Bad Request: BOT_ACCESS_FORBIDDEN",
        business_connection_id=bc,
        message_ids=f"[{asked['message_id']}]",
    )
    assert await wire.ok("deleteBusinessMessages", business_connection_id=bc, message_ids=f"[{answer['message_id']}]")
    await connect(wire, can_reply=True)
    await wire.refused(
        "readBusinessMessage",
        400,
        "Bad Request: BOT_ACCESS_FORBIDDEN",
        business_connection_id=bc,
        chat_id=BOB,
        message_id=asked["message_id"],
    )


async def test_every_kind_of_send_edit_and_action_goes_through_the_connection(wire: Wire) -> None:
    """The sends beyond sendMessage that take ``business_connection_id`` (the one send path, the album, the die,
    the poll), the edits of the bot's business messages, stopPoll and sendChatAction."""
    conn = await connect(wire)
    bc = conn["id"]
    await customer_writes(wire, "show me")
    common = {"business_connection_id": bc, "chat_id": BOB}
    dice = await wire.ok("sendDice", **common)
    assert (dice["from"]["id"], dice["business_connection_id"], dice["dice"]["emoji"]) == (ALICE, bc, "🎲")
    poll = await wire.ok("sendPoll", **common, question="Colour?", options='["red","white"]')
    assert poll["from"]["id"] == ALICE
    stopped = await wire.ok("stopPoll", **common, message_id=poll["message_id"])
    assert stopped["is_closed"] is True
    contact = await wire.ok("sendContact", **common, phone_number="+100", first_name="Shop")
    assert contact["contact"]["first_name"] == "Shop"
    assert await wire.ok("sendChatAction", **common, action="typing") is True
    text = await wire.ok("sendMessage", **common, text="draft")
    edited = await wire.ok("editMessageText", **common, message_id=text["message_id"], text="final")
    assert (edited["text"], edited["business_connection_id"], "edit_date" in edited) == ("final", bc, True)
    await wire.refused(
        "editMessageText", 400, "Bad Request: message can't be edited", **common, message_id=1, text="not mine"
    )
    await wire.refused(
        "editMessageText", 400, "Bad Request: message to edit not found", **common, message_id=999, text="gone"
    )
    await wire.refused(
        "sendChatAction",
        400,
        "Bad Request: business connection not found",
        business_connection_id="nope",
        chat_id=BOB,
        action="typing",
    )
    assert (
        await wire.ok(
            "createInvoiceLink",
            business_connection_id=bc,
            title="T",
            description="D",
            payload="p",
            currency="XTR",
            prices='[{"label":"x","amount":5}]',
        )
    ).startswith("https://t.me/$")
    form = aiohttp.FormData()
    for name, value in common.items():
        form.add_field(name, str(value))
    form.add_field("media", '[{"type":"photo","media":"attach://a"},{"type":"photo","media":"attach://b"}]')
    form.add_field("a", PNG, filename="a.png")
    form.add_field("b", PNG, filename="b.png")
    resp = await wire.client.post(f"/bot{wire.token}/sendMediaGroup", data=form)
    album = (await resp.json())["result"]
    assert [m["business_connection_id"] for m in album] == [bc, bc]
    assert album[0]["media_group_id"] == album[1]["media_group_id"]


async def test_a_business_photos_caption_and_keyboard_are_edited_through_the_connection(wire: Wire) -> None:
    conn = await connect(wire)
    await customer_writes(wire, "a picture?")
    form = aiohttp.FormData()
    for name, value in {"business_connection_id": conn["id"], "chat_id": BOB, "caption": "Roses"}.items():
        form.add_field(name, str(value))
    form.add_field("photo", PNG, filename="r.png")
    resp = await wire.client.post(f"/bot{wire.token}/sendPhoto", data=form)
    photo = (await resp.json())["result"]
    assert (photo["from"]["id"], photo["caption"]) == (ALICE, "Roses")
    common = {"business_connection_id": conn["id"], "chat_id": BOB, "message_id": photo["message_id"]}
    edited = await wire.ok("editMessageCaption", **common, caption="Red roses")
    assert (edited["caption"], edited["business_connection_id"]) == ("Red roses", conn["id"])
    keyboard = '{"inline_keyboard":[[{"text":"Order","callback_data":"order"}]]}'
    marked = await wire.ok("editMessageReplyMarkup", **common, reply_markup=keyboard)
    assert marked["reply_markup"]["inline_keyboard"][0][0]["text"] == "Order"
