"""``tgfake record`` and ``tgfake replay``: the subcommands of a recorded Telegram conversation."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from typing import Any, NoReturn

from llmstub import cli as llm_cli

from ..server import serve
from .proxy import create_recorder
from .replay import replay
from .talk import NOISE, TalkError

__all__ = ["main"]


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Usage(message)

    def print_help(self, file: Any = None) -> None:
        super().print_help(file or sys.stderr)


def _parsers() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    record = _Parser(prog="tgfake record", description="Record a bot's Bot API calls through a proxy.")
    record.add_argument("--upstream", required=True, metavar="URL", help="the Bot API to forward to, e.g. "
                        "https://api.telegram.org")
    record.add_argument("-o", "--output", required=True, metavar="FILE", help="the recording to write (talk.json)")
    record.add_argument("--addr", default="127.0.0.1:18791", help="listen address of the proxy (127.0.0.1:18791)")
    replay_parser = _Parser(
        prog="tgfake replay", description="Replay a recorded conversation to a bot and compare its calls."
    )
    replay_parser.add_argument("recording", metavar="FILE")
    replay_parser.add_argument("--ignore-field", action="append", default=[], metavar="NAME",
                               help="a parameter compared as <id> (repeatable; dates and ids always are)")
    replay_parser.add_argument(
        "--ignore-method",
        action="append",
        default=[],
        metavar="METHOD",
        help=f"a method left out of the comparison (repeatable; by default: {', '.join(sorted(NOISE))})",
    )
    replay_parser.add_argument("--compare-method", action="append", default=[], metavar="METHOD",
                               help="compare a method left out by default (sendChatAction, sendMessageDraft, ...)")
    replay_parser.add_argument("--timeout", type=float, default=10.0, help="seconds each wait on the bot may last")
    replay_parser.add_argument("--llm", action="store_true", help="serve the scripted model too (OPENAI_BASE_URL)")
    llm_cli.add_arguments(replay_parser)
    return record, replay_parser


async def _record(args: argparse.Namespace) -> int:
    host, _, port = args.addr.rpartition(":")
    if not port.isdigit():
        raise _Usage(f"listen tcp {args.addr}: missing port in address")
    if not args.upstream.startswith(("http://", "https://")):
        raise _Usage(f'invalid value "{args.upstream}" for flag --upstream: give an http:// or https:// URL')
    app = create_recorder(args.upstream, args.output)
    try:
        runner, bound = await serve(app, host.strip("[]"), int(port))
    except OSError as exc:
        raise _Usage(f"listen tcp {args.addr}: {exc.strerror or exc}") from None
    sys.stdout.write(f"tgfake record: Bot API at http://{host or '127.0.0.1'}:{bound} → {args.upstream}, "
                     f"writing {args.output}\n")
    sys.stdout.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await runner.cleanup()
    return 0


def _replay(args: argparse.Namespace, command: list[str]) -> int:
    if not command:
        raise _Usage("give the bot's command after --: tgfake replay talk.json -- python my_bot.py")
    if not args.llm:
        for flag in llm_cli.given_flags(args):
            raise _Usage(f"{flag} configures the scripted model, which only --llm serves")
    model = llm_cli.model_from_args(args) if args.llm else None
    ignored = (NOISE | set(args.ignore_method)) - set(args.compare_method)
    result = asyncio.run(
        replay(args.recording, command, ignore_methods=ignored, ignore_fields=args.ignore_field,
               timeout=args.timeout, model=model)
    )
    for line in result.skipped:
        sys.stderr.write(f"tgfake replay: {line}\n")
    if result.ok:
        sys.stdout.write(f"tgfake replay: {len(result.recorded)} calls, as recorded\n")
        return 0
    sys.stdout.write(f"tgfake replay: the bot's calls differ from {args.recording}\n{result.diff}")
    if result.output:
        sys.stdout.write(f"--- the bot's output ---\n{result.output}")
    return 1


def main(argv: list[str]) -> int:
    """``argv`` starts with ``record`` or ``replay``; exit 0 (done, or the same calls), 1 (an error or a diff)."""
    record, replay_parser = _parsers()
    try:
        if argv[0] == "record":
            return asyncio.run(_record(record.parse_args(argv[1:])))
        rest = argv[1:]
        command: list[str] = []
        if "--" in rest:
            command = rest[rest.index("--") + 1 :]
            rest = rest[: rest.index("--")]
        return _replay(replay_parser.parse_args(rest), command)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    except (_Usage, TalkError, llm_cli.ConfigError) as exc:
        sys.stderr.write(f"tgfake {argv[0]}: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 0
