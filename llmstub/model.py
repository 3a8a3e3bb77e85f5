"""The public :class:`Model`: options, the Python API, and the thin aiohttp handlers that serve it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from aiohttp import web
from multidict import CIMultiDict

from . import wire
from .engine import ChatRequest, Engine, FallbackReply, Plan, RequestError
from .faults import ErrorFrame, FaultRun, chat_error_frame
from .generate import DEFAULT_MAX_MODEL_LEN, Dataset, register_fixtures
from .headers import PROFILE_HEADER, check_client_header
from .journal import JOURNAL_LIMIT, LogEntry
from .modes import MODES, ModeGenerator, ModeName
from .rules import Rule, RulesError, coerce_rules, parse_rules_json
from .streaming import send_paced
from .surface import Surface, register_surfaces

__all__ = ["DEFAULT_MODEL", "MAX_BODY", "MODEL_KEY", "Model", "ModelOptions"]

DEFAULT_MODEL = "tgfake-demo"
MAX_BODY = 8 << 20  # the Go stand's limit for model bodies; images in base64 need room
SHUTDOWN_GRACE = 5.0


@dataclass(frozen=True, slots=True)
class ModelOptions:
    """How a model is configured; the library defaults stream at once (the command's delay is 50 ms).

    ``rules`` takes :class:`Rule` objects or plain dicts (validated by the model). ``mode`` decides
    the answer of last resort: ``script`` says ``You said: <prompt>`` (or what ``fallback`` returns),
    ``echo`` and ``random`` generate it (seed 000) within ``max_model_len`` tokens (default 1024),
    reproducibly with ``seed``; ``dataset`` (random mode) is a SQLite file or an open
    :class:`~llmstub.generate.Dataset`. ``fixture_clock`` is "now" for ``/api/llm-completions``.
    ``shutdown_grace`` bounds how long open requests may delay the application's shutdown.
    """

    model_id: str = DEFAULT_MODEL
    rules: Sequence[Rule | Mapping[str, Any]] = ()
    answers: Sequence[str] = ()
    delay: float = 0.0
    chunk_words: int = 1
    strip_tags: Sequence[str] = ()
    client_header: str | None = None
    fallback: FallbackReply | None = None
    mode: ModeName = "script"
    max_model_len: int | None = None
    seed: int | None = None
    dataset: str | os.PathLike[str] | Dataset | None = None
    fixture_clock: Callable[[], datetime] | None = None
    journal_limit: int = JOURNAL_LIMIT
    shutdown_grace: float = SHUTDOWN_GRACE


class Model:
    """A scripted OpenAI-compatible model, mountable on any aiohttp application with :meth:`register`.

    State lives on the object (and the object on the app under :data:`MODEL_KEY`), so two stands
    can run in one process.
    """

    def __init__(self, options: ModelOptions | None = None) -> None:
        self._options = options or ModelOptions()
        if self._options.delay < 0:
            raise ValueError("delay must not be negative")
        self._generator = self._make_generator(self._options)
        self._engine = Engine(
            model_id=self._options.model_id,
            rules=coerce_rules(self._options.rules),
            answers=self._options.answers,
            chunk_words=self._options.chunk_words,
            strip_tags=self._options.strip_tags,
            fallback=self._options.fallback,
            generator=self._generator,
            journal_limit=self._options.journal_limit,
        )
        self._inflight: dict[asyncio.Future[None], asyncio.Task[Any] | None] = {}
        self._call_waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._reset_hooks: list[Callable[[], None]] = []

    @staticmethod
    def _make_generator(options: ModelOptions) -> ModeGenerator | None:
        """Check the mode settings and build echo/random's generator (opening the dataset).

        Raises ``ValueError`` for settings the mode cannot use, and
        :class:`~llmstub.generate.DatasetError` (naming the file) for an unusable dataset.
        """
        mode = options.mode
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if mode == "script":
            unused = [
                name
                for name in ("max_model_len", "seed", "dataset")
                if getattr(options, name) is not None
            ]
            if unused:
                raise ValueError(f"{', '.join(unused)} need mode echo or random (the mode is script)")
            return None
        if options.fallback is not None:
            raise ValueError(f"fallback replaces the answer of script mode; mode {mode} generates its own")
        if options.dataset is not None and mode != "random":
            raise ValueError("dataset needs mode random")
        window = DEFAULT_MAX_MODEL_LEN if options.max_model_len is None else options.max_model_len
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise ValueError(f"max_model_len must be a positive integer, not {window!r}")
        dataset = options.dataset
        if dataset is not None and not isinstance(dataset, Dataset):
            dataset = Dataset(Path(dataset))
        return ModeGenerator(mode, max_model_len=window, seed=options.seed, dataset=dataset)

    # ----- Python API -----

    @property
    def options(self) -> ModelOptions:
        return self._options

    @property
    def mode(self) -> ModeName:
        return self._options.mode

    @property
    def max_model_len(self) -> int | None:
        """The context window of echo and random modes (``None`` in script mode)."""
        return self._generator.max_model_len if self._generator else None

    @property
    def model_id(self) -> str:
        """The id the model reports, whatever model a request names."""
        return self._engine.model_id

    @property
    def engine(self) -> Engine:
        """The transport-free state (for modules that add routes, like ``/v1/completions``)."""
        return self._engine

    @property
    def calls(self) -> int:
        """Completion requests answered since start; numbers the ids and is never rewound."""
        return self._engine.calls

    @property
    def rules(self) -> list[Rule]:
        return self._engine.rules

    def log(self) -> list[LogEntry]:
        """Completed requests in reservation order (at most ``journal_limit``, the newest reservations)."""
        return self._engine.log()[0]

    def dropped(self) -> int:
        """Entries dropped from the journal since the last clear or reset."""
        return self._engine.log()[1]

    def clear_log(self) -> None:
        """Clear the journal; counters and cursors stay."""
        self._engine.clear_log()

    def set_rules(self, rules: Sequence[Rule | Mapping[str, Any]]) -> None:
        """Validate and replace the script, rewinding cursors; the journal and counters stay.

        Raises :class:`~llmstub.rules.RulesError` (nothing changes) when a rule is invalid.
        """
        self._engine.set_rules(coerce_rules(rules))

    def reset(self) -> None:
        """Clear the journal, rewind sequences, the canned answers and the seeded generator.

        The script and ids stay. State of the other surfaces (stored responses) is forgotten too.
        """
        self._engine.reset()
        for hook in self._reset_hooks:
            hook()

    def add_reset_hook(self, hook: Callable[[], None]) -> None:
        """Have :meth:`reset` call ``hook`` (a surface module's own state, such as stored responses)."""
        self._reset_hooks.append(hook)

    def close(self) -> None:
        """Close the dataset file the model opened itself (done at the app's cleanup)."""
        if self._generator and self._generator.dataset and not isinstance(self._options.dataset, Dataset):
            self._generator.dataset.close()

    @staticmethod
    def check_client_header(name: str) -> None:
        """Raise ``ValueError`` when ``name`` may not select the client key (credential-like)."""
        check_client_header(name)

    async def wait_idle(self) -> None:
        """Return once no completion request is in flight (streams and delayed steps included)."""
        while self._inflight:
            await asyncio.wait(list(self._inflight))

    async def wait_calls(self, count: int) -> None:
        """Return once ``count`` completion requests have been reserved since start (see :attr:`calls`).

        A test waits on this instead of sleeping until the bot has asked the model.
        """
        if self.calls >= count:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._call_waiters.append((count, waiter))
        try:
            await waiter
        finally:
            self._call_waiters = [(n, w) for n, w in self._call_waiters if w is not waiter]

    def _notify_calls(self) -> None:
        calls = self.calls
        for count, waiter in self._call_waiters:
            if count <= calls and not waiter.done():
                waiter.get_loop().call_soon_threadsafe(_resolve, waiter)

    # ----- mounting -----

    def register(self, app: web.Application) -> None:
        """Add the ``/v1`` routes, the ``/sim/llm`` routes, the fixture routes and the hooks to ``app``.

        Only routes under ``/v1/``, ``/sim/llm/`` and ``/api/llm-completions`` are added, so the host
        app's own catch-all can follow. The model is stored on the app under :data:`MODEL_KEY`.
        """
        app[MODEL_KEY] = self
        router = app.router
        router.add_route("*", "/v1/models", self._models)
        router.add_route("*", "/v1/chat/completions", self._chat)
        router.add_route("*", "/v1/completions", self._completions)
        register_surfaces(router, self)
        router.add_route("*", "/v1/{tail:.*}", self._not_found)
        router.add_get("/sim/llm/log", self._get_log)
        router.add_delete("/sim/llm/log", self._delete_log)
        router.add_put("/sim/llm/script", self._put_script)
        router.add_post("/sim/llm/reset", self._post_reset)
        register_fixtures(app, clock=self._options.fixture_clock)
        app.on_shutdown.append(self._on_shutdown)
        app.on_cleanup.append(self._on_cleanup)

    async def _on_cleanup(self, app: web.Application) -> None:
        self.close()

    async def _on_shutdown(self, app: web.Application) -> None:
        """Let open requests finish for up to ``shutdown_grace`` seconds, then end them."""
        if not self._inflight:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wait_idle(), self._options.shutdown_grace)
        for task in list(self._inflight.values()):
            if task is not None:
                task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.wait_idle()

    # ----- handlers -----

    @staticmethod
    def _method_not_allowed(allowed: str) -> web.Response:
        return web.Response(
            status=405, text="Method Not Allowed\n", headers={"Allow": allowed}, content_type="text/plain"
        )

    async def _not_found(self, request: web.Request) -> web.Response:
        return web.Response(status=404, text="404 page not found\n", content_type="text/plain")

    async def _models(self, request: web.Request) -> web.Response:
        if request.method not in ("GET", "HEAD"):
            return self._method_not_allowed("GET, HEAD")
        body = {"data": [{"id": self.model_id, "object": "model", "owned_by": "tgfake"}], "object": "list"}
        return _json(200, body)

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        return await self._complete(request, ChatRequest.from_body)

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        return await self._complete(request, ChatRequest.from_completion_body)

    async def serve(self, request: web.Request, surface: Surface) -> web.StreamResponse:
        """Answer a request of another API (a :class:`~llmstub.surface.Surface`) with the same engine."""
        return await self._complete(request, surface.parse, surface)

    async def _complete(
        self, request: web.Request, parse: Callable[..., ChatRequest], surface: Surface | None = None
    ) -> web.StreamResponse:
        """Read, validate and reserve a completion request, then deliver it.

        Chat and legacy completions answer in the engine's own shape; another ``surface`` (Responses,
        Messages) translates the request into a chat request and the reserved plan into its own wire.
        """
        if request.method != "POST":
            return self._method_not_allowed("POST")
        error = surface.error_body if surface else _openai_error
        raw = await _read_limited(request, MAX_BODY)
        if raw is None:
            return _json(413, error(413, f"request body is larger than {MAX_BODY} bytes"))
        try:
            body = json.loads(raw)
        except ValueError:
            return _json(400, error(400, "invalid JSON body"))
        client: str | None = None
        header = self._options.client_header
        if header:
            try:
                check_client_header(header)
            except ValueError as exc:
                return _json(400, error(400, str(exc)))
            client = request.headers.get(header, "")
        try:
            chat = parse(body, profile=request.headers.get(PROFILE_HEADER, ""), client=client)
        except RequestError as exc:
            return _json(400, error(400, str(exc)))
        plan = self._engine.reserve(chat)
        if surface is not None:
            plan = surface.render(plan, chat)
        self._notify_calls()
        return await self.deliver(request, plan, error_frame=surface.error_frame if surface else chat_error_frame)

    async def deliver(
        self, request: web.Request, plan: Plan, *, error_frame: ErrorFrame = chat_error_frame
    ) -> web.StreamResponse:
        """Carry out a reserved plan: wait its delay, send it (with its scripted fault), and journal it.

        A client that goes away (the handler is cancelled, or a write fails) is journaled as status
        499 with ``cancelled: true``. ``error_frame`` is the surface's error event, for the
        ``error_event`` fault.
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._inflight[done] = asyncio.current_task()
        sent = bytearray()
        headers = CIMultiDict({"Content-Type": plan.content_type})
        headers.update(plan.headers)
        response: web.StreamResponse
        fault = FaultRun(plan.fault, error_frame) if plan.fault is not None else None
        try:
            if plan.delay > 0:
                await asyncio.sleep(plan.delay)
            if fault is not None and fault.fault.kind == "delay":
                fault.injected = True
                await asyncio.sleep((fault.fault.duration_ms or 0) / 1000)
            if fault is not None and fault.fault.kind == "drop":
                fault.injected = True
                if request.transport is not None:
                    request.transport.close()
                response = web.Response(status=499)
            elif fault is not None and fault.fault.streamed and plan.streamed:
                response = await self._stream_fault(request, plan, headers, sent, fault)
            elif plan.streamed and self._options.delay > 0 and plan.pieces:
                response = web.StreamResponse(status=plan.status, headers=headers)
                await response.prepare(request)

                async def write(data: bytes) -> None:
                    await response.write(data)
                    sent.extend(data)

                await send_paced(write, plan.head, plan.pieces, plan.tail, self._options.delay)
                await response.write_eof()
            else:
                # Whole answers (a stream with no pause included) go out as one body: one write.
                body = plan.head + b"".join(plan.pieces) + plan.tail if plan.streamed else plan.body
                response = web.Response(status=plan.status, body=body, headers=headers)
                await response.prepare(request)
                await response.write_eof()
                sent.extend(body)
        except asyncio.CancelledError:
            self._journal_fault(plan, fault)
            self._engine.finish(plan, sent=bytes(sent), cancelled=True)
            raise
        except ConnectionError:
            self._journal_fault(plan, fault)
            self._engine.finish(plan, sent=bytes(sent), cancelled=True)
            return web.Response(status=499)
        else:
            self._journal_fault(plan, fault)
            self._engine.finish(plan, sent=bytes(sent))
            return response
        finally:
            del self._inflight[done]
            done.set_result(None)

    async def _stream_fault(
        self, request: web.Request, plan: Plan, headers: CIMultiDict[str], sent: bytearray, fault: FaultRun
    ) -> web.StreamResponse:
        """Play a stream's events one by one with the fault among them."""
        transport = request.transport
        response = web.StreamResponse(status=plan.status, headers=headers)
        await response.prepare(request)

        async def write(data: bytes) -> None:
            await response.write(data)
            sent.extend(data)

        cut = False

        def close() -> None:
            nonlocal cut
            cut = True
            if transport is not None:
                transport.close()

        await fault.stream(write, close, plan.head, plan.pieces, plan.tail, self._options.delay)
        if not cut:
            await response.write_eof()
        return response

    @staticmethod
    def _journal_fault(plan: Plan, fault: FaultRun | None) -> None:
        """Record what was injected; an answer the fault broke delivers no tool calls, like a failing step."""
        if fault is None:
            return
        plan.entry.setdefault("extra", {})["fault"] = fault.journal()
        if fault.fault.kind == "drop":
            plan.status = 0
        if fault.breaks_answer():
            plan.delivers = None

    async def _get_log(self, request: web.Request) -> web.Response:
        entries, dropped, calls = self._engine.log()
        return _json(
            200,
            {
                "calls": calls,
                "count": len(entries),
                "dropped": dropped,
                "entries": [e.as_dict() for e in entries],
            },
        )

    async def _delete_log(self, request: web.Request) -> web.Response:
        self._engine.clear_log()
        return _json(200, {"ok": True})

    async def _put_script(self, request: web.Request) -> web.Response:
        raw = await _read_limited(request, MAX_BODY)
        if raw is None:
            return _json(413, {"error": f"request body is larger than {MAX_BODY} bytes"})
        try:
            rules = parse_rules_json(raw)
        except RulesError as exc:
            return _json(400, {"error": str(exc)})
        self._engine.set_rules(rules)
        return _json(200, {"ok": True, "rules": len(rules)})

    async def _post_reset(self, request: web.Request) -> web.Response:
        self.reset()
        return _json(200, {"ok": True})


MODEL_KEY = web.AppKey("llmstub.model", Model)


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def _openai_error(status: int, message: str) -> dict[str, Any]:
    return wire.error_body(message)


def _json(status: int, body: Any) -> web.Response:
    return web.Response(status=status, text=wire.dumps(body) + "\n", content_type="application/json")


async def _read_limited(request: web.Request, limit: int) -> bytes | None:
    """The body, or ``None`` when it exceeds ``limit`` (read from the stream, past the app's own cap)."""
    chunks = bytearray()
    async for chunk in request.content.iter_chunked(64 << 10):
        chunks.extend(chunk)
        if len(chunks) > limit:
            return None
    return bytes(chunks)
