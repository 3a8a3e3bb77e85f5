"""Games through the wire: sendGame with its Play button, callback_game taps, scores and high-score tables."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import Wire


async def test_a_game_message_has_a_play_button_and_a_tap_sends_the_short_name(wire: Wire) -> None:
    await wire.say("/play")
    sent = await wire.ok("sendGame", chat_id=4242, game_short_name="snake")
    assert sent["game"] == {"title": "snake", "description": "", "photo": []}
    assert sent["reply_markup"] == {"inline_keyboard": [[{"text": "Play snake", "callback_game": {}}]]}
    assert "text" not in sent
    await wire.ok("getUpdates", offset=-1)
    status, _ = await wire.sim("POST", "/sim/callback", {"label": "Play snake"})
    assert status == 200
    updates = await wire.ok("getUpdates", offset=-1)
    query = updates[-1]["callback_query"]
    assert query["game_short_name"] == "snake"
    assert "data" not in query
    # an ordinary message that carries the game, as on Telegram, with its button
    assert (await wire.text()).splitlines()[-2:] == ["[2] bot: [game 'snake']", "    [Play snake]"]


async def test_a_custom_keyboard_keeps_its_callback_game_button(wire: Wire) -> None:
    markup: dict[str, Any] = {
        "inline_keyboard": [[{"text": "Start!", "callback_game": {}}, {"text": "Rules", "url": "https://x.org"}]]
    }
    sent = await wire.ok("sendGame", chat_id=4242, game_short_name="snake", reply_markup=json.dumps(markup))
    markup["inline_keyboard"][0][1]["url"] = "https://x.org/"  # links come back as td stores them
    assert sent["reply_markup"] == markup


async def test_scores_only_go_up_unless_forced_and_the_table_is_best_first(wire: Wire) -> None:
    await wire.say("hi")
    await wire.sim("POST", "/sim/message", {"text": "me too", "user_id": 4343, "username": "bob"})
    sent = await wire.ok("sendGame", chat_id=4242, game_short_name="snake")
    where = {"chat_id": 4242, "message_id": sent["message_id"]}
    edited = await wire.ok("setGameScore", user_id=4242, score=10, **where)
    assert edited["message_id"] == sent["message_id"]
    assert await wire.ok("setGameScore", user_id=4343, score=30, disable_edit_message="true", **where) is True
    await wire.refused("setGameScore", 400, "Bad Request: BOT_SCORE_NOT_MODIFIED", user_id=4242, score=10, **where)
    await wire.refused("setGameScore", 400, "Bad Request: BOT_SCORE_NOT_MODIFIED", user_id=4242, score=5, **where)
    await wire.ok("setGameScore", user_id=4242, score=40, **where)
    await wire.ok("setGameScore", user_id=4343, score=1, force="true", **where)
    table = await wire.ok("getGameHighScores", user_id=4242, **where)
    assert [(row["position"], row["user"]["id"], row["score"]) for row in table] == [(1, 4242, 40), (2, 4343, 1)]
    assert table[0]["user"]["first_name"] == "Alice"


async def test_game_methods_name_the_message_first(wire: Wire) -> None:
    await wire.say("hi")
    await wire.refused("setGameScore", 400, "Bad Request: invalid user_id specified", chat_id=4242, message_id=1)
    await wire.refused("setGameScore", 400, "Bad Request: message identifier is not specified", user_id=4242, score=1)
    await wire.refused("getGameHighScores", 400, "Bad Request: message identifier is not specified", user_id=4242)
    await wire.refused("setGameScore", 400, "Bad Request: chat not found", chat_id=-5, message_id=1, user_id=4242)
    await wire.refused(
        "setGameScore", 400, "Bad Request: message to set game score not found", chat_id=4242, message_id=1, user_id=1
    )
    await wire.refused(
        "getGameHighScores",
        400,
        "Bad Request: message to get game high scores not found",
        chat_id=4242,
        message_id=9,
        user_id=1,
    )
    await wire.refused("sendGame", 400, 'Bad Request: parameter "game_short_name" is required', chat_id=4242)


async def test_a_game_sent_from_an_inline_query_keeps_scores_by_its_inline_message_id(wire: Wire) -> None:
    """An inline game result: the person sends it via the bot with a Play button, a tap names the game, and the
    scores are set and read by ``inline_message_id`` (setGameScore answers ``true``: the bot cannot see it)."""
    bot = {"token": "777:games", "username": "arcade_bot", "supports_inline_queries": True, "inline_feedback": True}
    status, _ = await wire.sim("POST", "/sim/bots", bot)
    assert status == 200
    wire.token = "777:games"
    assert (await wire.sim("POST", "/sim/inline", {"bot": "arcade_bot", "query": "play"}))[0] == 200
    query = (await wire.ok("getUpdates", offset=-1))[-1]["inline_query"]
    results = json.dumps([{"type": "game", "id": "g1", "game_short_name": "snake"}])
    assert await wire.ok("answerInlineQuery", inline_query_id=query["id"], results=results) is True
    status, picked = await wire.sim("POST", "/sim/inline/choose", {"result_id": "g1"})
    assert status == 200, picked
    inline_id = picked["inline_message_id"]
    sent, chosen = (u for u in await wire.ok("getUpdates", offset=-2))
    assert sent["message"]["game"]["title"] == "snake"
    assert sent["message"]["reply_markup"] == {"inline_keyboard": [[{"text": "Play snake", "callback_game": {}}]]}
    assert chosen["chosen_inline_result"]["inline_message_id"] == inline_id
    status, _ = await wire.sim("POST", "/sim/callback", {"label": "Play snake", "bot": "arcade_bot"})
    assert status == 200
    tap = (await wire.ok("getUpdates", offset=-1))[-1]["callback_query"]
    assert (tap["inline_message_id"], tap["game_short_name"]) == (inline_id, "snake")
    assert "message" not in tap
    assert await wire.ok("setGameScore", inline_message_id=inline_id, user_id=4242, score=7) is True
    await wire.refused("setGameScore", 400, "Bad Request: BOT_SCORE_NOT_MODIFIED",
                       inline_message_id=inline_id, user_id=4242, score=7)  # fmt: skip
    table = await wire.ok("getGameHighScores", inline_message_id=inline_id, user_id=4242)
    assert [(row["position"], row["user"]["id"], row["score"]) for row in table] == [(1, 4242, 7)]
    await wire.refused("getGameHighScores", 400, "Bad Request: message identifier is not specified",
                       inline_message_id="", user_id=4242)  # fmt: skip
    await wire.refused("setGameScore", 400, "Bad Request: invalid inline message identifier specified",
                       inline_message_id="AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", user_id=4242, score=1)  # fmt: skip
