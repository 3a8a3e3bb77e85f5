"""The transport edge: decode any Bot API request into Params, encode the one envelope and sim answers."""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import BodyPartReader, web
from aiohttp.http_exceptions import HttpProcessingError
from multidict import MultiMapping

from tgfake.params import Params, Upload, loads

MAX_JSON_BODY = 4 << 20
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
ATTACH = "attach://"


def compact(value: Any) -> str:
    """Compact UTF-8 JSON, as Telegram writes it (no spaces after ``,`` and ``:``)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _first_values(multi: MultiMapping[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in multi.items():
        out.setdefault(key, value)
    return out


async def read_params(request: web.Request) -> Params:
    """Query string, then the body: multipart (with ``attach://`` references), JSON object, or urlencoded.

    A body that cannot be decoded leaves only the query, as the reference stand does; never an error.
    """
    params = Params(values=_first_values(request.query))
    ctype = request.content_type
    try:
        if ctype.startswith("multipart/form-data"):
            await _read_multipart(request, params)
        elif ctype.startswith("application/json"):
            body = await read_capped(request, MAX_JSON_BODY)
            obj = loads(body) if body is not None else None
            if isinstance(obj, dict):
                for key, value in obj.items():
                    text = value if isinstance(value, str) else compact(value)
                    params.values.setdefault(_valid_text(key), _valid_text(text))
        elif request.can_read_body:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, str):
                    params.values.setdefault(key, value)
    except (ValueError, UnicodeDecodeError, RecursionError, web.HTTPException, HttpProcessingError):
        pass
    return params


def _valid_text(text: str) -> str:
    """A lone surrogate escape (``"\\ud800"``) becomes U+FFFD, as Go's decoder reads it; UTF-8 cannot carry it."""
    return _LONE_SURROGATE.sub("\ufffd", text)


async def read_capped(request: web.Request, cap: int) -> bytes | None:
    """The whole body, or None when it is longer than ``cap`` (a single ``read(n)`` may stop at a chunk)."""
    body = bytearray()
    while len(body) <= cap:
        chunk = await request.content.read(cap + 1 - len(body))
        if not chunk:
            return bytes(body)
        body += chunk
    return None


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
            ctype = part.headers.get("Content-Type", "application/octet-stream")
            parts.setdefault(part.name, Upload(filename=part.filename, content_type=ctype, data=bytes(data)))
        else:
            params.values.setdefault(part.name, bytes(data).decode("utf-8", "replace"))
    for name, upload in parts.items():
        params.files.setdefault(name, upload)
    for key, value in list(params.values.items()):
        if value.startswith(ATTACH) and value[len(ATTACH) :] in parts:
            params.files[key] = parts[value[len(ATTACH) :]]
            del params.values[key]


def envelope_response(status: int, envelope: dict[str, Any]) -> web.Response:
    """The Bot API answer: the envelope as compact JSON, its status, and ``Retry-After`` on flood control."""
    headers = {}
    retry = envelope.get("parameters", {}).get("retry_after")
    if retry:
        headers["Retry-After"] = str(retry)
    return web.Response(
        body=compact(envelope).encode(), status=status, content_type="application/json", headers=headers
    )


def sim_json(value: Any, status: int = 200) -> web.Response:
    """A sim answer: compact JSON with a trailing newline (what a JSON encoder streams)."""
    return web.Response(body=(compact(value) + "\n").encode(), status=status, content_type="application/json")
