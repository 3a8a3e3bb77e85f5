"""Shared edge of the sim routes: reading a JSON body into a pydantic model, and the error answer."""

from __future__ import annotations

import re
from typing import TypeVar

from aiohttp import web
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from tgfake.errors import SimError
from tgfake.keys import stand_of
from tgfake.models import MAX_WAIT, WaitSeconds
from tgfake.params import parse_int
from tgfake.wire import BodyUnreadable, read_capped
from tgfake.world.bots import Bot

__all__ = ["MAX_SIM_BODY", "bot_of", "query_float", "query_int", "query_wait", "read_body", "stand_of"]

MAX_SIM_BODY = 1 << 20
M = TypeVar("M", bound=BaseModel)


async def read_body(request: web.Request, model: type[M]) -> M:
    """Decode the body as ``model``; any problem is a 400 naming it (``invalid JSON body: ...``)."""
    body = await read_body_bytes(request, MAX_SIM_BODY)
    if body is None:
        raise SimError(413, "request body is larger than 1 MB")
    return decode_body(body, model)


async def read_body_bytes(request: web.Request, cap: int) -> bytes | None:
    """The body (None past ``cap``); one that cannot be read as sent is a 400 saying why."""
    try:
        return await read_capped(request, cap)
    except BodyUnreadable as exc:
        raise SimError(400, f"request body can't be read: {exc}") from None


def decode_body(body: bytes, model: type[M]) -> M:
    """``body`` as ``model``, or SimError 400 ``invalid JSON body: <field>: <reason>``."""
    if not body.strip():
        raise SimError(400, "invalid JSON body: EOF")
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise invalid(exc, "invalid JSON body", body) from None


def invalid(exc: ValidationError, what: str, body: bytes = b"") -> SimError:
    """The first of pydantic's complaints as a sim error; text that is not UTF-8 in Telegram's words.

    pydantic refuses an undecodable byte and a lone ``\\ud800`` escape (so neither is ever stored), naming
    the byte or escape; the answer says what the Bot API says of the same text.
    """
    first = _telling(exc.errors())
    where = ".".join(str(part) for part in first["loc"] if not _branch(part))
    reason = first["msg"]
    if first["type"] == "json_invalid" and _about_encoding(reason, body):
        reason = NOT_UTF8
    detail = f"{where}: {reason}" if where else reason
    return SimError(400, f"{what}: {detail}")


NOT_UTF8 = "strings must be encoded in UTF-8"


def _branch(part: int | str) -> bool:
    """Whether a part of an error's location names a branch of a union (``constrained-int``), not a field."""
    return isinstance(part, str) and (part in ("int", "str") or part.startswith(("constrained-", "function-")))


def _telling(errors: list[ErrorDetails]) -> ErrorDetails:
    """The complaint to answer: the first, unless it is one branch of a union refusing a value of another type
    (``user: 2**64`` is no string), when the branch of the value's own type tells what is wrong with it."""
    first = errors[0]
    if not any(_branch(part) for part in first["loc"]):
        return first
    field = [part for part in first["loc"] if not _branch(part)]
    same = (e for e in errors if [part for part in e["loc"] if not _branch(part)] == field)
    return next((e for e in same if not e["type"].endswith("_type")), first)


def _about_encoding(reason: str, body: bytes) -> bool:
    if "surrogate" in reason or "unicode code point" in reason:
        return True
    return "hex escape" in reason and _ESCAPED_SURROGATE.search(body) is not None


_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


def bot_of(request: web.Request) -> Bot:
    """The bot a GET names with ``?bot=`` (id or username); none: the stand's default bot."""
    return stand_of(request).find_bot(request.query.get("bot", ""))


def query_int(request: web.Request, name: str, default: int = 0) -> int:
    raw = request.query.get(name, "")
    if not raw:
        return default
    value = parse_int(raw) if raw == raw.strip() else None
    if value is None:
        raise SimError(400, f"{name} must be an integer")
    return value


_WAIT = TypeAdapter(WaitSeconds)


def query_wait(request: web.Request, default: float, name: str = "timeout") -> float:
    """How long a GET may hold (``?timeout=``, seconds, an ``s`` suffix allowed): the bound every sim wait has
    (:data:`~tgfake.models.WaitSeconds`, as ``/sim/pay``'s body field); NaN, infinities, negatives and more
    than 60 are refused with a 400 naming the parameter."""
    try:
        return _WAIT.validate_python(query_float(request, name, default))
    except ValidationError:
        raise SimError(400, f"{name} must be between 0 and {MAX_WAIT:g} seconds") from None


def query_float(request: web.Request, name: str, default: float) -> float:
    raw = request.query.get(name, "")
    if not raw:
        return default
    try:
        return float(raw.removesuffix("s"))
    except ValueError:
        raise SimError(400, f"{name} must be a number of seconds") from None
