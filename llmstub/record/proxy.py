"""Record once, replay forever: a model that forwards ``/v1`` calls to a real provider and writes each
exchange into a rules file.

:class:`RecordingModel` is a :class:`~llmstub.model.Model` whose app gets one middleware in front of the
completion routes. A call with a recording left for its conversation (its rule's next step, as the
engine's cursor counts) is answered by the engine from the file, like ``--llm-script``; any other call is
sent to the upstream with the caller's own headers (its key included), the upstream's answer is relayed
as it arrives (a stream chunk by chunk), and the exchange becomes the rule's next step. Keys and headers
are never written: a step holds the answer, its pieces, tool calls, usage, and for a failure the status,
the error's words and the ``Retry-After`` headers.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import aiohttp
from aiohttp import web
from aiohttp.streams import StreamReader

from ..anthropic import MessagesSurface
from ..engine import ChatRequest, RequestError, extract_prompt
from ..errors import anthropic_error, openai_error
from ..headers import PROFILE_HEADER
from ..http import MAX_BODY, header_text, json_response, read_limited
from ..model import Model, ModelOptions
from ..responses import ResponsesSurface, ResponseStore
from .answers import UnreadableAnswer, read_error, read_success, read_vectors
from .recording import DEFAULT_MATCH, Recording, RuleKey, rule_key

__all__ = ["RECORD_MODES", "RecordOptions", "RecordingModel"]

RECORD_MODES = ("new", "all")
"""``new``: forward only what has no recording; ``all``: forward every call and record it again."""

RecordMode = Literal["new", "all"]

# path → (the API, whether the OpenAI upstream serves it); embeddings and legacy completions are relayed only
_ROUTES: dict[str, tuple[str, bool]] = {
    "/v1/chat/completions": ("chat", True),
    "/v1/responses": ("responses", True),
    "/v1/messages": ("messages", False),
    "/v1/embeddings": ("embeddings", True),
    "/v1/completions": ("completions", True),
}
_HOP = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "keep-alive", "accept-encoding", "te", "upgrade"}
)
_RELAY_DROP = frozenset({"content-length", "transfer-encoding", "content-encoding", "connection", "keep-alive"})

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Keep = Callable[[int, Mapping[str, str], bytes, bool], None]
"""What is done with a whole forwarded exchange: (status, headers, body, whether it was streamed)."""


@dataclass(frozen=True, slots=True)
class RecordOptions:
    """Where to forward and where to write. ``openai`` is a base URL as the OpenAI SDK takes it
    (``https://api.openai.com/v1``); ``anthropic`` an origin as the Anthropic SDK takes it
    (``https://api.anthropic.com``). ``timeout`` bounds the wait for the upstream's next byte."""

    file: Path
    openai: str | None = None
    anthropic: str | None = None
    mode: RecordMode = "new"
    match: tuple[str, ...] = DEFAULT_MATCH
    connect_timeout: float = 30.0
    timeout: float = 300.0


class RecordingModel(Model):
    """A model that records what an upstream answers (see the module); without ``record`` a plain model
    (sessions build their models from the options alone)."""

    def __init__(self, options: ModelOptions | None = None, record: RecordOptions | None = None) -> None:
        self.record_options = record
        self.recording = Recording(record.file, record.match) if record is not None else None
        options = options or ModelOptions()
        if self.recording is not None:
            options = replace(options, rules=self.recording.rules())
        super().__init__(options)
        self._replayable: dict[RuleKey, int] = {}
        self._positions: dict[tuple[RuleKey, str, str], int] = {}
        self._http: aiohttp.ClientSession | None = None
        self.unrecorded: list[str] = []
        """Why forwarded exchanges were not recorded (an answer the recorder could not read)."""
        self._snapshot()

    def _snapshot(self) -> None:
        """Remember how many steps each key has in the engine's rules (those are what it can replay)."""
        self._positions.clear()
        self._replayable = {}
        if self.recording is not None:
            for rule in self.recording.rules():
                data = rule.model_dump(exclude_none=True)
                self._replayable.setdefault(rule_key(data), len(rule.steps or ()))

    def register(self, app: web.Application) -> None:
        if self.record_options is not None:
            app.middlewares.append(self._middleware)
            app.on_cleanup.append(self._close_http)
        super().register(app)

    def reset(self) -> None:
        """A reset also rewinds the recording: what was recorded since is replayed from now on."""
        super().reset()
        if self.recording is not None:
            self.set_rules(self.recording.rules())
            self._snapshot()

    async def _close_http(self, app: web.Application) -> None:
        if self._http is not None:
            await self._http.close()

    # ----- the middleware -----

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        route = _ROUTES.get(request.path)
        options = self.record_options
        if route is None or request.method != "POST" or options is None or self.recording is None:
            return await handler(request)
        api, openai_side = route
        upstream = options.openai if openai_side else options.anthropic
        if upstream is None:
            return await handler(request)
        raw = await read_limited(request, MAX_BODY)
        if raw is None:
            message = f"request body is larger than {MAX_BODY} bytes"
            return json_response(413, (openai_error if openai_side else anthropic_error)(413, message))
        if api == "embeddings":
            return await self._embeddings(request, handler, raw, upstream)
        chat = self._chat_request(api, raw, request)
        if chat is None:  # legacy completions, or a body our parsers refuse: relayed only
            return await self._forward(request, raw, upstream, api, None)
        prompt = extract_prompt(chat.messages, self.options.strip_tags)
        filters = self.recording.filters(chat, prompt)
        key = rule_key(filters)
        cursor = (key, chat.profile, chat.client)
        position = self._positions.get(cursor, 0)
        self._positions[cursor] = position + 1
        if options.mode == "new" and position < self._replayable.get(key, 0):
            _restore_body(request, raw)
            return await handler(request)
        overwrite = options.mode == "all" or position >= self.recording.steps(key)
        recording = self.recording

        def keep(status: int, headers: Mapping[str, str], body: bytes, streamed: bool) -> None:
            step = read_error(status, headers, body) if status >= 400 else read_success(api, body, streamed)
            recording.record(filters, position, step)

        return await self._forward(request, raw, upstream, api, keep if overwrite else None)

    async def _embeddings(
        self, request: web.Request, handler: Handler, raw: bytes, upstream: str
    ) -> web.StreamResponse:
        """Inputs that all have a recorded vector are answered from the rules; the others go upstream, and each
        string input's vector is recorded (token arrays are relayed only)."""
        options, recording = self.record_options, self.recording
        assert options is not None
        assert recording is not None
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        inputs = body.get("input") if isinstance(body, dict) else None
        texts = [inputs] if isinstance(inputs, str) else inputs
        named = body.get("model") if isinstance(body, dict) else None
        model = named if isinstance(named, str) else ""
        if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
            return await self._forward(request, raw, upstream, "embeddings", None)
        filters = {"model": model} if "model" in options.match and model else {}
        keys = [rule_key({"match": t, **filters, "embedding": True}) for t in texts]
        if options.mode == "new" and all(self._replayable.get(key) is not None for key in keys):
            _restore_body(request, raw)
            return await handler(request)

        def keep(status: int, headers: Mapping[str, str], body: bytes, streamed: bool) -> None:
            if status < 400:
                for text, vector in zip(texts, read_vectors(body), strict=False):
                    recording.record_vector(text, model, vector)

        return await self._forward(request, raw, upstream, "embeddings", keep)

    def _chat_request(self, api: str, raw: bytes, request: web.Request) -> ChatRequest | None:
        """The request as the engine reads it, or ``None`` when it is not recorded."""
        if api not in ("chat", "responses", "messages"):
            return None
        try:
            body = json.loads(raw)
            client = header_text(request, self.options.client_header) if self.options.client_header else None
            profile = header_text(request, PROFILE_HEADER)
            if api == "responses":
                return ResponsesSurface(self.state(ResponseStore)).parse(body, profile=profile, client=client)
            if api == "messages":
                return MessagesSurface.parse(body, profile=profile, client=client)
            return ChatRequest.from_body(body, profile=profile, client=client)
        except (ValueError, RequestError):
            return None

    async def _forward(
        self,
        request: web.Request,
        raw: bytes,
        upstream: str,
        api: str,
        keep: Keep | None,
    ) -> web.StreamResponse:
        """Send the call upstream, relay its answer as it arrives, and hand the whole exchange to ``keep``."""
        path = request.path.removeprefix("/v1") if api != "messages" else request.path
        url = upstream.rstrip("/") + path
        headers = {name: value for name, value in request.headers.items() if name.lower() not in _HOP}
        headers["Accept-Encoding"] = "identity"
        options = self.record_options
        assert options is not None
        if self._http is None:
            timeout = aiohttp.ClientTimeout(sock_connect=options.connect_timeout, sock_read=options.timeout)
            self._http = aiohttp.ClientSession(timeout=timeout, auto_decompress=False)
        answer = web.StreamResponse()
        received = bytearray()
        try:
            async with self._http.post(url, data=raw, headers=headers, params=request.rel_url.query) as reply:
                answer.set_status(reply.status, reply.reason)
                for name, value in reply.headers.items():
                    if name.lower() not in _RELAY_DROP:
                        answer.headers.add(name, value)
                await answer.prepare(request)
                async for chunk in reply.content.iter_any():
                    received += chunk
                    await answer.write(chunk)
                status, reply_headers = reply.status, dict(reply.headers)
                streamed = reply.content_type == "text/event-stream"
        except (aiohttp.ClientError, TimeoutError) as exc:
            if answer.prepared:  # the upstream broke off midway: so does the caller's answer, and nothing is recorded
                self.unrecorded.append(f"{url}: the upstream's answer broke off ({type(exc).__name__})")
                if request.transport is not None:
                    request.transport.abort()
                return answer
            message = f"the upstream {url} did not answer: {exc or type(exc).__name__}"
            shape = anthropic_error if api == "messages" else openai_error
            return json_response(502, shape(502, message))
        await answer.write_eof()
        if keep is not None:
            try:
                keep(status, reply_headers, bytes(received), streamed)
            except (UnreadableAnswer, OSError) as exc:
                self.unrecorded.append(f"{url}: {exc}")
                sys.stderr.write(f"tgfake: not recorded: {url}: {exc}\n")
        return answer


def _restore_body(request: web.Request, raw: bytes) -> None:
    """Give the request its body back (the middleware read it) for the model's own handler."""
    reader = StreamReader(request.protocol, 1 << 16, loop=asyncio.get_running_loop())
    reader.feed_data(raw)
    reader.feed_eof()
    request._payload = reader
    request._cache.pop("content", None)  # (``content`` is reified: the consumed reader was cached)
