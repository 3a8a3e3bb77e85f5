"""What an uploaded file is: the content type sniffed from its bytes, and a photo's size.

Telegram describes a document by what it contains, not by what it is called, and the reference
stand uses Go's ``http.DetectContentType`` (the WHATWG MIME sniffing algorithm) for that. No
well-kept Python library reproduces that table (``mimetypes`` reads names; ``python-magic`` needs
libmagic and answers differently, e.g. for HTML fragments and text; ``filetype`` has no text or
HTML rules), so the table is ported here: a small, fixed list of byte patterns checked in order.

Photo sizes come from Pillow, which reads an image's header without decoding the pixels; durations (and an
audio file's title and artist tags) come from mutagen, which reads MP3, OGG, MP4/M4A, FLAC and WAV headers.
Video width and height are taken as the bot states them (no pure-Python library reads them from MP4/WebM).

Telegram keeps a photo in several sizes and draws thumbnails; so does the stand, with Pillow (:func:`photo_size_plan`,
:func:`thumbnail_plan`, :func:`draw`): really scaled images, JPEG (a sticker's thumbnail WEBP) at
:data:`JPEG_QUALITY`. Which sizes and thumbnails exist, and why, is in docs/media.md ("Photo sizes and thumbnails").
"""

from __future__ import annotations

import io
import struct
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from tgfake import errors
from tgfake.errors import bad_request
from tgfake.params import Params, parse_int

__all__ = [
    "IMAGE_PROCESS_FAILED",
    "MAX_CAPTION_LENGTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_PHOTO_BYTES",
    "PHOTO_FORMATS",
    "PHOTO_SIZE_BOXES",
    "PROFILE_PHOTO_BOXES",
    "describe",
    "detect_content_type",
    "draw",
    "draw_all",
    "image_size",
    "mime_type",
    "photo_size_plan",
    "thumbnail_plan",
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


MAX_PHOTO_SIDES = 10000
"""A photo's width and height together at most (the Bot API: "The photo's width and height must not exceed 10000 in
total")."""
MAX_PHOTO_RATIO = 20
"""A photo's longer side at most this many times its shorter ("Width and height ratio must be at most 20")."""


def photo_dimensions_valid(width: int, height: int) -> bool:
    """What Telegram's server takes as a photo (else ``PHOTO_INVALID_DIMENSIONS``): the Bot API's two rules."""
    return width + height <= MAX_PHOTO_SIDES and max(width, height) <= MAX_PHOTO_RATIO * min(width, height)


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
        if not photo_dimensions_valid(*found):
            raise bad_request(errors.PHOTO_INVALID_DIMENSIONS)
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
        fields: dict[str, Any] = {"width": width, "height": height, "emoji": str(p.get("emoji") or "")}
        fields |= {"set_name": "", "is_animated": animated, "is_video": data.startswith(b"\x1a\x45\xdf\xa3")}
        fields["type"] = "regular"
        return (width, height), fields
    width, height = _bounded(p, "width", MAX_LENGTH), _bounded(p, "height", MAX_LENGTH)
    if kind == "animation" and not (width and height):
        width, height = picture_size(data) or (width, height)
    fields = {"duration": duration, "width": width, "height": height}
    if kind == "video" and data[4:8] == b"ftyp":  # any ISO BMFF brand (isom, mp42...): Telegram says video/mp4
        fields["mime_type"] = "video/quicktime" if data[8:12] == b"qt  " else "video/mp4"
    if kind == "video" and _bounded(p, "start_timestamp", MAX_DURATION):
        fields["start_timestamp"] = _bounded(p, "start_timestamp", MAX_DURATION)
    return (width, height), fields


# --- photo sizes and thumbnails -------------------------------------------------------------------------------------
PHOTO_SIZE_BOXES = (("s", 90), ("m", 320), ("x", 800), ("y", 1280))
"""Telegram's photo size classes a bot's or a person's photo is kept in (type, longest side): ``s`` 90, ``m`` 320,
``x`` 800, ``y`` 1280. ``w`` (2560) is kept only for a photo an app sends in HD, which neither sends here."""
PROFILE_PHOTO_BOXES = (("a", 160), ("b", 320), ("c", 640))
"""A profile photo's classes (a person's ``POST /sim/profile`` photos, the bot's setMyProfilePhoto, a chat's photo):
squares of 160, 320 and 640 px, Telegram's crops of a profile photo (td's ``as_fake_dialog_photo`` takes ``a`` as
a ChatPhoto's small file and ``c`` as its big one)."""
THUMBNAIL_BOX = 320
"""A thumbnail's longest side at most (the Bot API: "A thumbnail's width and height should not exceed 320")."""
JPEG_QUALITY = 85
"""The quality drawn JPEGs are written at (4:2:0, optimised Huffman tables): a 50×50 thumbnail re-encoded so is
1395 bytes, one of the sizes Telegram reported for the same thumbnail in python-telegram-bot's suite."""
STICKER_THUMBNAIL_FORMAT = "WEBP"
"""A sticker's thumbnail keeps its transparency, as Telegram's (a WEBP) does."""
DRAWN_DOCUMENT_FORMATS = frozenset({"PNG", "JPEG", "GIF", "WEBP"})
"""A document in one of these formats gets a thumbnail drawn from its own picture."""


def fit(width: int, height: int, box: int) -> tuple[int, int]:
    """``width`` × ``height`` scaled down (never up) so that its longest side is at most ``box``."""
    longest = max(width, height)
    if longest <= box:
        return width, height
    return max(1, round(width * box / longest)), max(1, round(height * box / longest))


def photo_size_plan(
    width: int, height: int, boxes: tuple[tuple[str, int], ...] = PHOTO_SIZE_BOXES
) -> list[tuple[str, int, int]]:
    """The sizes Telegram keeps of a ``width`` × ``height`` photo, smallest first: one per class, scaled into its box,
    up to the first class the photo fits in whole (that size is the photo as it is); a photo larger than the
    largest class is kept only scaled down (the last entry then differs from the original)."""
    plan: list[tuple[str, int, int]] = []
    for size_type, box in boxes:
        plan.append((size_type, *fit(width, height, box)))
        if max(width, height) <= box:
            break
    return plan


MAX_DRAWN_PIXELS = (MAX_PHOTO_SIDES // 2) ** 2
"""The largest picture a size or thumbnail is drawn from: the largest photo Telegram takes (5000×5000). A larger
picture (a huge PNG sent as a document) gets no thumbnail, so that no upload makes the stand decode more."""


def _open_picture(data: bytes, target: tuple[int, int] | None = None) -> Image.Image | None:
    """The first frame of any picture Pillow reads, up to :data:`MAX_DRAWN_PIXELS`, loaded; None for anything else.
    A JPEG is decoded at the smallest of its reduced scales still at least ``target`` (libjpeg's DCT scaling: what
    makes drawing a large photo's sizes cheap)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
            if img.size[0] * img.size[1] > MAX_DRAWN_PIXELS:
                return None
            if target is not None and img.format == "JPEG":
                img.draft("RGB", target)
            img.seek(0)
            img.load()
    except Exception:  # untrusted bytes: anything Pillow cannot read is simply not a picture
        return None
    return img


def draw(data: bytes, width: int, height: int, fmt: str = "JPEG", *, square: bool = False) -> bytes | None:
    """The picture in ``data`` (its first frame) scaled to ``width`` × ``height`` and written as ``fmt`` (JPEG or
    WEBP); ``square`` first cuts the largest centred square out of it (a profile photo's crop). None when ``data``
    is no picture Pillow reads."""
    drawn = draw_all(data, [(width, height)], fmt, square=square)
    return drawn[0] if drawn else None


def draw_all(
    data: bytes, sizes: list[tuple[int, int]], fmt: str = "JPEG", *, square: bool = False
) -> list[bytes] | None:
    """:func:`draw` of several sizes, largest first, from one decoding: each is scaled from the one before it."""
    if not sizes:
        return []
    img = _open_picture(data, None if square else max(sizes, key=lambda size: size[0] * size[1]))
    if img is None:
        return None
    if square and img.size[0] != img.size[1]:
        side = min(img.size)
        left, top = (img.size[0] - side) // 2, (img.size[1] - side) // 2
        img = img.crop((left, top, left + side, top + side))
    has_alpha = img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info)
    img = img.convert("RGBA" if has_alpha else "RGB")
    if fmt == "JPEG" and has_alpha:  # a JPEG has no transparency: the picture is laid on white
        white = Image.new("RGB", img.size, (255, 255, 255))
        white.paste(img, mask=img.getchannel("A"))
        img = white
    drawn = [b""] * len(sizes)
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i][0] * sizes[i][1]):  # largest first
        if img.size != sizes[i]:
            img = img.resize(sizes[i], Image.Resampling.LANCZOS, reducing_gap=3.0)
        buf = io.BytesIO()
        if fmt == "JPEG":
            img.save(buf, "JPEG", quality=JPEG_QUALITY, subsampling=2, optimize=True)
        else:
            img.save(buf, fmt, quality=JPEG_QUALITY, method=4)
        drawn[i] = buf.getvalue()
    return drawn


def picture_format(data: bytes) -> str:
    """The format Pillow reads ``data`` as (``PNG``, ``WEBP``...), or ``""``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                return str(img.format or "")
    except Exception:  # untrusted bytes: not a picture
        return ""


def thumbnail_plan(kind: str, data: bytes, given: bytes | None) -> tuple[bytes, str] | None:
    """Where a file's thumbnail is drawn from, and in which format, as Telegram draws it: from the file's own
    picture where Telegram reads one (a static sticker, a GIF animation, an image sent as a document), else from
    the thumbnail the bot sent with it (an audio's cover, a video's, a PDF's...); None for no thumbnail (a photo has
    sizes instead, a voice note none, an animated or video sticker is drawn from frames the stand cannot render)."""
    own = picture_format(data)
    if kind == "sticker" and own:
        return data, STICKER_THUMBNAIL_FORMAT
    if (kind == "animation" and own == "GIF") or (kind == "document" and own in DRAWN_DOCUMENT_FORMATS):
        return data, "JPEG"
    if kind in ("video", "video_note", "animation", "audio", "document") and given and picture_size(given):
        return given, "JPEG"
    return None
