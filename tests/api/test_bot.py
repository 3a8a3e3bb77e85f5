"""The bot itself: getMe, webhook info without a webhook, answerCallbackQuery (commands: test_settings.py)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import Wire, WireFactory

QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
KB = json.dumps({"inline_keyboard": [[{"text": "Ping", "callback_data": "ping"}]]})


async def test_get_me_reflects_the_options(make_wire: WireFactory) -> None:
    async with make_wire(bot_username="echo_bot", bot_name="Echo", bot_id=42) as wire:
        resp = await wire.client.get(f"/bot{wire.token}/getMe")
        assert list((await resp.json())["result"]) == sorted((await resp.json())["result"])
        assert await wire.ok("getMe") == {
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "first_name": "Echo",
            "id": 42,
            "is_bot": True,
            "supports_inline_queries": False,
            "username": "echo_bot",
        }
        sent = await wire.ok("sendMessage", chat_id=4242, text="x")
        assert sent["from"] == {"id": 42, "is_bot": True, "first_name": "Echo", "username": "echo_bot"}


# --- no webhook -----------------------------------------------------------------------------------------------
async def test_without_a_webhook_delete_succeeds_and_info_shows_no_url(wire: Wire) -> None:
    assert await wire.ok("deleteWebhook", drop_pending_updates="true") is True
    await wire.say("a")
    await wire.say("b")
    resp = await wire.client.get("/bot1/getWebhookInfo")
    assert await resp.text() == (
        '{"ok":true,"result":{"allowed_updates":null,"has_custom_certificate":false,"pending_update_count":2,"url":""}}'
    )


# --- answerCallbackQuery --------------------------------------------------------------------------------------
async def tap(wire: Wire, **fields: object) -> str:
    status, body = await wire.sim("POST", "/sim/callback", {"label": "Ping", **fields})
    assert status == 200, body
    return str(body["callback_query_id"])


async def test_an_answer_is_kept_with_its_chat_once(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=KB)
    first = await tap(wire)
    second = await tap(wire)
    assert (first, second) == ("cbq-1", "cbq-2")
    assert await wire.ok("answerCallbackQuery", callback_query_id=first, text="Pong!", show_alert="true") is True
    await wire.refused("answerCallbackQuery", 400, QUERY_TOO_OLD, callback_query_id=first, text="again")
    assert await wire.ok("answerCallbackQuery", callback_query_id=second, url="https://x", cache_time=5) is True
    _, chat = await wire.sim("GET", "/sim/chat/4242")
    assert chat["callbacks"] == [
        {"id": "cbq-1", "text": "Pong!", "show_alert": True},
        {"id": "cbq-2", "url": "https://x"},
    ]
    calls = await wire.outbox("answerCallbackQuery")
    assert [c["status"] for c in calls] == [200, 400, 200]


@pytest.mark.parametrize(
    ("query_id", "description"),
    [("", "Bad Request: callback_query_id is empty"), ("cbq-9", QUERY_TOO_OLD), ("nope", QUERY_TOO_OLD)],
)
async def test_answer_refusals(wire: Wire, query_id: str, description: str) -> None:
    await wire.refused("answerCallbackQuery", 400, description, callback_query_id=query_id)


async def test_answer_without_an_id_is_empty(wire: Wire) -> None:
    await wire.refused("answerCallbackQuery", 400, "Bad Request: callback_query_id is empty", text="x")


async def test_ids_minted_before_a_reset_are_too_old(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=KB)
    old = await tap(wire)
    await wire.sim("POST", "/sim/reset")
    await wire.refused("answerCallbackQuery", 400, QUERY_TOO_OLD, callback_query_id=old)
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=KB)
    assert await tap(wire) == "cbq-1"
