"""Shared edge of the sim routes: reading a JSON body into a pydantic model, and the error answer."""

from __future__ import annotations

from typing import TypeVar

from aiohttp import web
from pydantic import BaseModel, ValidationError

from tgfake.errors import SimError
from tgfake.keys import stand_of
from tgfake.params import parse_int
from tgfake.wire import read_capped
from tgfake.world.bots import Bot

__all__ = ["MAX_SIM_BODY", "bot_of", "query_float", "query_int", "read_body", "stand_of"]

MAX_SIM_BODY = 1 << 20
M = TypeVar("M", bound=BaseModel)


async def read_body(request: web.Request, model: type[M]) -> M:
    """Decode the body as ``model``; any problem is a 400 naming it (``invalid JSON body: ...``)."""
    body = await read_capped(request, MAX_SIM_BODY)
    if body is None:
        raise SimError(413, "request body is larger than 1 MB")
    if not body.strip():
        raise SimError(400, "invalid JSON body: EOF")
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        reason = first["msg"]
        detail = f"{where}: {reason}" if where else reason
        raise SimError(400, f"invalid JSON body: {detail}") from None


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


def query_float(request: web.Request, name: str, default: float) -> float:
    raw = request.query.get(name, "")
    if not raw:
        return default
    try:
        return float(raw.removesuffix("s"))
    except ValueError:
        raise SimError(400, f"{name} must be a number of seconds") from None
