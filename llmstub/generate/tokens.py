"""The one built-in tokenizer of echo and random modes: deterministic, offline, no vocabulary file.

It follows llm-d-inference-sim's regex ("dummy") tokenizer: a token is a run of word characters or a
single punctuation mark, each keeping the whitespace that follows it. Joining the tokens gives the
text back byte for byte (leading whitespace rides on the first token), so a completion can be cut at
any token boundary and streamed token by token. Every count in these modes uses it: input length,
max_tokens, ``usage`` and the dataset hash. Real sub-word tokenizers report more tokens; these counts
are for budgets in tests, not billing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

TOKENIZER_NAME = "tgfake-regex-v1"
"""Stored in datasets so a file built with another tokenizer is refused instead of silently missing."""

_TOKEN = re.compile(r"(?:\w+|[^\w\s])\s*")
_LEADING_SPACE = re.compile(r"\s*")

_FNV_OFFSET = 0x811C9DC5
_FNV_PRIME = 0x01000193


def tokenize(text: str) -> list[str]:
    """Split ``text`` into tokens whose concatenation is ``text`` (empty or blank text has none)."""
    lead = _LEADING_SPACE.match(text)
    start = lead.end() if lead else 0
    tokens = _TOKEN.findall(text, start)
    if tokens and start:
        tokens[0] = text[:start] + tokens[0]
    return tokens


def count_tokens(text: str) -> int:
    """How many tokens ``text`` is, by :func:`tokenize`."""
    return sum(1 for _ in _TOKEN.finditer(text))


def token_id(token: str) -> int:
    """FNV-1a (32-bit) of the token without its whitespace, as the simulator derives token ids."""
    value = _FNV_OFFSET
    for byte in token.strip().encode("utf-8"):
        value = ((value ^ byte) * _FNV_PRIME) & 0xFFFFFFFF
    return value


def hash_tokens(tokens: Sequence[str]) -> str:
    """A stable hex digest of a token sequence; whitespace between tokens does not change it."""
    digest = hashlib.sha256()
    for token in tokens:
        digest.update(token.strip().encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()


def join_tokens(tokens: Sequence[str]) -> str:
    """The text of a token prefix, without the whitespace the last token carried."""
    return "".join(tokens).rstrip()
