"""``tgfake load [flags] -- <bot command>``: a bot under load, a progress line, a summary, JSON and HTML reports.

Exit status: 0 the run went to its end (duration or budget) and every update that wanted an answer got one;
1 updates were left unanswered, or the bot exited during the run; 2 a usage error, or the bot could not be
started; 130 stopped by Ctrl-C (the partial report is still written). docs/load.md says more.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from llmstub import cli as llm_cli
from tgfake.load.html import write_html
from tgfake.load.run import LoadError, LoadReport, load
from tgfake.load.scenario import ScenarioError, load_file

EXIT_CLEAN, EXIT_UNANSWERED, EXIT_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 130


class LoadUsageError(Exception):
    """A bad command line: ``tgfake load: <message>``, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise LoadUsageError(message)


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f'invalid value "{text}": a whole number')
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        try:
            value = llm_cli.parse_duration(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f'invalid value "{text}": a number of seconds, not negative')
    return value


def _rate(text: str) -> float:
    """``300/s``, ``300``, or ``1200/m`` (per minute)."""
    number, _, unit = text.partition("/")
    per = {"": 1.0, "s": 1.0, "m": 60.0, "min": 60.0}.get(unit.strip().lower())
    try:
        value = float(number)
    except ValueError:
        value = -1.0
    if per is None or value <= 0:
        raise argparse.ArgumentTypeError(f'invalid rate "{text}": acts per second, such as 300/s')
    return value / per


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tgfake load", description="Load a bot with many simulated people. Give its command after --.")
    p.add_argument("--people", type=_count, default=100, help="simulated people (100)")
    p.add_argument("--groups", type=_count, default=10, help="groups, the bot in each (10)")
    p.add_argument("--members", type=_count, default=10, help="people in each group (10)")
    p.add_argument("--rate", type=_rate, default=50.0, help="acts a second, such as 300/s (50/s)")
    p.add_argument("--duration", type=_seconds, default=10.0, help="how long people act, such as 60s (10s)")
    p.add_argument("--ramp", type=_seconds, default=0.0, help="reach the rate over this long (0)")
    p.add_argument("--budget", type=_count, default=0, help="stop after this many updates (0: no limit)")
    p.add_argument("--drain", type=_seconds, default=2.0, help="after the acts, wait this long for answers (2s)")
    p.add_argument("--scenario", metavar="FILE", help="what people do: a YAML or JSON file (docs/load.md)")
    p.add_argument("--webhook", action="store_true", help="run the bot with a webhook (BOT_MODE=webhook...)")
    p.add_argument(
        "--flood-control",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="Telegram's flood limits (on; --no-flood-control turns them off)",
    )
    p.add_argument("--chat-burst", type=_count, default=3, help="sends a private chat takes in a burst (3)")
    p.add_argument("--seed", type=int, default=1, help="the same seed draws the same world and acts (1)")
    p.add_argument("--report", metavar="FILE", help="write the JSON report here")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML report here")
    p.add_argument("--url", help="run on this stand (else TGFAKE_URL, else a stand started here)")
    p.add_argument("bot", nargs=argparse.REMAINDER, help="the bot's command, after --")
    return p


class Progress:
    """One line on a terminal, rewritten each second; elsewhere (a log, a pipe) a line when the run's state changes."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.live = out.isatty()
        self.state = ""

    def __call__(self, state: Mapping[str, Any]) -> None:
        if not self.live:
            if state.get("state") != self.state:
                self.state = str(state.get("state"))
                self.out.write(f"load: {self.state}, {state.get('offered', 0)} updates offered\n")
                self.out.flush()
            return
        last = state.get("last_second") or {}
        line = (
            f"load: {state.get('state')} {float(state.get('elapsed', 0.0)):.0f}s  offered {state.get('offered', 0)}"
            f"  delivered {state.get('delivered', 0)}  answered {state.get('answered', 0)}"
            f"  p99 {float(last.get('p99', 0.0)):.0f}ms  429s {state.get('too_many', 0)}"
            f"  backlog {state.get('backlog', 0)}"
        )
        self.out.write("\r" + line + "\033[K")
        self.out.flush()

    def done(self) -> None:
        if self.live:
            self.out.write("\r\033[K")
            self.out.flush()


def summary(report: LoadReport) -> str:
    """The table shown at the end."""
    t = report.totals
    lat = t.get("latency_ms", {})
    rate = t.get("rate", {})
    hook = t.get("webhook", {})
    stand = t.get("stand", {})
    rows = [
        ("offered", f"{t.get('offered', 0)}", f"{rate.get('offered', 0)}/s"),
        ("delivered", f"{t.get('delivered', 0)}", f"{rate.get('delivered', 0)}/s"),
        ("answered", f"{t.get('answered', 0)}", f"{rate.get('answered', 0)}/s"),
        ("unanswered", f"{t.get('unanswered', 0)}", f"of {t.get('answerable', 0)} wanting an answer"),
        (
            "latency ms",
            f"p50 {lat.get('p50', 0)}",
            f"p90 {lat.get('p90', 0)}  p99 {lat.get('p99', 0)}  max {lat.get('max', 0)}",
        ),
        ("calls", f"{t.get('calls_total', 0)}", ", ".join(f"{k} {v}" for k, v in t.get("calls", {}).items())),
        ("refused", f"{t.get('errors', 0)}", f"429s {t.get('too_many', 0)}"),
        ("backlog", f"max {t.get('backlog', {}).get('max', 0)}", f"at the end {t.get('backlog', {}).get('final', 0)}"),
        ("webhook", f"{hook.get('deliveries', 0)} POSTs", f"failures {hook.get('failures', 0)}"),
        (
            "stand",
            f"cpu {stand.get('cpu_mean', 0)}%",
            f"max {stand.get('cpu_max', 0)}%  rss {stand.get('rss_max_mb')} MB",
        ),
    ]
    width = max(len(r[0]) for r in rows)
    mid = max(len(r[1]) for r in rows)
    head = f"load: {report.raw.get('elapsed', 0)} s of acts, stopped by {report.stopped or '?'}"
    lines = [head] + [f"  {a:<{width}}  {b:<{mid}}  {c}".rstrip() for a, b, c in rows]
    for words, n in list(report.refusals.items())[:5]:
        lines.append(f"  {n:>6}  {words}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = build_parser().parse_args(list(argv))
        bot = list(args.bot)
        if bot[:1] == ["--"]:
            bot = bot[1:]
        if not bot and not args.url:
            raise LoadUsageError("give the bot's command after --, e.g. tgfake load -- python my_bot.py")
        scenario = load_file(args.scenario) if args.scenario else None
    except (LoadUsageError, ScenarioError) as exc:
        err.write(f"tgfake load: {exc}\n")
        return EXIT_ERROR
    progress = Progress(err)
    try:
        report = load(
            bot or None,
            url=args.url,
            people=args.people,
            groups=args.groups,
            members=args.members,
            rate=args.rate,
            duration=args.duration,
            ramp=args.ramp,
            budget=args.budget,
            drain=args.drain,
            flood=args.flood_control,
            chat_burst=args.chat_burst,
            seed=args.seed,
            scenario=scenario,
            webhook=args.webhook,
            progress=progress,
        )
    except LoadError as exc:
        progress.done()
        err.write(f"tgfake load: {exc}\n")
        return EXIT_ERROR
    progress.done()
    out.write(summary(report))
    write_outputs(args, report)
    if report.stopped == "interrupted":
        return EXIT_INTERRUPTED
    return EXIT_UNANSWERED if report.unanswered or report.stopped == "bot exited" else EXIT_CLEAN


def write_outputs(args: Any, report: LoadReport) -> None:
    if args.report:
        Path(args.report).write_text(json.dumps(report.json(), indent=2, ensure_ascii=False) + "\n")
    if args.html:
        write_html(report, Path(args.html))
