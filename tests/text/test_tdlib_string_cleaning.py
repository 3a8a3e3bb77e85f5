"""TDLib's own string cleaning tests (test/string_cleaning.cpp), as a table: ``tdlib_string_cleaning_cases.json``
holds every literal case of its four TESTs with its line there. A string that is not UTF-8 is written as its bytes
in hex (``input_hex``); ``expected: null`` is td's ``false`` (refused: not UTF-8).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tgfake.text.cleaning import clean_input_string, clean_name, clean_username, strip_empty_characters

CASES: dict[str, Any] = json.loads((Path(__file__).parent / "tdlib_string_cleaning_cases.json").read_text())


def rows(kind: str) -> list[Any]:
    return [pytest.param(c, id=f"L{c['line']}") for c in CASES[kind]]


def source(case: dict[str, Any]) -> str | bytes:
    return bytes.fromhex(case["input_hex"]) if "input_hex" in case else str(case["input"])


@pytest.mark.parametrize("case", rows("clean_input_string"))
def test_clean_input_string(case: dict[str, Any]) -> None:
    assert clean_input_string(source(case)) == case["expected"]


def test_a_str_with_a_lone_surrogate_is_not_utf8_either() -> None:
    """The str form of td's check_utf8: a lone surrogate is what bytes that are not UTF-8 decode to."""
    assert clean_input_string("a\ud800b") is None
    assert clean_input_string(b"\xed\xa0\x80") is None  # a surrogate written as UTF-8 is refused too


@pytest.mark.parametrize("case", rows("strip_empty_characters"))
def test_strip_empty_characters(case: dict[str, Any]) -> None:
    got = strip_empty_characters(case["input"], case["max_length"], case.get("strip_rtlo", False))
    assert got == case["expected"]


@pytest.mark.parametrize("case", rows("clean_name"))
def test_clean_name(case: dict[str, Any]) -> None:
    assert clean_name(case["input"], case["max_length"]) == case["expected"]


@pytest.mark.parametrize("case", rows("clean_username"))
def test_clean_username(case: dict[str, Any]) -> None:
    assert clean_username(case["input"]) == case["expected"]


blanky = st.text(st.sampled_from(list(" \t\r\n\x00\x0b\x01\u00a0\u200b\u200e\u200f\u202e\u2028\u3000\U000e0041ab.A")))


@settings(max_examples=300, deadline=None)
@given(text=blanky, limit=st.integers(0, 12))
def test_cleaning_twice_changes_nothing_more(text: str, limit: int) -> None:
    """Each cleaning is a normal form of what clean_input_string lets through (every string TDLib uses has been
    through it): a stored title or description cleaned again stays as it is."""
    cleaned = clean_input_string(text)
    assert cleaned is not None
    assert clean_input_string(cleaned) == cleaned == clean_input_string(text.encode())
    stripped = strip_empty_characters(cleaned, limit)
    assert strip_empty_characters(stripped, limit) == stripped
    assert len(stripped) <= limit
    name = clean_name(cleaned, limit)
    assert clean_name(name, limit) == name
    assert "  " not in name
