"""Files the bot sends, every kind on one path: a multipart upload (or ``attach://``) or a known file id.

A string in place of the file part re-sends a file the stand holds (the bot's or the person's) under the same
id, if it is of the same kind; an ``http(s)://`` URL is what tgfake/urlfiles.py downloaded, or is refused as
Telegram refuses a URL it cannot get. Every refusal comes in the reference stand's order: chat, file,
size, caption, keyboard, image check, reply target. A refused call stores nothing and mints no file id.
What each kind reads from the bytes and from the parameters is in :func:`tgfake.media.describe`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.common import caption_fields, caption_text, chat_id, post_message
from tgfake.botapi.keyboards import parse_send_markup
from tgfake.botapi.registry import bot_method
from tgfake.content import CAPTIONED, SPOILERED, Media, StoredFile
from tgfake.errors import TelegramError, bad_request
from tgfake.filestore import URL_UNFETCHABLE, check_upload, for_resend, mint
from tgfake.media import MAX_URL_PHOTO, describe, image_size, mime_type, picture_format
from tgfake.params import Params, Upload

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

URL_DOCUMENT_TYPES = frozenset({"image/gif", "application/pdf", "application/zip"})
"""What sendDocument takes by URL: "currently only GIF, PDF and ZIP files", the Bot API's documentation says."""


def no_file(kind: str) -> str:
    return f"Bad Request: there is no {kind} in the request"


def mint_file(
    ctx: BotCall,
    upload: Upload,
    width: int = 0,
    height: int = 0,
    kind: str = "document",
    meta: dict[str, Any] | None = None,
    thumbnail: bytes | None = None,
) -> StoredFile:
    """Keep the bytes under the next id (``file_N`` / ``ufile_N``; numbering restarts after a reset), a photo with
    its drawn sizes, another kind with its thumbnail (``thumbnail``: the picture the bot sent for it)."""
    return mint(ctx.telegram, kind, upload.filename, upload.data, width, height, meta, thumbnail)


ATTACH = "attach://"


def given_thumbnail(p: Params, raw: dict[str, Any] | None = None) -> bytes | None:
    """The thumbnail the bot sent with the file, as ``get_input_thumbnail`` reads it: an ``attach://`` part, or the
    part named ``thumbnail`` (or ``thumb``); a file id or URL in its place is ignored (``force_file``: a thumbnail
    is only ever a new upload). ``raw`` is an InputMedia object whose ``thumbnail`` field names the part."""
    for name in ("thumbnail", "thumb"):
        value = raw.get(name) if raw is not None else p.values.get(name)
        value = value if isinstance(value, str) else ""
        part = value[len(ATTACH) :] if value.startswith(ATTACH) else ("" if raw is not None else name)
        upload = p.files.get(part) if part else None
        if upload is not None and upload.data:
            return upload.data
    return None


def input_file(
    ctx: BotCall, p: Params, name: str, kind: str = "", any_document: bool = False
) -> tuple[Upload | None, StoredFile | None]:
    """The file part (or ``attach://`` part) named ``name``, else the file its string names (:func:`named_file`:
    a downloaded URL, or a file id of ``kind``, the part's name unless given); size-checked."""
    upload = p.files.get(name)
    if upload is None:
        value = p.text(name)
        if not value:
            raise bad_request(no_file(name.replace("_", " ")))
        return named_file(ctx, p, value, kind or name, any_document)
    return named_file(ctx, p, upload, kind or name)


def named_file(
    ctx: BotCall, p: Params, ref: Upload | str, kind: str, any_document: bool = False
) -> tuple[Upload | None, StoredFile | None]:
    """A file the call sends, as an upload or as a file the stand has, checked as Telegram checks it.

    An upload is size-checked (10 MiB for a photo, 50 MiB else, not empty: ``check_upload``). A string is an HTTP
    URL the transport downloaded (tgfake/urlfiles.py: its bytes become an upload; a photo must be an image of up to
    5 MB, a document a GIF, PDF or ZIP and a sticker a .WEBP (the Bot API's rule: "Video and animated stickers can't
    be sent via an HTTP URL"), else ``wrong type of the web page content``, TDLib's
    WEBPAGE_MEDIA_EMPTY as Client.cpp words it), else a file id of ``kind`` (or, with ``any_document``, of its file
    type class), or the URL that could not be downloaded (``failed to get HTTP URL content``, ``file is too big``).
    """
    if isinstance(ref, Upload):
        check_upload(ref.data, kind)
        return ref, None
    fetched = p.fetched.get(ref.strip()) if p.fetched else None
    if fetched is None:
        return None, for_resend(ctx.telegram, ref, kind, any_document)
    if isinstance(fetched, TelegramError):  # not read whole: cut short, too big, unreachable
        raise fetched
    if not fetched.data or (kind == "photo" and len(fetched.data) > MAX_URL_PHOTO):
        raise bad_request(URL_UNFETCHABLE)
    if (
        (kind == "photo" and image_size(fetched.data) is None)
        or (kind == "document" and mime_type(fetched.data) not in URL_DOCUMENT_TYPES)
        or (kind == "sticker" and picture_format(fetched.data) != "WEBP")
    ):
        raise bad_request(errors.URL_WRONG_TYPE)
    return fetched, None


def new_media(
    ctx: BotCall,
    kind: str,
    upload: Upload | None,
    known: StoredFile | None,
    p: Any,
    *,
    spoiler: bool = False,
    thumbnail: bytes | None = None,
) -> Callable[[], Media]:
    """Check the bytes now (a photo that is no image is refused), mint the file id only when called; ``spoiler``
    (``has_spoiler``) is kept only for the kinds TDLib hides (photos, videos, animations). ``p`` is the call's
    Params (its thumbnail part is read) or an InputMedia object (``thumbnail`` given by the caller)."""
    hidden = spoiler and kind in SPOILERED
    if known is not None:
        return lambda: Media(kind, known, spoiler=hidden)
    assert upload is not None
    size, meta = describe(kind, p, upload.data)
    if thumbnail is None and isinstance(p, Params):
        thumbnail = given_thumbnail(p)
    return lambda: Media(kind, mint_file(ctx, upload, *size, kind=kind, meta=meta, thumbnail=thumbnail), spoiler=hidden)


async def _send_file(ctx: BotCall, p: Params, kind: str) -> Any:
    cid = chat_id(p)
    upload, known = input_file(ctx, p, kind, any_document=True)
    shown = known.kind if known is not None else kind  # a video's id sent by sendDocument is still a video
    caption = caption_text(p) if kind in CAPTIONED else None
    if shown not in CAPTIONED:
        caption = None
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))
    make = new_media(ctx, shown, upload, known, p, spoiler=kind in SPOILERED and p.flag("has_spoiler"))

    def attach() -> dict[str, Any]:
        return {"media": make()}

    return post_message(
        ctx,
        p,
        cid,
        keyboard,
        attach=attach,
        **caption_fields(ctx, caption),
        parse_mode=p.text("parse_mode"),
        caption_above=kind in ABOVE_MEDIA and p.flag("show_caption_above_media"),
    )


ABOVE_MEDIA = frozenset({"photo", "video", "animation"})
"""The single sends that take ``show_caption_above_media`` (Client.cpp reads it for these, as for a live photo)."""


@bot_method("sendPhoto")
async def send_photo(ctx: BotCall, p: Params) -> Any:
    """The photo in Telegram's sizes (90, 320, 800, 1280 px), smallest first; a PNG, JPEG or GIF to 10 MiB, or an id."""
    return await _send_file(ctx, p, "photo")


@bot_method("sendDocument")
async def send_document(ctx: BotCall, p: Params) -> Any:
    """Any file up to 50 MiB, or a document's file id; ``mime_type`` is sniffed from the bytes, never the name."""
    return await _send_file(ctx, p, "document")


@bot_method("sendLivePhoto")
async def send_live_photo(ctx: BotCall, p: Params) -> Any:
    """A photo with its motion part (``live_photo``, a video: an upload or a video's file id), as
    ``process_send_live_photo_query`` sends it: the still as ``photo``, both as ``live_photo``, one caption."""
    cid = chat_id(p)
    video, known_video = input_file(ctx, p, "live_photo", kind="video")
    photo, known_photo = input_file(ctx, p, "photo")
    caption = caption_text(p)
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))
    still = new_media(ctx, "photo", photo, known_photo, p)
    motion = new_media(ctx, "video", video, known_video, {})

    def attach() -> dict[str, Any]:
        moving = motion().file
        assert moving is not None
        return {"media": Media("live_photo", still().file, {"video": moving}, spoiler=p.flag("has_spoiler"))}

    return post_message(
        ctx,
        p,
        cid,
        keyboard,
        attach=attach,
        **caption_fields(ctx, caption),
        parse_mode=p.text("parse_mode"),
        caption_above=p.flag("show_caption_above_media"),
    )
