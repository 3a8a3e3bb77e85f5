"""The two fixture routes on an aiohttp app; thin handlers over :mod:`.fixtures`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from aiohttp import web

from ..wire import error_body
from .fixtures import (
    FixtureError,
    Rendered,
    generate_records,
    parse_chunks_query,
    parse_list_query,
    render_records,
    render_stream,
)

Clock = Callable[[], datetime]

FIXTURE_CLOCK: web.AppKey[Clock] = web.AppKey("llm_fixture_clock", Clock)  # type: ignore[arg-type]
"""What "now" is for the list route (default asOf, generatedAt); tests move it. /chunks never reads it."""

FIXTURE_CLOCK_OF: web.AppKey[Callable[[web.Request], Clock | None] | None] = web.AppKey(
    "llm_fixture_clock_of", object  # type: ignore[arg-type]
)

LIST_PATH = "/api/llm-completions"
CHUNKS_PATH = "/api/llm-completions/chunks"


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _respond(rendered: Rendered) -> web.Response:
    return web.Response(text=rendered.body, content_type=rendered.content_type, charset="utf-8")


def _bad_request(error: FixtureError) -> web.Response:
    return web.json_response(
        error_body(
            error.message,
            type_="invalid_request_error",
            param=error.param,
            code="invalid_parameter",
            full=True,
        ),
        status=400,
    )


async def list_completions(request: web.Request) -> web.Response:
    clock_of = request.app[FIXTURE_CLOCK_OF]
    now = ((clock_of(request) if clock_of else None) or request.app[FIXTURE_CLOCK])()
    try:
        query = parse_list_query(request.query.items(), now)
    except FixtureError as error:
        return _bad_request(error)
    return _respond(render_records(query, generate_records(query), now))


async def completion_chunks(request: web.Request) -> web.Response:
    try:
        query = parse_chunks_query(request.query.items())
    except FixtureError as error:
        return _bad_request(error)
    return _respond(render_stream(query))


def register_fixtures(
    app: web.Application,
    *,
    clock: Clock | None = None,
    clock_of: Callable[[web.Request], Clock | None] | None = None,
) -> None:
    """Add ``GET /api/llm-completions`` and ``GET /api/llm-completions/chunks`` (nothing else) to ``app``.

    ``clock`` is the list route's "now" (default: the real UTC clock); ``/chunks`` never reads it.
    ``clock_of`` picks a clock per request first (the model serving it, when a host app runs several).
    """
    app[FIXTURE_CLOCK] = clock or _utc_now
    app[FIXTURE_CLOCK_OF] = clock_of
    app.router.add_get(LIST_PATH, list_completions)
    app.router.add_get(CHUNKS_PATH, completion_chunks)
