"""The first conversation: a message in, an update out, a reply with a keyboard, a tap, an answer."""

from __future__ import annotations

from conftest import Wire


async def test_first_conversation(wire: Wire) -> None:
    await wire.say("/start")
    updates = await wire.ok("getUpdates", timeout=0)
    assert [u["message"]["text"] for u in updates] == ["/start"]
    kb = '{"inline_keyboard":[[{"text":"Ping","callback_data":"ping"}]]}'
    await wire.ok("sendMessage", chat_id=4242, text="Hi", reply_markup=kb)
    status, tap = await wire.sim("POST", "/sim/callback", {"label": "Ping"})
    assert status == 200
    await wire.ok("answerCallbackQuery", callback_query_id=tap["callback_query_id"], text="Pong!")
    assert await wire.text() == "[1] alice: /start\n[2] bot: Hi\n    [Ping]\n"
