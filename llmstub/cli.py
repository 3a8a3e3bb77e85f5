"""Placeholder until the model lands: the command's model flags and Go-style durations."""

from __future__ import annotations

import argparse
import re
from typing import Any

_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)")


class ConfigError(Exception):
    """A model setting the command cannot start with."""


def parse_duration(text: str) -> float:
    """Seconds from a Go duration (``1s``, ``200ms``, ``1m30s``, ``0``)."""
    text = text.strip()
    if text in ("0", "+0", "-0"):
        return 0.0
    sign = -1.0 if text.startswith("-") else 1.0
    body = text.lstrip("+-")
    pos, total = 0, 0.0
    while pos < len(body):
        m = _PART.match(body, pos)
        if m is None:
            raise ValueError(f'invalid duration "{text}"')
        total += float(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    if not body:
        raise ValueError(f'invalid duration "{text}"')
    return sign * total


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--llm-model", default="tgfake-demo")


def model_from_args(args: argparse.Namespace) -> Any:
    raise ConfigError("the scripted model is not built yet")
