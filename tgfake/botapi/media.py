"""Files the bot sends: sendPhoto and sendDocument, a multipart upload or a known file id.

A string in place of the file part re-sends a file the stand holds (the bot's or the person's) under the same
id; a URL cannot be fetched by the stand and is refused like an unknown id. Every refusal comes in the reference
stand's order: chat, file, size, caption, keyboard, image check, reply target. A refused call stores nothing and
mints no file id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.common import chat_id, check_caption, post_message
from tgfake.botapi.keyboards import parse_send_markup
from tgfake.botapi.registry import bot_method
from tgfake.chats import StoredFile
from tgfake.errors import bad_request
from tgfake.filestore import FILE_TOO_BIG, for_resend, mint
from tgfake.media import MAX_DOCUMENT_BYTES, MAX_PHOTO_BYTES, image_size
from tgfake.params import Params, Upload

if TYPE_CHECKING:
    from tgfake.stand import BotCall

IMAGE_PROCESS_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"


def no_file(kind: str) -> str:
    return f"Bad Request: there is no {kind} in the request"


def mint_file(ctx: BotCall, upload: Upload, width: int = 0, height: int = 0, kind: str = "document") -> StoredFile:
    """Keep the bytes under the next id (``file_N`` / ``ufile_N``; numbering restarts after a reset)."""
    return mint(ctx.stand, kind, upload.filename, upload.data, width, height)


async def _send_file(ctx: BotCall, p: Params, kind: str) -> Any:
    cid = chat_id(p)
    upload = p.files.get(kind)
    known: StoredFile | None = None
    if upload is None:
        value = p.text(kind)
        if not value:
            raise bad_request(no_file(kind))
        known = for_resend(ctx.stand, value, kind)
    elif len(upload.data) > (MAX_PHOTO_BYTES if kind == "photo" else MAX_DOCUMENT_BYTES):
        raise bad_request(FILE_TOO_BIG)
    caption = check_caption(p.text("caption"))
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))
    size = (0, 0)
    if upload is not None and kind == "photo":
        found = image_size(upload.data)
        if found is None:
            raise bad_request(IMAGE_PROCESS_FAILED)
        size = found

    def attach() -> dict[str, Any]:
        if known is not None:
            return {kind: known}
        assert upload is not None
        return {kind: mint_file(ctx, upload, *size, kind=kind)}

    return post_message(
        ctx,
        p,
        cid,
        keyboard,
        attach=attach,
        caption=caption,
        parse_mode=p.text("parse_mode"),
    )


@bot_method("sendPhoto")
async def send_photo(ctx: BotCall, p: Params) -> Any:
    """One PhotoSize with the image's real width and height; PNG, JPEG or GIF up to 10 MiB, or a photo's file id."""
    return await _send_file(ctx, p, "photo")


@bot_method("sendDocument")
async def send_document(ctx: BotCall, p: Params) -> Any:
    """Any file up to 50 MiB, or a document's file id; ``mime_type`` is sniffed from the bytes, never the name."""
    return await _send_file(ctx, p, "document")
