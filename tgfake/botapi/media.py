"""Files the bot sends: sendPhoto and sendDocument with a multipart upload.

Only uploads are modelled (a ``file_id`` or URL in place of the file part is refused as "no photo"),
and every refusal comes in the reference stand's order: chat, file part, size, caption, keyboard,
image check, reply target. A refused call stores nothing and mints no file id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.common import chat_id, check_caption, reply_target
from tgfake.botapi.keyboards import parse_inline_keyboard
from tgfake.botapi.registry import bot_method
from tgfake.chats import StoredFile, StoredMessage
from tgfake.errors import bad_request
from tgfake.media import MAX_DOCUMENT_BYTES, MAX_PHOTO_BYTES, image_size, mime_type
from tgfake.params import Params, Upload

if TYPE_CHECKING:
    from tgfake.stand import Stand

FILE_TOO_BIG = "Bad Request: file is too big"
IMAGE_PROCESS_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"


def no_file(kind: str) -> str:
    return f"Bad Request: there is no {kind} in the request"


def mint_file(stand: Stand, upload: Upload, width: int = 0, height: int = 0) -> StoredFile:
    """Keep the bytes under the next id (``file_N`` / ``ufile_N``; numbering restarts after a reset)."""
    n = len(stand.world.files) + 1
    stored = StoredFile(
        file_id=f"file_{n}",
        unique_id=f"ufile_{n}",
        name=upload.filename,
        mime_type=mime_type(upload.data),
        data=upload.data,
        width=width,
        height=height,
    )
    stand.world.files[stored.file_id] = stored
    return stored


async def _send_file(stand: Stand, p: Params, kind: str) -> Any:
    cid = chat_id(p)
    upload = p.files.get(kind)
    if upload is None:
        raise bad_request(no_file(kind))
    if len(upload.data) > (MAX_PHOTO_BYTES if kind == "photo" else MAX_DOCUMENT_BYTES):
        raise bad_request(FILE_TOO_BIG)
    caption = check_caption(p.text("caption"))
    keyboard = parse_inline_keyboard(p.get("reply_markup"), stand.chat_type(cid))
    size = (0, 0)
    if kind == "photo":
        found = image_size(upload.data)
        if found is None:
            raise bad_request(IMAGE_PROCESS_FAILED)
        size = found
    chat = stand.chat_for_send(cid)
    reply_to = reply_target(p, chat)
    stored = mint_file(stand, upload, *size)
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=stand.unix_now(),
            from_bot=True,
            caption=caption,
            photo=stored if kind == "photo" else None,
            document=stored if kind == "document" else None,
            parse_mode=p.text("parse_mode"),
            reply_to=reply_to,
            keyboard=keyboard,
        )
    )
    return stand.message_json(chat, msg)


@bot_method("sendPhoto")
async def send_photo(stand: Stand, p: Params) -> Any:
    """One PhotoSize with the image's real width and height; PNG, JPEG or GIF up to 10 MiB."""
    return await _send_file(stand, p, "photo")


@bot_method("sendDocument")
async def send_document(stand: Stand, p: Params) -> Any:
    """Any file up to 50 MiB; ``mime_type`` is sniffed from the bytes, never taken from the name."""
    return await _send_file(stand, p, "document")
