"""Telegram Mini App launch data: signing, validation, launch addresses and theme colours.

Stateless and public on purpose: the stand signs its launches with these functions, and a Mini App's
own tests can check what their server receives with :func:`validate`, exactly as Telegram documents
("Validating data received via the Mini App"): the secret key is HMAC-SHA256 of the bot token under
the key ``WebAppData``, and the hash is the hex HMAC-SHA256, under that secret, of every other field
as sorted ``key=value`` lines joined by newlines.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from collections.abc import Iterable, Mapping
from urllib.parse import quote_plus, unquote_plus, urlsplit, urlunsplit

__all__ = [
    "DEFAULT_COLOR_SCHEME",
    "PLATFORM",
    "VERSION",
    "BadHash",
    "MalformedInitData",
    "append_launch_params",
    "compute_hash",
    "data_check_string",
    "encode_query",
    "is_loopback_host",
    "parse_query",
    "sign",
    "theme_params",
    "url_problem",
    "validate",
]

VERSION = "10.1"
"""The Bot API version a launch reports (``tgWebAppVersion``)."""
PLATFORM = "tgfake"
"""The platform a launch reports (``tgWebAppPlatform``)."""
DEFAULT_COLOR_SCHEME = "dark"
"""The colour scheme of a launch that names none."""


class BadHash(ValueError):
    """Not signed with this token: hash missing, empty, not hex or wrong, or a field repeated."""


class MalformedInitData(ValueError):
    """The launch data is not a well-formed query string (a different failure from a bad signature)."""


_LIGHT = {
    "bg_color": "#ffffff",
    "secondary_bg_color": "#efeff3",
    "section_bg_color": "#ffffff",
    "header_bg_color": "#ffffff",
    "bottom_bar_bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "subtitle_text_color": "#999999",
    "section_header_text_color": "#6d6d72",
    "link_color": "#2481cc",
    "accent_text_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "destructive_text_color": "#ff3b30",
}
_DARK = {
    "bg_color": "#212121",
    "secondary_bg_color": "#0f0f0f",
    "section_bg_color": "#212121",
    "header_bg_color": "#212121",
    "bottom_bar_bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "subtitle_text_color": "#aaaaaa",
    "section_header_text_color": "#8774e1",
    "link_color": "#8774e1",
    "accent_text_color": "#8774e1",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "destructive_text_color": "#ff595a",
}


def theme_params(scheme: str) -> dict[str, str]:
    """The theme colours a launch carries: light only for exactly ``"light"``, dark for anything else."""
    return dict(_LIGHT if scheme == "light" else _DARK)


# --- query strings -------------------------------------------------------------------------------------

_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def encode_query(fields: Mapping[str, str] | Iterable[tuple[str, str]]) -> str:
    """Form-encode with keys sorted, spaces as ``+`` (Go's ``url.Values.Encode``, unlike ``urlencode``)."""
    pairs = list(fields.items()) if isinstance(fields, Mapping) else list(fields)
    pairs.sort(key=lambda kv: kv[0])  # stable: repeated keys keep their order, as Go does
    return "&".join(f"{quote_plus(k, safe='')}={quote_plus(v, safe='')}" for k, v in pairs)


def parse_query(query: str) -> list[tuple[str, str]]:
    """Parse a query string strictly, keeping every pair in order.

    Raises :class:`MalformedInitData` for a bad percent escape or a ``;`` in a key (Go's
    ``url.ParseQuery`` refuses both), where ``urllib.parse.parse_qsl`` would guess.
    """
    pairs: list[tuple[str, str]] = []
    for piece in query.split("&"):
        if not piece:
            continue
        key, _, value = piece.partition("=")
        if ";" in key:
            raise MalformedInitData("invalid semicolon separator in query")
        for part in (key, value):
            if _BAD_PERCENT.search(part):
                raise MalformedInitData(f"invalid URL escape in {part!r}")
        pairs.append((unquote_plus(key, errors="strict"), unquote_plus(value, errors="strict")))
    return pairs


# --- signing ---------------------------------------------------------------------------------------------


def data_check_string(fields: Mapping[str, str]) -> str:
    """Every field but ``hash``, sorted by key, as raw ``key=value`` lines joined by ``\\n``."""
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def compute_hash(fields: Mapping[str, str], token: str) -> str:
    """The lower-case hex hash Telegram puts in ``hash`` for these fields and this bot token."""
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return hmac.new(secret, data_check_string(fields).encode(), hashlib.sha256).hexdigest()


def sign(fields: Mapping[str, str], token: str) -> str:
    """Sign ``fields`` with the bot token and return the launch data (``tgWebAppData``).

    A ``hash`` already in ``fields`` is replaced. The result is form-encoded with keys sorted.
    """
    data = {k: v for k, v in fields.items() if k != "hash"}
    data["hash"] = compute_hash(data, token)
    return encode_query(data)


_HEX = re.compile(r"[0-9a-fA-F]+")


def validate(init_data: str, token: str) -> dict[str, str]:
    """Check launch data the way a Mini App's server should, and return its fields (``hash`` included).

    Raises :class:`BadHash` when a field is repeated or ``hash`` is missing, empty, not hex or not
    the one this token gives; :class:`MalformedInitData` when the query itself does not parse.
    ``auth_date`` is not judged: how old is too old is the app's decision.
    """
    pairs = parse_query(init_data)
    fields: dict[str, str] = {}
    for key, value in pairs:
        if key in fields:
            raise BadHash(f"field {key!r} appears more than once")
        fields[key] = value
    given = fields.get("hash", "")
    if not given:
        raise BadHash("hash is missing")
    if not _HEX.fullmatch(given):
        raise BadHash("hash is not hex")
    if not hmac.compare_digest(given.lower(), compute_hash(fields, token)):
        raise BadHash("hash does not match the data and token")
    return fields


# --- launch addresses ------------------------------------------------------------------------------------

# Bytes Go's url.Parse accepts in a host name (besides %-escapes and non-ASCII).
_HOST_CHARS = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:\[\]<>\"%\x80-\U0010ffff]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def is_loopback_host(host: str) -> bool:
    """``localhost`` (any case) or a loopback IP (``127.0.0.0/8``, ``::1``); brackets are ignored."""
    host = host.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host.lower() == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def _host_port(netloc: str) -> tuple[str, str] | None:
    """Split ``netloc`` (userinfo dropped) into host and port text; None when it cannot be a host."""
    hostport = netloc.rpartition("@")[2]
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0:
            return None
        host, rest = hostport[1:end], hostport[end + 1 :]
        if rest and not rest.startswith(":"):
            return None
        return host, rest[1:]
    if hostport.count(":") > 1:
        return None
    host, _, port = hostport.partition(":")
    return host, port


def url_problem(url: str) -> str | None:
    """Why Telegram would not open ``url`` as a Mini App, or None when it would.

    Absolute ``https`` to any host, or plain ``http`` to a loopback host (for local development).
    """
    invalid = f"Web App URL '{url}' is invalid"
    raw = url.strip()
    if _CONTROL.search(raw):
        return invalid
    try:
        parts = urlsplit(raw)
    except ValueError:
        return invalid
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        return invalid
    hp = _host_port(parts.netloc)
    if hp is None:
        return invalid
    host, port = hp
    if not host or not _HOST_CHARS.fullmatch(host) or (port and not port.isdigit()):
        return invalid
    if scheme == "http" and not is_loopback_host(host):
        return f"{invalid}: Only HTTPS links are allowed"
    return None


def append_launch_params(url: str, params: Mapping[str, str], start_param: str = "") -> str:
    """The address a launch opens: ``url`` with the launch parameters in its fragment.

    With ``start_param`` the query first gets ``tgWebAppStartParam`` (the query is re-encoded,
    sorted). The parameters (form-encoded, sorted) then go after ``#`` when there is no fragment;
    after ``?`` inside a hash-router fragment (``#/route``); after ``&`` when that fragment already
    has a query.
    """
    if start_param:
        parts = urlsplit(url)
        try:
            pairs = parse_query(parts.query)
        except MalformedInitData:  # Go's URL.Query() drops what it cannot parse
            pairs = []
        pairs = [(k, v) for k, v in pairs if k != "tgWebAppStartParam"]
        pairs.append(("tgWebAppStartParam", start_param))
        url = urlunsplit(parts._replace(query=encode_query(pairs)))
    encoded = encode_query(params)
    base, has_hash, fragment = url.partition("#")
    if not has_hash or not fragment:
        return f"{base}#{encoded}"
    if "?" in fragment:
        return f"{url}&{encoded}"
    return f"{url}?{encoded}"
