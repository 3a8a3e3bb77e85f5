"""Link targets of formatted text, checked and normalised as TDLib does (LinkManager, HttpUrl).

``text_link`` URLs are normalised (``example.com`` becomes ``http://example.com/``); ``tg://user?id=N`` makes a
text_mention, ``tg://emoji?id=N`` a custom emoji and ``tg://time?unix=N&format=F`` a date_time.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from dataclasses import dataclass

from tgfake.text.entities import MAX_USER_ID, Entity, date_flags


class LinkError(Exception):
    """Why a URL is refused, in TDLib's words."""


@dataclass(frozen=True, slots=True)
class HttpUrl:
    https: bool
    userinfo: str
    host: str
    is_ipv6: bool
    specified_port: int
    query: str

    @property
    def port(self) -> int:
        """The port a connection would use: the one written, else the protocol's own."""
        return self.specified_port or (443 if self.https else 80)

    def url(self) -> str:
        out = "https://" if self.https else "http://"
        if self.userinfo:
            out += self.userinfo + "@"
        out += self.host
        if self.specified_port > 0:
            out += f":{self.specified_port}"
        return out + self.query


_INT = re.compile(r"-?[0-9]+")


def to_int(text: str, bits: int) -> int | None:
    """TDLib's to_integer_safe: the canonical decimal spelling (no ``+``, no leading zeros) of a ``bits``-bit int."""
    if not _INT.fullmatch(text):
        return None
    value = int(text)
    if str(value) != text or not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        return None
    return value


def to_int_prefix(text: str, bits: int) -> int:
    """TDLib's lenient to_integer: the leading ``-?digits``, wrapped to a signed ``bits``-bit integer."""
    m = re.match(r"-?[0-9]*", text)
    body = m.group() if m else ""
    negative = body.startswith("-")
    digits = body.lstrip("-")
    value = int(digits) if digits else 0
    value = (-value if negative else value) % (1 << bits)
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def _check_part(part: str, name: str, allow_colon: bool) -> None:
    i = 0
    while i < len(part):
        c = part[i]
        if (c.isascii() and c.isalnum()) or c in ".-_!$,~*'();&+=" or (allow_colon and c == ":"):
            i += 1
            continue
        if c == "%":
            if i + 2 < len(part) and _is_hex(part[i + 1]) and _is_hex(part[i + 2]):
                i += 3
                continue
            raise LinkError(f"Wrong percent-encoded symbol in URL {name}")
        if ord(c) >= 128:
            i += 1
            continue
        raise LinkError(f"Disallowed character in URL {name}")


def _is_hex(c: str) -> bool:
    return c in "0123456789abcdefABCDEF"


def _read_till(text: str, pos: int, stops: str) -> int:
    while pos < len(text) and text[pos] not in stops:
        pos += 1
    return pos


def parse_url(url: str) -> HttpUrl:
    """``[https?://][userinfo@]host[:port][/path...]``, as TDLib's parse_url (default protocol http)."""
    proto_end = _read_till(url, 0, ":/?#@[]")
    https = False
    if url.startswith("://", proto_end):
        protocol = url[:proto_end].lower()
        if protocol == "http":
            pass
        elif protocol == "https":
            https = True
        else:
            raise LinkError("Unsupported URL protocol")
        pos = proto_end + 3
    else:
        pos = 0
    end = _read_till(url, pos, "/?#")
    userinfo_host_port = url[pos:end]
    port = 0
    colon = len(userinfo_host_port) - 1
    while colon > 0 and userinfo_host_port[colon] not in ":]@":
        colon -= 1
    if colon > 0 and userinfo_host_port[colon] == ":":
        port_text = userinfo_host_port[colon + 1 :]
        while len(port_text) > 1 and port_text[0] == "0":
            port_text = port_text[1:]
        parsed = to_int(port_text, 32)
        port = -1 if parsed is None or parsed == 0 else parsed
        userinfo_host = userinfo_host_port[:colon]
    else:
        userinfo_host = userinfo_host_port
    if port < 0 or port > 65535:
        raise LinkError("Wrong port number specified in the URL")
    at = userinfo_host.rfind("@")
    userinfo = userinfo_host[:at] if at >= 0 else ""
    host = userinfo_host[at + 1 :]
    is_ipv6 = False
    if host.startswith("[") and host.endswith("]") and len(host) >= 2:
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise LinkError("Wrong IPv6 address specified in the URL") from None
        is_ipv6 = True
    if not host:
        raise LinkError("URL host is empty")
    if host == ".":
        raise LinkError("Host is invalid")
    query = url[end:].rstrip(" \t\r\n\x00\x0b")
    if not query:
        query = "/"
    encoded = "" if query[0] == "/" else "/"
    for c in query:
        # bytes up to 0x20 are percent-encoded (the query is kept as UTF-8 otherwise)
        encoded += f"%{ord(c):02X}" if ord(c) <= 0x20 else c
    host = _ascii_lower(host)
    if is_ipv6:
        if any(c not in ":0123456789abcdef." for c in host[1:-1]):
            raise LinkError("Wrong IPv6 URL host")
    else:
        _check_part(host, "host", False)
        _check_part(userinfo, "userinfo", True)
    return HttpUrl(https, userinfo, host, is_ipv6, port, encoded)


def get_url_query_file_name(query: str) -> str:
    """td's get_url_query_file_name: the last path segment of a URL's query, before any ``?`` or ``#``."""
    path = query[: next((i for i, c in enumerate(query) if c in "?#"), len(query))]
    return path[path.rfind("/") + 1 :]


def get_url_file_name(url: str) -> str:
    """td's get_url_file_name: the file name a URL's path ends in ("" when it is not a URL td parses)."""
    try:
        return get_url_query_file_name(parse_url(url).query)
    except LinkError:
        return ""


def _ascii_lower(text: str) -> str:
    return text.translate(_LOWER)


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _lower_starts(text: str, prefix: str) -> bool:
    return _ascii_lower(text[: len(prefix)]) == prefix


@functools.lru_cache(maxsize=4096)
def _checked(link: str) -> str:
    """check_link_impl: the normalised link, or LinkError.

    A pure function of the text, memoised: bots send the same few button links with every message, and the port
    of td's parser is the costliest step of a keyboard (a refusal is not cached and is parsed again).
    """
    scheme = ""
    for name in ("tg", "ton", "tonsite"):
        if _lower_starts(link, name + ":"):
            scheme = name
            link = link[len(name) + 1 :]
            break
    if scheme and link.startswith("//"):
        link = link[2:]
    url = parse_url(link)
    if not scheme:
        if "." not in url.host and not url.is_ipv6:
            raise LinkError("Wrong HTTP URL")
        return url.url()
    if _lower_starts(link, "http://") or url.https or url.userinfo or url.specified_port != 0 or url.is_ipv6:
        raise LinkError("Wrong tg URL" if scheme == "tg" else "Wrong ton URL")
    query = url.query
    if len(query) > 1 and query[1] == "?":
        query = query[1:]
    for c in url.host:
        if not ((c.isascii() and c.isalnum()) or c in "-_" or (scheme == "tonsite" and c == ".")):
            raise LinkError("Unallowed characters in URL host")
    return f"{scheme}://{url.host}{query}"


def checked_link(link: str) -> str:
    """get_checked_link: the normalised link, or "" when it is not a valid one (the entity is then dropped)."""
    try:
        return _checked(link)
    except LinkError:
        return ""


def check_link(link: str) -> str:
    """check_link: the normalised link, or LinkError("URL '...' is invalid: ...")."""
    try:
        return _checked(link)
    except LinkError as exc:
        raise LinkError(f"URL '{link}' is invalid: {exc}") from None


def _params(query: str) -> list[tuple[str, str]]:
    query = query.split("#", 1)[0]
    out = []
    for part in query.split("&"):
        key, _, value = part.partition("=")
        out.append((key, value))
    return out


def link_user_id(url: str) -> int:
    """The user of ``tg://user?id=N`` (0 when the URL is something else or the id is not a number)."""
    url = _ascii_lower(url)
    if not url.startswith("tg:"):
        return 0
    url = url[3:]
    if url.startswith("//"):
        url = url[2:]
    if not url.startswith("user") or (len(url) > 4 and url[4] not in "/?#"):
        return 0
    url = url[4:]
    if url.startswith("/"):
        url = url[1:]
    if not url.startswith("?"):
        return 0
    for key, value in _params(url[1:]):
        if key == "id":
            user_id = to_int(value, 64)
            return user_id if user_id is not None else 0
    return 0


def _tg_query(url: str, host: str) -> str:
    """The parameters of ``tg://<host>?...`` (check_tg_url_host)."""
    lowered = _ascii_lower(url[: 3 + 2 + len(host) + 1])
    if not lowered.startswith("tg:"):
        raise LinkError("URL must have scheme tg")
    lowered = lowered[3:]
    url = url[3:]
    if url.startswith("//"):
        lowered = lowered[2:]
        url = url[2:]
    if not lowered.startswith(host) or (len(url) > len(host) and url[len(host)] not in "/?#"):
        raise LinkError(f'URL must have host "{host}"')
    url = url[len(host) :]
    if url.startswith("/"):
        url = url[1:]
    if not url.startswith("?"):
        raise LinkError("URL must have parameters")
    return url[1:].split("#", 1)[0]


def link_custom_emoji_id(url: str) -> int:
    """The emoji of ``tg://emoji?id=N``; LinkError otherwise."""
    for key, value in _params(_tg_query(url, "emoji")):
        if key == "id":
            emoji_id = to_int(value, 64)
            if not emoji_id:
                raise LinkError("Invalid custom emoji identifier specified")
            return emoji_id
    raise LinkError("Custom emoji URL must have an emoji identifier")


def link_date(url: str) -> tuple[int, int]:
    """(unix time, format flags) of ``tg://time?unix=N&format=F``; LinkError otherwise."""
    unix = 0
    fmt = ""
    for key, value in _params(_tg_query(url, "time")):
        if key == "unix":
            parsed = to_int(value, 32)
            if parsed is None or parsed <= 0:
                raise LinkError("Invalid Unix time specified")
            unix = parsed
        if key == "format":
            fmt = value
    if unix == 0:
        raise LinkError("URL must have the corresponding Unix time")
    flags = date_flags(fmt)
    if flags is None:
        raise LinkError("Invalid date format used")
    return unix, flags


def link_entity(url: str, offset: int, length: int) -> Entity | None:
    """What a parsed link makes: a text_mention for ``tg://user?id=N``, a text_link for a valid URL, else nothing."""
    user_id = link_user_id(url)
    if 0 < user_id <= MAX_USER_ID:
        return Entity("text_mention", offset, length, user_id=user_id)
    url = checked_link(url)
    return Entity("text_link", offset, length, url=url) if url else None
