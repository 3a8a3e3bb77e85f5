"""The wrk mode: a C load generator drives the stand and a bare aiohttp handler, each in its own process.

``python -m benchmarks --wrk`` starts the stand as users run it (``python -m tgfake --addr 127.0.0.1:0 --llm``,
logging as by default) and the bare handlers (``benchmarks.harness.baseline_app``) in a second process, then runs
``wrk -t1 -c50 -d5s`` against each row and its floor, interleaved, for ``--rounds`` rounds. A row's ratio is its
rate over the floor's rate in the same round (the median of the rounds), with the p99 latency ratio beside it. The
memory row runs a fresh stand through ``--bursts`` sendMessage bursts, each followed by ``POST /sim/reset``, and
reads its VmRSS. wrk sends bodies through Lua scripts written to a temporary directory at run time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.harness import COMPLETION_REQUEST, HTML_FORM, SEND_FORM, TOKEN, words

FORM_TYPE = "application/x-www-form-urlencoded"
JSON_TYPE = "application/json"
ANSWER_WORDS = 200
START_TIMEOUT = 30.0  # seconds a server may take to print its origin
RESULT = "WRKRESULT "
BANNER = re.compile(r"at (http://\S+)")


@dataclass(frozen=True, slots=True)
class Target:
    """One side of a row: a path, its body and content type."""

    path: str
    body: bytes = b""
    content_type: str = ""


@dataclass(frozen=True, slots=True)
class Pair:
    """A row: the stand's request, the floor's, and the goal for stand rate / floor rate."""

    name: str
    stand: Target
    floor: Target
    goal: float


PAIRS = [
    Pair("getMe", Target(f"/bot{TOKEN}/getMe"), Target("/me"), 0.8),
    Pair(
        "sendMessage (form, inline keyboard)",
        Target(f"/bot{TOKEN}/sendMessage", SEND_FORM, FORM_TYPE),
        Target("/form", SEND_FORM, FORM_TYPE),
        0.7,
    ),
    Pair(
        f"/v1/chat/completions ({ANSWER_WORDS} words, not streamed)",
        Target("/v1/chat/completions", json.dumps(COMPLETION_REQUEST).encode(), JSON_TYPE),
        Target("/completion", json.dumps(COMPLETION_REQUEST).encode(), JSON_TYPE),
        0.8,
    ),
    Pair(
        "sendMessage (form, parse_mode HTML)",
        Target(f"/bot{TOKEN}/sendMessage", HTML_FORM, FORM_TYPE),
        Target("/form", HTML_FORM, FORM_TYPE),
        0.5,
    ),
]


@dataclass(slots=True)
class Run:
    """One wrk run: requests per second and latency percentiles (ms)."""

    rate: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int


@dataclass(slots=True)
class WrkRow:
    name: str
    goal: float
    stand: list[Run] = field(default_factory=list)
    floor: list[Run] = field(default_factory=list)

    def ratios(self) -> list[float]:
        return [s.rate / f.rate for s, f in zip(self.stand, self.floor, strict=True) if f.rate]

    def p99_ratios(self) -> list[float]:
        return [s.p99_ms / f.p99_ms for s, f in zip(self.stand, self.floor, strict=True) if f.p99_ms]

    @property
    def ratio(self) -> float:
        return round(statistics.median(self.ratios()), 3)

    @property
    def p99_ratio(self) -> float:
        return round(statistics.median(self.p99_ratios()), 3)


@dataclass(slots=True)
class WrkConfig:
    duration: int = 5  # seconds per wrk run
    rounds: int = 3
    connections: int = 50
    threads: int = 1
    warmup: int = 1  # seconds of wrk per row and side before the first round (0: none)
    bursts: int = 3  # sendMessage bursts (each followed by a reset) for the memory row
    burst_requests: int = 20_000  # at most this many sendMessages per burst: equal bursts on a busy machine too


@dataclass(slots=True)
class WrkReport:
    rows: list[WrkRow]
    memory_mb: list[float]  # VmRSS at the start and after each burst and reset
    burst_sizes: list[int]  # the sendMessages each burst stored
    config: WrkConfig
    meta: dict[str, Any]

    def json(self) -> dict[str, Any]:
        return {
            "meta": self.meta,
            "config": asdict(self.config),
            "rows": [
                {
                    "name": r.name,
                    "goal": r.goal,
                    "ratio": r.ratio,
                    "p99_ratio": r.p99_ratio,
                    "ratios": [round(x, 3) for x in r.ratios()],
                    "stand": [asdict(x) for x in r.stand],
                    "floor": [asdict(x) for x in r.floor],
                }
                for r in self.rows
            ],
            "memory_mb": self.memory_mb,
            "burst_sizes": self.burst_sizes,
        }


class WrkError(Exception):
    """wrk or a server did not do what the run relies on: the numbers would be meaningless."""


def lua(target: Target, limit: int = 0) -> str:
    """A wrk script sending ``target``'s POST and printing the summary as one line; with ``limit``, each wrk thread
    stops taking answers after that many (so bursts store the same count on a fast or a busy machine; the run still
    lasts its duration: ``thread:stop()`` ends the thread's loop, not wrk's clock)."""
    body = target.body.decode("ascii")
    level = "=" * 4
    while f"]{level}]" in body:
        level += "="
    lines = ['wrk.method = "POST"', f"wrk.body = [{level}[{body}]{level}]"]
    if target.content_type:
        lines.append(f'wrk.headers["Content-Type"] = "{target.content_type}"')
    if limit:
        lines.append(
            f"local answered = 0\nresponse = function(status, headers, body)\n  answered = answered + 1\n"
            f"  if answered >= {limit} then wrk.thread:stop() end\nend"
        )
    lines.append(
        "done = function(summary, latency, requests)\n"
        "  local e = summary.errors\n"
        f'  io.write(string.format("{RESULT}%d %d %d %d %d\\n", summary.requests, summary.duration,\n'
        "    e.connect + e.read + e.write + e.status + e.timeout,\n"
        "    latency:percentile(50), latency:percentile(99)))\n"
        "end"
    )
    return "\n".join(lines) + "\n"


def wrk(origin: str, script: Path, path: str, cfg: WrkConfig, seconds: int) -> Run:
    """One wrk run of ``seconds`` against ``origin + path``; raises when a request failed."""
    command = [
        "wrk",
        f"-t{cfg.threads}",
        f"-c{cfg.connections}",
        f"-d{seconds}s",
        "--timeout",
        "10s",
        "-s",
        str(script),
        origin + path,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=False)
    found = [line for line in done.stdout.splitlines() if line.startswith(RESULT)]
    if done.returncode != 0 or not found:
        raise WrkError(f"{' '.join(command)}: exit {done.returncode}\n{done.stdout}{done.stderr}")
    requests, duration_us, errors, p50_us, p99_us = (int(x) for x in found[-1].removeprefix(RESULT).split())
    if errors:
        raise WrkError(f"{path}: {errors} of {requests} requests failed (wrk errors or non-2xx)\n{done.stdout}")
    return Run(round(requests / (duration_us / 1e6), 1), p50_us / 1000, p99_us / 1000, requests, errors)


@contextmanager
def server(command: list[str]) -> Iterator[tuple[str, int]]:
    """Start ``command`` (a server printing its origin), yield (origin, pid); stop it with SIGTERM."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert child.stdout is not None
        deadline = time.monotonic() + START_TIMEOUT
        origin = ""
        while not origin and time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            found = BANNER.search(line) or re.match(r"(http://\S+)", line)
            origin = found.group(1) if found else ""
        if not origin:
            raise WrkError(f"{' '.join(command)} printed no origin")
        yield origin, child.pid
    finally:
        child.terminate()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()


def stand_command() -> list[str]:
    """The stand as a user starts it: its own process, default logging, the scripted model on."""
    model = ["--llm", "--llm-answer", words(ANSWER_WORDS), "--llm-delay", "0s"]
    return [sys.executable, "-m", "tgfake", "--addr", "127.0.0.1:0", *model]


def floor_command() -> list[str]:
    return [sys.executable, "-m", "benchmarks.instructions", "--serve", "floor"]


def post(url: str, body: bytes = b"", content_type: str = "") -> bytes:
    request = urllib.request.Request(url, data=body, method="POST")
    if content_type:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=30) as answer:
        data: bytes = answer.read()
        return data


def check(stand: str, floor: str) -> None:
    """Each request answers 200 once on both sides, and the model answers the floor's text."""
    for pair in PAIRS:
        post(floor + pair.floor.path, pair.floor.body, pair.floor.content_type)
        answer = json.loads(post(stand + pair.stand.path, pair.stand.body, pair.stand.content_type))
        if pair.stand.path.startswith("/v1/"):
            if answer["choices"][0]["message"]["content"] != words(ANSWER_WORDS):
                raise WrkError("the stand's model does not answer the floor's text")
        elif answer.get("ok") is not True:
            raise WrkError(f"{pair.stand.path}: {answer}")


def rss_mb(pid: int) -> float:
    """VmRSS of process ``pid`` in MB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    raise WrkError(f"no VmRSS for process {pid}")


def run(cfg: WrkConfig) -> WrkReport:
    if shutil.which("wrk") is None:
        raise WrkError("wrk is not on the PATH (apt-get install wrk)")
    rows = [WrkRow(p.name, p.goal) for p in PAIRS]
    with tempfile.TemporaryDirectory(prefix="tgfake-wrk-") as tmp:
        scripts: dict[Target, Path] = {}
        for i, pair in enumerate(PAIRS):
            for side, target in (("stand", pair.stand), ("floor", pair.floor)):
                scripts[target] = Path(tmp) / f"{i}-{side}.lua"
                scripts[target].write_text(lua(target), encoding="ascii")
        with server(stand_command()) as (stand, _), server(floor_command()) as (floor, _):
            check(stand, floor)
            if cfg.warmup:
                for pair in PAIRS:
                    wrk(floor, scripts[pair.floor], pair.floor.path, cfg, cfg.warmup)
                    post(stand + "/sim/reset")
                    wrk(stand, scripts[pair.stand], pair.stand.path, cfg, cfg.warmup)
            for _ in range(cfg.rounds):
                for pair, row in zip(PAIRS, rows, strict=True):
                    row.floor.append(wrk(floor, scripts[pair.floor], pair.floor.path, cfg, cfg.duration))
                    post(stand + "/sim/reset")
                    row.stand.append(wrk(stand, scripts[pair.stand], pair.stand.path, cfg, cfg.duration))
            post(stand + "/sim/reset")
        counted = Path(tmp) / "memory.lua"
        counted.write_text(lua(PAIRS[1].stand, cfg.burst_requests // cfg.threads), encoding="ascii")
        memory, stored = memory_row(cfg, counted)
    meta = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load": [round(x, 2) for x in os.getloadavg()],
        "wrk": subprocess.run(["wrk", "--version"], capture_output=True, text=True, check=False).stdout.split(" [")[0],
    }
    return WrkReport(rows, memory, stored, cfg, meta)


def memory_row(cfg: WrkConfig, script: Path) -> tuple[list[float], list[int]]:
    """A fresh stand's VmRSS at the start and after each ``duration``-second burst of at most ``burst_requests``
    sendMessages and its reset; and the sendMessages each burst stored."""
    path = PAIRS[1].stand.path
    with server(stand_command()) as (stand, pid):
        post(stand + path, SEND_FORM, FORM_TYPE)
        post(stand + "/sim/reset")
        seen, stored = [rss_mb(pid)], []
        for _ in range(cfg.bursts):
            stored.append(wrk(stand, script, path, cfg, cfg.duration).requests)
            post(stand + "/sim/reset")
            seen.append(rss_mb(pid))
    return seen, stored


def table(report: WrkReport) -> str:
    c = report.config
    title = f"row (wrk -t{c.threads} -c{c.connections} -d{c.duration}s, {c.rounds} rounds)"
    head = f"{title:<48}"
    head += f" {'stand/s':>9} {'floor/s':>9} {'ratio':>6} {'goal':>6} {'met':>4} {'p99 ratio':>9}  rounds"
    lines = [head, "-" * len(head)]
    for r in report.rows:
        stand = statistics.median(x.rate for x in r.stand)
        floor = statistics.median(x.rate for x in r.floor)
        met = "yes" if r.ratio >= r.goal else "no"
        each = " / ".join(f"{x:.2f}" for x in r.ratios())
        lines.append(
            f"{r.name:<48} {stand:>9.0f} {floor:>9.0f} {r.ratio:>5.2f}x {r.goal:>5.2f}x {met:>4} "
            f"{r.p99_ratio:>8.2f}x  {each}"
        )
    m = report.memory_mb
    steps = " -> ".join(f"{x:.1f}" for x in m)
    grew = m[-1] - m[0]
    last = m[-1] - m[-2] if len(m) > 2 else 0.0
    lines.append(
        f"memory: VmRSS MB at the start and after each sendMessage burst + reset: {steps} "
        f"({grew:+.1f} MB overall, goal <= +15; {last:+.1f} MB between the last two resets; "
        f"bursts of {', '.join(str(n) for n in report.burst_sizes)} sendMessages, at most {c.burst_requests})"
    )
    meta = report.meta
    lines.append(f"{meta['date']}  Python {meta['python']}, {meta['wrk']}, {meta['cpus']} CPUs, load {meta['load']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    d = WrkConfig()
    p = argparse.ArgumentParser(prog="python -m benchmarks --wrk", description=__doc__)
    p.add_argument("--duration", type=int, default=d.duration, help="seconds per wrk run")
    p.add_argument("--rounds", type=int, default=d.rounds, help="interleaved rounds (median ratio reported)")
    p.add_argument("--connections", type=int, default=d.connections, help="wrk -c")
    p.add_argument("--threads", type=int, default=d.threads, help="wrk -t")
    p.add_argument("--warmup", type=int, default=d.warmup, help="seconds of warm-up per row and side (0: none)")
    p.add_argument("--bursts", type=int, default=d.bursts, help="sendMessage bursts for the memory row")
    p.add_argument(
        "--burst-requests", type=int, default=d.burst_requests, help="sendMessages per burst for the memory row"
    )
    p.add_argument("--json", metavar="PATH", help="also write the numbers as JSON")
    a = p.parse_args(argv)
    for name in ("duration", "rounds", "connections", "threads", "bursts", "burst_requests"):
        if getattr(a, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if a.warmup < 0:
        p.error("--warmup must not be negative")
    cfg = WrkConfig(a.duration, a.rounds, a.connections, a.threads, a.warmup, a.bursts, a.burst_requests)
    try:
        report = run(cfg)
    except WrkError as exc:
        print(f"python -m benchmarks --wrk: {exc}", file=sys.stderr)
        return 1
    print(table(report))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(report.json(), f, indent=2)
            f.write("\n")
        print(f"wrote {a.json}", file=sys.stderr)
    return 0
