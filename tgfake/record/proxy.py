"""``tgfake record``: a Bot API proxy that writes a bot's conversation with a real server into ``talk.json``.

The bot points at the proxy (in place of ``https://api.telegram.org``) with its real token. Each call is read the
way the stand reads one (:func:`tgfake.wire.read_params`), sent on to the upstream with its parameters (a form, or
multipart with its uploads), answered with the upstream's answer, and appended to the file: the method, the
parameters as the outbox shows them, each upload's SHA-256, the status and the answer. The token is never
written, not in a path and not in a file URL (:func:`~tgfake.record.talk.scrub`). File downloads
(``/file/bot<token>/...``) are relayed and not recorded.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import aiohttp
from aiohttp import web

from ..botapi.pipeline import envelope_of
from ..errors import UPSTREAM_UNREACHABLE, TelegramError
from ..wire import envelope_response, read_params
from .talk import Talk, scrub

__all__ = ["RECORDER_KEY", "Recorder", "create_recorder"]


class Recorder:
    """The recording of one proxy: where it is written, the upstream, and the HTTP client that reaches it."""

    def __init__(self, upstream: str, path: str, *, timeout: float = 120.0) -> None:
        self.upstream = upstream.rstrip("/")
        self.path = path
        self.talk = Talk()
        self.timeout = timeout
        self._http: aiohttp.ClientSession | None = None

    def http(self) -> aiohttp.ClientSession:
        if self._http is None:
            # a held getUpdates may last as long as its own timeout: the read bound leaves it that room
            self._http = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(sock_connect=30, sock_read=self.timeout), auto_decompress=True
            )
        return self._http

    async def close(self, app: web.Application | None = None) -> None:
        if self._http is not None:
            await self._http.close()

    def add(self, token: str, method: str, params: dict[str, str], uploads: dict[str, str], status: int,
            answer: Any) -> None:
        call: dict[str, Any] = {"method": method, "params": scrub(params, token)}
        if uploads:
            call["uploads"] = uploads
        call |= {"status": status, "response": scrub(answer, token)}
        if method.lower() == "getme" and isinstance(answer, dict) and isinstance(answer.get("result"), dict):
            self.talk.bot = answer["result"]
        if method.lower() == "getupdates" and not (answer or {}).get("result"):
            return  # an empty poll says nothing of the conversation
        self.talk.calls.append(call)
        self.talk.save(self.path)


RECORDER_KEY = web.AppKey("recorder", Recorder)


async def _bot_call(request: web.Request) -> web.StreamResponse:
    recorder = request.app[RECORDER_KEY]
    token, method = request.match_info["token"], request.match_info["method"]
    try:
        params = await read_params(request)
    except TelegramError as exc:
        return envelope_response(exc.status, envelope_of(exc))
    data: Any
    if params.files:
        data = aiohttp.FormData()
        for name, value in params.values.items():
            data.add_field(name, value)
        for name, upload in params.files.items():
            data.add_field(name, upload.data, filename=upload.filename, content_type=upload.content_type)
    else:
        data = dict(params.values)
    url = f"{recorder.upstream}/bot{token}/{method}"
    try:
        async with recorder.http().post(url, data=data) as reply:
            body = await reply.read()
            status = reply.status
            content_type = reply.content_type
    except (aiohttp.ClientError, TimeoutError) as exc:
        text = UPSTREAM_UNREACHABLE.format(upstream=recorder.upstream, reason=exc or type(exc).__name__)
        return envelope_response(502, envelope_of(TelegramError(502, text)))
    try:
        answer = json.loads(body)
    except ValueError:
        answer = body.decode("utf-8", errors="replace")
    uploads = {name: "sha256:" + hashlib.sha256(u.data).hexdigest() for name, u in params.files.items()}
    recorder.add(token, method, params.summary(), uploads, status, answer)
    return web.Response(status=status, body=body, content_type=content_type)


async def _file(request: web.Request) -> web.StreamResponse:
    recorder = request.app[RECORDER_KEY]
    url = f"{recorder.upstream}{request.rel_url.raw_path}"
    try:
        async with recorder.http().get(url) as reply:
            body = await reply.read()
            return web.Response(status=reply.status, body=body, content_type=reply.content_type)
    except (aiohttp.ClientError, TimeoutError) as exc:
        return web.Response(status=502, text=f"the upstream did not answer: {exc or type(exc).__name__}\n")


def create_recorder(upstream: str, path: str, *, timeout: float = 120.0) -> web.Application:
    """The proxy's app: ``/bot<token>/<method>`` recorded, ``/file/bot<token>/<path>`` relayed."""
    app = web.Application(client_max_size=64 << 20)
    recorder = app[RECORDER_KEY] = Recorder(upstream, path, timeout=timeout)
    app.router.add_route("*", "/bot{token}/{method}", _bot_call)
    app.router.add_route("GET", "/file/bot{token}/{path:.+}", _file)
    app.on_cleanup.append(recorder.close)
    return app
