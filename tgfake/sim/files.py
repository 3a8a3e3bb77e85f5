"""Files on the person's side: ``POST /sim/file`` sends one, ``POST /sim/album`` several as one album,
``POST /sim/profile`` sets a person's profile photos and audios, ``GET /sim/file/{id}`` reads any file back.

``POST /sim/file`` takes JSON (the file as base64, for scripts and tests) or a multipart form (``curl -F``); both
carry the sender fields of ``POST /sim/message``. The album and the profile take JSON. The checks and the store
live in ``tgfake/world/files.py``; this module only decodes the requests.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from aiohttp import web
from pydantic import ValidationError

from tgfake.content import FILE_KINDS
from tgfake.errors import SimError, TelegramError
from tgfake.models import AlbumIn, AlbumItemIn, FileIn, FilePartIn, GameIn, ProfileIn
from tgfake.params import printable
from tgfake.sim import answers
from tgfake.sim.common import decode_body, invalid, read_body_bytes, stand_of
from tgfake.sim.openapi import documented, path
from tgfake.wire import file_response, read_params, sim_json
from tgfake.world import files
from tgfake.world.groups import person_ref

routes = web.RouteTableDef()

MAX_FILE_BODY = 70 << 20
"""A JSON body carrying a 50 MiB document as base64 (4/3 of it) and the other fields."""
MAX_ALBUM_BODY = 140 << 20
"""An album's or a profile's JSON body: ten 10 MiB photos as base64, or two 50 MiB documents."""
KINDS = FILE_KINDS
ONE_OF = ", ".join(KINDS)


@routes.get("/sim/file/{id}")
@documented(None, media=("*/*",), params=(path("id", "A file_id"),))
async def file(request: web.Request) -> web.Response:
    stored = stand_of(request).world.files.get(request.match_info["id"])
    if stored is None:
        raise SimError(404, "no such file")
    return file_response(stored.data, stored.mime_type, stored.name)


@routes.post("/sim/file")
@documented(answers.FileSent, body=FileIn, errors=(403,), form_files=FILE_KINDS)
async def send_file(request: web.Request) -> web.Response:
    """The person sends one file of any kind; answers ``{"message_id","update_id","file_id"}``."""
    if request.content_type in ("multipart/form-data", "application/x-www-form-urlencoded"):
        body, kind, name, data, file_id = await _from_form(request)
    else:
        body, kind, name, data, file_id = await _from_json(request)
    return sim_json(files.send_file(stand_of(request), body, kind, name, data, file_id))


@routes.post("/sim/album")
@documented(answers.Answer, body=AlbumIn, errors=(403,))
async def send_album(request: web.Request) -> web.Response:
    """The person sends 2-10 files as one album; answers ``{"media_group_id","messages":[...]}``."""
    body = await _json(request, AlbumIn, MAX_ALBUM_BODY)
    decoded = [(item.name, _file_data(f"items[{i}]", item)) for i, item in enumerate(body.items)]
    return sim_json(files.send_album(stand_of(request), body, decoded))


@routes.post("/sim/profile")
@documented(answers.Answer, body=ProfileIn)
async def set_profile(request: web.Request) -> web.Response:
    """A person's profile photos and audios (newest first) and app language; answers the file ids now on the
    profile (and the language, when one was given)."""
    body = await _json(request, ProfileIn, MAX_ALBUM_BODY)
    stand = stand_of(request)
    person = person_ref(stand, body.user)
    photos = None if body.photos is None else [(p, _file_data(f"photos[{i}]", p)) for i, p in enumerate(body.photos)]
    audios = None if body.audios is None else [(a, _file_data(f"audios[{i}]", a)) for i, a in enumerate(body.audios)]
    answer = files.set_profile(stand, person.id, photos, audios)
    if body.language_code is not None:
        person.language_code = answer["language_code"] = body.language_code
    if body.personal_chat is not None:
        answer["personal_chat"] = files.set_personal_chat(stand, person.id, body.personal_chat)
    return sim_json(answer)


@routes.post("/sim/bots/{bot}/games")
@documented(answers.Answer, body=GameIn, params=(path("bot", "The bot (id or @username)"),), errors=(404,))
async def make_game(request: web.Request) -> web.Response:
    """BotFather's ``/newgame`` for a bot that exists: sendGame with this short name shows the game's title,
    description, photo and animation. Answers ``{"bot_id", "short_name", "game"}`` (the Bot API Game)."""
    body = await _json(request, GameIn, MAX_ALBUM_BODY)
    stand = stand_of(request)
    bot = stand.find_bot(request.match_info["bot"])
    photo = _file_data("photo", body.photo)
    animation = _file_data("animation", body.animation) if body.animation is not None else None
    return sim_json(files.make_game(stand, bot.id, body, photo, animation))


def _one_kind(present: list[str]) -> str:
    if not present:
        raise SimError(400, f"a file is required: one of {ONE_OF}")
    if len(present) > 1:
        raise SimError(400, f"send one file, not {' and '.join(present)}")
    return present[0]


async def _json(request: web.Request, model: type[Any], cap: int) -> Any:
    raw = await read_body_bytes(request, cap)
    if raw is None:
        raise SimError(413, f"request body is larger than {cap >> 20} MiB")
    return decode_body(raw, model)


async def _from_json(request: web.Request) -> tuple[FileIn, str, str, bytes, str]:
    body: FileIn = await _json(request, FileIn, MAX_FILE_BODY)
    parts: dict[str, FilePartIn | None] = {kind: getattr(body, kind) for kind in KINDS}
    kind = _one_kind([k for k in KINDS if parts[k] is not None])
    part = parts[kind]
    assert part is not None
    return body, kind, part.name, _file_data(kind, part), part.file_id


def _file_data(where: str, part: FilePartIn | AlbumItemIn) -> bytes:  # (a ProfileAudioIn is a FilePartIn)
    """A part's bytes; none for one that names a file by ``file_id`` (it may not also carry bytes or a name)."""
    if part.file_id:
        if part.data or part.name:
            raise SimError(400, f"{where}: send the file's data or its file_id, not both")
        return b""
    return _base64(where, part.data)


def _base64(kind: str, text: str) -> bytes:
    """Standard or URL-safe base64, whitespace allowed, a ``data:...;base64,`` prefix skipped."""
    if text.startswith("data:") and ";base64," in text:
        text = text.split(";base64,", 1)[1]
    compact = "".join(text.split()).replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise SimError(400, f"{kind}.data is not valid base64") from None


async def _from_form(request: web.Request) -> tuple[FileIn, str, str, bytes, str]:
    try:
        params = await read_params(request)
    except TelegramError as exc:
        raise SimError(exc.status, exc.description) from None
    bad = params.first_not_utf8()
    if bad is not None:
        raise SimError(400, f"invalid form field: {printable(bad)}: strings must be encoded in UTF-8")
    kind = _one_kind([k for k in KINDS if k in params.files or k in params.values])
    if kind not in params.files:  # a text field names a file the stand holds, as a bot's file_id does
        file_id = params.values[kind]
        if stand_of(request).world.files.get(file_id.strip()) is None:  # (most likely a forgotten @)
            raise SimError(
                400, f"{kind} must be a file part (curl -F {kind}=@file) or the file_id of a file the stand holds, "
                f"not {file_id!r}"
            )
    else:
        file_id = ""
    upload = params.files.get(kind)
    fields: dict[str, Any] = {k: v for k, v in params.values.items() if k not in KINDS}
    if "caption_entities" in fields:  # a JSON array in a text field, as a bot's caption_entities comes
        try:
            fields["caption_entities"] = json.loads(fields["caption_entities"])
        except ValueError:
            raise SimError(400, "invalid form field: caption_entities: not a JSON array of MessageEntity") from None
    try:
        body = FileIn.model_validate(fields, strict=False)
    except ValidationError as exc:
        raise invalid(exc, "invalid form field") from None
    if upload is None:
        return body, kind, "", b"", file_id
    return body, kind, upload.filename, upload.data, file_id
