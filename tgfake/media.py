"""What an uploaded file is: the content type sniffed from its bytes, and a photo's size.

Telegram describes a document by what it contains, not by what it is called, and the reference
stand uses Go's ``http.DetectContentType`` (the WHATWG MIME sniffing algorithm) for that. No
well-kept Python library reproduces that table (``mimetypes`` reads names; ``python-magic`` needs
libmagic and answers differently, e.g. for HTML fragments and text; ``filetype`` has no text or
HTML rules), so the table is ported here: a small, fixed list of byte patterns checked in order.

Photo sizes come from Pillow, which reads an image's header without decoding the pixels; durations (and an
audio file's title and artist tags) come from mutagen, which reads MP3, OGG, MP4/M4A, FLAC and WAV headers.
Video width and height are taken as the bot states them (no pure-Python library reads them from MP4/WebM).
"""

from __future__ import annotations

import io
import struct
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from tgfake.errors import bad_request
from tgfake.params import Params, parse_int

__all__ = [
    "IMAGE_PROCESS_FAILED",
    "MAX_CAPTION_LENGTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_PHOTO_BYTES",
    "PHOTO_FORMATS",
    "describe",
    "detect_content_type",
    "image_size",
    "mime_type",
]

MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_URL_PHOTO = 5 << 20  # a photo sent by URL: the Bot API documents 5 MB (20 MB for other files)
"""The largest photo upload the Bot API takes (10 MiB)."""
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
"""The largest document upload the Bot API takes (50 MiB)."""
MAX_CAPTION_LENGTH = 1024
"""Caption limit in Unicode code points."""
PHOTO_FORMATS = frozenset({"PNG", "JPEG", "GIF"})
"""The image formats a photo may be in (anything else is ``IMAGE_PROCESS_FAILED``)."""

SNIFF_LEN = 512
"""Only the first bytes are looked at, as the algorithm prescribes."""

_WS = frozenset(b"\t\n\x0c\r ")

Matcher = Callable[[bytes, int], str]


@dataclass(frozen=True, slots=True)
class _Exact:
    """The data starts with these bytes (leading whitespace is not skipped)."""

    sig: bytes
    ct: str

    def __call__(self, data: bytes, first_non_ws: int) -> str:
        return self.ct if data.startswith(self.sig) else ""


@dataclass(frozen=True, slots=True)
class _Masked:
    """The data ANDed with ``mask`` equals ``pat`` (optionally after leading whitespace)."""

    mask: bytes
    pat: bytes
    ct: str
    skip_ws: bool = False

    def __call__(self, data: bytes, first_non_ws: int) -> str:
        if self.skip_ws:
            data = data[first_non_ws:]
        if len(self.pat) != len(self.mask) or len(data) < len(self.pat):
            return ""
        if all(data[i] & m == p for i, (m, p) in enumerate(zip(self.mask, self.pat, strict=True))):
            return self.ct
        return ""


@dataclass(frozen=True, slots=True)
class _Html:
    """A case-insensitive tag opener after leading whitespace, followed by a space or ``>``."""

    tag: bytes

    def __call__(self, data: bytes, first_non_ws: int) -> str:
        data = data[first_non_ws:]
        if len(data) < len(self.tag) + 1:
            return ""
        for b, db in zip(self.tag, data, strict=False):
            if ord("A") <= b <= ord("Z"):
                db &= 0xDF
            if b != db:
                return ""
        if data[len(self.tag)] not in b" >":
            return ""
        return "text/html; charset=utf-8"


def _mp4(data: bytes, first_non_ws: int) -> str:
    """An ISO BMFF ``ftyp`` box naming an ``mp4`` brand (WHATWG "signature for MP4")."""
    if len(data) < 12:
        return ""
    box_size = struct.unpack(">I", data[:4])[0]
    if len(data) < box_size or box_size % 4 != 0 or data[4:8] != b"ftyp":
        return ""
    for st in range(8, box_size, 4):
        if st == 12:  # the major brand's version number
            continue
        if data[st : st + 3] == b"mp4":
            return "video/mp4"
    return ""


_BINARY = frozenset([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])


def _text(data: bytes, first_non_ws: int) -> str:
    """No binary control bytes after the leading whitespace: plain text."""
    if any(b in _BINARY for b in data[first_non_ws:]):
        return ""
    return "text/plain; charset=utf-8"


_SIGNATURES: tuple[Matcher, ...] = (
    *(
        _Html(tag)
        for tag in (
            b"<!DOCTYPE HTML",
            b"<HTML",
            b"<HEAD",
            b"<SCRIPT",
            b"<IFRAME",
            b"<H1",
            b"<DIV",
            b"<FONT",
            b"<TABLE",
            b"<A",
            b"<STYLE",
            b"<TITLE",
            b"<B",
            b"<BODY",
            b"<BR",
            b"<P",
            b"<!--",
        )
    ),
    _Masked(b"\xff\xff\xff\xff\xff", b"<?xml", "text/xml; charset=utf-8", skip_ws=True),
    _Exact(b"%PDF-", "application/pdf"),
    _Exact(b"%!PS-Adobe-", "application/postscript"),
    # Byte order marks.
    _Masked(b"\xff\xff\x00\x00", b"\xfe\xff\x00\x00", "text/plain; charset=utf-16be"),
    _Masked(b"\xff\xff\x00\x00", b"\xff\xfe\x00\x00", "text/plain; charset=utf-16le"),
    _Masked(b"\xff\xff\xff\x00", b"\xef\xbb\xbf\x00", "text/plain; charset=utf-8"),
    # Images.
    _Exact(b"\x00\x00\x01\x00", "image/x-icon"),
    _Exact(b"\x00\x00\x02\x00", "image/x-icon"),
    _Exact(b"BM", "image/bmp"),
    _Exact(b"GIF87a", "image/gif"),
    _Exact(b"GIF89a", "image/gif"),
    _Masked(
        b"\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff",
        b"RIFF\x00\x00\x00\x00WEBPVP",
        "image/webp",
    ),
    _Exact(b"\x89PNG\r\n\x1a\n", "image/png"),
    _Exact(b"\xff\xd8\xff", "image/jpeg"),
    # Audio and video, in the order the spec prescribes.
    _Masked(b"\xff\xff\xff\xff", b".snd", "audio/basic"),
    _Masked(b"\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff", b"FORM\x00\x00\x00\x00AIFF", "audio/aiff"),
    _Masked(b"\xff\xff\xff", b"ID3", "audio/mpeg"),
    _Masked(b"\xff\xff\xff\xff\xff", b"OggS\x00", "application/ogg"),
    _Masked(b"\xff" * 8, b"MThd\x00\x00\x00\x06", "audio/midi"),
    _Masked(b"\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff", b"RIFF\x00\x00\x00\x00AVI ", "video/avi"),
    _Masked(b"\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff", b"RIFF\x00\x00\x00\x00WAVE", "audio/wave"),
    _mp4,
    _Exact(b"\x1a\x45\xdf\xa3", "video/webm"),
    # Fonts.
    _Masked(b"\x00" * 34 + b"\xff\xff", b"\x00" * 34 + b"LP", "application/vnd.ms-fontobject"),
    _Exact(b"\x00\x01\x00\x00", "font/ttf"),
    _Exact(b"OTTO", "font/otf"),
    _Exact(b"ttcf", "font/collection"),
    _Exact(b"wOFF", "font/woff"),
    _Exact(b"wOF2", "font/woff2"),
    # Archives.
    _Exact(b"\x1f\x8b\x08", "application/x-gzip"),
    _Exact(b"PK\x03\x04", "application/zip"),
    _Exact(b"Rar!\x1a\x07\x00", "application/x-rar-compressed"),
    _Exact(b"Rar!\x1a\x07\x01\x00", "application/x-rar-compressed"),
    _Exact(b"\x00asm", "application/wasm"),
    _text,  # last: anything without binary bytes
)


def detect_content_type(data: bytes) -> str:
    """Go's ``http.DetectContentType``: the WHATWG sniffed type, ``application/octet-stream`` if unknown."""
    data = data[:SNIFF_LEN]
    first_non_ws = 0
    while first_non_ws < len(data) and data[first_non_ws] in _WS:
        first_non_ws += 1
    for match in _SIGNATURES:
        ct = match(data, first_non_ws)
        if ct:
            return ct
    return "application/octet-stream"


def mime_type(data: bytes) -> str:
    """A document's ``mime_type``: the sniffed type without its ``; charset=...`` part."""
    return detect_content_type(data).split(";", 1)[0].strip()


def image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` of a PNG, JPEG or GIF read from its header; None for anything else.

    Images beyond Pillow's decompression-bomb limit (~179 megapixels) count as unreadable too:
    Telegram would refuse such a photo anyway.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=sorted(PHOTO_FORMATS)) as img:
                width, height = img.size
    except Exception:  # any failure to parse untrusted bytes means "not an image"
        return None
    if width <= 0 or height <= 0:
        return None
    return width, height


MAX_LENGTH = 10000
"""The widest or tallest a video, animation or video note may be said to be (Client.cpp's ``MAX_LENGTH``)."""
MAX_DURATION = 24 * 60 * 60
"""The longest duration a send may state, in seconds (Client.cpp's ``MAX_DURATION``)."""


def picture_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` of any image Pillow reads (a sticker's WEBP, an animation's GIF); None otherwise."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                width, height = img.size
    except Exception:  # untrusted bytes: anything unreadable is simply not a picture
        return None
    return (width, height) if width > 0 and height > 0 else None


@dataclass(frozen=True, slots=True)
class AudioInfo:
    """What mutagen reads from an audio or video file's headers: whole seconds, and the tags if any."""

    duration: int = 0
    title: str = ""
    performer: str = ""


def audio_info(data: bytes) -> AudioInfo:
    """Duration (MP3, OGG/Opus, M4A/MP4, FLAC, WAV...) and title/artist tags, via mutagen; empty when unreadable."""
    import mutagen

    try:
        found = mutagen.File(io.BytesIO(data), easy=True)
    except Exception:  # untrusted bytes: a file mutagen cannot parse has no readable duration
        return AudioInfo()
    if found is None:
        return AudioInfo()
    length = getattr(found.info, "length", 0) or 0
    tags = found.tags if isinstance(found.tags, Mapping) else {}

    def tag(name: str) -> str:
        value = tags.get(name) if tags else None
        return str(value[0]) if isinstance(value, list) and value else ""

    return AudioInfo(duration=round(length), title=tag("title"), performer=tag("artist"))


IMAGE_PROCESS_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"


def _bounded(p: Params | dict[str, Any], name: str, top: int) -> int:
    """``get_integer_arg(name, 0, 0, top)``: a stated length or duration, clamped as Client.cpp clamps it."""
    raw = p.get(name)
    value = raw if isinstance(raw, int) and not isinstance(raw, bool) else parse_int(str(raw or "")) or 0
    return max(0, min(int(value), top))


def describe(kind: str, p: Params | dict[str, Any], data: bytes) -> tuple[tuple[int, int], dict[str, Any]]:
    """A new file's size and fields: read from the bytes where they can be, else as the bot states them.

    Durations the bot leaves out come from mutagen (audio, voice, video...); an audio file's title and performer
    from its tags; a sticker's and an animation's size from Pillow. ``p`` is the call or an album item's object.
    """
    if kind == "photo":
        found = image_size(data)
        if found is None:
            raise bad_request(IMAGE_PROCESS_FAILED)
        return found, {}
    if kind == "document":
        return (0, 0), {}
    duration = _bounded(p, "duration", MAX_DURATION)
    if not duration and kind in ("video", "audio", "voice", "animation", "video_note"):
        duration = min(audio_info(data).duration, MAX_DURATION)
    if kind == "audio":
        tags = audio_info(data)
        title, performer = str(p.get("title") or "") or tags.title, str(p.get("performer") or "") or tags.performer
        return (0, 0), {"duration": duration, "title": title, "performer": performer}
    if kind == "voice":
        return (0, 0), {"duration": duration, "mime_type": "audio/ogg" if data.startswith(b"OggS") else ""}
    if kind == "video_note":
        return (0, 0), {"duration": duration, "length": _bounded(p, "length", MAX_LENGTH)}
    if kind == "sticker":
        width, height = picture_size(data) or (512, 512)
        animated = data.startswith(b"\x1f\x8b")  # a .tgs sticker is gzipped Lottie JSON
        fields = {"width": width, "height": height, "emoji": str(p.get("emoji") or ""), "set_name": ""}
        fields |= {"is_animated": animated, "is_video": data.startswith(b"\x1a\x45\xdf\xa3"), "type": "regular"}
        return (width, height), fields
    width, height = _bounded(p, "width", MAX_LENGTH), _bounded(p, "height", MAX_LENGTH)
    if kind == "animation" and not (width and height):
        width, height = picture_size(data) or (width, height)
    fields = {"duration": duration, "width": width, "height": height}
    if kind == "video" and _bounded(p, "start_timestamp", MAX_DURATION):
        fields["start_timestamp"] = _bounded(p, "start_timestamp", MAX_DURATION)
    return (width, height), fields
