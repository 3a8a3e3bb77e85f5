"""The public :class:`Model`: options, the Python API, and the thin aiohttp handlers that serve it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any

from aiohttp import web
from multidict import CIMultiDict

from . import anthropic, responses
from .engine import ChatRequest, Engine, Plan, RequestError
from .errors import anthropic_error, openai_error
from .extras import register_extras
from .faults import ErrorFrame, FaultRun, chat_error_frame
from .generate import DEFAULT_MAX_MODEL_LEN, Dataset, register_fixtures
from .headers import PROFILE_HEADER, check_client_header
from .http import (
    MAX_BODY,
    SURROGATES,
    error_response,
    header_text,
    json_response,
    method_not_allowed,
    read_json,
    read_limited,
    stored,
)
from .journal import LogEntry
from .modes import MODES, ModeGenerator, ModeName
from .options import DEFAULT_MODEL, ModelOptions
from .quota import Quota, estimate_tokens
from .rules import Rule, RulesError, coerce_rules, parse_rules_json
from .serving import Clearable, S
from .streaming import send_paced
from .surface import Surface

__all__ = [
    "DEFAULT_MODEL",
    "MAX_BODY",
    "MODEL_KEY",
    "REQUEST_ID",
    "REQUEST_MODEL",
    "Model",
    "ModelOptions",
    "request_id",
]


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
            wall_clock=self.clock,
            usage_on_request=self._options.usage_on_request,
        )
        self.quota = Quota(rpm=self._options.rpm, tpm=self._options.tpm, clock=self.clock)
        self._counters: dict[str, int] = {}
        self._inflight: set[asyncio.Task[Any]] = set()  # the tasks delivering an answer now
        self._call_waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._states: dict[type[Clearable], Clearable] = {}
        self._ids = random.Random()  # request ids (seeded from the system's entropy)

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

    def clock(self) -> float:
        """The model's time (``ModelOptions.clock``, else the wall clock), seconds since the epoch."""
        return (self._options.clock or time.time)()

    def next_id(self, kind: str) -> int:
        """The next number of ``kind``'s ids (``modr-tgfake-<n>``); never rewound, like completion ids."""
        self._counters[kind] = number = self._counters.get(kind, 0) + 1
        return number

    def new_request_id(self) -> str:
        """A ``/v1`` request's id: ``req_`` and 32 hex digits, like OpenAI's. Random but not secret, so from the
        model's own generator: ``os.urandom`` is a system call per request."""
        return f"req_{self._ids.getrandbits(128):032x}"

    def serving(self, request: web.Request) -> Model:
        """The model that serves ``request``: the one a host app put under :data:`REQUEST_MODEL` (one
        model per test session behind shared routes), else this one."""
        for key in request:  # (one scan of the request's few keys: a missing key's ``get`` raises inside)
            if key is REQUEST_MODEL or key == REQUEST_MODEL_NAME:  # (the string: a host without the typed key)
                chosen = request[key]
                if isinstance(chosen, Model):
                    return chosen
        return self

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
        """Clear the journal, rewind sequences, the canned answers, the seeded generator and the quota
        window.

        The script and ids stay. State of the other surfaces (stored responses) is forgotten too.
        """
        self._engine.reset()
        self.quota.reset()
        for state in self._states.values():
            state.clear()

    def state(self, kind: type[S]) -> S:
        """This model's own ``kind()`` (a surface's state, such as stored responses), made on first use;
        :meth:`reset` clears it. Kept per model, so each session's model has its own."""
        found = self._states.get(kind)
        if found is None:
            found = self._states[kind] = kind()
        assert isinstance(found, kind)
        return found

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
            await asyncio.wait(self._inflight, return_when=asyncio.FIRST_COMPLETED)

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
        if not self._call_waiters:
            return
        calls = self.calls
        for count, waiter in self._call_waiters:
            if count <= calls and not waiter.done():
                waiter.get_loop().call_soon_threadsafe(_resolve, waiter)

    # ----- mounting -----

    def register(self, app: web.Application) -> None:
        """Add the ``/v1`` routes, the ``/sim/llm`` routes, the fixture routes and the hooks to ``app``.

        Only routes under ``/v1/``, ``/sim/llm/`` and ``/api/llm-completions`` are added, so the host
        app's own catch-all can follow. The model is stored on the app under :data:`MODEL_KEY`. Every
        handler serves with :meth:`serving` (so a host app may route requests to other models), and
        every ``/v1`` answer goes through one wrapper (:meth:`_v1`): request id, processing time and
        the quotas, for routes added here by other modules too.
        """
        app[MODEL_KEY] = self
        router = app.router
        route, v1 = self.route, self.v1_route
        router.add_route("*", "/v1/models", v1(Model._models))
        router.add_route("*", "/v1/models/{model_id:.+}", v1(Model._model))
        router.add_route("*", "/v1/chat/completions", v1(Model._chat))
        router.add_route("*", "/v1/completions", v1(Model._completions))
        register_extras(router, v1)
        router.add_route("*", responses.ENDPOINT, v1(responses.create_response))
        router.add_route("*", responses.ENDPOINT + "/{id}", v1(responses.one_response))
        router.add_route("*", anthropic.ENDPOINT, v1(anthropic.create_message))
        router.add_route("*", "/v1/{tail:.*}", v1(Model._not_found))
        router.add_get("/sim/llm/log", route(Model._get_log))
        router.add_delete("/sim/llm/log", route(Model._delete_log))
        router.add_put("/sim/llm/script", route(Model._put_script))
        router.add_post("/sim/llm/reset", route(Model._post_reset))
        register_fixtures(
            app, clock=self._options.fixture_clock, clock_of=lambda r: self.serving(r)._options.fixture_clock
        )
        app.on_shutdown.append(self._on_shutdown)
        app.on_cleanup.append(self._on_cleanup)

    def route(self, handler: ModelHandler) -> RouteHandler:
        """Wrap ``handler(model, request)`` as a route handler serving with :meth:`serving`."""

        async def serve(request: web.Request) -> web.StreamResponse:
            return await handler(self.serving(request), request)

        return serve

    # ----- the /v1 wrapper -----

    def v1_route(self, handler: ModelHandler) -> RouteHandler:
        """Wrap a ``/v1`` handler: number the request and hold it to the quotas before it is read, and give its
        answer, streamed or whole, OpenAI's (or Anthropic's) request id and processing time.

        A route wrapper rather than an app middleware, so that a session's requests (routed again by
        ``tgfake``'s sessions middleware, past the app's middlewares) get the same treatment.
        """

        async def serve(request: web.Request) -> web.StreamResponse:
            request[REQUEST_STARTED] = time.monotonic()
            model = self.serving(request)
            request[REQUEST_ID] = model.new_request_id()
            refused = model._admit(request)
            response: web.StreamResponse
            if refused is not None:
                response = refused
            else:
                try:
                    response = await handler(model, request)
                except web.HTTPException as exc:
                    answer_headers(request, exc.headers)
                    raise
            if not response.prepared:  # (the streamed ones got them from deliver, before their first byte)
                answer_headers(request, response.headers)
            return response

        return serve

    def _admit(self, request: web.Request) -> web.Response | None:
        """The quotas' 429 for a ``POST`` over them, else ``None`` (their headers kept for the answer)."""
        quota = self.quota
        if not quota.enabled or request.method != "POST":
            return None
        verdict = quota.admit(estimate_tokens(request.content_length or 0), self.model_id)
        request[REQUEST_HEADERS] = verdict.headers
        if verdict.refusal is None:
            return None
        if _anthropic(request.path):
            return json_response(429, anthropic_error(429, verdict.refusal["error"]["message"]))
        return json_response(429, verdict.refusal)

    async def _on_cleanup(self, app: web.Application) -> None:
        self.close()

    async def _on_shutdown(self, app: web.Application) -> None:
        """Let open requests finish for up to ``shutdown_grace`` seconds, then end them."""
        if not self._inflight:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wait_idle(), self._options.shutdown_grace)
        for task in list(self._inflight):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.wait_idle()

    # ----- handlers -----

    method_not_allowed = staticmethod(method_not_allowed)

    async def _not_found(self, request: web.Request) -> web.Response:
        return web.Response(status=404, text="404 page not found\n", content_type="text/plain")

    async def _models(self, request: web.Request) -> web.Response:
        if request.method not in ("GET", "HEAD"):
            return self.method_not_allowed("GET, HEAD")
        body = {"data": [{"id": self.model_id, "object": "model", "owned_by": "tgfake"}], "object": "list"}
        return json_response(200, body)

    async def _model(self, request: web.Request) -> web.Response:
        """``GET /v1/models/{id}``: any id is served (as any model name is accepted), reported as asked."""
        if request.method not in ("GET", "HEAD"):
            return self.method_not_allowed("GET, HEAD")
        model_id = request.match_info["model_id"]
        if SURROGATES.search(model_id):
            return error_response(400, "the model id is not valid UTF-8", param="model")
        return json_response(200, {"created": 0, "id": model_id, "object": "model", "owned_by": "tgfake"})

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
            return self.method_not_allowed("POST")
        error = surface.error_body if surface else openai_error
        body = await read_json(request, error)
        if isinstance(body, web.Response):
            return body
        client: str | None = None
        header = self._options.client_header
        try:
            if header:
                check_client_header(header)
                client = header_text(request, header)
            profile = header_text(request, PROFILE_HEADER)
        except ValueError as exc:
            return json_response(400, error(400, str(exc)))
        try:
            chat = parse(body, profile=profile, client=client)
        except RequestError as exc:
            return json_response(400, error(400, str(exc), param=exc.param))
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
        # The loop from the connection's task: asyncio.get_running_loop() and current_task() without one each ask
        # the kernel for the process id (a system call apiece on Python 3.11), twice per answer.
        task = asyncio.current_task(request.task.get_loop())
        assert task is not None  # (aiohttp runs every handler in a task of its own)
        self._inflight.add(task)
        sent = bytearray()  # what a stream wrote so far; ``whole`` once a whole answer is out
        whole: bytes | None = None
        headers = CIMultiDict(plan.headers)
        headers.setdefault("Content-Type", plan.content_type)  # (a scripted step may set its own)
        plan.entry["request_id"] = headers.get("x-request-id") or headers.get("request-id") or request_id(request)
        response: web.StreamResponse
        fault = FaultRun(plan.fault, error_frame) if plan.fault is not None else None
        try:
            if plan.delay > 0:
                await asyncio.sleep(plan.delay)
            if fault is not None and fault.fault.kind == "delay":
                fault.injected = True
                await asyncio.sleep((fault.fault.duration_ms or 0) / 1000)
            answer_headers(request, headers)  # before the first byte: the processing time includes the delays
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
                whole = body
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
            self._engine.finish(plan, sent=bytes(sent) if whole is None else whole)
            return response
        finally:
            self._inflight.discard(task)

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
        return json_response(
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
        return json_response(200, {"ok": True})

    async def _put_script(self, request: web.Request) -> web.Response:
        raw = await read_limited(request, MAX_BODY)
        if raw is None:
            return json_response(413, {"error": f"request body is larger than {MAX_BODY} bytes"})
        try:
            rules = parse_rules_json(raw)
        except RulesError as exc:
            return json_response(400, {"error": str(exc)})
        self._engine.set_rules(rules)
        return json_response(200, {"ok": True, "rules": len(rules)})

    async def _post_reset(self, request: web.Request) -> web.Response:
        self.reset()
        return json_response(200, {"ok": True})


MODEL_KEY = web.AppKey("llmstub.model", Model)
REQUEST_MODEL_NAME = "llmstub.model"
REQUEST_MODEL: web.RequestKey[Model] = web.RequestKey(REQUEST_MODEL_NAME, Model)
"""Set by a host app's middleware to the :class:`Model` that serves this request (one per session)."""
REQUEST_ID: web.RequestKey[str] = web.RequestKey("llmstub.request_id", str)
REQUEST_STARTED: web.RequestKey[float] = web.RequestKey("llmstub.started", float)
REQUEST_HEADERS: web.RequestKey[dict[str, str]] = web.RequestKey("llmstub.quota_headers", dict)

ModelHandler = Callable[[Model, web.Request], Awaitable[web.StreamResponse]]
RouteHandler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_ANTHROPIC_PREFIX = "/v1/messages"


def _anthropic(path: str) -> bool:
    """Whether ``path`` is an Anthropic route, whose answers carry ``request-id`` and its error shape."""
    return path == _ANTHROPIC_PREFIX or path.startswith(_ANTHROPIC_PREFIX + "/")


def answer_headers(request: web.Request, headers: MutableMapping[str, str]) -> None:
    """Set a ``/v1`` answer's request id (``request-id`` on Anthropic's routes), OpenAI's ``openai-processing-ms``
    and the quota headers, where the answer does not set them itself."""
    if _anthropic(request.path):
        headers.setdefault("request-id", request_id(request))
    else:
        headers.setdefault("x-request-id", request_id(request))
        headers.setdefault("openai-processing-ms", str(round((time.monotonic() - request[REQUEST_STARTED]) * 1000)))
    for key, value in stored(request, REQUEST_HEADERS, {}).items():
        headers.setdefault(key, value)


def request_id(request: web.Request) -> str:
    """The id of this ``/v1`` request (made on first use): ``req_`` and 32 hex digits, like OpenAI's."""
    rid = stored(request, REQUEST_ID)
    if rid is None:
        rid = request[REQUEST_ID] = "req_" + os.urandom(16).hex()  # uuid4().hex took four times as long
    return rid


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
