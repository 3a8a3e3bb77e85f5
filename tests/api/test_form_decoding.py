"""The urlencoded decoder is urllib's parse_qsl, only faster: the same pairs for any query string or form body."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tgfake.wire import decode_text, form_pairs


def reference(raw: str) -> list[tuple[str, str]]:
    return parse_qsl(raw, keep_blank_values=True, encoding="utf-8", errors="surrogateescape")


# What a form is made of: escapes (valid, cut short, not hex, not UTF-8), separators, backslashes, any text.
pieces = st.sampled_from(["%", "%4", "%41", "%zz", "%E2%82%AC", "%ff", "%C3", "+", "=", "&", "\\", "\\x41", "é", "a"])
raw_forms = st.lists(pieces | st.text(max_size=4), max_size=24).map("".join)


@given(raw_forms)
def test_any_raw_form_decodes_as_parse_qsl_does(raw: str) -> None:
    assert form_pairs(raw) == reference(raw)


@given(st.binary(max_size=64))
def test_any_body_bytes_decode_as_parse_qsl_does(body: bytes) -> None:
    text = decode_text(body)
    assert form_pairs(text) == reference(text)


@given(st.lists(st.tuples(st.text(max_size=8), st.text(max_size=40)), max_size=5))
def test_what_a_client_encodes_comes_back(fields: list[tuple[str, str]]) -> None:
    encoded = urlencode(fields, encoding="utf-8", errors="surrogatepass")
    assert form_pairs(encoded) == reference(encoded)


@pytest.mark.parametrize(
    ("raw", "pairs"),
    [
        ("a=%zz&b=%4", [("a", "%zz"), ("b", "%4")]),  # a "%" without two hex digits stays as written
        ("a=b=c&&d", [("a", "b=c"), ("d", "")]),
        ("t=%E2%82%AC+%5C%5Cx41", [("t", "€ \\\\x41")]),
        ("t=%ff", [("t", "\udcff")]),  # not UTF-8: kept as a surrogate escape, refused where it is read
    ],
)
def test_edges(raw: str, pairs: list[tuple[str, str]]) -> None:
    assert form_pairs(raw) == pairs
