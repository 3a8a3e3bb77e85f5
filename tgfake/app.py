"""``create_app``: the only place routes are wired. Any URL's code is one step from here:

- ``/bot<token>/<method>`` → :func:`bot_api` → ``tgfake/botapi/<family>.py`` (method registry);
- ``/file/bot<token>/<file_path>`` → ``tgfake/downloads.py`` (getFile's bytes);
- ``/sim/...`` → ``tgfake/sim/<concern>.py`` (person, inspect, control, files, drafts, webapp, webhook);
- ``/`` → ``tgfake/page.py`` (the chat page);
- ``/v1/...``, ``/sim/llm/...`` and ``/api/llm-completions...`` → ``llmstub`` (only with a model);
- webhook delivery (the stand calling the bot) → ``tgfake/delivery.py``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from aiohttp import web

from tgfake import downloads, errors
from tgfake.clock import Clock
from tgfake.delivery import webhook_delivery
from tgfake.errors import SimError, TelegramError
from tgfake.keys import STAND
from tgfake.options import Options
from tgfake.page import register_page
from tgfake.sim import register_sim
from tgfake.stand import Stand, envelope_of
from tgfake.wire import CLOSE_CONNECTION, envelope_response, read_params, sim_json

if TYPE_CHECKING:
    from llmstub import Model

MAX_BODY = 64 << 20  # a 50 MiB document plus multipart overhead

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def sim_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Sim refusals become ``{"error": ...}`` with their status; nothing a client sends becomes a 500.

    An answer to a body that could not be read closes the connection (``CLOSE_CONNECTION``): its client must
    not send a next request on it.
    """
    try:
        resp = await handler(request)
    except SimError as exc:
        resp = sim_json({"error": exc.message}, status=exc.status)
    if request.get(CLOSE_CONNECTION):
        resp.force_close()
    return resp


def not_found() -> web.Response:
    return envelope_response(404, {"ok": False, "error_code": 404, "description": errors.NOT_FOUND})


async def bot_api(request: web.Request) -> web.StreamResponse:
    """``/bot<token>/<method>``, any HTTP verb; every other unmatched path gets the Bot API 404 envelope."""
    path = request.path
    if not path.startswith("/bot") or "/" not in path[4:]:
        return not_found()
    token, method = path[4:].split("/", 1)
    method = method.removesuffix("/")
    if not method:
        return not_found()
    try:
        params = await read_params(request)
    except TelegramError as exc:  # refused while reading, as td's HTTP reader does: before any method, unrecorded
        return envelope_response(exc.status, envelope_of(exc))
    status, envelope = await request.app[STAND].call(token, method, params)
    return envelope_response(status, envelope)


async def _release_polls(app: web.Application) -> None:
    """On shutdown, held getUpdates answer at once with what they have, before the graceful stop."""
    app[STAND].close()


def create_app(
    options: Options | None = None,
    *,
    model: Model | None = None,
    clock: Clock | None = None,
    stand: Stand | None = None,
) -> web.Application:
    """A stand on its own aiohttp app; with ``model`` the scripted model shares the origin and the reset."""
    app = web.Application(client_max_size=MAX_BODY, middlewares=[sim_errors])
    app[STAND] = stand or Stand(options, clock)
    register_sim(app)
    register_page(app)
    if model is not None:
        model.register(app)
        app[STAND].reset_hooks.append(model.reset)
    app.on_shutdown.append(_release_polls)
    app.cleanup_ctx.append(webhook_delivery)  # the webhook worker: idle until setWebhook
    app.router.add_get(downloads.ROUTE, downloads.download)
    app.router.add_route("*", "/{tail:.*}", bot_api)
    return app
