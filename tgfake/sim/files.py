"""Files on the person's side: ``POST /sim/file`` sends one, ``GET /sim/file/{id}`` reads any back.

``POST /sim/file`` takes JSON (the file as base64, for scripts and tests) or a multipart form (``curl -F``); both
carry the sender fields of ``POST /sim/message``. The checks and the store live in ``tgfake/filestore.py``.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from aiohttp import web
from pydantic import ValidationError

from tgfake.errors import SimError, TelegramError
from tgfake.filestore import send_person_file
from tgfake.models import FileIn, FilePartIn
from tgfake.params import printable
from tgfake.sim import answers
from tgfake.sim.common import decode_body, invalid, read_body_bytes, stand_of
from tgfake.sim.openapi import documented, path
from tgfake.wire import file_response, read_params, sim_json

routes = web.RouteTableDef()

MAX_FILE_BODY = 70 << 20
"""A JSON body carrying a 50 MiB document as base64 (4/3 of it) and the other fields."""
KINDS = ("photo", "document")


@routes.get("/sim/file/{id}")
@documented(None, media=("*/*",), params=(path("id", "A file_id"),))
async def file(request: web.Request) -> web.Response:
    stored = stand_of(request).world.files.get(request.match_info["id"])
    if stored is None:
        raise SimError(404, "no such file")
    return file_response(stored.data, stored.mime_type, stored.name)


@routes.post("/sim/file")
@documented(answers.FileSent, body=FileIn, errors=(403,), form_files=("photo", "document"))
async def send_file(request: web.Request) -> web.Response:
    """The person sends a photo or a document; answers ``{"message_id","update_id","file_id"}``."""
    if request.content_type in ("multipart/form-data", "application/x-www-form-urlencoded"):
        body, kind, name, data = await _from_form(request)
    else:
        body, kind, name, data = await _from_json(request)
    return sim_json(send_person_file(stand_of(request), body, kind, name, data))


def _one_kind(present: list[str]) -> str:
    if not present:
        raise SimError(400, "photo or document is required")
    if len(present) > 1:
        raise SimError(400, "send a photo or a document, not both")
    return present[0]


async def _from_json(request: web.Request) -> tuple[FileIn, str, str, bytes]:
    raw = await read_body_bytes(request, MAX_FILE_BODY)
    if raw is None:
        raise SimError(413, f"request body is larger than {MAX_FILE_BODY >> 20} MiB")
    body = decode_body(raw, FileIn)
    parts: dict[str, FilePartIn | None] = {"photo": body.photo, "document": body.document}
    kind = _one_kind([k for k in KINDS if parts[k] is not None])
    part = parts[kind]
    assert part is not None
    return body, kind, part.name, _base64(kind, part.data)


def _base64(kind: str, text: str) -> bytes:
    """Standard or URL-safe base64, whitespace allowed, a ``data:...;base64,`` prefix skipped."""
    if text.startswith("data:") and ";base64," in text:
        text = text.split(";base64,", 1)[1]
    compact = "".join(text.split()).replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise SimError(400, f"{kind}.data is not valid base64") from None


async def _from_form(request: web.Request) -> tuple[FileIn, str, str, bytes]:
    try:
        params = await read_params(request)
    except TelegramError as exc:
        raise SimError(exc.status, exc.description) from None
    bad = params.first_not_utf8()
    if bad is not None:
        raise SimError(400, f"invalid form field: {printable(bad)}: strings must be encoded in UTF-8")
    for kind in KINDS:
        if kind in params.values:
            raise SimError(400, f"{kind} must be a file part (curl -F {kind}=@file)")
    kind = _one_kind([k for k in KINDS if k in params.files])
    upload = params.files[kind]
    fields: dict[str, Any] = {k: v for k, v in params.values.items() if k not in KINDS}
    try:
        body = FileIn.model_validate(fields, strict=False)
    except ValidationError as exc:
        raise invalid(exc, "invalid form field") from None
    return body, kind, upload.filename, upload.data
