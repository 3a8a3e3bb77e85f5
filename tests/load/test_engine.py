"""The engine in the stand, in process, with every kind of act: taps on the bot's buttons and presses of its reply
keyboard reach it, joins, leaves and blocks are service updates nobody expects answered, and a person who blocked
the bot writes to it no more."""

from __future__ import annotations

import asyncio
from typing import Any

from tgfake.load.engine import Run, Settings
from tgfake.load.scenario import parse
from tgfake.params import Params
from tgfake.stand import Stand

TOKEN = "123:engine"
KEYBOARD = '{"inline_keyboard": [[{"text": "Ping", "callback_data": "ping"}]]}'
REPLY_KEYBOARD = '{"keyboard": [[{"text": "Red"}, {"text": "Blue"}]]}'
EVERY_ACT = {
    "think": 0.02,
    "groups": 0.3,
    "actions": [
        {"tap": {}, "weight": 3},
        {"press": {}, "weight": 3},
        {"text": "hi {name}"},
        {"join": {}},
        {"leave": {}},
        {"block": {}, "weight": 0.3},
    ],
}


async def bot(stand: Stand, stop: asyncio.Event, seen: list[dict[str, Any]]) -> None:
    """Shows both keyboards on /start, answers taps, echoes other texts."""
    offset = 0
    while not stop.is_set():
        _, got = await stand.call(TOKEN, "getUpdates", Params(values={"offset": str(offset), "timeout": "1"}))
        for update in got.get("result", []):
            offset = update["update_id"] + 1
            seen.append(update)
            if "callback_query" in update:
                query_id = update["callback_query"]["id"]
                await stand.call(TOKEN, "answerCallbackQuery", Params(values={"callback_query_id": query_id}))
                continue
            message = update.get("message") or {}
            if "text" not in message:
                continue
            chat = str(message["chat"]["id"])
            if message["text"] == "/start":
                markup = REPLY_KEYBOARD if message["chat"]["type"] == "private" else KEYBOARD
                values = {"chat_id": chat, "text": "Choose", "reply_markup": KEYBOARD}
                await stand.call(TOKEN, "sendMessage", Params(values=values))
                await stand.call(TOKEN, "sendMessage", Params(values={**values, "reply_markup": markup}))
            else:
                await stand.call(TOKEN, "sendMessage", Params(values={"chat_id": chat, "text": "ok"}))


async def test_every_kind_of_act_reaches_the_bot_and_is_counted() -> None:
    stand = Stand()
    stop, seen = asyncio.Event(), list[dict[str, Any]]()
    polling = asyncio.create_task(bot(stand, stop, seen))
    await stand.wait_polling(5)
    settings = Settings(people=40, groups=4, members=8, rate=400, duration=0.8, drain=0.5, flood=False,
                        scenario=parse(EVERY_ACT), seed=5)  # fmt: skip
    run = Run(stand, stand.bot_for_token(TOKEN), settings)
    run.start()
    await run.wait()
    stop.set()
    await polling
    report = run.report()
    t = report["totals"]
    kinds = {k for u in seen for k in u if k != "update_id"}
    assert {"message", "callback_query", "my_chat_member"} <= kinds
    texts = [u["message"].get("text") for u in seen if "message" in u]
    assert "Red" in texts or "Blue" in texts  # a reply keyboard's button pressed
    assert any("new_chat_members" in u.get("message", {}) for u in seen)  # joins, which the bot (an admin) sees
    assert any("left_chat_member" in u.get("message", {}) for u in seen)  # and leaves
    assert t["answerable"] < t["offered"]  # those service updates and the blocks want no answer
    assert t["calls"]["answerCallbackQuery"] > 0
    assert t["answered"] <= t["delivered"] <= t["offered"]
    assert report["acts"]["done"] > 100
    blocked_at = {u["my_chat_member"]["from"]["id"]: n for n, u in enumerate(seen) if "my_chat_member" in u}
    assert blocked_at  # some blocked the bot
    for n, update in enumerate(seen):
        message = update.get("message", {})
        sender = message.get("from", {}).get("id")
        if message.get("chat", {}).get("type") == "private" and sender in blocked_at:
            assert n < blocked_at[sender], "a person wrote to the bot they had blocked"
    assert report["state"] == "done"
    assert stand.options.flood_control is False  # the session's options are back as they were


async def test_a_reset_during_a_run_ends_it() -> None:
    stand = Stand()
    stop, seen = asyncio.Event(), list[dict[str, Any]]()
    polling = asyncio.create_task(bot(stand, stop, seen))
    await stand.wait_polling(5)
    run = Run(stand, stand.bot_for_token(TOKEN), Settings(people=20, groups=2, members=5, rate=200, duration=30))
    run.start()
    while run.state != "running" or not run.figures.offers:
        await stand.calls_signal.wait(1.0)  # the bot's calls: the crowd is acting
    stand.reset()
    await asyncio.wait_for(run.wait(), 10)
    stop.set()
    await polling
    assert (run.state, run.stopped) == ("done", "reset")
    assert run.report()["elapsed"] < 10
