"""Reading fields of a JSON object parameter the way TDLib's ``JsonObject`` reads them (exact words).

telegram-bot-api decodes object parameters (``scope``, ``rights``, ``prices``, ...) with ``td::JsonObject``'s
``get_required_string_field`` and friends; their failures are worded once in tdutils' ``JsonBuilder.cpp`` and
the server wraps them (``Can't parse BotCommandScope: ...``). A String field also takes a Number (its text), and
a Number field also takes a String holding an integer.
"""

from __future__ import annotations

from typing import Any

from tgfake import errors
from tgfake.errors import TelegramError, bad_request
from tgfake.params import Params, loads
from tgfake.params import to_bool as to_bool  # (the one Boolean rule, for the modules that read fields here)


class FieldError(Exception):
    """One field of one object is wrong; ``message`` is TDLib's text, to be wrapped by the caller."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def server_words(message: str) -> str:
    """``fail_query_with_error``: ``Bad Request: `` and the first letter lower-cased unless it opens a CONSTANT."""
    if len(message) >= 2 and (message[1] == "_" or "A" <= message[1] <= "Z"):
        return f"Bad Request: {message}"
    return f"Bad Request: {message[:1].lower()}{message[1:]}"


def refuse(message: str) -> TelegramError:
    """A 400 with TDLib's or the server's ``message`` as the server words it."""
    return bad_request(server_words(message))


def wrapped(what: str, exc: FieldError) -> TelegramError:
    """``Can't parse <what>: <TDLib's words>`` (the inner words keep their capital)."""
    return bad_request(errors.CANT_PARSE_OBJECT.format(what=what, problem=exc.message))


def decode_param(p: Params, name: str, what: str) -> Any:
    """The parameter decoded as JSON, or ``Can't parse <what> JSON object``; absent or empty gives None."""
    raw = p.text(name)
    if not raw:
        return None
    try:
        return loads(raw)
    except ValueError:
        raise bad_request(errors.CANT_PARSE_JSON.format(what=what)) from None


def required_json(p: Params, name: str, bad: str, missing: str = "") -> Any:
    """A required JSON parameter decoded: absent or empty is ``missing`` (else ``parameter "<name>" is required``),
    text that is not JSON is ``bad``; each method's words for the two come from Client.cpp."""
    raw = p.text(name)
    if not raw:
        raise bad_request(missing or errors.PARAMETER_REQUIRED.format(name=name))
    try:
        return loads(raw)
    except ValueError:
        raise bad_request(bad) from None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number_text(value: Any) -> str:
    return str(value)


def required_string(obj: dict[str, Any], name: str) -> str:
    if name not in obj:
        raise FieldError(errors.FIELD_MISSING.format(name=name))
    return optional_string(obj, name)


def optional_string(obj: dict[str, Any], name: str, default: str = "") -> str:
    if name not in obj:
        return default
    value = obj[name]
    if isinstance(value, str):
        return value
    if _is_number(value):
        return _number_text(value)
    raise FieldError(errors.FIELD_NOT_STRING.format(name=name))


def _integer(name: str, value: Any, bits: int) -> int:
    if isinstance(value, str) or _is_number(value):
        text = value if isinstance(value, str) else _number_text(value)
        body = text[1:] if text[:1] == "-" else text
        if body.isascii() and body.isdigit() and -(2 ** (bits - 1)) <= int(text) < 2 ** (bits - 1):
            return int(text)
        raise FieldError(errors.FIELD_BAD_NUMBER.format(name=name))
    raise FieldError(errors.FIELD_NOT_NUMBER.format(name=name))


def required_long(obj: dict[str, Any], name: str) -> int:
    if name not in obj:
        raise FieldError(errors.FIELD_MISSING.format(name=name))
    return _integer(name, obj[name], 64)


def required_int(obj: dict[str, Any], name: str) -> int:
    if name not in obj:
        raise FieldError(errors.FIELD_MISSING.format(name=name))
    return _integer(name, obj[name], 32)


def optional_int(obj: dict[str, Any], name: str, default: int = 0) -> int:
    return _integer(name, obj[name], 32) if name in obj else default


def optional_bool(obj: dict[str, Any], name: str, default: bool = False) -> bool:
    if name not in obj:
        return default
    value = obj[name]
    if isinstance(value, bool):
        return value
    raise FieldError(errors.FIELD_NOT_BOOLEAN.format(name=name))


def optional_double(obj: dict[str, Any], name: str, default: float = 0.0) -> float:
    if name not in obj:
        return default
    value = obj[name]
    if _is_number(value):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            pass
    raise FieldError(errors.FIELD_NOT_DOUBLE.format(name=name))


