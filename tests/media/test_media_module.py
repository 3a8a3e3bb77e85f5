"""tgfake.media: content sniffing as Go's http.DetectContentType does it, and photo sizes."""

from __future__ import annotations

import gzip
import io
import struct
import zipfile
import zlib

import pytest
from PIL import Image

from tgfake import media


def image_bytes(fmt: str, size: tuple[int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buf, format=fmt)
    return buf.getvalue()


def gzip_bytes() -> bytes:
    return gzip.compress(b"hello", mtime=0)  # a fixed header: the test ids are the same on every xdist worker


def zip_bytes() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(zipfile.ZipInfo("a.txt", date_time=(2020, 1, 1, 0, 0, 0)), "hi")  # fixed, as gzip_bytes
    return buf.getvalue()


def mp4_bytes() -> bytes:
    return struct.pack(">I", 24) + b"ftypisom" + b"\x00\x00\x02\x00" + b"isommp41"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "text/plain; charset=utf-8"),
        (b"hello, world\n", "text/plain; charset=utf-8"),
        ("привет".encode(), "text/plain; charset=utf-8"),
        (b"  <!DOCTYPE html><html>", "text/html; charset=utf-8"),
        (b"<html><body>hi", "text/html; charset=utf-8"),
        (b"\n<p>para</p>", "text/html; charset=utf-8"),
        (b"<b>bold</b>", "text/html; charset=utf-8"),
        (b"<!-- c -->", "text/html; charset=utf-8"),
        (b"<bogus>", "text/plain; charset=utf-8"),
        (b"<htmlx>", "text/plain; charset=utf-8"),
        (b"\t<?xml version='1.0'?><a/>", "text/xml; charset=utf-8"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "application/pdf"),
        (b"%!PS-Adobe-3.0\n", "application/postscript"),
        (b"\xfe\xff\x00h", "text/plain; charset=utf-16be"),
        (b"\xff\xfeh\x00", "text/plain; charset=utf-16le"),
        (b"\xef\xbb\xbfhi", "text/plain; charset=utf-8"),
        (b"\x00\x00\x01\x00\x01\x00", "image/x-icon"),
        (b"BM\x00\x00", "image/bmp"),
        (b"GIF87a\x01\x00", "image/gif"),
        (b"RIFF\x10\x00\x00\x00WEBPVP8 ", "image/webp"),
        (b".snd\x00\x00\x00\x18", "audio/basic"),
        (b"FORM\x00\x00\x00\x00AIFF", "audio/aiff"),
        (b"ID3\x03\x00", "audio/mpeg"),
        (b"OggS\x00\x02", "application/ogg"),
        (b"MThd\x00\x00\x00\x06\x00\x01", "audio/midi"),
        (b"RIFF\x00\x00\x00\x00AVI LIST", "video/avi"),
        (b"RIFF\x24\x00\x00\x00WAVEfmt ", "audio/wave"),
        (mp4_bytes(), "video/mp4"),
        (b"\x1a\x45\xdf\xa3\x01", "video/webm"),
        (b"\x00" * 34 + b"LP", "application/vnd.ms-fontobject"),
        (b"\x00\x01\x00\x00\x00\x0e", "font/ttf"),
        (b"OTTO\x00", "font/otf"),
        (b"ttcf\x00", "font/collection"),
        (b"wOFF\x00", "font/woff"),
        (b"wOF2\x00", "font/woff2"),
        (gzip_bytes(), "application/x-gzip"),
        (zip_bytes(), "application/zip"),
        (b"Rar!\x1a\x07\x00\xcf", "application/x-rar-compressed"),
        (b"Rar!\x1a\x07\x01\x00\x33", "application/x-rar-compressed"),
        (b"\x00asm\x01\x00\x00\x00", "application/wasm"),
        (b"\x00\x01\x02binary", "application/octet-stream"),
        (b"text then \x01 a control byte", "application/octet-stream"),
    ],
)
def test_detect_content_type(data: bytes, expected: str) -> None:
    assert media.detect_content_type(data) == expected


@pytest.mark.parametrize(("fmt", "expected"), [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("GIF", "image/gif")])
def test_detect_content_type_of_real_images(fmt: str, expected: str) -> None:
    assert media.detect_content_type(image_bytes(fmt, (4, 3))) == expected


def test_only_the_first_512_bytes_count() -> None:
    assert media.detect_content_type(b"a" * 512 + b"\x00") == "text/plain; charset=utf-8"
    assert media.detect_content_type(b"a" * 511 + b"\x00") == "application/octet-stream"


def test_leading_whitespace_counts_for_html_but_not_for_binary_signatures() -> None:
    assert media.detect_content_type(b"   %PDF-1.4") == "text/plain; charset=utf-8"
    assert media.detect_content_type(b" \r\n<HTML>") == "text/html; charset=utf-8"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"plain", "text/plain"),
        (b"<html>", "text/html"),
        (b"<?xml ?>", "text/xml"),
        (b"\xfe\xff\x00h", "text/plain"),
        (b"%PDF-", "application/pdf"),
        (b"\x00\x00\x00", "application/octet-stream"),
    ],
)
def test_mime_type_drops_the_charset(data: bytes, expected: str) -> None:
    assert media.mime_type(data) == expected


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF"])
@pytest.mark.parametrize("size", [(4, 3), (1, 1), (640, 17)])
def test_image_size_reads_the_real_size(fmt: str, size: tuple[int, int]) -> None:
    assert media.image_size(image_bytes(fmt, size)) == size


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not an image",
        b"\x89PNG\r\n\x1a\n",  # signature only
        image_bytes("PNG", (4, 3))[:12],
        image_bytes("BMP", (4, 3)),
        image_bytes("WEBP", (4, 3)),
        b"%PDF-1.4",
    ],
)
def test_image_size_refuses_what_is_not_png_jpeg_or_gif(data: bytes) -> None:
    assert media.image_size(data) is None


def test_image_size_refuses_a_decompression_bomb_without_a_warning() -> None:
    # A PNG header claiming 100000 x 100000 pixels: far past any photo Telegram takes.
    png = image_bytes("PNG", (1, 1))
    ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    forged = png[:8] + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk)) + png[33:]
    assert media.image_size(forged) is None


def test_limits() -> None:
    assert media.MAX_PHOTO_BYTES == 10 * 1024 * 1024
    assert media.MAX_DOCUMENT_BYTES == 50 * 1024 * 1024
    assert media.MAX_CAPTION_LENGTH == 1024
