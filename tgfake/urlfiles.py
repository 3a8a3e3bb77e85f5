"""Files a bot names by HTTP URL, downloaded after the call's checks, as Telegram downloads them.

Telegram fetches ``photo="https://..."`` itself and sends what it got; what it cannot download is
``Bad Request: failed to get HTTP URL content``. The stand does the same with the network it has, at the point of
the call where telegram-bot-api hands the file to TDLib: after the token, the method, the parameter prechecks and
the chat (``Stand.serve`` calls :meth:`UrlFetcher.before_call`). What it got is handed to the method as
:attr:`tgfake.params.Params.fetched` (the bytes as an upload, or the refusal), and the method treats the bytes as
an upload (tgfake/botapi/media.py ``named_file``).

A download is read whole or refused: the body is streamed with a running count, one over 20 MB (declared or
counted) is ``file is too big`` (the words Client.cpp sends for a file over that same 20 MB limit), one cut short
(shorter than its Content-Length, a connection that ends early, broken chunks), a status other than 2xx, more
than :data:`MAX_REDIRECTS` redirects or slower than :data:`FETCH_TIMEOUT` seconds in all is ``failed to get HTTP
URL content``. No more than the limit is held.

Where the stand may connect is the ``--url-files`` policy (:data:`tgfake.options.URL_FILES`): by default
loopback and public addresses only, checked on every address a name resolves to (:class:`PolicyResolver`, before
connecting) and on every redirect's target; an address refused is a URL Telegram could not get.

Which parameters take a URL comes from the method table (``InputFile or String``: the file of every send, a sticker
set's thumbnail; the ``media`` of sendMediaGroup, sendPaidMedia and editMessageMedia; the ``sticker`` of each
InputSticker of createNewStickerSet, addStickerToSet and replaceStickerInSet). A send's ``thumbnail`` is an
``InputFile`` only (Client.cpp reads it with ``force_file``): a URL there is never fetched.
"""

from __future__ import annotations

import asyncio
import io
import ipaddress
import json
import posixpath
import socket
from collections.abc import Awaitable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from yarl import URL

from tgfake.botapi.common import chat_id
from tgfake.botapi.edits import target
from tgfake.botapi.schema import methods
from tgfake.errors import TelegramError, bad_request
from tgfake.filestore import FILE_TOO_BIG, HTTP_URL, MAX_DOWNLOAD_BYTES, URL_UNFETCHABLE
from tgfake.options import URL_FILES
from tgfake.params import Params, Upload

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_URL_FILE = MAX_DOWNLOAD_BYTES
"""The Bot API's promise for files sent by URL: 20 MB (a photo 5 MB: tgfake.media.MAX_URL_PHOTO)."""
FETCH_TIMEOUT = 10.0
"""Seconds for one download in all (connections, redirects and body); a URL slower than this is one Telegram could
not get."""
MAX_REDIRECTS = 5
"""Redirects followed, each target checked against the policy; one more is a URL Telegram could not get."""
CHUNK = 64 << 10
REDIRECTS = frozenset({301, 302, 303, 307, 308})

DEFAULT_POLICY, ALL, NONE = URL_FILES
"""``--url-files``: ``default`` fetches from loopback and public addresses, ``all`` from any, ``none`` from none."""
METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "100.100.100.200", "192.0.0.192", "fd00:ec2::254")
)
"""Cloud metadata services (each also in a refused range: named so that no range change lets one through)."""
NAT64 = ipaddress.ip_network("64:ff9b::/96")

MEDIA_PARAMS = frozenset({"media"})
"""JSON parameters whose objects (or arrays of them) name a file in their own ``media`` field."""
NESTED_FILES = (("InputMedia", "media"), ("InputPaidMedia", "media"), ("InputSticker", "sticker"))
"""The JSON objects that name a file, and the field that names it."""

Nested = tuple[tuple[str, str], ...]
"""(a JSON parameter, the field of its objects that names a file)."""


@cache
def url_params() -> dict[str, tuple[tuple[str, ...], Nested]]:
    """Method (as named, and lower-case) -> (the parameters that are a file or a string, the JSON parameters whose
    objects name a file, with that field)."""
    out: dict[str, tuple[tuple[str, ...], Nested]] = {}
    for name, method in methods().items():
        direct = tuple(p.name for p in method.params if p.type == "InputFile or String")
        nested = tuple(
            (p.name, field)
            for p in method.params
            for kind, field in NESTED_FILES
            if kind in p.type and (field != "media" or p.name in MEDIA_PARAMS)
        )
        out[name] = out[method.name] = (direct, nested)  # as named (one lookup per call), and lower-cased
    return out


def file_params(method: str) -> tuple[tuple[str, ...], Nested]:
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
    for name, field in nested:
        raw = params.values.get(name, "")
        if "http" not in raw.lower():
            continue
        try:
            decoded = json.loads(raw)
        except ValueError:
            continue
        for item in decoded if isinstance(decoded, list) else [decoded]:
            ref = item.get(field) if isinstance(item, dict) else None
            if isinstance(ref, str) and HTTP_URL.match(ref.strip()):
                urls.append(ref.strip())
    return list(dict.fromkeys(urls))


def file_name(url: str) -> str:
    """The name a downloaded file gets: the URL path's last segment, else ``file``."""
    name = posixpath.basename(unquote(urlsplit(url).path))
    return name or "file"


def address_allowed(address: str, policy: str = DEFAULT_POLICY) -> bool:
    """Whether the policy lets the stand connect to ``address`` (an IP address as text, an IPv6 zone allowed).

    By default: loopback, and global unicast addresses. Refused: private (RFC 1918, ULA), shared (CGNAT),
    link-local, multicast, unspecified, reserved and documentation ranges, the cloud metadata services, and IPv4
    addresses wrapped in IPv6 (mapped, NAT64, 6to4) that are any of those.
    """
    if policy == ALL:
        return True
    if policy != DEFAULT_POLICY:
        return False
    try:
        ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        elif ip in NAT64:
            ip = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        elif ip.sixtofour is not None:
            ip = ip.sixtofour
    if ip.is_loopback:
        return True
    return ip.is_global and not (ip.is_multicast or ip.is_unspecified or ip.is_reserved or ip in METADATA)


class BlockedAddress(OSError):
    """A host the policy refuses (raised where aiohttp resolves, so it is a connection that never happens)."""


class PolicyResolver(AbstractResolver):
    """Resolves with ``inner`` (the system's resolver unless given), then refuses the name if any address it
    resolved to is one the policy refuses: checked before aiohttp connects to any of them."""

    def __init__(self, policy: str, inner: AbstractResolver | None = None) -> None:
        self.policy = policy
        self.inner = inner or aiohttp.ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await self.inner.resolve(host, port, family)
        for result in found:
            if not address_allowed(result["host"], self.policy):
                raise BlockedAddress(f"{host} resolves to {result['host']}, which --url-files={self.policy} refuses")
        return found

    async def close(self) -> None:
        await self.inner.close()


def check_target(url: URL, policy: str) -> None:
    """A URL the stand may request: http(s), a host, and (an address given as such) one the policy allows; names
    are checked once resolved (:class:`PolicyResolver`)."""
    if policy == NONE:
        raise BlockedAddress("--url-files=none fetches nothing")
    if url.scheme not in ("http", "https") or not url.raw_host:
        raise BlockedAddress(f"not an http(s) URL with a host: {url}")
    try:
        ipaddress.ip_address(url.raw_host.partition("%")[0])
    except ValueError:
        return  # a name: the resolver checks what it resolves to
    if not address_allowed(url.raw_host, policy):
        raise BlockedAddress(f"{url.raw_host} is refused by --url-files={policy}")


@dataclass
class UrlFetcher:
    """Downloads for one app, over one client session made on first use (closed with the app).

    ``resolver`` (the system's unless set before the first download) is what names resolve with; every address
    it gives is checked against ``policy``.
    """

    policy: str = DEFAULT_POLICY
    timeout: float = FETCH_TIMEOUT
    resolver: AbstractResolver | None = None
    session: aiohttp.ClientSession | None = None

    def before_call(self, ctx: BotCall, method: str, params: Params) -> Awaitable[None] | None:
        """``Stand.serve``'s hook, after the token, the method and the parameter prechecks: None when the call names
        no file by URL (nothing to wait for), else the chat check and the downloads, to await."""
        urls = named_urls(method, params)
        if not urls:
            return None
        check_chat(ctx, method, params)  # as Client.cpp's check_chat, before TDLib gets the file
        return self.fill(params, urls)

    async def fill(self, params: Params, urls: list[str]) -> None:
        """Download ``urls`` into ``params.fetched``: each URL's upload, or its refusal."""
        if self.session is None or self.session.closed:
            connector = aiohttp.TCPConnector(resolver=PolicyResolver(self.policy, self.resolver))
            self.session = aiohttp.ClientSession(connector=connector)
        session = self.session
        got = await asyncio.gather(*(download(session, url, self.policy, timeout=self.timeout) for url in urls))
        params.fetched = dict(zip(urls, got, strict=True))

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None


def check_chat(ctx: BotCall, method: str, params: Params) -> None:
    """A send's chat, checked as the send will check it (``chat not found``, a blocked person, a chat the bot is not
    in), and the message an editMessageMedia names (``message to edit not found``, ``message can't be edited``),
    before anything is downloaded, as Client.cpp checks them before TDLib fetches the file."""
    lowered = method.lower()
    if lowered.startswith("send"):
        ctx.chat_for_send(chat_id(params))
    elif lowered == "editmessagemedia":
        target(ctx, params)


async def download(
    session: aiohttp.ClientSession,
    url: str,
    policy: str = DEFAULT_POLICY,
    limit: int = MAX_URL_FILE,
    timeout: float = FETCH_TIMEOUT,
) -> Upload | TelegramError:
    """The URL's body as an upload (named by the URL's path, typed by its Content-Type), or Telegram's refusal:
    ``file is too big`` past ``limit`` bytes, else ``failed to get HTTP URL content`` for anything not read whole
    within ``timeout`` seconds from an address the policy allows."""
    try:
        async with asyncio.timeout(timeout):
            return await _follow(session, URL(url), policy, limit, file_name(url))
    except (TimeoutError, aiohttp.ClientError, OSError, ValueError, UnicodeError):
        return bad_request(URL_UNFETCHABLE)


async def _follow(
    session: aiohttp.ClientSession, url: URL, policy: str, limit: int, name: str
) -> Upload | TelegramError:
    """Request ``url``, following up to :data:`MAX_REDIRECTS` redirects, each target checked first."""
    for _hop in range(MAX_REDIRECTS + 1):
        check_target(url, policy)
        async with session.get(url, allow_redirects=False) as response:
            if response.status in REDIRECTS:
                location = response.headers.get("Location")
                if not location:
                    return bad_request(URL_UNFETCHABLE)
                url = url.join(URL(location))
                continue
            if response.status // 100 != 2:
                return bad_request(URL_UNFETCHABLE)
            return await read_whole(response, limit, name)
    return bad_request(URL_UNFETCHABLE)


async def read_whole(response: aiohttp.ClientResponse, limit: int, name: str) -> Upload | TelegramError:
    """The body counted as it streams: over ``limit`` (as declared or as sent) is too big, one that ends short of
    its Content-Length is not the file (aiohttp raises for a connection that ends early or broken chunks)."""
    declared = response.content_length
    if declared is not None and declared > limit:
        return bad_request(FILE_TOO_BIG)
    sink = io.BytesIO()  # getvalue() hands over its buffer: the body is held once
    size = 0
    async for chunk in response.content.iter_chunked(CHUNK):
        size += len(chunk)
        if size > limit:
            return bad_request(FILE_TOO_BIG)
        sink.write(chunk)
    encoded = response.headers.get("Content-Encoding", "identity").lower() != "identity"
    if declared is not None and size != declared and not encoded:  # a decoded body has its own length
        return bad_request(URL_UNFETCHABLE)
    return Upload(filename=name, content_type=response.content_type, data=sink.getvalue())
