"""The aiohttp edge shared by the model's handlers: JSON answers, OpenAI errors, bounded body reads."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar, overload

from aiohttp import web

from . import wire
from .decoding import BodyError, decode_json
from .errors import openai_error

__all__ = [
    "MAX_BODY",
    "SURROGATES",
    "ErrorShape",
    "error_response",
    "header_text",
    "json_response",
    "method_not_allowed",
    "read_json",
    "read_limited",
    "read_post_object",
    "stored",
]

MAX_BODY = 8 << 20  # the Go stand's limit for model bodies; images in base64 need room
_T = TypeVar("_T")
SURROGATES = re.compile("[\ud800-\udfff]")


@overload
def stored(request: web.BaseRequest, key: web.RequestKey[_T], default: None = None) -> _T | None: ...
@overload
def stored(request: web.BaseRequest, key: web.RequestKey[_T], default: _T) -> _T: ...
@overload
def stored(request: web.BaseRequest, key: str, default: Any = None) -> Any: ...
def stored(request: web.BaseRequest, key: Any, default: Any = None) -> Any:
    """``request.get(key, default)`` without an exception for a missing key.

    aiohttp's request is a Mapping whose ``get`` raises and catches a KeyError inside for every missing key (about
    0.6 µs each, several per request); a request holds a handful of keys, so scanning them costs less.
    """
    return request[key] if key in iter(request) else default


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    """Compact sorted JSON with a trailing newline, the layout of every llmstub answer."""
    return web.Response(
        status=status, text=wire.dumps(body) + "\n", content_type="application/json", headers=headers
    )


def error_response(
    status: int, message: str, *, param: str | None = None, code: str | None = None
) -> web.Response:
    """OpenAI's full error envelope with the status's type and code (see :mod:`.errors`)."""
    return json_response(status, openai_error(status, message, param=param, code=code))


async def read_limited(request: web.Request, limit: int) -> bytes | None:
    """The body, or ``None`` when it exceeds ``limit`` (read from the stream, past the app's own cap)."""
    content = request.content
    chunk = await content.read(64 << 10)  # (iter_chunked's async iterator cost more than this)
    if content.at_eof() and content.exception() is None:  # all of it at once: no second read to see the end
        return chunk if len(chunk) <= limit else None
    chunks = bytearray(chunk)
    while len(chunks) <= limit and (chunk := await content.read(64 << 10)):
        chunks.extend(chunk)
    return bytes(chunks) if len(chunks) <= limit else None


ErrorShape = Callable[..., dict[str, Any]]
"""Builds a surface's error object from ``(status, message)`` (and ``param=``): OpenAI's by default."""


async def read_json(request: web.Request, shape: ErrorShape = openai_error) -> Any:
    """The request's JSON body through the decoding edge, or the 413/400 answer refusing it (in the
    surface's error ``shape``: Anthropic's routes answer in theirs)."""
    raw = await read_limited(request, MAX_BODY)
    if raw is None:
        return json_response(413, shape(413, f"request body is larger than {MAX_BODY} bytes"))
    try:
        return decode_json(raw)
    except BodyError as exc:
        return json_response(400, shape(400, exc.message))


def method_not_allowed(allowed: str) -> web.Response:
    """The Go stand's plain-text 405 with ``Allow``."""
    return web.Response(status=405, text="Method Not Allowed\n", headers={"Allow": allowed}, content_type="text/plain")


async def read_post_object(request: web.Request) -> dict[str, Any] | web.Response:
    """A ``POST`` route's JSON object body, or the 405/413/400 answer refusing the request."""
    if request.method != "POST":
        return method_not_allowed("POST")
    body = await read_json(request)
    if isinstance(body, web.Response):
        return body
    if not isinstance(body, dict):
        return error_response(400, "request body must be a JSON object")
    return body


def header_text(request: web.Request, name: str) -> str:
    """A request header's value; ``ValueError`` when its bytes were not UTF-8 (it goes to the journal)."""
    value = request.headers.get(name, "")
    if SURROGATES.search(value):
        raise ValueError(f"header {name} is not valid UTF-8")
    return value
