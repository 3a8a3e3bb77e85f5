"""The load mode: how many updates a second the stand delivers and records for a bot, and its memory with a crowd.

``python -m benchmarks --load`` starts the stand as users run it (``python -m tgfake --addr 127.0.0.1:0``) and a
minimal aiohttp bot (``tests/load/bots/answer_bot.py``: one sendMessage per update, as fast as it can) in processes
of their own, and runs ``POST /sim/load`` on the stand (its people act inside the stand, tgfake/load/engine.py):

- **long polling**: updates/s delivered and answered (goal 3,000/s), with each process's CPU over the run;
- **webhook**: the same with the bot serving a webhook, ``max_connections`` 40 (goal 1,500/s);
- **added p99 at 1,000/s**: what the stand adds to a reply: its handling of each sendMessage, from the request
  reaching the Bot API handler to the answer it sends (body read, the pipeline, the envelope), timed in a stand
  served from this process (goal p99 < 1 ms); beside it the bot's own sendMessage round trips as it timed them
  (loopback, the client's HTTP and its event loop included: an upper bound);
- **memory**: a fresh stand's resident memory with 10,000 people, 1,000 groups of 20 and 200,000 stored messages
  (100,000 people's texts and the bot's 100,000 answers), in a process of its own (goal < 400 MB).

Each row prints what it measured and the goal beside it; ``--json PATH`` writes them. docs/benchmarks.md#load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from tgfake import app
from tgfake.load.engine import rss_mb
from tgfake.load.figures import percentiles
from tgfake.models import SenderFields
from tgfake.options import Options
from tgfake.params import Params
from tgfake.stand import Stand
from tgfake.testing import BotProcess, ThreadedStand, bot_environment
from tgfake.world import bulk

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "tests" / "load" / "bots" / "answer_bot.py"
BANNER = re.compile(r"at (http://\S+)")
TOKEN = "123:load"
SCENARIO = {"start": ["hi"], "think": 2.0, "actions": [{"text": "{words}"}]}


@dataclass(slots=True)
class Row:
    name: str
    value: float
    unit: str
    goal: str
    extra: dict[str, Any] = field(default_factory=dict)


def _request(url: str, verb: str = "GET", body: dict[str, Any] | None = None, timeout: float = 30.0) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=verb, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.loads(resp.read() or b"{}")


def cpu_seconds(pid: int) -> float:
    """User and system CPU a process has used so far (``/proc/<pid>/stat``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


@contextmanager
def stand_process() -> Iterator[tuple[str, int]]:
    """The stand as users run it, on a free port: its origin and pid."""
    command = [sys.executable, "-m", "tgfake", "--addr", "127.0.0.1:0", "--poll-max", "1s"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env) as proc:
        assert proc.stdout is not None
        found = BANNER.search(proc.stdout.readline())
        try:
            if found is None:
                raise RuntimeError("the stand printed no origin")
            yield found.group(1), proc.pid
        finally:
            proc.terminate()
            proc.wait(15)


def run_load(origin: str, stand_pid: int, mode: str, rate: float, seconds: float, people: int) -> dict[str, Any]:
    """One run on the stand's root session with the answer bot; the report, each side's CPU and the round trips."""
    timings = Path(tempfile.mkstemp(prefix="tgfake-load-", suffix=".txt")[1])
    env = {**bot_environment(origin, token=TOKEN), "TIMINGS": str(timings)}
    if mode == "webhook":
        port = _free_port()
        env |= {"BOT_MODE": "webhook", "WEBHOOK_URL": f"http://127.0.0.1:{port}/hook", "WEBHOOK_PORT": str(port),
                "WEBHOOK_SECRET": "bench"}  # fmt: skip
    _request(f"{origin}/sim/reset", "POST", {})
    with BotProcess(["python", str(BOT)], env=env, name="answer bot") as bot:
        wait = "method=setWebhook" if mode == "webhook" else "polling=1"
        _request(f"{origin}/sim/wait?{wait}&timeout=30", timeout=35)
        body = {"people": people, "groups": 0, "rate": rate, "duration": seconds, "drain": 3.0, "flood": False,
                "scenario": SCENARIO}  # fmt: skip
        before = (cpu_seconds(stand_pid), cpu_seconds(bot.pid), time.monotonic())
        _request(f"{origin}/sim/load", "POST", body)
        while _request(f"{origin}/sim/load?timeout=30", timeout=40)["state"] != "done":
            pass  # held by the stand until the run ends
        after = (cpu_seconds(stand_pid), cpu_seconds(bot.pid), time.monotonic())
        report: dict[str, Any] = _request(f"{origin}/sim/load/report")
    trips = [float(line) for line in timings.read_text().split()] if timings.exists() else []
    timings.unlink(missing_ok=True)
    wall = after[2] - before[2]
    report["cpu"] = {
        "stand": round((after[0] - before[0]) / wall * 100, 1),
        "bot": round((after[1] - before[1]) / wall * 100, 1),
    }
    report["round_trips"] = {k: round(v * 1000, 3) for k, v in percentiles(sorted(trips)).items()}
    return report


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def throughput_row(report: dict[str, Any], name: str, goal: float) -> Row:
    t = report["totals"]
    return Row(
        name,
        t["rate"]["answered"],
        "updates/s",
        f">= {goal:,.0f}/s",
        {
            "offered_per_s": t["rate"]["offered"],
            "delivered_per_s": t["rate"]["delivered"],
            "latency_ms": t["latency_ms"],
            "backlog_max": t["backlog"]["max"],
            "cpu_percent": report["cpu"],
            "unanswered": t["unanswered"],
        },
    )


def memory_row(messages: int) -> Row:
    """10,000 people, 1,000 groups and ``messages`` stored messages in this process (run it in a fresh one)."""
    before = rss_mb()
    stand = Stand()
    bot = stand.bot_for_token(TOKEN)
    built = bulk.build(stand, bot, 10_000, 1_000, 20)
    people = built.people

    async def fill() -> None:
        for n in range(messages // 2):
            uid = people[n % len(people)]
            stand.inject(SenderFields.model_construct(user_id=uid, chat_id=0), f"hello number {n}")
            await stand.call(TOKEN, "sendMessage", Params(values={"chat_id": str(uid), "text": f"answer {n}"}))

    asyncio.run(fill())
    stored = sum(len(c.messages) for c in stand.world.private.values()) + sum(
        len(c.messages) for c in stand.world.chats.values()
    )
    after = rss_mb()
    return Row("memory: 10,000 people, 1,000 groups, 200,000 messages", round(after, 1), "MB", "< 400 MB",
               {"messages": stored, "calls": len(stand.world.calls), "before_mb": round(before, 1)})  # fmt: skip


def added_row(seconds: float) -> Row:
    """The stand's own handling of each sendMessage at 1,000 updates/s (a stand served here, its handler timed)."""
    handled: list[float] = []
    plain = app.bot_api

    async def timed(request: web.Request) -> web.StreamResponse:
        began = time.perf_counter()
        answer = await plain(request)
        if request.path.endswith("/sendMessage"):
            handled.append(time.perf_counter() - began)
        return answer

    app.bot_api = timed  # create_app routes to it by name
    try:
        with ThreadedStand(Options(poll_max=1.0)) as served:
            paced = run_load(served.url, os.getpid(), "polling", 1000.0, seconds, 20_000)
    finally:
        app.bot_api = plain
    took = {k: round(v * 1000, 3) for k, v in percentiles(sorted(handled)).items()}
    totals = paced["totals"]
    extra = {"p50_ms": took["p50"], "max_ms": took["max"], "calls": len(handled),
             "answered_per_s": totals["rate"]["answered"], "bot_round_trip_ms": paced["round_trips"],
             "reply_latency_ms": totals["latency_ms"]}  # fmt: skip
    return Row("added p99 at 1,000/s (the stand's sendMessage)", took["p99"], "ms", "< 1 ms", extra)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks --load", description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="seconds of acts per throughput row (5)")
    p.add_argument("--rate", type=float, default=4000.0, help="acts a second offered in the throughput rows (4000)")
    p.add_argument("--messages", type=int, default=200_000, help="stored messages for the memory row (200,000)")
    p.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    p.add_argument("--memory-only", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.memory_only:
        print(json.dumps(asdict(memory_row(args.messages))))
        return 0
    rows: list[Row] = []
    with stand_process() as (origin, pid):
        people = 20_000
        rows.append(
            throughput_row(run_load(origin, pid, "polling", args.rate, args.seconds, people), "long polling", 3000)
        )
        hooked = run_load(origin, pid, "webhook", args.rate, args.seconds, people)
        rows.append(throughput_row(hooked, "webhook (max_connections 40)", 1500))
    rows.append(added_row(args.seconds))
    child = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--load", "--memory-only", "--messages", str(args.messages)],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    rows.append(Row(**json.loads(child.stdout.strip().splitlines()[-1])))
    for row in rows:
        print(f"{row.name:<50} {row.value:>10,.1f} {row.unit:<10} goal {row.goal:<10} {json.dumps(row.extra)}")
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in rows], indent=2) + "\n")
    return 0
