"""The person's Stop button under a streamed draft, and a draft's revision history."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tgfake.drafts import DraftError
from tgfake.errors import SimError
from tgfake.models import BotRef, ChatId, Int64, SimBody
from tgfake.sim import answers
from tgfake.sim.common import bot_of, read_body, stand_of
from tgfake.sim.openapi import BOT, CHAT_ID, documented, path
from tgfake.wire import sim_json
from tgfake.world.people import DEFAULT_USER_ID

routes = web.RouteTableDef()


class DraftStopIn(SimBody):
    """``POST /sim/draft/stop``: no ``draft_id`` stops the newest draft showing a Stop button."""

    draft_id: Int64 = 0
    chat_id: ChatId = 0
    bot: BotRef = ""


@routes.post("/sim/draft/stop")
@documented(answers.DraftStopped, body=DraftStopIn)
async def stop(request: web.Request) -> web.Response:
    """Queues ``stopped_message_generation`` (if subscribed); the draft goes unless it asked to be kept."""
    stand = stand_of(request)
    body = await read_body(request, DraftStopIn)
    cid = body.chat_id or DEFAULT_USER_ID
    bot = stand.find_bot(body.bot)
    chat = stand.chat_of(bot, cid)
    try:
        if chat is None:
            if body.draft_id:
                raise DraftError(f"draft {body.draft_id} not found in chat {cid}")
            raise DraftError(f"chat {cid} has no draft with a Stop button")
        draft = chat.drafts.stop(stand.now(), cid, body.draft_id or None)
    except DraftError as exc:
        raise SimError(404, str(exc)) from None
    payload: dict[str, Any] = {"chat": chat.json()}
    if draft.message_thread_id:
        payload["message_thread_id"] = draft.message_thread_id
    payload["draft_id"] = draft.draft_id
    return sim_json({"update_id": bot.push("stopped_message_generation", payload)})


def _int(request: web.Request, name: str, what: str) -> int:
    try:
        return int(request.match_info[name])
    except ValueError:
        raise SimError(400, f"{what} must be an integer") from None


@routes.get("/sim/chat/{id}/drafts/{draft_id}")
@documented(answers.DraftHistory, params=(BOT, CHAT_ID, path("draft_id", "The draft id", "integer")))
async def history(request: web.Request) -> web.Response:
    """Every revision the bot sent for this draft id, oldest first, expired ones included (reset forgets them)."""
    stand = stand_of(request)
    cid = _int(request, "id", "chat id")
    draft_id = _int(request, "draft_id", "draft id")
    chat = stand.chat_of(bot_of(request), cid)
    revisions = chat.drafts.history.get(draft_id) if chat is not None else None
    if chat is None or not revisions:
        raise SimError(404, f"draft {draft_id} not found in chat {cid}")
    live = any(d.draft_id == draft_id for d in chat.drafts.current(stand.now()))
    return sim_json({"chat_id": cid, "draft_id": draft_id, "live": live, "revisions": [r.json() for r in revisions]})
