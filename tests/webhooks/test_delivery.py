"""Delivery to a real aiohttp endpoint: order, headers, failures and retries, webhook replies, reset, shutdown."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from tests.conftest import Wire, WireFactory
from tests.media.media_helpers import upload
from tests.webhooks.conftest import Receiver, closed_port, self_signed, wait_webhook, webhook_view
from tgfake.app import create_app
from tgfake.options import Options

WRONG_500 = "Wrong response from the webhook: 500 Internal Server Error"


async def test_updates_are_posted_in_order_as_json_with_the_secret(wire: Wire, receiver: Receiver) -> None:
    for text in "abc":
        await wire.say(text)
    assert await wire.ok("setWebhook", url=receiver.url, secret_token="s3cret_-X") is True
    view = await wait_webhook(wire, delivered=3)
    assert receiver.texts() == ["a", "b", "c"]
    assert [h.update["update_id"] for h in receiver.hits] == [1, 2, 3]
    for hit in receiver.hits:
        assert hit.headers["Content-Type"] == "application/json"
        assert hit.headers["X-Telegram-Bot-Api-Secret-Token"] == "s3cret_-X"
    assert receiver.hits[0].update["message"]["from"]["username"] == "alice"
    assert view["pending_update_count"] == 0
    assert [(d["update_id"], d["attempt"], d["status"], d["ok"]) for d in view["deliveries"]] == [
        (1, 1, 200, True),
        (2, 1, 200, True),
        (3, 1, 200, True),
    ]
    await wire.say("d")
    await wait_webhook(wire, delivered=4)
    assert receiver.texts()[-1] == "d"
    assert (await wire.ok("getWebhookInfo"))["pending_update_count"] == 0


async def test_no_secret_no_header(wire: Wire, receiver: Receiver) -> None:
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("hello")
    await wait_webhook(wire, delivered=1)
    assert "X-Telegram-Bot-Api-Secret-Token" not in receiver.hits[0].headers


async def test_a_500_is_retried_and_reported_as_the_last_error(wire: Wire, receiver: Receiver) -> None:
    receiver.answers = [(500, {}, {"error": "boom"})]
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("x")
    view = await wait_webhook(wire, delivered=1)
    assert receiver.texts() == ["x", "x"]
    assert view["deliveries"][0] | {"at": 0, "started": 0} == {
        "update_id": 1,
        "attempt": 1,
        "at": 0,
        "started": 0,
        "url": receiver.url,
        "status": 500,
        "ok": False,
        "error": WRONG_500,
    }
    assert [(d["attempt"], d["status"], d["ok"]) for d in view["deliveries"]] == [(1, 500, False), (2, 200, True)]
    info = await wire.ok("getWebhookInfo")
    assert (info["last_error_date"], info["last_error_message"]) == (1_700_000_000, WRONG_500)
    assert info["pending_update_count"] == 0


async def test_failures_back_off_without_spinning_and_a_new_set_retries_at_once(wire: Wire, receiver: Receiver) -> None:
    receiver.answers = [(500, {}, {}), (500, {}, {})]
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("x")
    view = await wait_webhook(wire, attempts=2)
    # the first retry is immediate, the next one is 2 s later: nothing is tried in between
    assert 1.0 < view["retry_in"] <= 2.0
    await wire.say("y")  # a new update wakes the worker, which goes back to waiting for the retry
    view = await webhook_view(wire)
    assert len(view["deliveries"]) == 2
    assert view["pending_update_count"] == 2
    await wire.ok("setWebhook", url=receiver.url, secret_token="again")  # a new webhook is tried at once
    status, body = await wire.sim("GET", "/sim/webhook/wait?delivered=2&timeout=1")
    assert status == 200, body
    assert receiver.texts() == ["x", "x", "x", "y"]


async def test_retry_after_from_the_bot_sets_the_delay(wire: Wire, receiver: Receiver) -> None:
    receiver.answers = [(429, {"Retry-After": "30"}, {})]
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("x")
    view = await wait_webhook(wire, attempts=1)
    assert view["last_error_message"] == "Wrong response from the webhook: 429 Too Many Requests"
    assert 29.0 < view["retry_in"] <= 30.0


async def test_a_refused_connection_is_an_error(wire: Wire) -> None:
    url = f"http://127.0.0.1:{closed_port()}/hook"
    await wire.ok("setWebhook", url=url)
    await wire.say("x")
    view = await wait_webhook(wire, attempts=1)
    assert [(d["status"], d["error"]) for d in view["deliveries"][:1]] == [(0, "Connection refused")]
    info = await wire.ok("getWebhookInfo")
    assert info["last_error_message"] == "Connection refused"
    assert info["pending_update_count"] == 1


async def test_a_slow_webhook_times_out(wire: Wire, receiver: Receiver) -> None:
    wire.stand.webhook.request_timeout = 0.2  # the in-process knob (Telegram's own timeout is far longer)
    receiver.hang = True
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("x")
    view = await wait_webhook(wire, delivered=1)
    assert [(d["status"], d.get("error")) for d in view["deliveries"]] == [(0, "Read timeout expired"), (200, None)]


async def test_a_method_in_the_webhook_answer_is_served_as_a_call(wire: Wire, receiver: Receiver) -> None:
    receiver.answers = [
        (200, {}, {"method": "sendMessage", "chat_id": 4242, "text": "pong", "reply_markup": {"inline_keyboard": []}}),
        (200, {}, {"method": "getMe"}),
        (200, {}, {"method": "deleteWebhook"}),
    ]
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("ping")
    await wire.say("who")
    await wire.say("bye")
    view = await wait_webhook(wire, delivered=3)
    assert [(d.get("reply_method"), d.get("reply_status")) for d in view["deliveries"]] == [
        ("sendMessage", 200),
        ("getMe", None),
        ("deleteWebhook", None),
    ]
    sent = await wire.outbox("sendMessage")
    assert [(c["params"]["text"], c["status"]) for c in sent] == [("pong", 200)]
    assert await wire.outbox("getMe") == []
    assert (await wire.ok("getWebhookInfo"))["url"] == receiver.url
    assert await wire.text() == "[1] alice: ping\n[2] alice: who\n[3] alice: bye\n[4] bot: pong\n"


async def test_a_refused_webhook_reply_is_recorded_with_its_status(wire: Wire, receiver: Receiver) -> None:
    receiver.answers = [(200, {}, {"method": "sendMessage", "chat_id": 4242})]
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("ping")
    view = await wait_webhook(wire, delivered=1)
    assert view["deliveries"][0]["reply_status"] == 400
    [call] = await wire.outbox("sendMessage")
    assert call["response"]["description"] == "Bad Request: message text is empty"


async def test_reset_keeps_the_webhook_and_forgets_the_queue_and_the_log(wire: Wire, receiver: Receiver) -> None:
    receiver.answers = [(503, {"Retry-After": "600"}, {})]
    await wire.ok("setWebhook", url=receiver.url, secret_token="keep")
    await wire.say("stuck")
    await wait_webhook(wire, attempts=1)
    status, _ = await wire.sim("POST", "/sim/reset")
    assert status == 200
    view = await webhook_view(wire)
    assert view["webhook"] == {
        "url": receiver.url,
        "secret_token": "keep",
        "max_connections": 40,
        "ip_address": "",
        "allowed_updates": None,
    }
    assert (view["pending_update_count"], view["deliveries"], view["last_error_message"], view["retry_in"]) == (
        0,
        [],
        "",
        0.0,
    )
    info = await wire.ok("getWebhookInfo")
    assert info["url"] == receiver.url
    assert "last_error_date" not in info
    await wire.say("fresh")  # delivered at once: the 600 s retry of the forgotten update is gone too
    status, body = await wire.sim("GET", "/sim/webhook/wait?delivered=1&timeout=2")
    assert status == 200, body
    assert receiver.texts() == ["stuck", "fresh"]
    assert receiver.hits[-1].headers["X-Telegram-Bot-Api-Secret-Token"] == "keep"


async def test_an_attempt_in_flight_during_a_reset_is_forgotten(wire: Wire, receiver: Receiver) -> None:
    receiver.hang = True
    receiver.answers = [(500, {}, {})]
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("old")
    await asyncio.wait_for(receiver.arrived.wait(), 5)
    await wire.sim("POST", "/sim/reset")
    receiver.release.set()
    await wire.say("new")
    view = await wait_webhook(wire, delivered=1)
    assert receiver.texts() == ["old", "new"]
    assert [d["update_id"] for d in view["deliveries"]] == [2]
    assert (view["last_error_message"], view["last_error_date"]) == ("", 0)


async def test_delete_webhook_stops_delivery_and_polling_works_again(wire: Wire, receiver: Receiver) -> None:
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("a")
    await wait_webhook(wire, delivered=1)
    await wire.ok("deleteWebhook")
    await wire.say("b")
    updates = await wire.ok("getUpdates")
    assert [u["message"]["text"] for u in updates] == ["b"]
    assert receiver.texts() == ["a"]


async def test_two_stands_deliver_to_their_own_webhooks(make_wire: WireFactory, receiver: Receiver) -> None:
    async with make_wire() as one, make_wire() as two:
        await one.ok("setWebhook", url=receiver.url)
        await one.say("from one")
        await two.say("from two")
        await wait_webhook(one, delivered=1)
        assert receiver.texts() == ["from one"]
        assert len(await two.ok("getUpdates")) == 1


async def test_shutdown_does_not_wait_for_a_hanging_webhook(receiver: Receiver) -> None:
    receiver.hang = True
    client = TestClient(TestServer(create_app(Options(poll_max=2.0))))
    await client.start_server()
    wire = Wire(client)
    await wire.ok("setWebhook", url=receiver.url)
    await wire.say("x")
    await asyncio.wait_for(receiver.arrived.wait(), 5)
    started = time.monotonic()
    await client.close()
    assert time.monotonic() - started < 5.0  # the request would hold for 60 s


async def test_an_https_webhook_with_its_self_signed_certificate_is_trusted(wire: Wire) -> None:
    """The uploaded certificate is what the delivery trusts (and nothing else): a TLS endpoint serving it gets
    the update; without it the stand, like Telegram, refuses an unknown issuer; garbage is no SSL context."""
    cert = self_signed()
    hits: list[dict[str, Any]] = []

    async def hook(request: web.Request) -> web.Response:
        hits.append(await request.json())
        return web.json_response({})

    app = web.Application()
    app.router.add_post("/hook", hook)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server(ssl=cert.server)
    try:
        url = f"https://127.0.0.1:{server.port}/hook"
        status, body = await upload(wire, "setWebhook", "certificate", "cert.pem", cert.certificate, url=url)
        assert status == 200, body
        await wire.say("over tls")
        await wait_webhook(wire, delivered=1)
        assert [h["message"]["text"] for h in hits] == ["over tls"]
        await wire.ok("setWebhook", url=url)  # no certificate: the system's trust store has never heard of it
        await wire.say("untrusted")
        view = await wait_webhook(wire, attempts=2)
        assert view["deliveries"][-1]["ok"] is False
        assert "certificate verify failed" in view["last_error_message"]
        status, body = await upload(wire, "setWebhook", "certificate", "cert.pem", b"not a certificate", url=url)
        assert status == 200, body
        view = await wait_webhook(wire, attempts=3)
        assert view["last_error_message"].startswith("Can't create an SSL context: ")
        assert len(hits) == 1
    finally:
        await server.close()
