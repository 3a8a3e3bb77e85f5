"""The stand's one file store: ids, download paths, and what a bot or the person may do with a file id.

Bot uploads and the person's files share one numbering (``file_N`` / ``ufile_N``, restarting after a reset),
so a file id names the same bytes whoever sent them, as Telegram's ids do for one bot. Plain state: no aiohttp.
"""

from __future__ import annotations

import mimetypes
import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from tgfake.content import DOCUMENT_KINDS, StoredFile
from tgfake.errors import bad_request
from tgfake.media import (
    MAX_DOCUMENT_BYTES,
    MAX_PHOTO_BYTES,
    PHOTO_SIZE_BOXES,
    PROFILE_PHOTO_BOXES,
    THUMBNAIL_BOX,
    draw,
    draw_all,
    fit,
    mime_type,
    photo_size_plan,
    picture_size,
    thumbnail_plan,
)
from tgfake.text.cleaning import strip_empty_characters

if TYPE_CHECKING:
    from tgfake.world.telegram import Telegram

MAX_DOWNLOAD_BYTES = 20 << 20
"""The largest file a bot may fetch with getFile (Telegram's ``MAX_DOWNLOAD_FILE_SIZE``)."""

HTTP_URL = re.compile(r"https?://[^/\s?#]+", re.IGNORECASE)
"""A URL Telegram would try to download (it needs a host)."""
FILE_ID = re.compile(r"file_[1-9][0-9]*")
"""What the stand's file ids look like; anything else cannot be parsed, as Telegram words it."""

WRONG_FILE_ID = "Bad Request: wrong file_id or the file is temporarily unavailable"
WRONG_REMOTE_ID = "Bad Request: wrong remote file identifier specified: wrong string length"
WRONG_IDENTIFIER = "Bad Request: wrong file identifier/HTTP URL specified"
TYPE_MISMATCH = "Bad Request: type of file mismatch"
FILE_TOO_BIG = "Bad Request: file is too big"
FILE_EMPTY = "Bad Request: file must be non-empty"  # td (FileLoaderUtils) as fail_query_with_error lower-cases it
URL_UNFETCHABLE = "Bad Request: failed to get HTTP URL content"  # WEBPAGE_CURL_FAILED, as Client.cpp words it

_FOLDERS = {
    "photo": "photos",
    "document": "documents",
    "video": "videos",
    "audio": "music",
    "voice": "voice",
    "animation": "animations",
    "sticker": "stickers",
    "video_note": "video_notes",
    "passport": "passport",  # Telegram Passport files, stored encrypted (tgfake/world/passport.py)
    "thumbnail": "thumbnails",  # drawn by the stand (a video's, a sticker's...): Telegram's folder for them
}
MAX_FILE_NAME = 255  # code points
_TYPES = mimetypes.MimeTypes()  # Python's own table only: the host's /etc/mime.types must not change file paths
_PHOTO_SUFFIX = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif"}


def mint(
    stand: Telegram,
    kind: str,
    name: str,
    data: bytes,
    width: int = 0,
    height: int = 0,
    meta: dict[str, Any] | None = None,
    thumbnail: bytes | None = None,
) -> StoredFile:
    """Keep the bytes under the next id; ``kind`` decides how the file may be re-sent, ``meta`` is what the
    file shows for its kind (a video's duration, a sticker's emoji) wherever it is sent again.

    A photo is kept in Telegram's sizes (:func:`draw_sizes`), a file of another kind gets the thumbnail Telegram draws
    for it (from its own picture, or from ``thumbnail``, the one the bot sent: :func:`tgfake.media.thumbnail_plan`).
    The file takes the next id, its drawn sizes and thumbnail the ones after it."""
    if kind == "photo" and data and width and height:
        return draw_sizes(stand, name, data, width, height, meta)
    stored = _keep(stand, kind, name, data, width, height, meta)
    plan = thumbnail_plan(kind, data, thumbnail) if data else None
    if plan is not None:
        source, fmt = plan
        found = picture_size(source)
        assert found is not None  # thumbnail_plan only names pictures
        thumb_width, thumb_height = fit(*found, THUMBNAIL_BOX)
        drawn = draw(source, thumb_width, thumb_height, fmt)
        if drawn is not None:
            suffix = ".webp" if fmt == "WEBP" else ".jpg"
            stored.thumbnail = _keep(stand, "thumbnail", "thumbnail" + suffix, drawn, thumb_width, thumb_height)
    return stored


def draw_sizes(
    stand: Telegram,
    name: str,
    data: bytes,
    width: int,
    height: int,
    meta: dict[str, Any] | None = None,
    boxes: tuple[tuple[str, int], ...] = PHOTO_SIZE_BOXES,
) -> StoredFile:
    """A photo as Telegram keeps it (:func:`tgfake.media.photo_size_plan`): the upload itself as its largest size
    when it fits the largest class (a test reads back the very bytes it sent), else scaled down to it; and each
    smaller class drawn from it, every size a file of its own (``of`` names the photo, so its id sends the photo).
    ``boxes`` are the classes: a message's photo's, or a profile photo's (:data:`tgfake.media.PROFILE_PHOTO_BOXES`),
    which is cut to its centred square first, as Telegram crops a profile photo."""
    if boxes is PROFILE_PHOTO_BOXES and width != height:
        side = min(width, height)
        cropped = draw(data, side, side, square=True)
        if cropped is not None:
            data, width, height = cropped, side, side
    plan = [(w, h) for _, w, h in photo_size_plan(width, height, boxes)]
    scaled = plan[-1] != (width, height)  # larger than the largest class: kept only scaled down
    drawn = draw_all(data, plan if scaled else plan[:-1]) if len(plan) > 1 or scaled else []
    if drawn is None:  # not drawable (too large a picture): the photo as it is, alone
        drawn, plan = [], [(width, height)]
    elif scaled:
        data, (width, height) = drawn.pop(), plan[-1]
    photo = _keep(stand, "photo", name, data, width, height, meta)
    sizes: list[StoredFile] = []
    for picture, (size_width, size_height) in zip(drawn, plan, strict=False):
        size = _keep(stand, "photo", name, picture, size_width, size_height)
        size.of = photo.file_id
        sizes.append(size)
    photo.sizes = tuple(sizes)
    return photo


def _keep(
    stand: Telegram,
    kind: str,
    name: str,
    data: bytes,
    width: int = 0,
    height: int = 0,
    meta: dict[str, Any] | None = None,
) -> StoredFile:
    """The bytes under the next id (``file_N`` / ``ufile_N``)."""
    n = len(stand.world.files) + 1
    stored = StoredFile(
        file_id=f"file_{n}",
        unique_id=f"ufile_{n}",
        name=strip_empty_characters(name, MAX_FILE_NAME, strip_rtlo=True),  # as td keeps a document's file name
        mime_type=mime_type(data),
        data=data,
        width=width,
        height=height,
        kind=kind,
        meta=dict(meta or {}),
    )
    stand.world.files[stored.file_id] = stored
    return stored


def suffix(stored: StoredFile) -> str:
    """A photo's suffix comes from its format; a document's from its name, else from its type (Telegram's way)."""
    if stored.kind == "photo":
        return _PHOTO_SUFFIX.get(stored.mime_type, ".jpg")
    from_name = PurePosixPath(stored.name).suffix
    if from_name and from_name.isascii() and len(from_name) <= 16:
        return from_name.lower()
    return _TYPES.guess_extension(stored.mime_type) or ""


def file_path(stored: StoredFile) -> str:
    """``photos/file_3.png``, ``documents/file_4.pdf``: where ``/file/bot<token>/`` serves the bytes."""
    return f"{_FOLDERS.get(stored.kind, 'documents')}/{stored.file_id}{suffix(stored)}"


def check_upload(data: bytes, kind: str) -> None:
    """An uploaded file's size checks: over the kind's limit, or empty (td refuses a 0-byte upload)."""
    if len(data) > (MAX_PHOTO_BYTES if kind == "photo" else MAX_DOCUMENT_BYTES):
        raise bad_request(FILE_TOO_BIG)
    if not data:
        raise bad_request(FILE_EMPTY)


def by_path(stand: Telegram, path: str) -> StoredFile | None:
    """The file a download path names: the id is the path's stem, and the whole path must be the file's own."""
    stem = PurePosixPath(path).name.split(".", 1)[0]
    stored = stand.world.files.get(stem)
    return stored if stored is not None and file_path(stored) == path else None


def for_get_file(stand: Telegram, file_id: str) -> StoredFile:
    """getFile's checks: an id of another shape, an unknown id, a file over 20 MB are each refused."""
    if not FILE_ID.fullmatch(file_id):
        raise bad_request(WRONG_REMOTE_ID)
    stored = stand.world.files.get(file_id)
    if stored is None:
        raise bad_request(WRONG_FILE_ID)
    if stored.size > MAX_DOWNLOAD_BYTES:
        raise bad_request(FILE_TOO_BIG)
    return stored


def for_resend(stand: Telegram, value: str, kind: str, any_document: bool = False) -> StoredFile:
    """A send naming a file by id: the very file (no new id), of the same kind (or, with ``any_document``, of the
    same TDLib file type class, documents and the like); a URL cannot be fetched here."""
    stored = stand.world.files.get(value.strip())
    if stored is not None and stored.of:  # one size of a photo: the photo is sent, with all its sizes
        stored = stand.world.files.get(stored.of, stored)
    if stored is None and HTTP_URL.match(value.strip()):
        raise bad_request(URL_UNFETCHABLE)
    if stored is None:
        raise bad_request(WRONG_IDENTIFIER)
    if stored.kind != kind and not (any_document and {stored.kind, kind} <= DOCUMENT_KINDS):
        raise bad_request(TYPE_MISMATCH)
    return stored


def get_file_json(stored: StoredFile) -> dict[str, object]:
    """The Bot API File object."""
    return {
        "file_id": stored.file_id,
        "file_unique_id": stored.unique_id,
        "file_size": stored.size,
        "file_path": file_path(stored),
    }


# --- the person's files ------------------------------------------------------------------------------------------
PERSON_MAX_PHOTO = MAX_PHOTO_BYTES
"""A person's photo: 10 MiB (Telegram takes far larger ones from users, but hands bots a recompressed JPEG)."""
PERSON_MAX_DOCUMENT = MAX_DOCUMENT_BYTES
"""A person's file of any other kind: 50 MiB, enough to try getFile's 20 MB refusal without holding gigabytes."""


def default_name(kind: str, data: bytes) -> str:
    """``photo.png``, ``document.pdf``: what a file sent without a name is called."""
    return kind + (_TYPES.guess_extension(mime_type(data)) or "")
