"""``POST /sim/emoji-status-access``: the person lets a bot manage their emoji status (or takes that back).

What the Mini App method ``requestEmojiStatusAccess`` asks the person; setUserEmojiStatus needs it. The answer
shows the person's current emoji status, as the bot set it.
"""

from __future__ import annotations

from aiohttp import web

from tgfake.models import BotRef, SimBody, UserId
from tgfake.sim import answers
from tgfake.sim.common import read_body, stand_of
from tgfake.sim.openapi import documented
from tgfake.wire import sim_json

routes = web.RouteTableDef()


class EmojiStatusAccessIn(SimBody):
    """Who allows (``user_id`` / ``username``) which bot (``bot``: token, id or username; the default bot)."""

    bot: BotRef = ""
    user_id: UserId = 0
    username: str = ""
    first_name: str = ""
    allowed: bool = True


@routes.post("/sim/emoji-status-access")
@documented(answers.Answer, body=EmojiStatusAccessIn)
async def emoji_status_access(request: web.Request) -> web.Response:
    stand = stand_of(request)
    body = await read_body(request, EmojiStatusAccessIn)
    person = stand.person(body.user_id, body.username, body.first_name, name_from_username=False)
    bot = stand.find_bot(body.bot)
    grants = stand.world.grants
    key = (bot.id, person.id)
    if body.allowed:
        grants.emoji_status_access.add(key)
    else:
        grants.emoji_status_access.discard(key)
    return sim_json(
        {
            "bot": bot.username,
            "user_id": person.id,
            "allowed": body.allowed,
            "emoji_status": grants.emoji_statuses.get(person.id),
        }
    )
