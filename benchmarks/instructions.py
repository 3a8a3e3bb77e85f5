"""Server instructions per request, counted by valgrind's callgrind: a cost that a busy machine does not move.

``python -m benchmarks.instructions getMe sendMessage floor-me floor-form ...`` serves one app in a child process
under callgrind with instrumentation off, warms it up, switches counting on for ``--requests`` requests sent by
this (uncounted) process, and prints the server's instructions per request. Wall-clock ratios on 2 shared cores
jitter by ±20 %; these counts repeat to within about 1 %, so they say whether a change made the server cheaper.
They count user-space instructions only (no syscalls, no cache misses): compare them, do not add them to timings.
Needs ``valgrind`` on the PATH (not a project dependency); see docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks.harness import (
    BASELINE,
    COMPLETION_REQUEST,
    FORM,
    HTML_FORM,
    JSON,
    SEND_FORM,
    STREAM_ROUTES,
    TOKEN,
    baseline_app,
    drive,
    fetch,
    model_factory,
    serving,
    words,
)
from tgfake.app import create_app
from tgfake.options import Options

# row -> (which app serves it, method, path, body, headers)
ROWS: dict[str, tuple[str, str, str, bytes | None, dict[str, str] | None]] = {
    "floor-me": ("floor", "POST", "/me", None, None),
    "floor-form": ("floor", "POST", "/form", SEND_FORM, FORM),
    "floor-completion": ("floor", "POST", "/completion", json.dumps(COMPLETION_REQUEST).encode(), JSON),
    "getMe": ("stand", "POST", f"/bot{TOKEN}/getMe", None, None),
    "sendMessage": ("stand", "POST", f"/bot{TOKEN}/sendMessage", SEND_FORM, FORM),
    "sendMessage-html": ("stand", "POST", f"/bot{TOKEN}/sendMessage", HTML_FORM, FORM),
    "chat": ("model", "POST", "/v1/chat/completions", json.dumps(COMPLETION_REQUEST).encode(), JSON),
    **{
        "stream" + route.removeprefix("/v1").replace("/", "-"): (
            "model",
            "POST",
            route,
            json.dumps(body).encode(),
            JSON,
        )
        for route, body, _ in STREAM_ROUTES
    },
}
TOTALS = re.compile(r"^([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", re.M)


async def serve(kind: str) -> None:
    """The child: serve one app and print its origin, until killed."""
    if kind == "floor":
        app = baseline_app()
        app[BASELINE].completion_text = words(200)
    elif kind == "model":
        make, why = model_factory()
        if make is None:
            raise SystemExit(why)
        app = create_app(Options(), model=make(words(200), 0.0))
    else:
        app = create_app(Options(poll_max=30))
    async with serving(app) as url:
        print(url, flush=True)
        await asyncio.Event().wait()


async def count(row: str, requests: int, out: Path) -> None:
    """Serve ``row``'s app under callgrind and send it ``requests`` counted requests (warm-up not counted)."""
    kind, method, path, body, headers = ROWS[row]
    child = await asyncio.create_subprocess_exec(
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={out}",
        sys.executable,
        "-m",
        "benchmarks.instructions",
        "--serve",
        kind,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    try:
        assert child.stdout is not None
        url = (await child.stdout.readline()).decode().strip()
        if not url:
            raise SystemExit(f"the {kind} server did not start under valgrind")
        async with aiohttp.ClientSession() as s:

            def send() -> Any:
                return fetch(s, method, url + path, data=body, headers=headers)

            await drive(send, 30, 2)
            await control(child.pid, "on")
            await drive(send, requests, 2)
            await control(child.pid, "off")
    finally:
        child.terminate()
        await child.wait()


async def control(pid: int, instrumentation: str) -> None:
    switch = await asyncio.create_subprocess_exec(
        "callgrind_control", "-i", instrumentation, str(pid), stdout=asyncio.subprocess.DEVNULL
    )
    if await switch.wait() != 0:
        raise SystemExit(f"callgrind_control -i {instrumentation} {pid} failed")


def per_request(out: Path, requests: int) -> float:
    annotated = subprocess.run(["callgrind_annotate", str(out)], capture_output=True, text=True, check=True).stdout
    return program_total(annotated) / requests


def program_total(annotated: str) -> int:
    """The ``PROGRAM TOTALS`` count of ``callgrind_annotate``'s output."""
    found = TOTALS.search(annotated)
    if found is None:
        raise ValueError("no PROGRAM TOTALS line in callgrind_annotate's output")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__)
    p.add_argument("rows", nargs="*", help=f"rows to count (default: all): {', '.join(ROWS)}")
    p.add_argument("--requests", type=int, default=300, help="counted requests per row")
    p.add_argument("--serve", choices=["floor", "stand", "model"], help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.serve:
        asyncio.run(serve(a.serve))
        return 0
    unknown = [row for row in a.rows if row not in ROWS]
    if unknown:
        p.error(f"unknown rows {unknown}; known: {', '.join(ROWS)}")
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        p.error("valgrind (with callgrind_control) is not on the PATH")
    with tempfile.TemporaryDirectory() as tmp:
        for row in a.rows or list(ROWS):
            out = Path(tmp) / f"{row}.callgrind"
            asyncio.run(count(row, a.requests, out))
            per = per_request(out, a.requests)
            print(f"{row:24} {per / 1000:9.1f} k instructions per request", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
