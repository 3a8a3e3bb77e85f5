"""Which request header may carry the client key: never one that looks like a credential.

The client key is written to the journal, which tests print and CI keeps; a header that carries a
secret must not end up there, so such names are refused as client selectors.
"""

from __future__ import annotations

import re

__all__ = ["PROFILE_HEADER", "check_client_header"]

PROFILE_HEADER = "X-Tgfake-Profile"

_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_SEPARATORS = re.compile(r"[-_.]")
_EXACT = {"authorization", "cookie", "set-cookie", "proxy-authorization"}
_CONTAINED = ("token", "secret", "password", "credential", "apikey", "accesskey", "privatekey")
_WORDS = {"auth", "authorization", "cookie"}


def check_client_header(name: str) -> None:
    """Raise ``ValueError`` when ``name`` is not a usable, nonsecret client header name.

    Refused: Authorization, Cookie, and names containing token, secret, password, credential, an
    API, access or private key, or the word auth, whichever of ``-``, ``_`` or ``.`` separates words.
    """
    if not _TOKEN.match(name):
        raise ValueError(f"client header {name!r} is not a valid HTTP header name")
    lowered = name.lower()
    words = _SEPARATORS.split(lowered)
    joined = "".join(words)
    if lowered in _EXACT or _WORDS.intersection(words) or any(part in joined for part in _CONTAINED):
        raise ValueError(
            f"client header {name!r} looks like a credential; the client key is written to the journal, "
            "so use a nonsecret test identifier such as X-Test-Client"
        )
