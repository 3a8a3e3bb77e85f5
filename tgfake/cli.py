"""The ``tgfake`` command: flags, banner, serving, and a graceful stop (parity with the Go reference stand)."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import time
from typing import TYPE_CHECKING, Any, NoReturn

from llmstub import cli as llm_cli
from tgfake import __version__
from tgfake.app import create_app
from tgfake.errors import SimError
from tgfake.explore import command as explore_command
from tgfake.keys import STAND
from tgfake.load import command as load_command
from tgfake.logging import call_logger
from tgfake.record import cli as record_cli

if TYPE_CHECKING:
    from llmstub import Model
from tgfake.options import (
    DEFAULT_ADDR,
    DEFAULT_BOT_NAME,
    DEFAULT_BOT_USERNAME,
    DEFAULT_MAX_SESSIONS,
    DEFAULT_SESSION_IDLE,
    DEFAULT_URL_FILES,
    URL_FILES,
    Options,
)
from tgfake.server import SHUTDOWN_TIMEOUT, serve

WILDCARDS = ("", "0.0.0.0", "::", "[::]")


class UsageError(Exception):
    """A bad command line: reported as ``tgfake: <message>``, exit 1."""


class _Parser(argparse.ArgumentParser):
    """argparse that behaves like Go's flag package: errors exit 1, help goes to stderr and exits 0."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def print_help(self, file: Any = None) -> None:
        super().print_help(file or sys.stderr)


def _bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "t", "true"):
        return True
    if lowered in ("0", "f", "false"):
        return False
    raise argparse.ArgumentTypeError(f'invalid boolean value "{text}"')


def _duration(text: str) -> float:
    try:
        return llm_cli.parse_duration(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f'invalid value "{text}": a whole number')
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tgfake", description="A fake Telegram Bot API for testing bots offline.")
    p.add_argument("--addr", "-addr", default=DEFAULT_ADDR, help="listen address; port 0 picks a free port")
    p.add_argument(
        "--token",
        "-token",
        action="append",
        default=[],
        help="accept only this token (repeat for several bots; the first pins the default bot)",
    )
    p.add_argument("--bot-username", "-bot-username", default=DEFAULT_BOT_USERNAME)
    p.add_argument("--bot-name", "-bot-name", default=DEFAULT_BOT_NAME)
    p.add_argument("--poll-max", "-poll-max", type=_duration, default=30.0, help="cap on a held getUpdates (30s)")
    p.add_argument(
        "--session",
        "-session",
        action="append",
        default=[],
        metavar="NAME",
        help="open session NAME at start, served under /s/NAME/ and never expiring (repeat for several)",
    )
    p.add_argument(
        "--max-sessions", "-max-sessions", type=_count, default=DEFAULT_MAX_SESSIONS, help="cap on open sessions (256)"
    )
    p.add_argument(
        "--session-idle",
        "-session-idle",
        type=_duration,
        default=DEFAULT_SESSION_IDLE,
        help="a session with no request for this long ends (10m; 0 never)",
    )
    for flag in ("verbose", "version", "llm", "flood-control", "strict"):
        p.add_argument(f"--{flag}", f"-{flag}", type=_bool, nargs="?", const=True, default=False)
    p.add_argument("--log-format", "-log-format", choices=("text", "json"), default="text")
    p.add_argument(
        "--url-files",
        "-url-files",
        choices=URL_FILES,
        default=DEFAULT_URL_FILES,
        help="where files sent by URL may be fetched from: default (loopback and public addresses), all, none",
    )
    llm_cli.add_arguments(p)
    p.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
    return p


def split_addr(addr: str) -> tuple[str, int]:
    host, sep, port = addr.rpartition(":")
    if not sep or not port.isdigit():
        raise UsageError(f"listen tcp {addr}: missing port in address")
    return host.strip("[]"), int(port)


def banner(version: str, options: Options, host: str, port: int, model_id: str | None) -> str:
    shown = "[::]" if host in WILDCARDS else (f"[{host}]" if ":" in host else host)
    origin = f"http://{shown}:{port}"
    token = options.all_tokens[0] if options.all_tokens else "<token>"
    lines = [
        f"tgfake {version}: fake Bot API for @{options.bot_username} at {origin}",
        f"  Bot API:    {origin}/bot{token}/<method>  (in place of https://api.telegram.org)",
        f"  chat page:  {origin}/",
        f"  sim API:    {origin}/sim/",
    ]
    if model_id is not None:
        lines.append(f"  model:      {origin}/v1  (OpenAI-compatible, model {model_id}, any API key)")
    return "\n".join(lines) + "\n"


async def _run(args: argparse.Namespace, model: Model | None) -> int:
    options = Options(
        token=args.token[0] if args.token else "",
        tokens=tuple(args.token[1:]),
        bot_username=args.bot_username,
        bot_name=args.bot_name,
        poll_max=args.poll_max,
        verbose=args.verbose,
        flood_control=args.flood_control,
        strict=args.strict,
        sessions=tuple(args.session),
        max_sessions=args.max_sessions,
        session_idle=args.session_idle,
        url_files=args.url_files,
    )
    try:
        app = create_app(options, model=model)
    except SimError as exc:  # a bad or repeated --session name
        raise UsageError(f"--session: {exc.message}") from None
    if args.verbose:
        app[STAND].call_listeners.append(call_logger(args.log_format))
    host, port = split_addr(args.addr)
    try:
        runner, bound = await serve(app, host, port)
    except OSError as exc:
        raise UsageError(f"listen tcp {host}:{port}: {exc.strerror or exc}") from None
    model_id = getattr(model, "model_id", None)
    sys.stdout.write(banner(__version__, options, host, bound, model_id))
    sys.stdout.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    started = time.monotonic()
    await runner.cleanup()
    if time.monotonic() - started >= SHUTDOWN_TIMEOUT:
        raise UsageError("shutdown: context deadline exceeded")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status (0 clean stop, --help, --version; 1 on any error).

    ``tgfake explore ...`` is the explorer's own command (tgfake/explore/command.py, its own exit statuses), as
    ``tgfake load ...`` is the load's (tgfake/load/command.py)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["explore"]:
        return explore_command.main(argv[1:])
    if argv[:1] == ["load"]:
        return load_command.main(argv[1:])
    if argv[:1] in (["record"], ["replay"]):
        return record_cli.main(argv)
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help
            return int(exc.code or 0)
        if args.rest:
            raise UsageError(f'unexpected argument "{args.rest[0]}": tgfake takes flags only')
        if not args.llm:
            for flag in llm_cli.given_flags(args):
                raise UsageError(f"{flag} configures the scripted model, which only --llm serves")
        if args.version:
            sys.stdout.write(f"tgfake {__version__}\n")
            return 0
        model = llm_cli.model_from_args(args) if args.llm else None
        return asyncio.run(_run(args, model))
    except (UsageError, llm_cli.ConfigError) as exc:
        sys.stderr.write(f"tgfake: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 0
