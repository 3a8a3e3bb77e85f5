"""TDLib's own parser and detector tests (test/message_entities.cpp), as a table: input → text and entities, or
the exact refusal. ``tdlib_cases.json`` holds the literal cases of that file, each with its line there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tgfake.text import detect
from tgfake.text.entities import Entity, FormatError, fix_formatted_text
from tgfake.text.html import parse_html
from tgfake.text.markdown_v2 import parse_markdown_v2

CASES: dict[str, list[dict[str, Any]]] = json.loads((Path(__file__).parent / "tdlib_cases.json").read_text())


def rows(kind: str) -> list[Any]:
    return [pytest.param(c, id=f"L{c['line']}") for c in CASES[kind]]


def as_row(e: Entity) -> list[Any]:
    """An entity as the table writes TDLib's MessageEntity: [type, offset, length(, argument)]."""
    extra: Any = None
    if e.type in ("pre", "code") and e.language:
        extra = e.language
    elif e.type == "text_link":
        extra = e.url
    elif e.type == "text_mention":
        extra = e.user_id
    elif e.type == "custom_emoji":
        extra = e.custom_emoji_id
    elif e.type == "date_time":
        extra = [e.unix_time, e.date_flags]
    return [e.type, e.offset, e.length] if extra is None else [e.type, e.offset, e.length, extra]


def from_row(row: list[Any]) -> Entity:
    kind, offset, length, *extra = row
    e = Entity(kind, offset, length)
    if extra:
        value = extra[0]
        if kind in ("pre", "code"):
            e.language = value
        elif kind == "text_link":
            e.url = value
        elif kind == "text_mention":
            e.user_id = value
        elif kind == "custom_emoji":
            e.custom_emoji_id = value
        elif kind == "date_time":
            e.unix_time, e.date_flags = value
    return e


def normalised_expected(entities: list[list[Any]]) -> list[list[Any]]:
    # TDLib's PreCode with an empty language cannot exist on the wire; "" means a plain pre there too
    return [r[:3] if r[0] == "pre" and r[3:] == [""] else r for r in entities]


@pytest.mark.parametrize("case", rows("parse_html"))
def test_parse_html(case: dict[str, Any]) -> None:
    check_parser(parse_html, case)


@pytest.mark.parametrize("case", rows("parse_markdown_v2"))
def test_parse_markdown_v2(case: dict[str, Any]) -> None:
    check_parser(parse_markdown_v2, case)


def check_parser(parse: Any, case: dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(FormatError) as caught:
            parse(case["input"])
        assert str(caught.value) == case["error"]
        return
    text, entities = parse(case["input"])
    assert (text, [as_row(e) for e in entities]) == (case["text"], normalised_expected(case["entities"]))


@pytest.mark.parametrize(
    ("kind", "case"),
    [
        pytest.param(kind, c, id=f"{kind}-L{c['line']}")
        for kind in ("mentions", "bot_commands", "hashtags", "cashtags", "bank_cards", "tg_urls")
        for c in CASES[kind]
    ],
)
def test_detectors(kind: str, case: dict[str, Any]) -> None:
    s = case["input"]
    found = [s[b:e] for b, e in getattr(detect, kind)(s)]
    assert found == case["found"]


@pytest.mark.parametrize("case", rows("is_email"))
def test_is_email(case: dict[str, Any]) -> None:
    assert detect.is_email(case["input"]) is case["is_email"]


@pytest.mark.parametrize("case", rows("urls"))
def test_urls(case: dict[str, Any]) -> None:
    s = case["input"]
    found = detect.urls(s)
    assert [s[b:e] for b, e, mail in found if not mail] == case["urls"]
    assert [s[b:e] for b, e, mail in found if mail] == case["emails"]


@pytest.mark.parametrize("case", rows("fix_formatted_text"))
def test_fix_formatted_text(case: dict[str, Any]) -> None:
    defaults = [True, False, False, True]  # TDLib's test helper: allow_empty, skip_new, skip_commands, skip_trim
    allow_empty, skip_new, skip_commands, skip_trim = [*case["flags"], *defaults[len(case["flags"]) :]][:4]

    def find(text: str) -> list[Entity]:
        return detect.find_entities(text, skip_bot_commands=skip_commands)

    args: dict[str, Any] = {"allow_empty": allow_empty, "find": None if skip_new else find, "skip_trim": skip_trim}
    entities = [from_row(r) for r in case["entities"]]
    if case.get("error"):
        with pytest.raises(FormatError):
            fix_formatted_text(case["input"], entities, **args)
        return
    text, fixed = fix_formatted_text(case["input"], entities, **args)
    assert (text, [as_row(e) for e in fixed]) == (case["text"], normalised_expected(case["expected"]))


# Legacy Markdown has no test table in TDLib; these follow parse_markdown's code (byte offsets, in-place copy).
LEGACY = [
    ("*bold* _it_ `c`", "bold it c", [["bold", 0, 4], ["italic", 5, 2], ["code", 8, 1]]),
    ("```py\nprint(1)```", "print(1)", [["pre", 0, 8, "py"]]),
    ("```\ncode```", "code", [["pre", 0, 4]]),
    ("[site](http://example.com) \\*not\\*", "site *not*", [["text_link", 0, 4, "http://example.com/"]]),
    ("[me](tg://user?id=42)", "me", [["text_mention", 0, 2, 42]]),
    ("2*3 = 6*1", "23 = 61", [["bold", 1, 5]]),
    ("__", "", []),
    ("[telegram.org]", "telegram.org", [["text_link", 0, 12, "http://elegram.orgg/"]]),  # TDLib's in-place quirk
    ("🙂 *x", "Can't find end of the entity starting at byte offset 5", None),
    ("a [b", "Can't find end of the entity starting at byte offset 2", None),
]


@pytest.mark.parametrize(("source", "text", "entities"), LEGACY)
def test_parse_markdown_legacy(source: str, text: str, entities: list[list[Any]] | None) -> None:
    from tgfake.text.markdown import parse_markdown

    if entities is None:
        with pytest.raises(FormatError) as caught:
            parse_markdown(source)
        assert str(caught.value) == text
        return
    got, found = parse_markdown(source)
    assert (got, [as_row(e) for e in found]) == (text, entities)
