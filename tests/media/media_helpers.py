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
