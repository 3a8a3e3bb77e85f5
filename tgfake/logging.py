"""One log line per Bot API call (``--verbose``), as text for people or JSON lines for machines.

The logger is built per stand and kept on it (no global structlog configuration), so two stands in one
process log independently.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, MutableMapping
from datetime import datetime
from typing import Any, TextIO

import structlog

from tgfake.stand import Call

MAX_VALUE_BYTES = 80


def short(value: str) -> str:
    """Newlines as ``\\n``; values over 80 bytes cut to 80 bytes and ``…`` (never inside a character)."""
    value = value.replace("\n", "\\n")
    raw = value.encode()
    if len(raw) <= MAX_VALUE_BYTES:
        return value
    return raw[:MAX_VALUE_BYTES].decode("utf-8", "ignore") + "…"


def _text_line(_: Any, __: str, event: MutableMapping[str, Any]) -> str:
    """The reference stand's line: ``YYYY/MM/DD HH:MM:SS <method> <status> k=v ...`` (keys sorted)."""
    when = datetime.fromtimestamp(event["at"]).strftime("%Y/%m/%d %H:%M:%S")
    pairs = " ".join(f"{k}={short(v)}" for k, v in sorted(event["params"].items()))
    return f"{when} {event['method']} {event['status']} {pairs}".rstrip()


def _json_fields(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    event["time"] = datetime.fromtimestamp(event.pop("at")).astimezone().isoformat()
    event["params"] = {k: short(v) for k, v in sorted(event["params"].items())}
    return event


def call_logger(log_format: str = "text", stream: TextIO | None = None) -> Callable[[Call], None]:
    """A listener for :attr:`Stand.call_listeners` that writes one line per recorded call."""
    processors: list[Any]
    if log_format == "json":
        processors = [_json_fields, structlog.processors.JSONRenderer(ensure_ascii=False)]
    else:
        processors = [_text_line]
    logger = structlog.wrap_logger(structlog.PrintLogger(stream or sys.stderr), processors=processors)

    def log(call: Call) -> None:
        logger.info(call.method, at=call.at, method=call.method, status=call.status, params=call.params)

    return log
