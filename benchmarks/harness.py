"""One benchmark run: a bare aiohttp baseline and a tgfake stand served side by side, driven over loopback.

Every number is a ratio against the baseline measured in the same process and run, so a slower or busier
machine moves both sides; absolute numbers are only for the record. Counts are bounded: the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import json
import math
import os
import platform
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from tgfake.app import create_app
from tgfake.keys import STAND
from tgfake.options import Options
from tgfake.stand import Signal

TOKEN = "123456:bench"
CHAT = 4242
KEYBOARD = json.dumps(
    {"inline_keyboard": [[{"text": "Ping", "callback_data": "ping"}, {"text": "Docs", "url": "https://example.org"}]]}
)
SEND_FORM = urlencode({"chat_id": str(CHAT), "text": "Hello from the bench", "reply_markup": KEYBOARD}).encode()
HTML_TEXT = (
    '<b>Order #1234</b>\nYou picked <i>Red</i>, see <a href="https://example.com/orders/1234">details</a>.\n'
    "Total: <code>42.00</code> <tg-spoiler>and a gift</tg-spoiler>"
)
HTML_FORM = urlencode(
    {"chat_id": str(CHAT), "text": HTML_TEXT, "parse_mode": "HTML", "reply_markup": KEYBOARD}
).encode()
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
JSON = {"Content-Type": "application/json"}
HOLD_TIMEOUT = 30  # seconds a held request may wait on the server; a round normally takes well under 1 ms
CLIENT_TIMEOUT = aiohttp.ClientTimeout(total=60)


def words(n: int) -> str:
    """An answer of exactly ``n`` words."""
    return " ".join(f"word{i}" for i in range(1, n + 1))


@dataclass(slots=True)
class Config:
    """How much to measure; the defaults take about half a minute on 2 cores."""

    requests: int = 2000  # per throughput row and repeat
    concurrency: int = 4  # clients in flight for throughput rows
    rounds: int = 300  # per wake-up row and repeat (held request woken, one at a time)
    repeats: int = 3  # each row measured this often, interleaved with its baseline
    chat_messages: int = 200  # the transcript's size for the chat row
    stream_requests: int = 500  # streamed answers for the stream row (and its baseline)
    stream_words: int = 200
    pacing_streams: int = 5
    pacing_words: int = 20
    pacing_delay: float = 0.020
    load_concurrency: int = 50  # clients in flight for the tail-under-load rows (wrk -c50)
    memory_messages: int = 100_000  # stored messages for the memory rows


@dataclass(slots=True)
class Row:
    """One line of the table. ``rate`` is per second (requests, rounds, frames or chunks: see ``unit``).

    ``ratio`` compares with ``baseline``: for throughput rows the rate over the baseline's rate (higher is
    better), for wake-up rows the p50 over the baseline's p50 (lower is better); ``ratio_of`` says which.
    """

    name: str
    unit: str
    count: int
    rate: float
    p50_ms: float
    p99_ms: float
    baseline: str = ""
    ratio: float | None = None
    ratio_of: str = ""
    extra: dict[str, float] = field(default_factory=dict)


@dataclass(slots=True)
class Report:
    rows: list[Row]
    skipped: dict[str, str]
    config: Config
    meta: dict[str, Any]

    def row(self, name: str) -> Row:
        return next(r for r in self.rows if r.name == name)

    def json(self) -> dict[str, Any]:
        return {
            "meta": self.meta,
            "config": asdict(self.config),
            "rows": [asdict(r) for r in self.rows],
            "skipped": self.skipped,
        }


class BenchError(Exception):
    """A request the benchmark relies on did not succeed: the numbers would be meaningless."""


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..1) of ``samples``."""
    ordered = sorted(samples)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


# --- the baselines: bare aiohttp handlers doing the same transport work as the row they are compared with -------
# A fair floor reads the body the row's client sends and answers a body of about the same size and shape, encoded
# per request as any handler would: the client's work (encoding a form, reading a longer answer) is then on both
# sides, and the ratio is what the stand itself costs. See docs/benchmarks.md, "Fair baselines".
class Baseline:
    """State of the bare app: held requests waiting to be woken, and the bytes the stream and text baselines write."""

    def __init__(self) -> None:
        self.waiters: list[asyncio.Future[None]] = []
        self.held = asyncio.Event()
        self.stream_events: list[bytes] = []
        self.text_body = b""
        self.completion_text = ""
        self.next_id = 0


BASELINE = web.AppKey("bench.baseline", Baseline)
BASE_BOT = {"id": 123456, "is_bot": True, "first_name": "bench", "username": "bench_bot"}


async def base_json(request: web.Request) -> web.Response:
    return web.json_response({"ok": True, "result": {"id": 1, "is_bot": True, "first_name": "bench"}})


async def base_me(request: web.Request) -> web.Response:
    """getMe's floor: a POST whose (empty) body is read, answered with a getMe-sized result."""
    await request.read()
    me = {**BASE_BOT, "can_join_groups": True, "can_read_all_group_messages": False, "supports_inline_queries": False}
    return web.json_response({"ok": True, "result": me})


async def base_form(request: web.Request) -> web.Response:
    """sendMessage's floor: the form parsed, its markup decoded, a message of the same shape answered."""
    state = request.app[BASELINE]
    form = await request.post()
    state.next_id += 1
    message = {
        "message_id": state.next_id,
        "from": BASE_BOT,
        "chat": {"id": int(str(form["chat_id"])), "type": "private"},
        "date": int(time.time()),
        "text": form["text"],
        "reply_markup": json.loads(str(form["reply_markup"])),
    }
    return web.json_response({"ok": True, "result": message})


async def base_post_json(request: web.Request) -> web.Response:
    """``POST /sim/message``'s floor: the JSON body decoded, two ids answered."""
    state = request.app[BASELINE]
    await request.json()
    state.next_id += 1
    return web.json_response({"message_id": state.next_id, "update_id": state.next_id})


async def base_completion(request: web.Request) -> web.Response:
    """A non-streamed chat completion's floor: the request decoded, a completion of the same answer encoded."""
    state = request.app[BASELINE]
    body = await request.json()
    state.next_id += 1
    answer = {
        "id": f"chatcmpl-{state.next_id}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body["model"],
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": state.completion_text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 200, "total_tokens": 201},
    }
    return web.json_response(answer)


async def base_text(request: web.Request) -> web.Response:
    """The transcript row's floor: a text body of the transcript's size."""
    return web.Response(body=request.app[BASELINE].text_body, content_type="text/plain")


async def base_hold(request: web.Request) -> web.Response:
    state = request.app[BASELINE]
    waiter = asyncio.get_running_loop().create_future()
    state.waiters.append(waiter)
    state.held.set()
    await asyncio.wait_for(waiter, HOLD_TIMEOUT)
    return web.json_response({"ok": True, "result": []})


async def base_held(request: web.Request) -> web.Response:
    await request.app[BASELINE].held.wait()
    return web.json_response({"held": True})


async def base_wake(request: web.Request) -> web.Response:
    state = request.app[BASELINE]
    for waiter in state.waiters:
        if not waiter.done():
            waiter.set_result(None)
    state.waiters.clear()
    state.held.clear()
    return web.json_response({"ok": True})


async def base_stream(request: web.Request) -> web.StreamResponse:
    """A stream's floor: the request read, then the same SSE events as the model's, one write per event, as a
    bare streaming server sends them."""
    await request.json()
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
    await response.prepare(request)
    for event in request.app[BASELINE].stream_events:
        await response.write(event)
    await response.write_eof()
    return response


def baseline_app() -> web.Application:
    app = web.Application()
    app[BASELINE] = Baseline()
    app.router.add_get("/json", base_json)
    app.router.add_post("/me", base_me)
    app.router.add_post("/form", base_form)
    app.router.add_post("/post-json", base_post_json)
    app.router.add_post("/completion", base_completion)
    app.router.add_get("/text", base_text)
    app.router.add_get("/hold", base_hold)
    app.router.add_get("/held", base_held)
    app.router.add_post("/wake", base_wake)
    app.router.add_post("/stream", base_stream)
    return app


@asynccontextmanager
async def serving(app: web.Application) -> AsyncIterator[str]:
    """Serve ``app`` on 127.0.0.1 (free port) as the command does (no access log); yields the origin."""
    runner = web.AppRunner(app, handler_cancellation=True, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


# --- drivers ------------------------------------------------------------------------------------------------------
async def fetch(session: aiohttp.ClientSession, method: str, url: str, **kw: Any) -> bytes:
    async with session.request(method, url, **kw) as resp:
        body = await resp.read()
        if resp.status != 200:
            raise BenchError(f"{method} {url}: {resp.status} {body[:200]!r}")
        return body


Send = Callable[[], Awaitable[object]]


async def drive(send: Send, total: int, concurrency: int) -> tuple[float, list[float]]:
    """``total`` sends from ``concurrency`` workers; returns (sends per second, each send's latency)."""
    latencies: list[float] = []
    left = total

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            started = time.perf_counter()
            await send()
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(max(1, concurrency))))
    return total / (time.perf_counter() - started), latencies


async def throughput(name: str, send: Send, cfg: Config, *, total: int = 0, unit: str = "requests") -> Row:
    total = total or cfg.requests
    await drive(send, max(1, total // 20), cfg.concurrency)  # warm-up: connections, caches
    rate, lat = await drive(send, total, cfg.concurrency)
    return Row(name, unit, total, round(rate, 1), ms(percentile(lat, 0.5)), ms(percentile(lat, 0.99)))


async def wake_rounds(
    rounds: int,
    hold: Send,
    until_held: Send,
    trigger: Send,
) -> tuple[list[float], float]:
    """Per round: start a held request, wait (on a server signal) until it is held, send the trigger.

    A sample is the time from the trigger's answer to the held request's answer, as a client sees both
    (floored at 0, should the held answer ever arrive first). Returns (samples, seconds taken).
    """
    samples: list[float] = []
    started = time.perf_counter()
    for _ in range(rounds):
        answered: list[float] = []

        async def held() -> None:
            await hold()
            answered.append(time.perf_counter())  # noqa: B023 - awaited within this iteration

        task = asyncio.create_task(held())
        holding = asyncio.ensure_future(until_held())
        await asyncio.wait({task, holding}, return_when=asyncio.FIRST_COMPLETED)
        if not holding.done():
            holding.cancel()
            await task  # raises if the held request failed
            raise BenchError("a held request answered before it was woken")
        await holding
        await trigger()
        triggered = time.perf_counter()
        await task
        samples.append(max(0.0, answered[0] - triggered))
    return samples, time.perf_counter() - started


class HeldProbe(Signal):
    """The stand's call signal, instrumented: says when a waiter (``GET /sim/wait``) starts holding.

    The Bot API has ``/sim/wait?polling=1`` to know a getUpdates is held; nothing on the wire says a
    ``/sim/wait`` is, so the harness (same process) watches the signal it waits on. Behaviour is unchanged.
    """

    def __init__(self) -> None:
        super().__init__()
        self.entered = asyncio.Event()

    async def wait(self, timeout: float) -> None:
        self.entered.set()
        await super().wait(timeout)


def ratio(row: Row, base: Row, of: str) -> Row:
    row.baseline = base.name
    row.ratio_of = of
    if of == "rate":
        row.ratio = round(row.rate / base.rate, 3) if base.rate else None
    else:
        row.ratio = round(row.p50_ms / base.p50_ms, 3) if base.p50_ms else None
    return row


# --- the rows -----------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Floor:
    """A baseline: the bare handler doing the transport work of the rows compared with it."""

    name: str
    send: Send


@dataclass(slots=True)
class Spec:
    """A throughput row: how to prepare the stand (run before every repeat), the request to repeat, its floor."""

    name: str
    send: Send
    setup: Callable[[], Awaitable[None]]
    floor: Floor


async def best_of(cfg: Config, specs: list[Spec], *, total: int = 0, unit: str = "requests") -> list[Row]:
    """Each row ``cfg.repeats`` times, each time right after a slice of its floor; every side keeps its best slice.

    Interleaving and best-of keep a neighbour's burst of CPU (2 shared cores) from landing on one side only. Each
    floor's row comes before the first row compared with it.
    """
    best: dict[str, Row] = {}

    def keep(row: Row) -> None:
        if row.name not in best or row.rate > best[row.name].rate:
            best[row.name] = row

    for _ in range(cfg.repeats):
        for spec in specs:
            await spec.setup()
            keep(await throughput(spec.floor.name, spec.floor.send, cfg, total=total, unit=unit))
            keep(await throughput(spec.name, spec.send, cfg, total=total, unit=unit))
    rows: list[Row] = []
    for spec in specs:
        base = best[spec.floor.name]
        if all(row is not base for row in rows):
            base.ratio, base.ratio_of, base.baseline = 1.0, "rate", base.name
            rows.append(base)
        rows.append(ratio(best[spec.name], base, "rate"))
    return rows


async def stand_rows(
    s: aiohttp.ClientSession,
    stand_url: str,
    base_url: str,
    app: web.Application,
    base_app: web.Application,
    cfg: Config,
) -> list[Row]:
    bot = f"{stand_url}/bot{TOKEN}"
    say = json.dumps({"text": "hello"}).encode()

    async def reset() -> None:
        await fetch(s, "POST", f"{stand_url}/sim/reset")

    async def fill_chat() -> None:
        await reset()
        for i in range(cfg.chat_messages // 2):
            await fetch(
                s, "POST", f"{stand_url}/sim/message", data=json.dumps({"text": f"question {i}"}).encode(), headers=JSON
            )
            await fetch(s, "POST", f"{bot}/sendMessage", data=SEND_FORM, headers=FORM)
        base_app[BASELINE].text_body = await fetch(s, "GET", f"{stand_url}/sim/chat/{CHAT}?format=text")

    me = Floor("baseline: bare POST, getMe-sized JSON", lambda: fetch(s, "POST", f"{base_url}/me"))
    form = Floor(
        "baseline: bare POST form read, message JSON",
        lambda: fetch(s, "POST", f"{base_url}/form", data=SEND_FORM, headers=FORM),
    )
    sim = Floor(
        "baseline: bare POST JSON read, small JSON",
        lambda: fetch(s, "POST", f"{base_url}/post-json", data=say, headers=JSON),
    )
    text = Floor("baseline: bare GET, transcript-sized text", lambda: fetch(s, "GET", f"{base_url}/text"))
    specs = [
        Spec("getMe", lambda: fetch(s, "POST", f"{bot}/getMe"), reset, me),
        Spec(
            "sendMessage (form, inline keyboard)",
            lambda: fetch(s, "POST", f"{bot}/sendMessage", data=SEND_FORM, headers=FORM),
            reset,
            form,
        ),
        Spec(
            "sendMessage (form, parse_mode HTML)",
            lambda: fetch(s, "POST", f"{bot}/sendMessage", data=HTML_FORM, headers=FORM),
            reset,
            form,
        ),
        Spec(
            "POST /sim/message",
            lambda: fetch(s, "POST", f"{stand_url}/sim/message", data=say, headers=JSON),
            reset,
            sim,
        ),
        Spec(
            f"GET /sim/chat/{{id}}?format=text ({cfg.chat_messages} msgs)",
            lambda: fetch(s, "GET", f"{stand_url}/sim/chat/{CHAT}?format=text"),
            fill_chat,
            text,
        ),
    ]
    rows = await best_of(cfg, specs)
    rows[-1].extra["transcript_bytes"] = len(base_app[BASELINE].text_body)
    return rows + await wake_rows(s, stand_url, base_url, app, cfg)


async def wake_rows(
    s: aiohttp.ClientSession, stand_url: str, base_url: str, app: web.Application, cfg: Config
) -> list[Row]:
    """One held request at a time, woken by the sim (or the bot) on the same origin; samples pooled over repeats."""
    bot = f"{stand_url}/bot{TOKEN}"
    say = json.dumps({"text": "hello"}).encode()
    offset = 0
    seen = 0
    stand = app[STAND]
    probe = HeldProbe()

    async def poll() -> None:
        nonlocal offset
        body = json.loads(await fetch(s, "GET", f"{bot}/getUpdates?offset={offset}&timeout={HOLD_TIMEOUT}"))
        if body["result"]:
            offset = body["result"][-1]["update_id"] + 1

    async def wait_send() -> None:
        nonlocal seen
        await fetch(s, "GET", f"{stand_url}/sim/wait?method=sendMessage&count=1&since={seen}&timeout={HOLD_TIMEOUT}")
        seen += 1

    async def until_waiting() -> None:
        await probe.entered.wait()
        probe.entered.clear()

    pooled: dict[str, tuple[list[float], list[float]]] = {}

    def pool(name: str, got: tuple[list[float], float]) -> None:
        samples, seconds = pooled.setdefault(name, ([], []))
        samples += got[0]
        seconds.append(got[1])

    await fetch(s, "POST", f"{stand_url}/sim/reset")
    for _ in range(cfg.repeats):
        pool(
            "baseline: bare aiohttp hold/wake",
            await wake_rounds(
                cfg.rounds,
                lambda: fetch(s, "GET", f"{base_url}/hold"),
                lambda: fetch(s, "GET", f"{base_url}/held"),
                lambda: fetch(s, "POST", f"{base_url}/wake"),
            ),
        )
        pool(
            "long poll woken by /sim/message",
            await wake_rounds(
                cfg.rounds,
                poll,
                lambda: fetch(s, "GET", f"{stand_url}/sim/wait?polling=1&timeout={HOLD_TIMEOUT}"),
                lambda: fetch(s, "POST", f"{stand_url}/sim/message", data=say, headers=JSON),
            ),
        )
        await fetch(s, "POST", f"{stand_url}/sim/reset")  # outbox seq restarts: since=0 is the first sendMessage
        seen = 0
        saved, stand.calls_signal = stand.calls_signal, probe
        try:
            pool(
                "GET /sim/wait woken by sendMessage",
                await wake_rounds(
                    cfg.rounds,
                    wait_send,
                    until_waiting,
                    lambda: fetch(s, "POST", f"{bot}/sendMessage", data=SEND_FORM, headers=FORM),
                ),
            )
        finally:
            stand.calls_signal = saved
    await fetch(s, "POST", f"{stand_url}/sim/reset")
    rows = [
        Row(
            name,
            "rounds",
            len(samples),
            round(len(samples) / sum(seconds), 1),
            ms(percentile(samples, 0.5)),
            ms(percentile(samples, 0.99)),
        )
        for name, (samples, seconds) in pooled.items()
    ]
    base = rows[0]
    base.ratio, base.ratio_of, base.baseline = 1.0, "p50", base.name
    return [base] + [ratio(row, base, "p50") for row in rows[1:]]


def model_factory() -> tuple[Callable[..., Any] | None, str]:
    """``(make_model(answer, delay), "")`` when the scripted model is built, else ``(None, why not)``."""
    llmstub = importlib.import_module("llmstub")
    model_cls = getattr(llmstub, "Model", None)
    options_cls = getattr(llmstub, "ModelOptions", None)
    if model_cls is None or options_cls is None:
        return None, "the scripted model (llmstub.Model, llmstub.ModelOptions) is not on this branch yet"

    def make(answer: str, delay: float) -> Any:
        return model_cls(options_cls(answers=[answer], delay=delay))

    return make, ""


def frames(body: bytes) -> int:
    return body.count(b"data: ")


# The streamed routes measured against the same bytes from the bare handler: (route, request body, closing event).
STREAM_ROUTES: list[tuple[str, dict[str, Any], bytes]] = [
    (
        "/v1/chat/completions",
        {"model": "tgfake-demo", "stream": True, "messages": [{"role": "user", "content": "go"}]},
        b"data: [DONE]",
    ),
    ("/v1/responses", {"model": "tgfake-demo", "stream": True, "input": "go"}, b'"type":"response.completed"}'),
    (
        "/v1/messages",
        {"model": "claude", "max_tokens": 1024, "stream": True, "messages": [{"role": "user", "content": "go"}]},
        b'data: {"type":"message_stop"}',
    ),
]


COMPLETION_REQUEST = {"model": "tgfake-demo", "messages": [{"role": "user", "content": "go"}]}


async def model_rows(
    s: aiohttp.ClientSession, base_url: str, base_app: web.Application, cfg: Config
) -> tuple[list[Row], str]:
    make, why = model_factory()
    if make is None:
        return [], why
    rows: list[Row] = []
    async with serving(create_app(Options(), model=make(words(cfg.stream_words), 0.0))) as url:
        rows += await completion_rows(s, url, base_url, base_app, cfg)
        for route, body, closing in STREAM_ROUTES:
            rows += await stream_rows(s, url, base_url, base_app, cfg, route, json.dumps(body).encode(), closing)
    request = json.dumps(STREAM_ROUTES[0][1]).encode()
    async with serving(create_app(Options(), model=make(words(cfg.pacing_words), cfg.pacing_delay))) as url:
        rows.append(await pacing(s, f"{url}/v1/chat/completions", request, cfg))
    return rows, ""


async def nothing() -> None:
    return None


async def completion_rows(
    s: aiohttp.ClientSession, url: str, base_url: str, base_app: web.Application, cfg: Config
) -> list[Row]:
    """A non-streamed chat completion against a bare handler decoding the request and encoding the same answer."""
    request = json.dumps(COMPLETION_REQUEST).encode()
    answer = json.loads(await fetch(s, "POST", f"{url}/v1/chat/completions", data=request, headers=JSON))
    base_app[BASELINE].completion_text = answer["choices"][0]["message"]["content"]
    return await model_pair(
        s,
        cfg,
        request,
        (f"/v1/chat/completions ({cfg.stream_words} words, not streamed)", f"{url}/v1/chat/completions"),
        ("baseline: bare POST JSON read, completion JSON", f"{base_url}/completion"),
        total=cfg.requests,  # a throughput row like the Bot API's: 500 requests (~0.1 s) was mostly noise
    )


async def model_pair(
    s: aiohttp.ClientSession,
    cfg: Config,
    request: bytes,
    row: tuple[str, str],
    floor: tuple[str, str],
    unit: str = "requests",
    total: int | None = None,
) -> list[Row]:
    """``request`` POSTed to a model route (``row``: name, URL) and to its floor, ``total`` each
    (default ``cfg.stream_requests``)."""

    def post(target: str) -> Send:
        return lambda: fetch(s, "POST", target, data=request, headers=JSON)

    spec = Spec(row[0], post(row[1]), nothing, Floor(floor[0], post(floor[1])))
    return await best_of(cfg, [spec], total=total or cfg.stream_requests, unit=unit)


def sse_events(body: bytes) -> list[bytes]:
    """A stream's bytes cut into its events (each ends with a blank line), as a server writes them one by one."""
    return [event + b"\n\n" for event in body.split(b"\n\n") if event]


async def stream_rows(
    s: aiohttp.ClientSession,
    url: str,
    base_url: str,
    base_app: web.Application,
    cfg: Config,
    route: str,
    request: bytes,
    closing: bytes,
) -> list[Row]:
    """A zero-delay stream of ``route`` against a bare handler streaming the same SSE events, one write each."""
    body = await fetch(s, "POST", f"{url}{route}", data=request, headers=JSON)
    if not body.rstrip().endswith(closing):
        raise BenchError(f"the {route} stream did not end with {closing!r}: {body[-200:]!r}")
    per = frames(body)
    events = sse_events(body)
    if b"".join(events) != body:
        raise BenchError(f"the {route} stream is not a sequence of blank-line-ended events")
    base_app[BASELINE].stream_events = events
    suffix = "" if route == STREAM_ROUTES[0][0] else f" ({route})"
    base, stream = await model_pair(
        s,
        cfg,
        request,
        (f"stream {route} ({cfg.stream_words} words, delay 0s)", f"{url}{route}"),
        ("baseline: bare aiohttp streaming the same SSE events" + suffix, f"{base_url}/stream"),
        unit="frames",
    )
    for row in (base, stream):
        row.extra = {
            "streams_per_s": row.rate,
            "frames_per_stream": per,
            "events_per_stream": len(events),
            "stream_bytes": len(body),
        }
        row.rate = round(row.rate * per, 1)
    return [base, stream]


async def pacing(s: aiohttp.ClientSession, url: str, request: bytes, cfg: Config) -> Row:
    """Arrival time of each content chunk against its ideal deadline: role chunk + k × delay."""
    drifts: list[float] = []
    chunks = 0
    started = time.perf_counter()
    for _ in range(cfg.pacing_streams):
        async with s.post(url, data=request, headers=JSON) as resp:
            if resp.status != 200:
                raise BenchError(f"POST {url}: {resp.status}")
            t0: float | None = None
            k = 0
            async for line in resp.content:
                now = time.perf_counter()
                if not line.startswith(b"data: {"):
                    continue
                event = json.loads(line[6:])
                choices = event.get("choices") or [{}]
                delta = choices[0].get("delta") or {}
                if t0 is None:
                    t0 = now  # the role chunk opens the stream without a pause
                    if not delta.get("content"):
                        continue
                if delta.get("content"):
                    k += 1
                    drifts.append(now - (t0 + k * cfg.pacing_delay))
            chunks += k
    elapsed = time.perf_counter() - started
    absolute = [abs(d) for d in drifts] or [0.0]
    row = Row(
        f"pacing, delay {cfg.pacing_delay * 1000:g} ms ({cfg.pacing_words} words)",
        "chunks",
        chunks,
        round(chunks / elapsed, 1),
        ms(percentile(absolute, 0.5)),
        ms(percentile(absolute, 0.99)),
    )
    row.extra = {
        "mean_drift_ms": ms(sum(drifts) / len(drifts)) if drifts else 0.0,
        "max_drift_ms": ms(max(absolute)),
        "ideal_chunks_per_s": round(1 / cfg.pacing_delay, 1),
    }
    return row


async def run(cfg: Config | None = None) -> Report:
    """Serve both apps, measure every row in order, stop both; the report holds rows and skipped rows."""
    cfg = cfg or Config()
    base_app = baseline_app()
    stand_app = create_app(Options(poll_max=HOLD_TIMEOUT))
    skipped: dict[str, str] = {}
    connector = aiohttp.TCPConnector(limit=max(8, cfg.concurrency * 2))
    async with (
        serving(base_app) as base_url,
        serving(stand_app) as stand_url,
        aiohttp.ClientSession(connector=connector, timeout=CLIENT_TIMEOUT) as s,
    ):
        rows = await stand_rows(s, stand_url, base_url, stand_app, base_app, cfg)
        rows += await load_rows(stand_url, base_url, cfg)
        llm, why = await model_rows(s, base_url, base_app, cfg)
        rows += llm
        if why:
            skipped["stream /v1/chat/completions"] = why
            skipped["pacing"] = why
    rows += await memory_rows(cfg)
    meta = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "aiohttp": aiohttp.__version__,
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
    }
    return Report(rows, skipped, cfg, meta)


async def load_rows(stand_url: str, base_url: str, cfg: Config) -> list[Row]:
    """The tail under load: ``load_concurrency`` clients at once; each row's p99 over its floor's p99.

    Each side keeps its best p99 of ``repeats`` interleaved slices (a neighbour's burst should not decide it).
    """
    connector = aiohttp.TCPConnector(limit=cfg.load_concurrency)
    load = Config(**{**asdict(cfg), "concurrency": cfg.load_concurrency})
    c = cfg.load_concurrency
    async with aiohttp.ClientSession(connector=connector, timeout=CLIENT_TIMEOUT) as s:
        bot = f"{stand_url}/bot{TOKEN}"
        me = Floor(
            f"baseline: bare POST, getMe-sized JSON under load (c={c})", lambda: fetch(s, "POST", f"{base_url}/me")
        )
        form = Floor(
            f"baseline: bare POST form read, message JSON under load (c={c})",
            lambda: fetch(s, "POST", f"{base_url}/form", data=SEND_FORM, headers=FORM),
        )
        pairs = [
            (me, Floor(f"getMe under load (c={c})", lambda: fetch(s, "POST", f"{bot}/getMe"))),
            (
                form,
                Floor(
                    f"sendMessage under load (c={c})",
                    lambda: fetch(s, "POST", f"{bot}/sendMessage", data=SEND_FORM, headers=FORM),
                ),
            ),
        ]
        best: dict[str, Row] = {}
        for _ in range(cfg.repeats):
            for pair in pairs:
                for side in pair:
                    row = await throughput(side.name, side.send, load)
                    if side.name not in best or row.p99_ms < best[side.name].p99_ms:
                        best[side.name] = row
    rows: list[Row] = []
    for floor, side in pairs:
        base, row = best[floor.name], best[side.name]
        base.baseline, base.ratio_of, base.ratio = base.name, "p99", 1.0
        row.baseline, row.ratio_of = base.name, "p99"
        row.ratio = round(row.p99_ms / base.p99_ms, 3) if base.p99_ms else None
        rows += [base, row]
    return rows


def rss_mb() -> float:
    """This process's resident memory (VmRSS), in MB; 0 where /proc is not there."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


async def memory_rows(cfg: Config) -> list[Row]:
    """What a long history costs: VmRSS before, with ``memory_messages`` sendMessages stored, and after a reset.

    Driven in process (the stand's own ``serve``), so the rows measure what the stand keeps, not the client.
    """
    from tgfake.params import Params
    from tgfake.stand import Stand

    gc.collect()
    stand = Stand(Options())
    values = {"chat_id": str(CHAT), "text": "Hello from the bench", "reply_markup": KEYBOARD}
    start = rss_mb()
    started = time.perf_counter()
    for i in range(cfg.memory_messages):
        await stand.serve(TOKEN, "sendMessage", Params(values={**values, "text": f"Hello from the bench {i}"}))
    took = time.perf_counter() - started
    full = rss_mb()
    stand.reset()
    gc.collect()
    after = rss_mb()
    rate = round(cfg.memory_messages / took, 1) if took else 0.0
    rows = []
    for name, value in (
        ("memory: at the start", start),
        (f"memory: {cfg.memory_messages} messages stored", full),
        ("memory: after POST /sim/reset", after),
    ):
        rows.append(
            Row(
                name,
                "messages",
                cfg.memory_messages,
                rate,
                0.0,
                0.0,
                extra={"rss_mb": value, "rss_delta_mb": round(value - start, 1)},
            )
        )
    return rows


# --- output -------------------------------------------------------------------------------------------------------
def table(report: Report) -> str:
    head = f"{'row':<72} {'n':>6} {'rate/s':>10} {'unit':<8} {'p50 ms':>8} {'p99 ms':>8}  vs baseline"
    lines = [head, "-" * len(head)]
    for r in report.rows:
        if r.ratio is None:
            versus = ""
        elif r.ratio_of == "rate":
            versus = f"{r.ratio:.2f}x rate"
        elif r.ratio_of == "p99":
            versus = f"{r.ratio:.2f}x p99"
        else:
            versus = f"{r.ratio:.2f}x p50"
        if "rss_mb" in r.extra:
            versus = f"VmRSS {r.extra['rss_mb']:.1f} MB ({r.extra['rss_delta_mb']:+.1f} MB from the start)"
        if "mean_drift_ms" in r.extra:
            versus = f"drift mean {r.extra['mean_drift_ms']:.2f} ms, max {r.extra['max_drift_ms']:.2f} ms"
        lines.append(
            f"{r.name:<72} {r.count:>6} {r.rate:>10.1f} {r.unit:<8} {r.p50_ms:>8.3f} {r.p99_ms:>8.3f}  {versus}"
        )
    lines += [f"skipped {name}: {why}" for name, why in report.skipped.items()]
    m = report.meta
    lines.append(f"{m['date']}  Python {m['python']}, aiohttp {m['aiohttp']}, {m['cpus']} CPUs")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> tuple[Config, str | None]:
    d = Config()
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    p.add_argument("--requests", type=int, default=d.requests, help="requests per throughput row")
    p.add_argument("--concurrency", type=int, default=d.concurrency, help="clients in flight")
    p.add_argument("--rounds", type=int, default=d.rounds, help="rounds per wake-up row")
    p.add_argument("--repeats", type=int, default=d.repeats, help="measurements per row (best slice kept)")
    p.add_argument("--chat-messages", type=int, default=d.chat_messages)
    p.add_argument("--stream-requests", type=int, default=d.stream_requests)
    p.add_argument("--pacing-streams", type=int, default=d.pacing_streams)
    p.add_argument("--load-concurrency", type=int, default=d.load_concurrency, help="clients for the tail rows")
    p.add_argument("--memory-messages", type=int, default=d.memory_messages, help="messages for the memory rows")
    p.add_argument("--json", metavar="PATH", help="also write the numbers as JSON (to compare commits)")
    a = p.parse_args(argv)
    counts = (
        "requests",
        "concurrency",
        "rounds",
        "repeats",
        "chat_messages",
        "stream_requests",
        "pacing_streams",
        "load_concurrency",
        "memory_messages",
    )
    for name in counts:
        if getattr(a, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    cfg = Config(
        requests=a.requests,
        concurrency=a.concurrency,
        rounds=a.rounds,
        repeats=a.repeats,
        chat_messages=a.chat_messages,
        stream_requests=a.stream_requests,
        pacing_streams=a.pacing_streams,
        load_concurrency=a.load_concurrency,
        memory_messages=a.memory_messages,
    )
    return cfg, a.json


def main(argv: list[str] | None = None) -> int:
    cfg, out = parse_args(argv)
    report = asyncio.run(run(cfg))
    print(table(report))
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(report.json(), f, indent=2)
            f.write("\n")
        print(f"wrote {out}", file=sys.stderr)
    return 0
