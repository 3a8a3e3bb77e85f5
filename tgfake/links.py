"""Which links Telegram lets a url button carry, and how it writes them back (td's ``LinkManager::check_link``).

``http``/``https`` links (a link without a protocol is taken as ``http``) need a host with a dot or an IPv6
address; ``tg:``, ``ton:`` and ``tonsite:`` links a plain host; every other protocol (``javascript:``, ``data:``,
``file:``, ...) is refused. An accepted link comes back normalised: host lower-cased, a path of ``/`` at least,
blanks and control characters percent-encoded. Pure functions, no state.
"""

from __future__ import annotations

import re
import socket

__all__ = ["LinkError", "check_link"]


class LinkError(ValueError):
    """Why td refuses a link, in its words (``Unsupported URL protocol``, ``Wrong HTTP URL``, ...)."""


_PROTOCOL_END = re.compile(r"[:/?#@\[\]]")
_AUTHORITY_END = re.compile(r"[/?#]")
_URL_PART_OK = re.compile(r"[A-Za-z0-9.\-_!$,~*'()&+=;]|[^\x00-\x7f]")
_TG_HOST = re.compile(r"[A-Za-z0-9\-_]*")
_TONSITE_HOST = re.compile(r"[A-Za-z0-9\-_.]*")
_SPACE = " \t\r\n\0\v"


def _ascii_lower(text: str) -> str:
    return text.translate(_LOWER)


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def check_link(link: str) -> str:
    """The link as Telegram stores it, or LinkError with td's reason."""
    scheme = ""
    for prefix in ("tg:", "ton:", "tonsite:"):
        if _ascii_lower(link[: len(prefix)]) == prefix:
            scheme, link = prefix[:-1], link[len(prefix) :]
            link = link.removeprefix("//")
            break
    https, userinfo, host, port, is_ipv6, query = _parse_url(link)
    if not scheme:
        if "." not in host and not is_ipv6:
            raise LinkError("Wrong HTTP URL")
        authority = (userinfo + "@" if userinfo else "") + host + (f":{port}" if port else "")
        return f"{'https' if https else 'http'}://{authority}{query}"
    if _ascii_lower(link[:7]) == "http://" or https or userinfo or port or is_ipv6:
        raise LinkError("Wrong tg URL" if scheme == "tg" else "Wrong ton URL")
    if not (_TONSITE_HOST if scheme == "tonsite" else _TG_HOST).fullmatch(host):
        raise LinkError("Unallowed characters in URL host")
    if len(query) > 1 and query[1] == "?":
        query = query[1:]
    return f"{scheme}://{host}{query}"


def _parse_url(url: str) -> tuple[bool, str, str, int, bool, str]:
    """td's ``parse_url``: (https, userinfo, host, specified port or 0, is IPv6, path and query from ``/``)."""
    end = _PROTOCOL_END.search(url)
    cut = end.start() if end else len(url)
    https = False
    rest = url
    if url.startswith("://", cut):
        protocol = _ascii_lower(url[:cut])
        if protocol not in ("http", "https"):
            raise LinkError("Unsupported URL protocol")
        https = protocol == "https"
        rest = url[cut + 3 :]
    end = _AUTHORITY_END.search(rest)
    cut = end.start() if end else len(rest)
    authority, query = rest[:cut], rest[cut:]

    port = 0
    colon = max(authority.rfind(":"), authority.rfind("]"), authority.rfind("@"))
    userinfo_host = authority
    if colon > 0 and authority[colon] == ":":
        digits = authority[colon + 1 :].lstrip("0") or "0"
        value = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 10 else -1
        port = value if 0 < value < 1 << 31 else -1
        userinfo_host = authority[:colon]
    if port < 0 or port > 65535:
        raise LinkError("Wrong port number specified in the URL")

    userinfo, _, host = userinfo_host.rpartition("@")
    is_ipv6 = host.startswith("[") and host.endswith("]") and len(host) >= 2
    if is_ipv6:
        try:
            socket.inet_pton(socket.AF_INET6, host[1:-1])
        except (OSError, ValueError):
            raise LinkError("Wrong IPv6 address specified in the URL") from None
    if not host:
        raise LinkError("URL host is empty")
    if host == ".":
        raise LinkError("Host is invalid")

    query = query.rstrip(_SPACE) or "/"
    if not query.startswith("/"):
        query = "/" + query
    query = "".join(f"%{ord(c):02X}" if ord(c) <= 0x20 else c for c in query)

    host = _ascii_lower(host)
    if is_ipv6:
        if not re.fullmatch(r"[0-9a-f:.]*", host[1:-1]):
            raise LinkError("Wrong IPv6 URL host")
    else:
        _check_url_part(host, "host", allow_colon=False)
        _check_url_part(userinfo, "userinfo", allow_colon=True)
    return https, userinfo, host, port, is_ipv6, query


def _check_url_part(part: str, name: str, *, allow_colon: bool) -> None:
    """RFC 3986's unreserved and sub-delimiter characters, ``%XX`` escapes, and any non-ASCII character."""
    i = 0
    while i < len(part):
        c = part[i]
        if _URL_PART_OK.match(c) or (allow_colon and c == ":"):
            i += 1
            continue
        if c == "%":
            if re.fullmatch(r"[0-9A-Fa-f]{2}", part[i + 1 : i + 3]):
                i += 3
                continue
            raise LinkError(f"Wrong percent-encoded symbol in URL {name}")
        raise LinkError(f"Disallowed character in URL {name}")
