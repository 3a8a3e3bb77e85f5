"""``/sim/sessions``: open, list and end sessions (independent worlds under ``/s/<id>/...``)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tgfake.keys import SESSIONS
from tgfake.models import SessionIn
from tgfake.sessions import Session, Sessions
from tgfake.sim import answers
from tgfake.sim.common import read_body
from tgfake.sim.openapi import documented, path
from tgfake.wire import sim_json

routes = web.RouteTableDef()


def session_json(request: web.Request, sessions: Sessions, session: Session) -> dict[str, Any]:
    """A session's id and the base URLs a bot and a test are given (absolute, on the origin the request used)."""
    url = str(request.url.origin()) + session.path
    return {
        "id": session.id,
        "url": url,
        "bot_api_url": url + "/bot",
        "file_url": url + "/file/bot",
        "sim_url": url + "/sim",
        "model_url": url + "/v1" if session.model is not None else None,
        "pinned": session.pinned,
        "idle": round(sessions.idle_for(session), 3),
    }


@routes.post("/sim/sessions")
@documented(answers.SessionAnswer, body=SessionIn, body_required=False, errors=(409, 429))
async def create_session(request: web.Request) -> web.Response:
    sessions = request.app[SESSIONS]
    body = await read_body(request, SessionIn) if request.can_read_body else SessionIn()
    session = sessions.create(body.id)
    return sim_json(session_json(request, sessions, session))


@routes.get("/sim/sessions")
@documented(answers.SessionList)
async def list_sessions(request: web.Request) -> web.Response:
    sessions = request.app[SESSIONS]
    sessions.sweep()
    return sim_json(
        {
            "sessions": [session_json(request, sessions, s) for s in sessions.open.values()],
            "max_sessions": sessions.limit,
            "idle_expiry": sessions.idle,
        }
    )


@routes.delete("/sim/sessions/{id}")
@documented(answers.Ok, params=(path("id", "The session id"),))
async def end_session(request: web.Request) -> web.Response:
    request.app[SESSIONS].end(request.match_info["id"])
    return sim_json({"ok": True})
