"""The first conversation: a message in, an update out, a reply with a keyboard, a tap, an answer."""

from __future__ import annotations

from tests.conftest import Wire


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


async def test_in_process_api_matches_the_wire(wire: Wire) -> None:
    from tgfake.models import MessageIn

    message_id, update_id = wire.stand.inject_message(MessageIn(text="hi", username="ёжик", user_id=7))
    assert (message_id, update_id) == (1, 1)
    await wire.ok("sendMessage", chat_id=7, text="hello")
    view = wire.stand.view(7)
    assert view.text() == await wire.text(7) == "[1] ёжик: hi\n[2] bot: hello\n"
    assert view.json()["messages"][0]["username"] == "ёжик"
    assert [c.method for c in await wire.stand.wait_call("sendMessage")] == ["sendMessage"]
    assert wire.stand.chats() == [{"chat_id": 7, "type": "private", "title": "@ёжик", "messages": 2}]
