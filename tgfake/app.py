"""``create_app``: the only place routes are wired. Any URL's code is one step from here:

- ``/bot<token>/<method>`` → :func:`bot_api` → ``tgfake/botapi/<family>.py`` (method registry); the test
  environment's ``/bot<token>/test/<method>`` is the same;
- ``/file/bot<token>/<file_path>`` → ``tgfake/downloads.py`` (getFile's bytes; ``.../test/<file_path>`` too);
- ``/sim/...`` → ``tgfake/sim/<concern>.py`` (person, inspect, control, files, drafts, webapp, webhook);
- ``/`` → ``tgfake/page.py`` (the chat page);
- ``/v1/...``, ``/sim/llm/...`` and ``/api/llm-completions...`` → ``llmstub`` (only with a model);
- webhook delivery (the stand calling the bot) → ``tgfake/delivery.py``;
- ``/s/<id>/<any of the above>`` → the same handlers, acting on session ``<id>`` (:func:`sessions_route`,
  ``tgfake/sessions.py``); ``/sim/sessions`` → ``tgfake/sim/sessions.py``.

Middlewares would cost every request, the model's included; the stand's routes are wrapped one by one instead
(:func:`~tgfake.wire.answering`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING

from aiohttp import web
from yarl import URL

import llmstub
from tgfake import downloads, errors
from tgfake.botapi import schema
from tgfake.botapi.pipeline import envelope_of
from tgfake.clock import Clock
from tgfake.delivery import Deliveries
from tgfake.errors import TelegramError
from tgfake.keys import REQUEST_MODEL, SESSION, SESSIONS, STAND, URL_FETCHER, put, stand_of
from tgfake.options import Options
from tgfake.page import register_page
from tgfake.sessions import PREFIX, Session, Sessions
from tgfake.sim import register_sim
from tgfake.stand import Stand
from tgfake.urlfiles import UrlFetcher
from tgfake.wire import answering, encoded_envelope, envelope_response, read_params, sim_json

if TYPE_CHECKING:
    from llmstub import Model

MAX_BODY = 64 << 20  # a 50 MiB document plus multipart overhead

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def sessions_route(request: web.Request) -> web.StreamResponse:
    """``/s/<id>/<path>`` is ``<path>`` served by the same handlers, with the session stored on the request.

    aiohttp has no public way to route a request again (a custom router is deprecated), so the prefix is cut off
    a clone of the request, the clone is resolved by the app's one router, and its match info is set where
    aiohttp's own dispatch sets it. A session's path never names another session: that is a path of no route.
    """
    if SESSION in iter(request):
        return await bot_api(request)
    name, _, tail = request.rel_url.raw_path[len(PREFIX) :].partition("/")
    session = request.app[SESSIONS].get(name)
    if session is None:
        return _no_session(name, "/" + tail)
    return await dispatch(request, session, "/" + tail)


async def dispatch(request: web.Request, session: Session, path: str) -> web.StreamResponse:
    """Serve ``path`` (encoded, the prefix cut off) for ``session`` through the app's routes."""
    clone = request.clone(rel_url=URL.build(path=path, query_string=request.rel_url.raw_query_string, encoded=True))
    put(clone, SESSION, session)
    if session.model is not None:
        put(clone, REQUEST_MODEL, session.model)
    match = await request.app.router.resolve(clone)
    match.add_app(request.app)
    match.freeze()
    clone._match_info = match  # where aiohttp's Application._handle puts it
    return await match.handler(clone)


def _no_session(name: str, path: str) -> web.Response:
    """A request to a session that ended (or never was): a Bot API 404 for bot paths, a sim 404 for the rest."""
    if path.startswith(("/bot", "/file/bot")):
        return not_found()
    return sim_json({"error": f"session {name} not found (ended, expired or never created)"}, status=404)


def not_found() -> web.Response:
    return envelope_response(404, {"ok": False, "error_code": 404, "description": errors.NOT_FOUND})


async def bot_api(request: web.Request) -> web.StreamResponse:
    """``/bot<token>/<method>``, any HTTP verb; every other unmatched path gets the Bot API 404 envelope."""
    path = request.path
    if not path.startswith("/bot") or "/" not in path[4:]:
        return not_found()
    token, method = path[4:].split("/", 1)
    if method.startswith("test"):  # Telegram's test environment (HttpConnection skips "/test", then wants a "/")
        if not method.startswith("test/"):
            return not_found()
        method = method[5:]  # served by the same bot: the stand has one environment
    method = method.removesuffix("/")
    if not method:
        return not_found()
    try:
        params = await read_params(request)
    except TelegramError as exc:  # refused while reading, as td's HTTP reader does: before any method, unrecorded
        return envelope_response(exc.status, envelope_of(exc))
    served = await stand_of(request).pipeline.serve(token, method, params)
    return encoded_envelope(served.status, served.body, served.retry_after)


def _fetch_for(fetcher: UrlFetcher, session: Session) -> None:
    """A session's stand fetches files by URL as the root does (one client session, one policy)."""
    session.stand.before_call = fetcher.before_call


async def _release_polls(app: web.Application) -> None:
    """On shutdown, held getUpdates answer at once with what they have (every session's), before the graceful stop."""
    app[STAND].close()
    app[SESSIONS].close()


def create_app(
    options: Options | None = None,
    *,
    model: Model | None = None,
    clock: Clock | None = None,
    stand: Stand | None = None,
) -> web.Application:
    """A stand on its own aiohttp app; with ``model`` the scripted model shares the origin and the reset.

    Sessions (``POST /sim/sessions``) each get a Stand on the same base clock and, with ``model``, a model built
    from its options; ``options.sessions`` are made here, pinned.
    """
    app = web.Application(client_max_size=MAX_BODY)
    app.router.add_route("*", PREFIX + "{tail:.*}", sessions_route)
    root = app[STAND] = stand or Stand(options, clock)
    fetcher = app[URL_FETCHER] = UrlFetcher(policy=root.options.url_files)
    root.before_call = fetcher.before_call  # files named by URL: fetched after the call's checks
    deliveries = Deliveries()  # the webhook workers: idle until setWebhook
    deliveries.start(root)
    sessions = app[SESSIONS] = Sessions(root, limit=root.options.max_sessions, idle=root.options.session_idle)
    sessions.on_start.append(lambda session: deliveries.start(session.stand))
    sessions.on_start.append(partial(_fetch_for, fetcher))
    sessions.on_end.append(lambda session: deliveries.stop(session.stand))
    register_sim(app)
    register_page(app)  # the page's bytes, and below the Bot API's parameter table, are read now: a reinstall
    schema.load()  # under a running stand cannot take package data away from it
    if model is not None:
        model.register(app)
        root.reset_hooks.append(model.reset)
        if getattr(llmstub, "REQUEST_MODEL", None) is not None:
            sessions.make_model = partial(type(model), model.options)
        else:  # an llmstub whose handlers serve only their own model: every session shares it (and its reset)
            sessions.shared_model = model
    for name in root.options.sessions:
        sessions.create(name, pinned=True)
    app.on_shutdown.append(_release_polls)
    app.on_cleanup.append(lambda _app: fetcher.close())
    app.cleanup_ctx.append(deliveries.run)
    app.router.add_get(downloads.ROUTE, downloads.download)
    app.router.add_route("*", "/{tail:.*}", answering(bot_api))
    return app
