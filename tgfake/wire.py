"""The transport edge: decode any Bot API request into Params, encode the one envelope and sim answers."""

from __future__ import annotations

import codecs
import contextlib
import functools
import json
import re
import zlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any
from urllib.parse import quote, unquote, unquote_to_bytes

from aiohttp import BodyPartReader, web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_protocol import RequestPayloadError

from tgfake import errors
from tgfake.errors import TelegramError
from tgfake.params import JSON, Params, Upload, printable, skip_blank

MAX_ARGS_BODY = 4 << 20
"""The longest JSON or urlencoded body read (td's own cap on parameters is 1 MiB, answered the same way)."""
MAX_JSON_DEPTH = 100
"""td reads a parameter's JSON value at most this deep; a deeper one ends the reading there."""
ATTACH = "attach://"
TOO_MANY_PARAMETERS = "Request Entity Too Large: too many parameters"


_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # built once: json.dumps builds one per call


def compact(value: Any) -> str:
    """Compact UTF-8 JSON, as Telegram writes it (no spaces after ``,`` and ``:``)."""
    return _COMPACT.encode(value)


def decode_text(raw: bytes) -> str:
    """Bytes as text, keeping what is not UTF-8 as surrogate escapes so it is refused where it is read."""
    return raw.decode("utf-8", "surrogateescape")


def form_pairs(raw: str) -> list[tuple[str, str]]:
    """A query string or urlencoded body as td splits it: on ``&``, ``+`` as space, percent escapes as bytes.

    The same pairs as ``urllib.parse.parse_qsl(raw, keep_blank_values=True, errors="surrogateescape")`` (a
    property test holds them equal), decoded in C: parse_qsl's pure-Python unquoting was a tenth of a
    sendMessage's server time, its ``reply_markup`` being mostly escapes.
    """
    pairs: list[tuple[str, str]] = []
    for field in raw.split("&"):
        if not field:
            continue
        name, _, value = field.partition("=")
        pairs.append((_unquote_plus(name), _unquote_plus(value)))
    return pairs


def _unquote_plus(text: str) -> str:
    """One form field: ``+`` as space, ``%XX`` as that byte, the bytes as UTF-8 (others as surrogate escapes)."""
    text = text.replace("+", " ")
    if "%" not in text:
        return text
    if not text.isascii():
        return unquote(text, errors="surrogateescape")
    raw = text.encode("ascii")
    try:  # every "%XX" as the escape "\xXX", every backslash doubled: one C pass decodes them all
        decoded = codecs.escape_decode(raw.replace(b"\\", b"\\\\").replace(b"%", b"\\x"))[0]
    except ValueError:  # a "%" without two hex digits after it stays as written: the general path
        decoded = unquote_to_bytes(raw)
    return decoded.decode("utf-8", "surrogateescape")


def json_pairs(text: str) -> list[tuple[str, str]]:
    """A JSON object body as td's HTTP reader takes it: the pairs read before its first mistake.

    td logs a malformed body and serves the call with what it read (so a broken body is no error of its own);
    a string value is its text, any other value its JSON (containers re-encoded compactly, scalars as written).
    """
    pairs: list[tuple[str, str]] = []
    pos = skip_blank(text, 0)
    if not text.startswith("{", pos):
        return pairs
    pos += 1
    try:
        while True:
            pos = skip_blank(text, pos)
            if text.startswith("}", pos) or not text.startswith('"', pos):
                return pairs
            key, pos = JSON.raw_decode(text, pos)
            pos = skip_blank(text, pos)
            if not text.startswith(":", pos):
                return pairs
            start = skip_blank(text, pos + 1)
            value, pos = JSON.raw_decode(text, start)
            if isinstance(value, str):
                pairs.append((key, value))
            elif isinstance(value, dict | list):
                if _depth(value) > MAX_JSON_DEPTH:
                    return pairs
                pairs.append((key, compact(value)))
            else:
                pairs.append((key, text[start:pos]))
            pos = skip_blank(text, pos)
            if text.startswith(",", pos):
                pos += 1
    except (ValueError, RecursionError):
        return pairs


def _depth(value: Any) -> int:
    """How deeply containers nest in a decoded value (iterative: a deep value costs no stack)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


async def read_params(request: web.Request) -> Params:
    """Query string, then the body: multipart (with ``attach://`` references), JSON object, or urlencoded.

    Text is decoded once, here, for every surface that reads Bot API-style parameters: what is not UTF-8 stays
    marked (see :class:`Params`). A JSON body is read as td reads it (:func:`json_pairs`); a multipart body
    that cannot be parsed leaves the query. A JSON or urlencoded body over :data:`MAX_ARGS_BODY` raises
    TelegramError 413 with td's words.
    """
    query = request.rel_url.raw_query_string
    params = Params(values=dict(_first(form_pairs(query))) if query else {})
    ctype = request.content_type
    if ctype.startswith("multipart/form-data"):
        with contextlib.suppress(ValueError, web.HTTPException, HttpProcessingError, RequestPayloadError):
            await _read_multipart(request, params)
    elif ctype.startswith("application/json") or ctype.startswith("application/x-www-form-urlencoded"):
        try:
            body = await read_capped(request, MAX_ARGS_BODY)
        except BodyUnreadable as exc:
            raise TelegramError(400, f"{errors.BAD_REQUEST}: {exc}") from None
        if body is None:
            raise TelegramError(413, TOO_MANY_PARAMETERS)
        text = decode_text(body)
        pairs = json_pairs(text) if ctype.startswith("application/json") else form_pairs(text)
        for key, value in pairs:
            params.values.setdefault(key, value)
    return params


def _first(pairs: list[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """Each name once, with its first value (td's ``arg()`` finds the first)."""
    seen: set[str] = set()
    for key, value in pairs:
        if key not in seen:
            seen.add(key)
            yield key, value


CLOSE_CONNECTION = web.RequestKey("tgfake.close_connection", bool)
"""Set on a request whose answer must close the connection (as td's reader closes it after a refusal)."""


class BodyUnreadable(ValueError):
    """The body could not be read as sent (a broken gzip or chunked encoding); ``str()`` says why, as td words it."""


async def read_capped(request: web.Request, cap: int) -> bytes | None:
    """The whole body, or None when it is longer than ``cap`` (a single ``read(n)`` may stop at a chunk).

    Raises BodyUnreadable when aiohttp cannot decode what was sent (it would otherwise surface as a 500).
    """
    content = request.content
    try:
        first = await content.read(cap + 1)
        if content.at_eof() and content.exception() is None:  # all of it at once, as a small form comes
            return first if len(first) <= cap else None
        body = bytearray(first)
        while len(body) <= cap:
            chunk = await content.read(cap + 1 - len(body))
            if not chunk:
                return bytes(body)
            body += chunk
    except (RequestPayloadError, HttpProcessingError) as exc:
        request[CLOSE_CONNECTION] = True  # the rest of the body cannot be skipped to reach a next request
        raise BodyUnreadable(_unreadable_reason(exc)) from None
    return None


def _unreadable_reason(exc: BaseException) -> str:
    """td's words for a body its gzip reader refuses (``zlib error -3``), else the plain refusal."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, zlib.error) and (found := re.match(r"Error (-?\d+)", str(cause))):
            return f"zlib error {found.group(1)}"
        cause = cause.__cause__ or cause.__context__
    return "can't read the request body"


async def _read_multipart(request: web.Request, params: Params) -> None:
    reader = await request.multipart()
    parts: dict[str, Upload] = {}
    while True:
        part = await reader.next()
        if part is None:
            break
        if not isinstance(part, BodyPartReader) or part.name is None:
            continue
        data = await part.read(decode=False)
        if part.filename is not None:
            ctype = printable(part.headers.get("Content-Type", "application/octet-stream"))
            upload = Upload(filename=printable(part.filename), content_type=ctype, data=bytes(data))
            parts.setdefault(part.name, upload)
        else:
            params.values.setdefault(part.name, decode_text(bytes(data)))
    for name, upload in parts.items():
        params.files.setdefault(name, upload)
    for key, value in list(params.values.items()):
        if value.startswith(ATTACH) and value[len(ATTACH) :] in parts:
            params.files[key] = parts[value[len(ATTACH) :]]
            del params.values[key]


def envelope_response(status: int, envelope: dict[str, Any]) -> web.Response:
    """The Bot API answer: the envelope as compact JSON, its status, and ``Retry-After`` on flood control."""
    return encoded_envelope(status, compact(envelope).encode(), envelope.get("parameters", {}).get("retry_after", 0))


def encoded_envelope(status: int, body: bytes, retry_after: int = 0) -> web.Response:
    """An envelope already encoded (the outbox keeps the same bytes the client got)."""
    headers = {"Retry-After": str(retry_after)} if retry_after else None
    return web.Response(body=body, status=status, content_type="application/json", headers=headers)


INERT_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox; default-src 'none'",
}
"""What keeps a served file inert in a browser on the stand's own origin, where a live page could call /sim/."""


def file_response(data: bytes, mime_type: str, name: str) -> web.Response:
    """Stored bytes as a download: the sniffed type (clients read it), but an attachment the browser never runs.

    ``Content-Disposition: attachment`` makes a browser save rather than render it, ``nosniff`` stops it guessing
    a live type, and the sandboxing CSP gives even a rendered HTML document no script, no origin and no fetches.
    """
    headers = {"Content-Type": mime_type, "Content-Disposition": attachment(name), **INERT_HEADERS}
    return web.Response(body=data, headers=headers)


def attachment(name: str) -> str:
    """RFC 6266: an ASCII ``filename`` fallback and the exact name as ``filename*`` (UTF-8, percent-encoded)."""
    if not name:
        return "attachment"
    fallback = "".join(c if " " <= c <= "~" and c not in '"\\%' else "_" for c in name)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(printable(name), safe='')}"


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def answering(handler: Handler) -> Handler:
    """Wrap a stand route's handler: a sim refusal becomes ``{"error": ...}`` with its status (nothing a client sends
    becomes a 500), and an answer to a body that could not be read closes the connection (``CLOSE_CONNECTION``): its
    client must not send a next request on it.

    A route wrapper, not an app middleware: the model's routes need neither, and a middleware costs every request.
    """

    @functools.wraps(handler)
    async def answer(request: web.Request) -> web.StreamResponse:
        try:
            response = await handler(request)
        except errors.SimError as exc:
            response = sim_json({"error": exc.message}, status=exc.status)
        if CLOSE_CONNECTION in iter(request):  # (a request's ``get`` raises and catches a KeyError when it is absent)
            response.force_close()
        return response

    return answer


def sim_json(value: Any, status: int = 200) -> web.Response:
    """A sim answer: compact JSON with a trailing newline (what a JSON encoder streams)."""
    return web.Response(body=(compact(value) + "\n").encode(), status=status, content_type="application/json")
