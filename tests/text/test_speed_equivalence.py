"""The text pipeline's fast paths give what the slow ones gave: quoted HTML attributes read in runs, the memo of
formatted texts (same result as a fresh parse, refusals raised every time), the gate before the card scan."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tgfake.errors import TelegramError
from tgfake.text import api, format_text
from tgfake.text.detect import _CARD_RUN, bank_cards, server_entities
from tgfake.text.entities import FormatError
from tgfake.text.html import _char, _entity, parse_html
from tgfake.text.links import link_entity

VALUE = st.lists(
    st.sampled_from([*list("ab/?=.:-_ \t<>;#x"), "&amp;", "&lt;", "&quot;", "&#39;", "&#x41;", "&", "&bogus;", "\x00"]),
    max_size=24,
).map("".join)


def attribute_by_bytes(data: bytes, i: int, quote: int) -> tuple[bytes, int]:
    """TDLib's reading of a quoted attribute value, one byte at a time (the loop ``parse_html`` had)."""
    n = len(data)

    def at(k: int) -> int:
        return data[k] if k < n else 0

    raw = bytearray()
    while at(i) != quote and at(i) != 0:
        if data[i] == 38:
            code, after = _entity(data, i)
            if code:
                raw += _char(code)
                i = after
                continue
        raw.append(data[i])
        i += 1
    return bytes(raw), i


@settings(max_examples=400, deadline=None)
@given(VALUE, st.sampled_from(['"', "'"]))
def test_a_quoted_href_reads_as_byte_by_byte(value: str, quote: str) -> None:
    data = f"<a href={quote}{value}{quote}>link</a>".encode()
    raw, end = attribute_by_bytes(data, len(b"<a href=") + 1, ord(quote))
    if "\x00" in value:  # TDLib's reader stops at a NUL: the tag never closes
        assert data[end] == 0
        with pytest.raises(FormatError, match="Unclosed start tag"):
            parse_html(data.decode())
        return
    text, entities = parse_html(data.decode())
    expected = link_entity(raw.decode("utf-8", "surrogatepass") or "link", 0, 4)
    assert text == "link"
    assert entities == ([expected] if expected is not None else [])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*list("ab <>&/*_`[]()#@.:\n"), "<b>", "</b>", "<i>", "</i>"]), max_size=30).map("".join),
    st.sampled_from(["HTML", "MarkdownV2", "Markdown"]),
    st.booleans(),
)
def test_the_memo_gives_what_a_fresh_parse_gives(text: str, mode: str, allow_empty: bool) -> None:
    def fresh() -> object:
        try:
            return api._format(text, mode, None, allow_empty, 4096, "too long")
        except TelegramError as exc:
            return exc.status, exc.description

    for _ in range(2):  # the second call is served by the memo when the first succeeded
        try:
            got: object = format_text(text, mode, allow_empty=allow_empty, limit=4096, too_long="too long")
        except TelegramError as exc:
            got = exc.status, exc.description
        assert got == fresh()


def test_a_refusal_is_not_kept() -> None:
    api._memo.cache_clear()
    for _ in range(2):
        with pytest.raises(TelegramError, match="can't parse entities"):
            format_text("<b>open", "HTML")
    assert api._memo.cache_info().currsize == 0
    format_text("<b>closed</b>", "HTML")
    assert api._memo.cache_info().currsize == 1


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([*"0123456789", " ", "-", "a", ".", "+", "\n", "٣"]), max_size=40).map("".join))
def test_a_text_without_a_card_run_has_no_card_number(text: str) -> None:
    if not _CARD_RUN.search(text):
        assert bank_cards(text) == []


def test_the_card_run_gate_lets_a_card_through() -> None:
    assert [e.type for e in server_entities("pay 4242 4242 4242 4242 now")] == ["bank_card_number"]
    assert [e.type for e in server_entities("pay 4242-4242-4242-4242")] == ["bank_card_number"]
