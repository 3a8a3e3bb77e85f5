"""Games: sendGame, setGameScore, getGameHighScores (the person's ``callback_game`` taps: ``POST /sim/callback``).

Ported from Client.cpp's ``process_send_game_query`` and ``process_set_game_score_query`` /
``process_get_game_high_scores_query``: the message is named by ``chat_id`` + ``message_id`` (or by the
``inline_message_id`` of a game result a person sent, checked as every inline edit is), then the person; a score
that does not beat the old one without ``force`` is the server's ``BOT_SCORE_NOT_MODIFIED``. A
game a bot made with BotFather (``POST /sim/bots/{bot}/games``: title, description, photo, animation) is shown as
such; any other short name is a game whose title is its short name, with no description and no photo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import fields
from tgfake.botapi.common import chat_id, post_message
from tgfake.botapi.inline import inline_target
from tgfake.botapi.keyboards import parse_inline_keyboard
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, StoredMessage
from tgfake.content import Media
from tgfake.errors import bad_request
from tgfake.markup import Button
from tgfake.params import Params, parse_int, to_integer
from tgfake.world.games import GameMessage

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


@bot_method("sendGame")
async def send_game(ctx: BotCall, p: Params) -> Any:
    """A game message; without ``reply_markup`` Telegram shows one "Play <title>" button."""
    name = p.text("game_short_name")
    cid = chat_id(p)
    keyboard = parse_inline_keyboard(p.get("reply_markup"), ctx.chat_type(cid))
    if keyboard is None:
        keyboard = [[Button(text=f"Play {name}", callback_game=True)]]
    made = ctx.world.games.catalogue.get((ctx.bot.id, name))  # POST /sim/bots/{bot}/games
    game = made.json() if made is not None else {"title": name, "description": "", "photo": []}
    sent = post_message(ctx, p, cid, keyboard, media=Media("game", fields=game))  # an ordinary message, as on Telegram
    chat = ctx.chat(cid)
    assert chat is not None
    ctx.world.games.messages[(chat.id, int(sent["message_id"]))] = GameMessage(short_name=name)
    return sent


def _game_message(ctx: BotCall, p: Params, missing: str) -> tuple[Chat, StoredMessage, GameMessage, bool]:
    """``check_message``: the chat and the game message in it, and whether it was named by ``inline_message_id``
    (no chat and no message id: the game result a person sent from an inline query)."""
    inline = inline_target(ctx, p)
    if inline is not None:
        game = ctx.world.games.messages.get((inline[0].id, inline[1].message_id))
        if game is None:
            raise bad_request(missing)
        return inline[0], inline[1], game, True
    raw_chat = p.text("chat_id")
    mid = parse_int(p.text("message_id")) or 0
    if not raw_chat:
        raise bad_request(errors.CHAT_ID_EMPTY)
    chat = ctx.chat(p.chat())
    if chat is None:
        raise bad_request(errors.CHAT_NOT_FOUND)
    msg = chat.live(mid)
    game = ctx.world.games.messages.get((chat.id, mid))
    if msg is None or game is None:
        raise bad_request(missing)
    return chat, msg, game, False


@bot_method("setGameScore")
async def set_game_score(ctx: BotCall, p: Params) -> Any:
    """The person's score in this game message; the edited message is answered (``true`` with ``disable_edit`` or for
    an inline message, which the bot cannot see)."""
    chat, msg, game, inline = _game_message(ctx, p, errors.GAME_SCORE_MESSAGE_NOT_FOUND)
    user_id = to_integer(p.text("user_id"))
    score = to_integer(p.text("score"))
    old = game.scores.get(user_id)
    if old is not None and score <= old and not fields.to_bool(p.text("force")):
        raise bad_request(errors.BOT_SCORE_NOT_MODIFIED)
    game.scores[user_id] = score
    if inline or (p.text("disable_edit_message") and fields.to_bool(p.text("disable_edit_message"))):
        return True
    return ctx.message_json(chat, msg)


@bot_method("getGameHighScores")
async def get_game_high_scores(ctx: BotCall, p: Params) -> Any:
    """The table, best first, with positions from 1 (the stand's tables are small enough to show whole)."""
    _, _, game, _ = _game_message(ctx, p, errors.GAME_SCORES_MESSAGE_NOT_FOUND)
    users = ctx.world.users
    out = []
    for position, (person_id, score) in enumerate(game.table(), start=1):
        person = users.get(person_id)
        user = person.json() if person is not None else {"id": person_id, "is_bot": False, "first_name": str(person_id)}
        out.append({"position": position, "user": user, "score": score})
    return out
