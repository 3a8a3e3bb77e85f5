"""``tgfake explore [flags] -- <bot command>``: explore a bot, show progress and a summary, write the outputs.

Exit status: 0 no findings, 1 findings, 2 the bot could not be started or a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from llmstub import cli as llm_cli
from tgfake.explore.engine import PHASES, Explorer, check_slow_reply
from tgfake.explore.findings import KINDS, Report
from tgfake.explore.run import BotStartError, explore
from tgfake.explore.trim import TRIM_REPLAYS
from tgfake.explore.writers import write_html, write_tests
from tgfake.options import DEFAULT_BOT_NAME, DEFAULT_BOT_USERNAME, Options

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class ExploreUsageError(Exception):
    """A bad command line: ``tgfake explore: <message>``, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ExploreUsageError(message)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) <= 0:
        raise argparse.ArgumentTypeError(f'invalid value "{text}": a positive whole number')
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        try:
            value = llm_cli.parse_duration(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f'invalid value "{text}": a positive number of seconds')
    return value


def _phases(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in PHASES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f'invalid phases "{text}": choose from {",".join(PHASES)}')
    return names


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="tgfake explore",
        description="Explore a bot on a stand and report its bugs. Give the bot's command after --.",
    )
    p.add_argument("--budget", type=_positive, default=300, help="at most this many actions (300)")
    p.add_argument("--time", type=_seconds, default=120.0, help="at most this many seconds (120)")
    p.add_argument("--seed", type=int, default=1, help="the same seed gives the same actions and findings (1)")
    p.add_argument("--reply-time", type=_seconds, default=3.0, help="seconds a command may take to answer (3)")
    p.add_argument(
        "--slow-reply",
        type=_seconds,
        default=1.0,
        help="a reply this many seconds after the bot took the update is slow (1; below --reply-time)",
    )
    p.add_argument(
        "--phases",
        type=_phases,
        default=PHASES,
        help=f"only these phases, comma-separated (default all: {','.join(PHASES)})",
    )
    p.add_argument(
        "--no-trim", action="store_true", help="keep each finding's steps as found (no replays of shorter runs)"
    )
    p.add_argument(
        "--trim-replays",
        type=_positive,
        default=TRIM_REPLAYS,
        help=f"at most this many replays to trim one finding's steps ({TRIM_REPLAYS})",
    )
    p.add_argument("--report", metavar="FILE", help="write the JSON report here")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML page of the findings here")
    p.add_argument("--tests", metavar="FILE", help="write a pytest file with one test per finding here")
    p.add_argument("--url", help="explore on this stand (else TGFAKE_URL, else a stand started here)")
    p.add_argument("--bot-username", default=DEFAULT_BOT_USERNAME)
    p.add_argument("--bot-name", default=DEFAULT_BOT_NAME)
    p.add_argument("--flood-control", action="store_true", help="Telegram's flood limits on: a 429 is a finding")
    p.add_argument("--llm", action="store_true", help="serve the scripted model at OPENAI_BASE_URL")
    llm_cli.add_arguments(p)
    p.add_argument("bot", nargs=argparse.REMAINDER, help="the bot's command, after --")
    return p


class Progress:
    """One line on a terminal, rewritten after each action: actions done, states found, findings so far."""

    def __init__(self, out: TextIO, budget: int) -> None:
        self.out = out
        self.budget = budget
        self.live = out.isatty()

    def __call__(self, ex: Explorer) -> None:
        if not self.live:
            return
        line = f"explore: {ex.coverage.actions}/{self.budget} actions, {len(ex.states)} states, "
        line += f"{len(ex.findings)} findings"
        self.out.write("\r" + line + "\033[K")
        self.out.flush()

    def done(self) -> None:
        if self.live:
            self.out.write("\r\033[K")
            self.out.flush()


def summary(report: Report) -> str:
    """The table shown at the end: each finding's kind and title, then the coverage."""
    cov = report.coverage
    lines = [
        f"explored {' '.join(report.command)} ({report.mode}): {cov.actions} actions, "
        f"{len(cov.states)} states, {len(cov.commands)} commands, {len(cov.buttons)} taps, "
        f"{cov.seconds:.1f} s" + (f" (stopped: {report.stopped})" if report.stopped else ""),
    ]
    if not report.findings:
        lines.append("no findings")
        return "\n".join(lines) + "\n"
    width = max(len(f.kind) for f in report.findings)
    lines.append(f"{'#':>3}  {'kind':<{width}}  title")
    for n, f in enumerate(report.findings, 1):
        lines.append(f"{n:>3}  {f.kind:<{width}}  {f.title}")
    counts = ", ".join(f"{k} {v}" for k, v in sorted(report.counts().items()))
    lines.append(f"{len(report.findings)} findings: {counts}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = build_parser().parse_args(list(argv))
        bot = list(args.bot)
        if bot[:1] == ["--"]:
            bot = bot[1:]
        if not bot:
            raise ExploreUsageError("give the bot's command after --, e.g. tgfake explore -- python my_bot.py")
        if not args.llm:
            for flag in llm_cli.given_flags(args):
                raise ExploreUsageError(f"{flag} configures the scripted model, which only --llm serves")
        model = llm_cli.model_from_args(args) if args.llm else None
        check_slow_reply(args.slow_reply, args.reply_time)
    except (ExploreUsageError, llm_cli.ConfigError, ValueError) as exc:
        err.write(f"tgfake explore: {exc}\n")
        return EXIT_ERROR
    options = Options(bot_username=args.bot_username, bot_name=args.bot_name, flood_control=args.flood_control)
    progress = Progress(err, args.budget)
    try:
        report = explore(
            bot,
            url=args.url,
            budget=args.budget,
            time_limit=args.time,
            seed=args.seed,
            reply_time=args.reply_time,
            slow_reply=args.slow_reply,
            options=options,
            model=model,
            progress=progress,
            phases=args.phases,
            trim=not args.no_trim,
            trim_replays=args.trim_replays,
        )
    except BotStartError as exc:
        progress.done()
        err.write(f"tgfake explore: {exc}\n")
        return EXIT_ERROR
    progress.done()
    out.write(summary(report))
    _write_outputs(args, report)
    return EXIT_FINDINGS if report.findings else EXIT_CLEAN


def _write_outputs(args: Any, report: Report) -> None:
    if args.report:
        Path(args.report).write_text(json.dumps(report.json(), indent=2, ensure_ascii=False) + "\n")
    if args.html:
        write_html(report, Path(args.html))
    if args.tests:
        write_tests(report, Path(args.tests))


__all__ = ["KINDS", "main"]
