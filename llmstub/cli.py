"""The ``--llm-*`` flags of the ``tgfake`` command and the model they build.

Flags are added with ``default=None`` so the command can tell which ones were given (an ``--llm-*``
flag without ``--llm`` is an error); the real defaults are applied by :func:`model_from_args`.
Values are checked there too, so every problem is reported as one :class:`ConfigError`.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from .generate import DEFAULT_MAX_MODEL_LEN, DatasetError
from .headers import check_client_header
from .model import DEFAULT_MODEL, Model, ModelOptions
from .modes import MODES
from .record import DEFAULT_MATCH, MATCH_FIELDS, RECORD_MODES, RecordingModel, RecordOptions, parse_match
from .rules import Rule, RulesError, load_rules_file

__all__ = [
    "DEFAULT_DELAY",
    "ConfigError",
    "add_arguments",
    "given_flags",
    "model_from_args",
    "parse_duration",
]

DEFAULT_DELAY = "50ms"

# (flag, dest) of every flag add_arguments adds, in help order.
FLAGS = (
    ("--llm-model", "llm_model"),
    ("--llm-script", "llm_script"),
    ("--llm-answer", "llm_answer"),
    ("--llm-delay", "llm_delay"),
    ("--llm-chunk-words", "llm_chunk_words"),
    ("--llm-strip-tag", "llm_strip_tag"),
    ("--llm-client-header", "llm_client_header"),
    ("--llm-mode", "llm_mode"),
    ("--llm-max-model-len", "llm_max_model_len"),
    ("--llm-seed", "llm_seed"),
    ("--llm-dataset", "llm_dataset"),
    ("--llm-stream-usage", "llm_stream_usage"),
    ("--llm-rpm", "llm_rpm"),
    ("--llm-tpm", "llm_tpm"),
    ("--llm-record", "llm_record"),
    ("--llm-record-anthropic", "llm_record_anthropic"),
    ("--llm-record-file", "llm_record_file"),
    ("--llm-record-mode", "llm_record_mode"),
    ("--llm-record-match", "llm_record_match"),
)

STREAM_USAGE = ("always", "requested")


class ConfigError(Exception):
    """A model configuration the command refuses; the message is printed as ``tgfake: <message>``."""


_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_PART = re.compile(r"(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)")


def parse_duration(text: str) -> float:
    """Seconds in a Go-style duration: ``1s``, ``200ms``, ``1m30s``, ``1.5s``, ``500us``, ``0``.

    Raises ``ValueError`` (with Go's message) for anything else, including a number without a unit.
    """
    body = text
    sign = 1.0
    if body[:1] in ("+", "-"):
        sign = -1.0 if body[0] == "-" else 1.0
        body = body[1:]
    if body == "0":
        return 0.0
    if not body:
        raise ValueError(f'time: invalid duration "{text}"')
    total = 0.0
    position = 0
    while position < len(body):
        found = _PART.match(body, position)
        if found is None:
            if re.match(r"\d+\.?\d*$|\.\d+$", body[position:]):
                raise ValueError(f'time: missing unit in duration "{text}"')
            raise ValueError(f'time: invalid duration "{text}"')
        total += float(found.group(1)) * _UNITS[found.group(2)]
        position = found.end()
    return sign * total


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add every ``--llm-*`` flag except ``--llm`` itself (dests start with ``llm_``)."""
    group = parser.add_argument_group("scripted model (with --llm)")
    group.add_argument(
        "--llm-model", metavar="ID", help=f"model id the model reports (default {DEFAULT_MODEL})"
    )
    group.add_argument("--llm-script", metavar="FILE", help="JSON file with the list of rules")
    group.add_argument(
        "--llm-answer", metavar="TEXT", action="append", help="canned answer used in turn (repeatable)"
    )
    group.add_argument(
        "--llm-delay",
        metavar="DURATION",
        help=f"pause before each streamed piece, e.g. 0s, 20ms (default {DEFAULT_DELAY})",
    )
    group.add_argument("--llm-chunk-words", metavar="N", help="words per streamed piece (default 1)")
    group.add_argument(
        "--llm-strip-tag",
        metavar="TAG",
        action="append",
        help="cut <TAG>...</TAG> blocks out of user messages (repeatable)",
    )
    group.add_argument(
        "--llm-client-header",
        metavar="NAME",
        help="request header whose value is the client key (instead of the request's user)",
    )
    group.add_argument(
        "--llm-mode",
        metavar="MODE",
        help="what the model says when nothing scripted applies: script (You said: ...), echo or random "
        "(default script)",
    )
    group.add_argument(
        "--llm-max-model-len",
        metavar="N",
        help=f"context window in tokens of echo and random modes (default {DEFAULT_MAX_MODEL_LEN})",
    )
    group.add_argument("--llm-seed", metavar="N", help="seed of random mode, for reproducible answers")
    group.add_argument("--llm-dataset", metavar="FILE", help="SQLite dataset of answers for random mode")
    group.add_argument(
        "--llm-stream-usage",
        metavar="WHEN",
        help="end streams with the usage chunk always (default) or only when stream_options.include_usage "
        "is requested, as OpenAI does",
    )
    group.add_argument("--llm-rpm", metavar="N", help="requests per minute before a 429 (default no quota)")
    group.add_argument("--llm-tpm", metavar="N", help="estimated tokens per minute before a 429 (default no quota)")
    group.add_argument(
        "--llm-record",
        metavar="URL",
        help="forward OpenAI calls (chat, Responses, embeddings) to this base URL, e.g. https://api.openai.com/v1, "
        "and record the answers into --llm-record-file",
    )
    group.add_argument(
        "--llm-record-anthropic",
        metavar="URL",
        help="forward Anthropic Messages calls to this origin, e.g. https://api.anthropic.com, and record them",
    )
    group.add_argument(
        "--llm-record-file", metavar="FILE", help="the rules file recordings are written to (and replayed from)"
    )
    group.add_argument(
        "--llm-record-mode",
        metavar="MODE",
        help="new: forward only calls without a recording (default); all: forward and record every call",
    )
    group.add_argument(
        "--llm-record-match",
        metavar="FIELDS",
        help=f"what a recording is matched on, among {','.join(MATCH_FIELDS)} (default prompt,model,tools)",
    )


def given_flags(args: argparse.Namespace) -> list[str]:
    """The ``--llm-*`` flags given on the command line (for the "needs --llm" check)."""
    return [flag for flag, dest in FLAGS if getattr(args, dest, None) is not None]


def model_from_args(args: argparse.Namespace) -> Model:
    """Build the model the flags describe, or raise :class:`ConfigError` naming the problem."""
    model_id = args.llm_model if args.llm_model is not None else DEFAULT_MODEL
    if not model_id.strip():
        raise ConfigError("--llm-model must not be empty")
    record = _record_options(args)
    rules: list[Rule] = []
    if args.llm_script:
        try:
            rules = load_rules_file(args.llm_script)
        except RulesError as exc:
            raise ConfigError(str(exc)) from None
    delay_text = args.llm_delay if args.llm_delay is not None else DEFAULT_DELAY
    try:
        delay = parse_duration(delay_text)
    except ValueError:
        raise ConfigError(f'invalid value "{delay_text}" for flag --llm-delay: parse error') from None
    if delay < 0:
        raise ConfigError(f'invalid value "{delay_text}" for flag --llm-delay: must not be negative')
    chunk_words = 1
    if args.llm_chunk_words is not None:
        try:
            chunk_words = int(args.llm_chunk_words)
        except ValueError:
            raise ConfigError(
                f'invalid value "{args.llm_chunk_words}" for flag --llm-chunk-words: parse error'
            ) from None
    strip_tags = list(args.llm_strip_tag or ())
    for tag in strip_tags:
        if not tag or any(c in tag for c in "<>/ \t\n"):
            raise ConfigError(f'invalid value "{tag}" for flag --llm-strip-tag: give a bare tag name')
    header = args.llm_client_header
    if header is not None:
        try:
            check_client_header(header)
        except ValueError as exc:
            raise ConfigError(f"--llm-client-header: {exc}") from None
    mode = args.llm_mode if args.llm_mode is not None else "script"
    if mode not in MODES:
        raise ConfigError(f'invalid value "{mode}" for flag --llm-mode: choose script, echo or random')
    max_model_len = _int_flag(args.llm_max_model_len, "--llm-max-model-len", minimum=1)
    seed = _int_flag(args.llm_seed, "--llm-seed")
    generation = [
        flag
        for flag, value in (
            ("--llm-max-model-len", max_model_len),
            ("--llm-seed", seed),
            ("--llm-dataset", args.llm_dataset),
        )
        if value is not None
    ]
    if mode == "script" and generation:
        raise ConfigError(f"{generation[0]} needs --llm-mode echo or random (the mode is script)")
    if mode == "echo" and args.llm_dataset is not None:
        raise ConfigError("--llm-dataset needs --llm-mode random (echo answers with the prompt)")
    stream_usage = args.llm_stream_usage if args.llm_stream_usage is not None else "always"
    if stream_usage not in STREAM_USAGE:
        raise ConfigError(
            f'invalid value "{stream_usage}" for flag --llm-stream-usage: choose always or requested'
        )
    rpm = _int_flag(args.llm_rpm, "--llm-rpm", minimum=1)
    tpm = _int_flag(args.llm_tpm, "--llm-tpm", minimum=1)
    try:  # the model opens the dataset itself, so it also closes it at the app's cleanup
        options = ModelOptions(
            model_id=model_id,
            rules=rules,
            answers=list(args.llm_answer or ()),
            delay=delay,
            chunk_words=max(1, chunk_words),
            strip_tags=strip_tags,
            client_header=header or None,
            mode=mode,
            max_model_len=max_model_len,
            seed=seed,
            dataset=args.llm_dataset,
            usage_on_request=stream_usage == "requested",
            rpm=rpm,
            tpm=tpm,
        )
        return RecordingModel(options, record) if record is not None else Model(options)
    except DatasetError as exc:
        raise ConfigError(f"--llm-dataset: {exc}") from None
    except RulesError as exc:
        raise ConfigError(str(exc)) from None


def _record_options(args: argparse.Namespace) -> RecordOptions | None:
    """What ``--llm-record*`` asks for, or ``None`` without them; :class:`ConfigError` names a bad one."""
    upstreams = [(flag, getattr(args, dest)) for flag, dest in FLAGS[-5:-3] if getattr(args, dest) is not None]
    others = [flag for flag, dest in FLAGS[-3:] if getattr(args, dest) is not None]
    if not upstreams:
        if others:
            raise ConfigError(f"{others[0]} needs --llm-record URL or --llm-record-anthropic URL")
        return None
    for flag, url in upstreams:
        if not url.startswith(("http://", "https://")) or len(url.split("//", 1)[1]) == 0:
            raise ConfigError(f'invalid value "{url}" for flag {flag}: give an http:// or https:// URL')
    if args.llm_record_file is None:
        raise ConfigError("--llm-record needs --llm-record-file FILE, the rules file it writes")
    if args.llm_script is not None:
        raise ConfigError("--llm-script and --llm-record-file both name the rules: the recording is the script")
    mode = args.llm_record_mode if args.llm_record_mode is not None else "new"
    if mode not in RECORD_MODES:
        raise ConfigError(f'invalid value "{mode}" for flag --llm-record-mode: choose new or all')
    try:
        match = parse_match(args.llm_record_match) if args.llm_record_match is not None else DEFAULT_MATCH
    except ValueError as exc:
        raise ConfigError(f"--llm-record-match: {exc}") from None
    return RecordOptions(
        file=Path(args.llm_record_file),
        openai=args.llm_record,
        anthropic=args.llm_record_anthropic,
        mode="all" if mode == "all" else "new",
        match=match,
    )


def _int_flag(text: str | None, flag: str, minimum: int | None = None) -> int | None:
    """An integer flag value (``None`` when not given), or :class:`ConfigError` in Go's wording."""
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ConfigError(f'invalid value "{text}" for flag {flag}: parse error') from None
    if minimum is not None and value < minimum:
        raise ConfigError(f'invalid value "{text}" for flag {flag}: must be at least {minimum}')
    return value
