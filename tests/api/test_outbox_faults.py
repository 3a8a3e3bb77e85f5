"""The outbox (every answered Bot API call) and scheduled faults."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from tests.conftest import Wire, WireFactory


async def fault(wire: Wire, **body: Any) -> dict[str, Any]:
    status, answer = await wire.sim("POST", "/sim/fault", body)
    assert status == 200, answer
    assert answer["ok"] is True
    return dict(answer)


async def faults(wire: Wire) -> list[dict[str, Any]]:
    return list((await wire.sim("GET", "/sim/state"))[1]["faults"])


# --- outbox ---------------------------------------------------------------------------------------------------
async def test_every_answered_call_is_recorded_in_order(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="hi")
    await wire.refused("sendMessage", 400, "Bad Request: chat_id is empty", text="x")
    await wire.call("nopeMethod", a="1")
    calls = await wire.outbox()
    assert [(c["seq"], c["method"], c["status"]) for c in calls] == [
        (1, "sendMessage", 200),
        (2, "sendMessage", 400),
        (3, "nopeMethod", 404),
    ]
    first = calls[0]
    assert list(first) == ["seq", "at", "method", "params", "status", "response", "bot_id"]
    assert datetime.fromisoformat(first["at"]).tzinfo is not None
    assert first["params"] == {"chat_id": "4242", "text": "hi"}
    assert first["response"]["ok"] is True
    assert first["response"]["result"]["text"] == "hi"
    assert calls[1]["response"] == {"ok": False, "error_code": 400, "description": "Bad Request: chat_id is empty"}


async def test_outbox_filters_by_method_case_insensitively_and_since(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="1")
    await wire.ok("getMe")
    await wire.ok("SendMessage", chat_id=4242, text="2")
    await wire.ok("sendmessage", chat_id=4242, text="3")
    _, body = await wire.sim("GET", "/sim/outbox?method=SENDMESSAGE&since=1")
    assert [(c["seq"], c["method"]) for c in body["calls"]] == [(3, "SendMessage"), (4, "sendmessage")]
    _, body = await wire.sim("GET", "/sim/outbox?since=3")
    assert [c["seq"] for c in body["calls"]] == [4]
    _, body = await wire.sim("GET", "/sim/outbox?since=9")
    assert body == {"calls": []}


async def test_outbox_count(wire: Wire) -> None:
    assert await wire.sim("GET", "/sim/outbox/count") == (200, {"count": 0})
    await wire.ok("sendMessage", chat_id=4242, text="1")
    await wire.ok("getMe")
    await wire.refused("sendMessage", 400, "Bad Request: message text is empty", chat_id=4242)
    assert await wire.sim("GET", "/sim/outbox/count") == (200, {"count": 3})
    assert await wire.sim("GET", "/sim/outbox/count?method=SendMessage&since=2") == (200, {"count": 2})


async def test_since_must_be_an_integer(wire: Wire) -> None:
    assert await wire.sim("GET", "/sim/outbox?since=x") == (400, {"error": "since must be an integer"})


async def test_a_reset_restarts_the_outbox(wire: Wire) -> None:
    await wire.ok("getMe")
    await wire.sim("POST", "/sim/reset")
    assert await wire.outbox() == []
    await wire.ok("getMe")
    assert [c["seq"] for c in await wire.outbox()] == [1]


# --- faults ---------------------------------------------------------------------------------------------------
async def test_a_fault_answers_in_place_of_the_method_and_is_recorded(wire: Wire) -> None:
    answer = await fault(wire, method=" SendMessage ", code=403)
    assert answer == {"faults": [{"method": "sendmessage", "code": 403}], "ok": True}
    await wire.refused("sendMessage", 403, "Forbidden: bot was blocked by the user", chat_id=4242, text="x")
    await wire.refused("SENDMESSAGE", 403, "Forbidden: bot was blocked by the user", chat_id=4242, text="x")
    assert await wire.text() == ""
    calls = await wire.outbox()
    assert [(c["method"], c["status"]) for c in calls] == [("sendMessage", 403), ("SENDMESSAGE", 403)]
    assert calls[0]["response"] == {
        "ok": False,
        "error_code": 403,
        "description": "Forbidden: bot was blocked by the user",
    }


@pytest.mark.parametrize(
    ("code", "retry_after", "description"),
    [
        (0, 0, "Internal Server Error"),
        (400, 0, "Bad Request"),
        (401, 0, "Unauthorized"),
        (403, 0, "Forbidden: bot was blocked by the user"),
        (404, 0, "Not Found"),
        (429, 0, "Too Many Requests"),
        (429, 3, "Too Many Requests: retry after 3"),
        (500, 0, "Internal Server Error"),
        (502, 0, "Bad Gateway"),
        (503, 0, "Internal Server Error"),
        (418, 0, "Internal Server Error"),
    ],
)
async def test_default_descriptions(wire: Wire, code: int, retry_after: int, description: str) -> None:
    await fault(wire, method="getMe", code=code, retry_after=retry_after)
    body = await wire.refused("getMe", code or 500, description)
    assert body.get("parameters") == ({"retry_after": retry_after} if retry_after else None)


async def test_a_named_description_wins(wire: Wire) -> None:
    await fault(wire, method="getMe", code=400, description="Bad Request: custom")
    await wire.refused("getMe", 400, "Bad Request: custom")


async def test_times_counts_down_and_removes_the_fault(wire: Wire) -> None:
    await fault(wire, method="getMe", code=502, times=2)
    await wire.refused("getMe", 502, "Bad Gateway")
    assert await faults(wire) == [{"method": "getme", "code": 502, "times": 1}]
    await wire.refused("getMe", 502, "Bad Gateway")
    assert await faults(wire) == []
    await wire.ok("getMe")


@pytest.mark.parametrize("times", [0, -1])
async def test_zero_or_negative_times_lasts_until_cleared(wire: Wire, times: int) -> None:
    await fault(wire, method="getMe", code=502, times=times)
    for _ in range(3):
        await wire.refused("getMe", 502, "Bad Gateway")
    answer = await fault(wire, method="getMe", clear=True)
    assert answer == {"faults": [], "ok": True}
    await wire.ok("getMe")


async def test_the_catch_all_answers_everything_even_unknown_methods(wire: Wire) -> None:
    answer = await fault(wire, code=429, retry_after=1)
    assert answer["faults"] == [{"method": "*", "code": 429, "retry_after": 1}]
    await wire.refused("getMe", 429, "Too Many Requests: retry after 1")
    await wire.refused("getFile", 429, "Too Many Requests: retry after 1", file_id="x")
    await wire.refused("getUpdates", 429, "Too Many Requests: retry after 1")
    await fault(wire, method="*", clear=True)
    await wire.ok("getMe")


async def test_an_unknown_method_can_be_faulted_by_name(wire: Wire) -> None:
    await fault(wire, method="sendHologram", code=429, retry_after=2, times=1)
    await wire.refused("sendhologram", 429, "Too Many Requests: retry after 2")
    await wire.refused("sendHologram", 404, "Not Found: method not found")


async def test_the_methods_own_fault_comes_before_the_catch_all(wire: Wire) -> None:
    await fault(wire, method="*", code=502)
    await fault(wire, method="getMe", code=400, times=1)
    await wire.refused("getMe", 400, "Bad Request")
    await wire.refused("getMe", 502, "Bad Gateway")


async def test_contains_fires_only_on_matching_calls_and_counts_only_them(wire: Wire) -> None:
    await fault(
        wire, method="sendMessage", code=400, description="Bad Request: can't parse entities", contains="<b>", times=1
    )
    await wire.ok("sendMessage", chat_id=4242, text="plain")
    await wire.ok("sendMessage", chat_id=4242, text="plain again")
    assert await faults(wire) == [
        {
            "method": "sendmessage",
            "code": 400,
            "description": "Bad Request: can't parse entities",
            "times": 1,
            "contains": "<b>",
        }
    ]
    await wire.refused("sendMessage", 400, "Bad Request: can't parse entities", chat_id=4242, text="<b>x</b>")
    await wire.ok("sendMessage", chat_id=4242, text="<b>x</b>", parse_mode="HTML")


async def test_contains_sees_nested_json_as_text(wire: Wire) -> None:
    await fault(wire, method="sendMessage", code=400, contains='"callback_data":"boom"')
    status, body = await wire.call_json(
        "sendMessage",
        {"chat_id": 4242, "text": "x", "reply_markup": {"inline_keyboard": [[{"text": "B", "callback_data": "boom"}]]}},
    )
    assert (status, body["description"]) == (400, "Bad Request")


async def test_a_method_fault_that_does_not_match_lets_the_catch_all_answer(wire: Wire) -> None:
    await fault(wire, method="sendMessage", code=400, contains="secret")
    await fault(wire, method="*", code=502, times=1)
    await wire.refused("sendMessage", 502, "Bad Gateway", chat_id=4242, text="x")
    await wire.ok("sendMessage", chat_id=4242, text="x")
    await wire.refused("sendMessage", 400, "Bad Request", chat_id=4242, text="secret")


async def test_a_new_fault_replaces_the_old_one(wire: Wire) -> None:
    await fault(wire, method="getMe", code=502)
    answer = await fault(wire, method="GETME", code=403, times=3)
    assert answer["faults"] == [{"method": "getme", "code": 403, "times": 3}]


async def test_clear_removes_one_fault_and_delete_removes_all(wire: Wire) -> None:
    await fault(wire, method="getMe", code=502)
    await fault(wire, method="sendMessage", code=502)
    await fault(wire, code=500)
    answer = await fault(wire, method="sendMessage", clear=True, code=999)
    assert sorted(f["method"] for f in answer["faults"]) == ["*", "getme"]
    answer = await fault(wire, clear=True)
    assert [f["method"] for f in answer["faults"]] == ["getme"]
    assert await wire.sim("DELETE", "/sim/fault") == (200, {"ok": True})
    assert await faults(wire) == []
    await wire.ok("getMe")


async def test_a_reset_clears_the_faults(wire: Wire) -> None:
    await fault(wire, code=502)
    await wire.sim("POST", "/sim/reset")
    assert await faults(wire) == []
    await wire.ok("getMe")


async def test_the_token_is_checked_before_faults(make_wire: WireFactory) -> None:
    async with make_wire(token="1:ok") as wire:
        await fault(wire, code=502)
        await wire.refused("getMe", 401, "Unauthorized", token="1:bad")
        await wire.refused("getMe", 502, "Bad Gateway", token="1:ok")


async def test_a_faulted_call_still_remembers_the_signing_token(wire: Wire) -> None:
    await fault(wire, code=502)
    await wire.refused("getMe", 502, "Bad Gateway", token="9:faulted")
    assert wire.stand.signing_token == "9:faulted"


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        ("", "invalid JSON body: EOF"),
        ("{", "invalid JSON body: "),
        ('{"code":"429"}', "invalid JSON body: code: "),
        ('{"times":1.5}', "invalid JSON body: times: "),
        ('{"clear":"yes"}', "invalid JSON body: clear: "),
        ("[]", "invalid JSON body: "),
    ],
)
async def test_a_bad_fault_body_is_a_400_naming_the_problem(wire: Wire, raw: str, error: str) -> None:
    resp = await wire.client.post("/sim/fault", data=raw)
    body = await resp.json()
    assert resp.status == 400
    assert body["error"].startswith(error), body
    assert await faults(wire) == []


@pytest.mark.parametrize("code", [42, 200, 304, 399, 600, 1000, -1])
async def test_a_fault_code_must_be_an_http_error_status(wire: Wire, code: int) -> None:
    status, body = await wire.sim("POST", "/sim/fault", {"method": "getMe", "code": code})
    assert (status, body) == (400, {"error": f"code {code} is not an HTTP error status (400-599)"})
    assert await faults(wire) == []
    await wire.ok("getMe")
