"""Bot API call parameters as plain data, whatever the transport carried them in."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from tgfake import errors
from tgfake.errors import bad_request

SURROGATE = re.compile("[\ud800-\udfff]")
"""What the edge leaves for text that is not UTF-8: undecodable bytes (``surrogateescape``) and lone ``\\ud800``."""
RECORD_CAP = 1 << 15
"""The longest value the outbox keeps whole: Telegram's own cap on a raw text (``Text is too long`` past 32 KiB)."""


@dataclass(frozen=True, slots=True)
class Upload:
    """One file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


@dataclass(slots=True)
class Params:
    """The first value of each parameter as text (nested JSON kept as JSON text), and the uploaded files.

    Telegram reads every field by its declared type; so do the methods, through the helpers below. Text that
    arrived in no valid UTF-8 is kept as it came (see :data:`SURROGATE`) and refused when a method reads it,
    as td refuses such a string where it uses it: ``Bad Request: strings must be encoded in UTF-8``.
    """

    values: dict[str, str] = field(default_factory=dict)
    files: dict[str, Upload] = field(default_factory=dict)
    chats: dict[str, int] | None = None
    """The ``@username`` chat parameters the dispatcher resolved for the calling bot (0: nobody it can name)."""
    fetched: dict[str, Upload | errors.TelegramError] | None = None
    """The files named by URL, by URL: the bytes downloaded after the call's checks, or why they could not be
    (tgfake/urlfiles.py)."""

    def get(self, name: str) -> str | None:
        """The value, None when absent; raises TelegramError when it is not valid UTF-8."""
        value = self.values.get(name)
        if value is not None and not is_utf8(value):
            raise bad_request(errors.STRINGS_NOT_UTF8)
        return value

    def text(self, name: str) -> str:
        """The value, or the empty string when absent; raises TelegramError when it is not valid UTF-8."""
        value = self.get(name)
        return "" if value is None else value

    def flag(self, name: str) -> bool:
        """A Boolean parameter, read as the server reads every one (:func:`to_bool`); absent is false."""
        return to_bool(self.values.get(name, ""))

    def chat(self, name: str = "chat_id") -> int:
        """A chat parameter as ``check_chat`` reads it: a public ``@username`` as resolved for this bot, else
        ``td::to_integer`` of the text (so garbage, like an unknown username, names chat 0: ``chat not found``)."""
        value = self.text(name)
        if value[:1] == "@":
            return self.chats.get(name, 0) if self.chats else 0
        return to_integer(value)

    def int_or_zero(self, name: str) -> int:
        """An integer parameter read leniently: garbage or absence is 0 (``offset``, ``limit``, ``timeout``)."""
        return parse_int(self.values.get(name, "")) or 0

    def json(self, name: str) -> Any:
        """The parameter decoded as JSON; raises ValueError when it is not JSON."""
        raw = self.get(name)
        if raw is None:
            raise ValueError(f"{name} is missing")
        return loads(raw)

    def first_not_utf8(self) -> str | None:
        """The name of the first value that is not valid UTF-8, None when all are (for surfaces that refuse at once)."""
        return next((k for k, v in self.values.items() if not is_utf8(k) or not is_utf8(v)), None)

    def summary(self) -> dict[str, str]:
        """What the outbox records: every value, and each upload as ``<name> (<size> bytes)``.

        A record must stay readable and small whatever was sent: text that is not UTF-8 is recorded with U+FFFD,
        and a value longer than :data:`RECORD_CAP` is cut there with a marker saying how long it was (a refused
        11 MB text would otherwise be kept whole until a reset).
        """
        out = {printable(k): _capped(printable(v)) for k, v in self.values.items()}
        for name, upload in self.files.items():
            out[printable(name)] = f"{printable(upload.filename)} ({len(upload.data)} bytes)"
        return out


def is_utf8(text: str) -> bool:
    """Whether ``text`` encodes to UTF-8 (no surrogate code point: no undecodable byte, no lone ``\\ud800``)."""
    return text.isascii() or SURROGATE.search(text) is None


def printable(text: str) -> str:
    """``text`` with every surrogate code point as U+FFFD: safe to store, show and encode."""
    return text if is_utf8(text) else SURROGATE.sub("\ufffd", text)


def _capped(value: str) -> str:
    if len(value) <= RECORD_CAP:
        return value
    return f"{value[:RECORD_CAP]}… [cut: {len(value)} characters]"


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text} is out of range")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


JSON = json.JSONDecoder(parse_float=_finite, parse_constant=_no_constant, strict=False)
"""The stand's JSON reader: no ``NaN``/``Infinity``, no number too big for a double, control characters allowed
inside strings (td's reader allows them)."""


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def loads(text: str | bytes) -> Any:
    """JSON text to a value; a failure to parse is a ValueError (nesting too deep for Python is a client's too).

    A string in it that is not UTF-8 (a lone ``\\ud800``, an undecodable byte) raises TelegramError with
    ``strings must be encoded in UTF-8``: td decodes such an escape into bytes it then refuses to use.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    try:
        value, end = JSON.raw_decode(text, skip_blank(text, 0))
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if skip_blank(text, end) != len(text):
        raise ValueError("extra data after the JSON value")
    if (SURROGATE.search(text) or _ESCAPED_SURROGATE.search(text)) and not _all_utf8(value):
        raise bad_request(errors.STRINGS_NOT_UTF8)
    return value


def _all_utf8(value: Any) -> bool:
    """Every string (and key) in a decoded JSON value is valid UTF-8; iterative, so depth costs no stack."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not is_utf8(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


_BLANK = re.compile(r"[ \t\n\r]*")


def skip_blank(text: str, pos: int) -> int:
    """The position after JSON whitespace from ``pos``."""
    match = _BLANK.match(text, pos)
    return match.end() if match else pos


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


def to_integer(text: str) -> int:
    """``td::to_integer``: an optional ``-`` and the leading digits, wrapped to 64 bits as td's unsigned arithmetic
    wraps; anything else reads as 0 (never an error)."""
    sign, body = (-1, text[1:]) if text[:1] == "-" else (1, text)
    if body.isascii() and body.isdigit() and len(body) < 19:  # the whole text, in range: what clients send
        return sign * int(body)
    end = 0
    while end < len(body) and "0" <= body[end] <= "9":
        end += 1
    if not end:
        return 0
    value = (sign * int(body[:end])) % 2**64
    return value - 2**64 if value >= 2**63 else value


def to_bool(value: str) -> bool:
    """Client.cpp's ``to_bool``: lower-cased and trimmed, ``true``, ``yes`` and ``1`` are true, anything else false.

    What a JSON ``true`` becomes, and what clients that send Python's ``True`` (telebot) or ``1`` mean.
    """
    if not value or value == "true":  # (what nearly every call carries: absent, or a JSON true)
        return bool(value)
    return value.lower().strip(" \t\r\n") in ("true", "yes", "1")
