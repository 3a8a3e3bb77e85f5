"""Bot API call parameters as plain data, whatever the transport carried them in."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Upload:
    """One file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


@dataclass(slots=True)
class Params:
    """The first value of each parameter as text (nested JSON kept as JSON text), and the uploaded files.

    Telegram reads every field by its declared type; so do the methods, through the helpers below.
    """

    values: dict[str, str] = field(default_factory=dict)
    files: dict[str, Upload] = field(default_factory=dict)

    def get(self, name: str) -> str | None:
        return self.values.get(name)

    def text(self, name: str) -> str:
        """The value, or the empty string when absent."""
        return self.values.get(name, "")

    def flag(self, name: str) -> bool:
        """Booleans are true only for the exact string ``true``, as the reference stand reads them."""
        return self.values.get(name) == "true"

    def int_or_zero(self, name: str) -> int:
        """An integer parameter read leniently: garbage or absence is 0 (``offset``, ``limit``, ``timeout``)."""
        return parse_int(self.values.get(name, "")) or 0

    def json(self, name: str) -> Any:
        """The parameter decoded as JSON; raises ValueError when it is not JSON."""
        raw = self.values.get(name)
        if raw is None:
            raise ValueError(f"{name} is missing")
        return loads(raw)

    def summary(self) -> dict[str, str]:
        """What the outbox records: every value, and each upload as ``<name> (<size> bytes)``."""
        out = dict(self.values)
        for name, upload in self.files.items():
            out[name] = f"{upload.filename} ({len(upload.data)} bytes)"
        return out


def loads(text: str | bytes) -> Any:
    """``json.loads`` whose every failure is a ValueError: nesting too deep for Python is a client's mistake too."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def parse_int(text: str) -> int | None:
    """A base-10 integer with optional sign and surrounding blanks, else None (Go's strconv.ParseInt)."""
    text = text.strip()
    body = text[1:] if text[:1] in "+-" else text
    if not body.isascii() or not body.isdigit():
        return None
    value = int(text)
    if not -(2**63) <= value < 2**63:
        return None
    return value
