"""Every aiohttp key of the stand, in one place (state lives on the app, never in module globals), and the one
function every handler finds its state through."""

from __future__ import annotations

import warnings
from typing import Any

from aiohttp import web

import llmstub
from llmstub.http import stored
from tgfake.sessions import Session, Sessions
from tgfake.stand import Stand
from tgfake.urlfiles import UrlFetcher

STAND = web.AppKey("tgfake.stand", Stand)  # the root session's world
SESSIONS = web.AppKey("tgfake.sessions", Sessions)
URL_FETCHER = web.AppKey("tgfake.url_fetcher", UrlFetcher)  # downloads of files bots name by URL
# Request keys: the Session a /s/<id>/... request was routed to, and the model llmstub's handlers serve it with.
# aiohttp 3.14 types request keys (RequestKey) and warns about plain strings; older ones take strings.
SESSION: Any = web.RequestKey("tgfake.session", Session) if hasattr(web, "RequestKey") else "tgfake.session"
REQUEST_MODEL: Any = getattr(llmstub, "REQUEST_MODEL", None) or "llmstub.model"


def put(request: web.Request, key: Any, value: object) -> None:
    """Store ``value`` on the request; a plain string key (llmstub's) is stored without aiohttp's warning."""
    if isinstance(key, str):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", web.NotAppKeyWarning)
            request[key] = value
    else:
        request[key] = value


def session_of(request: web.Request) -> Session | None:
    """The session a request was routed to; None for the root routes (the default session)."""
    found = stored(request, SESSION)
    return found if isinstance(found, Session) else None


def stand_of(request: web.Request) -> Stand:
    """The world a request acts on: its session's, else the root stand."""
    session = session_of(request)
    return session.stand if session is not None else request.app[STAND]
