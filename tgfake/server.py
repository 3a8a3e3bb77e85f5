"""Serving a stand's app on a TCP port: shared by the command and by the threaded stand of the test plugin."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import BadStatusLine, HttpProcessingError, InvalidURLError, LineTooLong
from aiohttp.web_protocol import RequestHandler

from llmstub.wire import error_body
from tgfake import errors
from tgfake.wire import envelope_response, sim_json

SHUTDOWN_TIMEOUT = 5.0
MAX_LINE = 8190
"""aiohttp's limit on the request line and on each header line (kept: only the answer changes)."""


async def serve(app: web.Application, host: str, port: int, *, shutdown_timeout: float = SHUTDOWN_TIMEOUT) -> tuple[
    web.AppRunner, int
]:
    """Start serving ``app``; returns the runner (``cleanup()`` stops it) and the bound port (port 0 picks one).

    ``handler_cancellation`` makes a client that goes away cancel its handler: a held poll is then neither
    answered nor recorded, and a model stream or a delayed step stops at once. A request aiohttp cannot parse
    is answered in its surface's envelope (:class:`EnvelopeRunner`). Raises OSError when the port cannot be bound.
    """
    runner = EnvelopeRunner(app, handler_cancellation=True, shutdown_timeout=shutdown_timeout, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host or None, port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    bound = port
    for address in runner.addresses:
        if isinstance(address, tuple):
            bound = int(address[1])
            break
    return runner, bound


_REQUEST_START = re.compile(rb"[A-Z]{3,10} /")
_MODEL_PATHS = (b"/v1/", b"/sim/llm/", b"/api/llm-completions")


def unparsable_answer(head: bytes, exc: HttpProcessingError) -> web.Response:
    """The answer to a request aiohttp refused while parsing it, in the envelope of the surface it was for.

    ``head`` is how the request began (``GET /sim/...``); the path picks the surface, as the router would have:
    the Bot API envelope (Telegram's words: 431 ``Request Header Fields Too Large: total headers size exceeded``
    for a head past the limit, as td's reader answers past its own), ``{"error": ...}`` under ``/sim/``, and
    the model's ``{"error": {"message": ...}}`` under its routes.
    """
    too_long = isinstance(exc, LineTooLong)
    status = 431 if too_long else 400
    path = head.split(b" ", 2)[1] if b" " in head else b""
    if path.startswith((b"/sim/", *_MODEL_PATHS)):
        message = f"request line or header longer than {MAX_LINE} bytes" if too_long else "malformed HTTP request"
        body = error_body(message) if path.startswith(_MODEL_PATHS) else {"error": message}
        return sim_json(body, status=status)
    if too_long:
        description = errors.HEADERS_TOO_LARGE
    elif isinstance(exc, BadStatusLine | InvalidURLError):
        description = errors.WRONG_REQUEST_LINE
    else:
        description = errors.BAD_REQUEST
    return envelope_response(status, {"ok": False, "error_code": status, "description": description})


class EnvelopeHandler(RequestHandler):
    """aiohttp's connection handler, remembering how the current request began for :func:`unparsable_answer`."""

    __slots__ = ("_head",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head = b""

    def data_received(self, data: bytes) -> None:
        if _REQUEST_START.match(data):  # a chunk that starts a request (a long line's later chunks do not)
            self._head = data[:256]
        super().data_received(data)

    def handle_error(
        self,
        request: Any,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if not isinstance(exc, HttpProcessingError) or status >= 500 or request.writer.output_size > 0:
            return super().handle_error(request, status, exc, message)
        self.log_debug("Refused an unparsable request: %s", exc)
        resp = unparsable_answer(self._head, exc)
        resp.force_close()
        return resp


class _EnvelopeServer(web.Server):
    def __call__(self) -> RequestHandler:
        return EnvelopeHandler(self, loop=self._loop, **self._kwargs)


class EnvelopeRunner(web.AppRunner):
    """An AppRunner whose connections answer unparsable requests in the surface's envelope, not in plain text.

    aiohttp answers them itself (``400 Bad Request`` as text) before any route or middleware runs, so the hook
    is its connection handler; everything else about the server is aiohttp's.
    """

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        server.__class__ = _EnvelopeServer
        return server
