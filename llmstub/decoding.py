"""The one JSON decoding edge of llmstub: every body and rules document is read here.

Python's ``json`` accepts things a model server must refuse before they reach the state: invalid
UTF-8 (a ``bytes`` body is decoded leniently by callers that guess), lone UTF-16 surrogates
(``"\\ud800"`` decodes to a ``str`` that can never be encoded again, so the journal would fail on
every read), ``NaN``/``Infinity`` and ``1e999`` (not JSON, and they would come back out as invalid
JSON), and nesting deep enough to exhaust the interpreter's recursion limit. :func:`decode_json`
refuses each with a :class:`BodyError` whose message names the problem; the routes answer it 400.
"""

from __future__ import annotations

import json
import json.scanner
import math
import re
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_DEPTH", "BodyError", "JsonText", "decode_json"]

MAX_DEPTH = 64
"""How deeply arrays and objects may nest: far past any real request (tool schemas included), far
below the recursion limit of everything that walks a decoded body later (journal, encoders)."""

INVALID_JSON = "invalid JSON body"


class BodyError(ValueError):
    """A body llmstub refuses to decode; ``message`` is what the 400 says."""

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or message
        """The parser's own words where it has them (``Expecting value: line 1 column 1 (char 0)``)."""


class JsonText(dict[str, Any]):
    """A decoded object that remembers its exact source text (for tool arguments of a rules file)."""

    __slots__ = ("text",)

    def __init__(self, pairs: dict[str, Any], text: str) -> None:
        super().__init__(pairs)
        self.text = text


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BodyError(f"holds a number too large for a double: {text[:40]}")
    return value


def _constant(name: str) -> Any:
    raise BodyError(f"holds {name}, which is not JSON")


class _Decoder(json.JSONDecoder):
    """The standard decoder with the two number hooks; ``keep_text`` makes objects :class:`JsonText`."""

    def __init__(self, *, keep_text: bool) -> None:
        super().__init__(parse_float=_finite, parse_constant=_constant)
        if keep_text:
            plain: Callable[..., tuple[dict[str, Any], int]] = json.decoder.JSONObject  # type: ignore[attr-defined]

            def parse_object(s_and_end: tuple[str, int], *args: Any) -> tuple[JsonText, int]:
                text, start = s_and_end
                value, end = plain(s_and_end, *args)
                return JsonText(value, text[start - 1 : end]), end

            self.parse_object = parse_object
            self.scan_once = json.scanner.py_make_scanner(self)  # type: ignore[attr-defined]


_DECODER = _Decoder(keep_text=False)
_TEXT_DECODER = _Decoder(keep_text=True)

_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[][{}]')
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_depth(text: str, limit: int) -> str | None:
    """Refuse nesting deeper than ``limit`` with one regex pass (strings skipped), never recursing."""
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for token in _NESTING.finditer(text):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            if depth > limit:
                return f"nests arrays and objects deeper than {limit} levels"
        elif char in "]}":
            depth -= 1
    return None


def _has_lone_surrogate(value: Any) -> bool:
    """Whether any string (key or value) holds a surrogate; iterative, so depth costs no stack."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


_LONE = "holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is not a character"


def decode_json(
    raw: bytes | str, *, keep_text: bool = False, max_depth: int = MAX_DEPTH, what: str = "request body"
) -> Any:
    """Decode a JSON document or raise :class:`BodyError` naming why it is refused (``what`` names
    the document in the message: ``request body is not valid UTF-8 (byte 3)``).

    ``keep_text`` returns every object as a :class:`JsonText` carrying its source text (slower: the
    pure-Python scanner); the rules file uses it so tool arguments go out byte for byte.
    """
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BodyError(f"{what} is not valid UTF-8 (byte {exc.start})") from None
    elif _SURROGATE.search(raw):
        raise BodyError(f"{what} {_LONE}")
    else:
        text = raw
    text = text.removeprefix("\ufeff")
    problem = _check_depth(text, max_depth)
    if problem is not None:
        raise BodyError(f"{what} {problem}")
    try:
        value = (_TEXT_DECODER if keep_text else _DECODER).decode(text)
    except BodyError as exc:
        raise BodyError(f"{what} {exc.message}") from None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, and int() past its digit limit
        raise BodyError(INVALID_JSON, str(exc)) from None
    if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(value):
        raise BodyError(f"{what} {_LONE}")
    return value
