"""Real client libraries upload files to the stand, and the stand serves the very same bytes back."""

from __future__ import annotations

import io

from aiogram.types import BufferedInputFile
from telegram import InputFile

from tests.clients import aiogram_bot, ptb_bot
from tests.conftest import Wire
from tests.media.media_helpers import image_bytes


async def served(wire: Wire, file_id: str) -> tuple[str, bytes]:
    resp = await wire.client.get(f"/sim/file/{file_id}")
    assert resp.status == 200
    return resp.headers["Content-Type"], await resp.read()


async def test_python_telegram_bot_send_photo_and_document(wire: Wire) -> None:
    png = image_bytes("PNG", (16, 9))
    pdf = b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n"
    async with ptb_bot(wire) as bot:
        photo_msg = await bot.send_photo(4242, photo=InputFile(io.BytesIO(png), filename="chart.png"), caption="chart")
        doc_msg = await bot.send_document(4242, document=InputFile(io.BytesIO(pdf), filename="report.pdf"))
    assert (photo_msg.photo[0].width, photo_msg.photo[0].height) == (16, 9)
    assert photo_msg.caption == "chart"
    assert doc_msg.document is not None
    assert (doc_msg.document.file_name, doc_msg.document.mime_type) == ("report.pdf", "application/pdf")
    assert await served(wire, photo_msg.photo[0].file_id) == ("image/png", png)
    assert await served(wire, doc_msg.document.file_id) == ("application/pdf", pdf)
    assert await wire.text() == "[1] bot: [photo chart.png 16x9] chart\n[2] bot: [document report.pdf]\n"


async def test_aiogram_attach_uploads(wire: Wire) -> None:
    jpeg = image_bytes("JPEG", (30, 20))
    notes = "заметки\n".encode()
    bot = aiogram_bot(wire)
    try:
        photo_msg = await bot.send_photo(4242, BufferedInputFile(jpeg, filename="cat.jpg"), caption="cat")
        doc_msg = await bot.send_document(4242, BufferedInputFile(notes, filename="notes.txt"))
    finally:
        await bot.session.close()
    assert photo_msg.photo is not None
    sent = wire.stand.calls("sendDocument")[0].params
    assert sent["document"] == f"notes.txt ({len(notes)} bytes)"
    assert (photo_msg.photo[0].width, photo_msg.photo[0].height) == (30, 20)
    assert doc_msg.document is not None
    assert doc_msg.document.mime_type == "text/plain"
    assert await served(wire, photo_msg.photo[0].file_id) == ("image/jpeg", jpeg)
    assert await served(wire, doc_msg.document.file_id) == ("text/plain", notes)
