"""setWebhook, deleteWebhook, getWebhookInfo and the getUpdates conflicts, through the wire."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import Wire
from tests.media.media_helpers import upload
from tests.webhooks.conftest import Receiver, closed_port, self_signed, wait_webhook

INVALID_URL = "Bad Request: invalid webhook URL specified"
BAD_WEBHOOK = "Bad Request: bad webhook: "
CONFLICT_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
)


def local_url(path: str = "/hook") -> str:
    return f"http://127.0.0.1:{closed_port()}{path}"


@pytest.mark.parametrize(
    ("url", "description"),
    [
        ("ftp://127.0.0.1/hook", INVALID_URL),
        ("http://", INVALID_URL),
        ("http://127.0.0.1:99999/hook", INVALID_URL),
        ("http://127.0.0.1:0/hook", INVALID_URL),
        ("http://local host/hook", INVALID_URL),
        ("http://example.com/hook", BAD_WEBHOOK + "An HTTPS URL must be provided for webhook"),
        ("https://example.com:8080/hook", BAD_WEBHOOK + "Webhook can be set up only on ports 80, 88, 443 or 8443"),
        ("https://10.0.0.1/hook", BAD_WEBHOOK + "IP address 10.0.0.1 is reserved"),
        ("203.0.113.7:8443/hook", BAD_WEBHOOK + "IP address 203.0.113.7 is reserved"),
        ("https://[2001:db8::1]/hook", BAD_WEBHOOK + "IPv6-only addresses are not allowed"),
    ],
)
async def test_a_url_telegram_would_not_verify_is_refused(wire: Wire, url: str, description: str) -> None:
    await wire.refused("setWebhook", 400, description, url=url)
    info = await wire.ok("getWebhookInfo")
    assert info["url"] == ""
    assert await wire.ok("getUpdates") == []


@pytest.mark.parametrize("url", ["216.58.210.174", "https://example.com/hook", "example.com:88/hook"])
async def test_a_public_host_is_set_as_on_telegram_and_never_contacted(
    wire: Wire, receiver: Receiver, url: str
) -> None:
    """Telegram accepts a public https host on its ports; the stand keeps it but reaches only loopback hosts, so the
    updates wait in the queue (no POST is tried, no error is invented) until a webhook it can reach takes them."""
    assert await wire.ok("setWebhook", url=url) is True
    await wire.say("hello")
    await wire.say("again")
    info = await wire.ok("getWebhookInfo")
    assert (info["url"], info["pending_update_count"]) == (url, 2)
    assert "last_error_message" not in info
    await wire.refused("getUpdates", 409, CONFLICT_ACTIVE)
    assert await wire.ok("setWebhook", url=receiver.url) is True
    view = await wait_webhook(wire, delivered=2)
    assert receiver.texts() == ["hello", "again"]
    assert [(d["url"], d["attempt"]) for d in view["deliveries"]] == [(receiver.url, 1), (receiver.url, 1)]


async def test_the_secret_is_checked_before_the_webhook_is_verified(wire: Wire) -> None:
    await wire.refused(
        "setWebhook",
        400,
        "Bad Request: secret token contains unallowed characters",
        url="http://example.com/hook",
        secret_token="has space",
    )


@pytest.mark.parametrize(
    ("fields", "description"),
    [
        ({"secret_token": "s" * 257}, "Bad Request: secret token is too long"),
        ({"secret_token": "has space"}, "Bad Request: secret token contains unallowed characters"),
        ({"secret_token": "ключ"}, "Bad Request: secret token contains unallowed characters"),
        ({"ip_address": "not-an-ip"}, "Bad Request: invalid IP address specified"),
        ({"allowed_updates": '"message"'}, "Bad Request: can't parse allowed_updates JSON array"),
    ],
)
async def test_bad_parameters_are_refused_and_change_nothing(
    wire: Wire, fields: dict[str, str], description: str
) -> None:
    await wire.refused("setWebhook", 400, description, url=local_url(), **fields)
    info = await wire.ok("getWebhookInfo")
    assert (info["url"], info["allowed_updates"]) == ("", None)


async def test_loopback_hosts_take_http_and_any_port(wire: Wire) -> None:
    for host in ("localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]"):
        url = f"http://{host}:{closed_port()}/hook"
        await wire.ok("setWebhook", url=url, secret_token="A-z_09" * 40)
        assert (await wire.ok("getWebhookInfo"))["url"] == url


async def test_success_answers_carry_telegrams_descriptions(wire: Wire) -> None:
    url = local_url()
    resp = await wire.client.post(f"/bot{wire.token}/setWebhook", data={"url": url})
    assert (resp.status, await resp.text()) == (200, '{"ok":true,"result":true,"description":"Webhook was set"}')

    async def described(method: str, **params: str) -> str:
        status, body = await wire.call(method, **params)
        assert (status, body["ok"], body["result"]) == (200, True, True), body
        return str(body["description"])

    assert await described("setWebhook", url=url) == "Webhook is already set"
    assert await described("setWebhook", url=url, secret_token="new") == "Webhook was set"
    assert await described("setWebhook", url=url, secret_token="new", drop_pending_updates="true") == "Webhook was set"
    assert await described("setWebhook", url=url, secret_token="new", max_connections="5") == "Webhook was set"
    assert await described("deleteWebhook") == "Webhook was deleted"
    assert await described("deleteWebhook") == "Webhook is already deleted"
    assert await described("setWebhook", url="") == "Webhook is already deleted"
    await described("setWebhook", url=url)
    assert await described("setWebhook", url="") == "Webhook was deleted"
    assert await described("deleteWebhook", drop_pending_updates="true") == "Webhook was deleted"


async def test_webhook_info_reports_the_configuration(wire: Wire) -> None:
    url = local_url()
    await wire.ok(
        "setWebhook",
        url=url,
        secret_token="abc",
        max_connections="500",
        ip_address="127.0.0.1",
        allowed_updates='["message","callback_query"]',
        certificate="ignored",
    )
    info = await wire.ok("getWebhookInfo")
    assert info == {
        "allowed_updates": ["message", "callback_query"],
        "has_custom_certificate": False,
        "ip_address": "127.0.0.1",
        "max_connections": 100,
        "pending_update_count": 0,
        "url": url,
    }
    await wire.ok("setWebhook", url=url, max_connections="0")
    assert (await wire.ok("getWebhookInfo"))["max_connections"] == 1
    await wire.ok("setWebhook", url=url, max_connections="garbage")
    assert (await wire.ok("getWebhookInfo"))["max_connections"] == 1
    await wire.ok("setWebhook", url=url)
    assert (await wire.ok("getWebhookInfo"))["max_connections"] == 40
    await wire.ok("deleteWebhook")
    info = await wire.ok("getWebhookInfo")
    assert "max_connections" not in info
    assert "ip_address" not in info
    assert info["url"] == ""


async def test_drop_pending_updates_empties_the_queue(wire: Wire) -> None:
    await wire.say("a")
    await wire.say("b")
    await wire.ok("setWebhook", url=local_url(), drop_pending_updates="true")
    assert (await wire.ok("getWebhookInfo"))["pending_update_count"] == 0
    await wire.say("c")
    await wire.ok("deleteWebhook", drop_pending_updates="true")
    assert (await wire.ok("getWebhookInfo"))["pending_update_count"] == 0
    assert await wire.ok("getUpdates") == []


async def test_get_updates_is_refused_while_a_webhook_is_set(wire: Wire) -> None:
    await wire.say("a")
    await wire.ok("setWebhook", url=local_url())
    # refused before anything else: neither the offset nor allowed_updates apply
    await wire.refused("getUpdates", 409, CONFLICT_ACTIVE, offset=5, allowed_updates="garbage")
    await wire.ok("deleteWebhook")
    updates = await wire.ok("getUpdates")
    assert [u["message"]["text"] for u in updates] == ["a"]


async def test_set_webhook_terminates_a_held_poll(wire: Wire) -> None:
    poll = asyncio.create_task(wire.call("getUpdates", timeout=2))
    status, body = await wire.sim("GET", "/sim/wait?polling=1&timeout=5")
    assert status == 200, body
    await wire.ok("setWebhook", url=local_url())
    status, body = await poll
    assert (status, body) == (
        409,
        {"ok": False, "error_code": 409, "description": "Conflict: terminated by setWebhook request"},
    )


async def test_the_sim_wait_names_its_mistakes(wire: Wire) -> None:
    for query in ("", "?delivered=1&attempts=1", "?delivered=0", "?attempts=-1"):
        status, body = await wire.sim("GET", "/sim/webhook/wait" + query)
        assert (status, body) == (400, {"error": "give exactly one of delivered or attempts (a positive count)"})
    status, body = await wire.sim("GET", "/sim/webhook/wait?delivered=1&timeout=61")
    assert (status, body) == (400, {"error": "timeout must be between 0 and 60 seconds"})
    status, body = await wire.sim("GET", "/sim/webhook/wait?delivered=2&timeout=0.05")
    assert (status, body) == (408, {"error": "timed out after 0.05s waiting for 2 confirmed deliveries (saw 0)"})


async def test_without_a_webhook_the_sim_view_is_empty(wire: Wire) -> None:
    status, body = await wire.sim("GET", "/sim/webhook")
    assert (status, body) == (
        200,
        {
            "webhook": None,
            "pending_update_count": 0,
            "last_error_date": 0,
            "last_error_message": "",
            "retry_in": 0.0,
            "deliveries": [],
        },
    )


async def test_a_certificate_is_reported_and_always_sets_the_webhook_again(wire: Wire) -> None:
    """setWebhook with a certificate (a self-signed webhook): has_custom_certificate, and never "already set"
    (telegram-bot-api skips its shortcut when a certificate is involved); too big a file is refused."""
    url = "https://127.0.0.1:8443/hook"
    pem = self_signed().certificate
    status, body = await upload(wire, "setWebhook", "certificate", "cert.pem", pem, url=url)
    assert (status, body["description"]) == (200, "Webhook was set")
    status, body = await upload(wire, "setWebhook", "certificate", "cert.pem", pem, url=url)
    assert (status, body["description"]) == (200, "Webhook was set")
    info = await wire.ok("getWebhookInfo")
    assert (info["url"], info["has_custom_certificate"]) == (url, True)
    big = b"x" * ((3 << 20) + 1)
    status, body = await upload(wire, "setWebhook", "certificate", "cert.pem", big, url=url)
    assert (status, body["description"]) == (400, f"Bad Request: certificate size is too big ({len(big)} bytes)")
    assert (await wire.ok("getWebhookInfo"))["has_custom_certificate"] is True  # the refusal changed nothing
    assert (await wire.call("setWebhook", url=url))[1]["description"] == "Webhook was set"  # dropped it: a change
    info = await wire.ok("getWebhookInfo")
    assert info["has_custom_certificate"] is False
