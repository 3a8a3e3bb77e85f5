"""Files a bot names by HTTP URL, downloaded before the call as Telegram downloads them.

Telegram fetches ``photo="https://..."`` itself and sends what it got; what it cannot download is
``Bad Request: failed to get HTTP URL content``. The stand does the same with the network it has: a URL it can
reach (a test's own file server, any host on a machine with a network) is fetched here, at the transport edge, and
handed to the method as :attr:`tgfake.params.Params.fetched`; the method then treats the bytes as an upload
(tgfake/botapi/media.py ``named_file``). A URL it cannot fetch stays a string, and the method refuses it.

Which parameters take a URL comes from the method table (``InputFile or String``, and the ``media`` of
sendMediaGroup, sendPaidMedia and editMessageMedia); stickers' files and thumbnails are not fetched.
"""

from __future__ import annotations

import asyncio
import json
import posixpath
from dataclasses import dataclass
from functools import cache
from urllib.parse import unquote, urlsplit

import aiohttp

from tgfake.botapi.schema import methods
from tgfake.filestore import HTTP_URL, MAX_DOWNLOAD_BYTES
from tgfake.params import Params, Upload

MAX_URL_FILE = MAX_DOWNLOAD_BYTES
"""The Bot API's promise for files sent by URL: 20 MB (a photo 5 MB: tgfake.media.MAX_URL_PHOTO)."""
FETCH_TIMEOUT = 10.0
"""Seconds for one download, connection included; a URL slower than this is one Telegram could not get."""
MEDIA_PARAMS = frozenset({"media"})
"""JSON parameters whose objects (or arrays of them) name a file in their own ``media`` field."""


@cache
def url_params() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Method (as named, and lower-case) -> (the parameters that are a file or a string, the JSON ``media``
    parameters)."""
    out: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for name, method in methods().items():
        direct = tuple(p.name for p in method.params if p.type == "InputFile or String" and p.name != "thumbnail")
        nested = tuple(p.name for p in method.params if p.name in MEDIA_PARAMS and "InputMedia" in p.type)
        nested += tuple(p.name for p in method.params if p.name in MEDIA_PARAMS and "InputPaidMedia" in p.type)
        out[name] = out[method.name] = (direct, nested)  # as named (one lookup per call), and lower-cased
    return out


def file_params(method: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """:func:`url_params` of ``method``, looked up as sent, then in any letter case (empty for an unknown one)."""
    table = url_params()
    found = table.get(method)
    if found is None:
        found = table.get(method.lower(), ((), ()))
    return found


def names_files(method: str) -> bool:
    """Whether a call of ``method`` may name a file by URL."""
    direct, nested = file_params(method)
    return bool(direct or nested)


def named_urls(method: str, params: Params) -> list[str]:
    """The http(s) URLs this call names as files, in order, each once."""
    direct, nested = file_params(method)
    urls: list[str] = []
    for name in direct:
        value = params.values.get(name, "").strip()
        if HTTP_URL.match(value):
            urls.append(value)
    for name in nested:
        raw = params.values.get(name, "")
        if "http" not in raw.lower():
            continue
        try:
            decoded = json.loads(raw)
        except ValueError:
            continue
        for item in decoded if isinstance(decoded, list) else [decoded]:
            ref = item.get("media") if isinstance(item, dict) else None
            if isinstance(ref, str) and HTTP_URL.match(ref.strip()):
                urls.append(ref.strip())
    return list(dict.fromkeys(urls))


def file_name(url: str) -> str:
    """The name a downloaded file gets: the URL path's last segment, else ``file``."""
    name = posixpath.basename(unquote(urlsplit(url).path))
    return name or "file"


@dataclass
class UrlFetcher:
    """Downloads for one app, over one client session made on first use (closed with the app)."""

    session: aiohttp.ClientSession | None = None
    timeout: float = FETCH_TIMEOUT

    async def fill(self, method: str, params: Params) -> None:
        """Download every URL the call names as a file into ``params.fetched``; what fails is left out."""
        if self.session is None or self.session.closed:
            self.session = aiohttp.ClientSession()
        await fill_over(self.session, method, params, self.timeout)

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None


async def fill_over(
    session: aiohttp.ClientSession, method: str, params: Params, timeout: float = FETCH_TIMEOUT
) -> None:
    """:meth:`UrlFetcher.fill` over a given session (a webhook reply's, on the delivery's)."""
    urls = named_urls(method, params)
    if urls:
        got = await asyncio.gather(*(download(session, url, timeout) for url in urls))
        params.fetched = {url: upload for url, upload in zip(urls, got, strict=True) if upload is not None}


async def download(session: aiohttp.ClientSession, url: str, timeout: float = FETCH_TIMEOUT) -> Upload | None:
    """The URL's body as an upload (named by its path, typed by its Content-Type), or None when the host cannot be
    reached, answers other than 2xx, is too slow, or sends more than 20 MB."""
    try:
        limit = aiohttp.ClientTimeout(total=timeout)
        async with session.get(url, allow_redirects=True, max_redirects=5, timeout=limit) as response:
            if response.status // 100 != 2:
                return None
            data = await response.content.read(MAX_URL_FILE + 1)
            if len(data) > MAX_URL_FILE:
                return None
            return Upload(filename=file_name(url), content_type=response.content_type, data=data)
    except (TimeoutError, aiohttp.ClientError, ValueError, UnicodeError):
        return None
