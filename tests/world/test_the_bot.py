"""One rule for "the bot" when none is named: the pinned bot, else the bot that most recently called the Bot API
(a reset keeps it), else the stand's first bot. It covers the person's actions, Mini App launches and the views."""

from __future__ import annotations

from typing import Any

from tests.conftest import Wire, WireFactory
from tgfake import webapp

A = "123456:x"
B = "654321:y"
APP = "https://app.example.com/"


async def updates(wire: Wire, token: str) -> list[dict[str, Any]]:
    """Everything pending for a bot, confirmed so the next read starts fresh."""
    status, body = await wire.call("getUpdates", token=token, timeout=0)
    assert status == 200, body
    got: list[dict[str, Any]] = body["result"]
    if got:
        await wire.call("getUpdates", token=token, timeout=0, offset=got[-1]["update_id"] + 1)
    return got


def texts(batch: list[dict[str, Any]]) -> list[str]:
    return [u["message"]["text"] for u in batch if "message" in u]


async def launch_data(wire: Wire, **body: Any) -> str:
    status, answer = await wire.sim("POST", "/sim/webapp/launch", {"url": APP, **body})
    assert status == 200, answer
    return str(answer["init_data"])


def signed_with(init_data: str, token: str) -> bool:
    try:
        webapp.validate(init_data, token)
    except webapp.BadHash:
        return False
    return True


async def defaults(wire: Wire) -> list[tuple[int, bool]]:
    status, body = await wire.sim("GET", "/sim/bots")
    assert status == 200, body
    return [(b["id"], b["default"]) for b in body["bots"]]


async def test_a_single_bot_suite_changing_tokens_between_tests(wire: Wire) -> None:
    """Bot A calls, the test resets, bot B polls: the person's message reaches B and a launch is signed by B."""
    assert await updates(wire, A) == []
    await wire.say("to A")
    assert texts(await updates(wire, A)) == ["to A"]
    assert signed_with(await launch_data(wire), A)
    assert await wire.sim("POST", "/sim/reset") == (200, {"ok": True})
    assert signed_with(await launch_data(wire), A)  # nobody called since the reset: A is still the bot
    assert await updates(wire, B) == []
    sent = await wire.say("to B")
    assert sent["update_id"] > 0  # B got it (0: the addressed bot saw nothing)
    assert texts(await updates(wire, B)) == ["to B"]
    data = await launch_data(wire)
    assert signed_with(data, B)
    assert not signed_with(data, A)
    assert await defaults(wire) == [(123456, False), (654321, True)]
    assert (await wire.sim("GET", "/sim/state"))[1]["bot"]["id"] == 654321
    reply = await wire.call("sendMessage", token=B, chat_id=4242, text="hello from B")
    assert reply[0] == 200, reply
    assert await wire.text() == "[1] alice: to B\n[2] bot: hello from B\n"
    assert await updates(wire, A) == []  # A's queue stayed empty (A is the bot again from this call on)


async def test_the_latest_caller_is_the_bot_and_the_bot_field_names_another(wire: Wire) -> None:
    await updates(wire, A)
    await updates(wire, B)
    await wire.say("unnamed")
    await wire.say("named", bot="123456")
    assert texts(await updates(wire, B)) == ["unnamed"]
    assert texts(await updates(wire, A)) == ["named"]  # A polled last now
    await wire.say("unnamed again")
    assert texts(await updates(wire, A)) == ["unnamed again"]
    assert await updates(wire, B) == []
    assert signed_with(await launch_data(wire, bot="@bot654321_bot"), B)


async def test_a_refused_call_still_names_the_bot_but_an_unauthorized_one_does_not(wire: Wire) -> None:
    await updates(wire, A)
    await wire.call("getMe", token=B)
    await wire.refused("noSuchMethod", 404, "Not Found: method not found", token=A)
    assert signed_with(await launch_data(wire), A)
    await wire.refused("getMe", 401, "Unauthorized", token="654321:forged")  # no bot called: nothing changes
    assert signed_with(await launch_data(wire), A)


async def test_post_sim_bots_with_default_pins_the_bot_across_calls_and_resets(wire: Wire) -> None:
    status, made = await wire.sim("POST", "/sim/bots", {"token": B, "username": "shop_bot", "default": True})
    assert status == 200, made
    assert await defaults(wire) == [(7000000001, False), (654321, True)]
    await updates(wire, A)  # another bot calls later: the pin holds
    await wire.say("to the pinned bot")
    assert await updates(wire, A) == []
    assert texts(await updates(wire, B)) == ["to the pinned bot"]
    await wire.call("getMe", token=A)
    assert await wire.sim("POST", "/sim/reset") == (200, {"ok": True})
    await wire.call("getMe", token=A)
    assert signed_with(await launch_data(wire), B)
    assert (await wire.sim("GET", "/sim/state"))[1]["bot"]["username"] == "shop_bot"


async def test_the_first_token_flag_pins_the_bot(make_wire: WireFactory) -> None:
    async with make_wire(token=A, tokens=(B,)) as wire:
        await updates(wire, B)
        await wire.say("to the first --token")
        assert await updates(wire, B) == []
        assert texts(await updates(wire, A)) == ["to the first --token"]
        await wire.call("getMe", token=B)
        assert signed_with(await launch_data(wire), A)


async def test_before_any_call_the_person_writes_to_the_first_bot_which_the_first_token_claims(wire: Wire) -> None:
    await wire.say("early")
    assert await defaults(wire) == [(7000000001, True)]
    assert texts(await updates(wire, A)) == ["early"]
    assert await defaults(wire) == [(123456, True)]
