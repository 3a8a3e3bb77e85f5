"""Bytes and uploads shared by the media tests (images are generated, never checked in)."""

from __future__ import annotations

import io
from typing import Any

from aiohttp import FormData
from PIL import Image

from tests.conftest import Wire


def image_bytes(fmt: str, size: tuple[int, int] = (4, 3)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (10, 120, 200)).save(buf, format=fmt)
    return buf.getvalue()


async def upload(
    wire: Wire, method: str, field: str, filename: str, data: bytes, **params: Any
) -> tuple[int, dict[str, Any]]:
    """A multipart call with one file part, as python-telegram-bot sends it."""
    form = FormData()
    for key, value in params.items():
        form.add_field(key, str(value))
    form.add_field(field, io.BytesIO(data), filename=filename, content_type="application/octet-stream")
    resp = await wire.client.post(f"/bot{wire.token}/{method}", data=form)
    return resp.status, await resp.json()


def wav_bytes(seconds: int = 3) -> bytes:
    """A silent mono WAV of whole seconds (mutagen reads its duration)."""
    import wave

    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(b"\x00\x00" * 8000 * seconds)
    return buf.getvalue()


def mp4_bytes() -> bytes:
    """The first box of an MP4 (enough for the sniffer to say ``video/mp4``; no duration to read)."""
    return b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + b"\x00" * 64


def ptb_application(wire: Wire) -> Any:
    """A python-telegram-bot Application pointed at the stand for the Bot API and the file downloads."""
    from telegram.ext import Application

    origin = str(wire.client.make_url("")).rstrip("/")
    return Application.builder().token(wire.token).base_url(f"{origin}/bot").base_file_url(f"{origin}/file/bot").build()


async def upload_parts(wire: Wire, method: str, files: dict[str, bytes], **params: Any) -> tuple[int, dict[str, Any]]:
    """A multipart call with several file parts (``attach://`` names, or a live photo's two files)."""
    form = FormData()
    for key, value in params.items():
        form.add_field(key, str(value))
    for name, data in files.items():
        form.add_field(name, io.BytesIO(data), filename=f"{name}.bin", content_type="application/octet-stream")
    resp = await wire.client.post(f"/bot{wire.token}/{method}", data=form)
    return resp.status, await resp.json()
