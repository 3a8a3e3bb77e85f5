"""TDLib's own parser and detector tests (test/message_entities.cpp), as a table: input → text and entities, or
the exact refusal. ``tdlib_cases.json`` holds the cases of that file, each with its line there: the literal ones,
and those its loops and built strings make (every single character through parse_markdown_v2, the e-mail
address grid, fix_formatted_text's offset, length and flag sweeps), written out one case per call.

fix_formatted_text's randomised sweep (random entities, then invariants) is test_fix_formatted_text_random_sweep,
with hypothesis drawing what td's Random draws.

Left out, as the Bot API never reaches them: TEST(MessageEntities, media_timestamp) (not a Bot API entity),
is_visible_url, parse_markdown_v3 and get_markdown_v3 (client-side only).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# TDLib's randomised fix_formatted_text sweep (message_entities.cpp, after the last literal case): random entities
# of every type over "aaa" or "aa:example.com:aa", then invariants. Types are td's MessageEntity::Type numbers.
TD_TYPE = {
    "email": 4, "bold": 5, "italic": 6, "code": 7, "pre": 8, "text_link": 10, "text_mention": 11, "cashtag": 12,
    "phone_number": 13, "underline": 14, "strikethrough": 15, "blockquote": 16, "bank_card_number": 17, "spoiler": 19,
    "custom_emoji": 20, "expandable_blockquote": 21, "date_time": 22, "url": 3, "mention": 0, "hashtag": 1,
    "bot_command": 2,
}  # fmt: skip
SPLITTABLE_MASK = (1 << 5) | (1 << 6) | (1 << 14) | (1 << 15) | (1 << 19)
PRE_MASK = (1 << 7) | (1 << 8) | (1 << 9)
RANDOM_TYPES = sorted(t for t, n in TD_TYPE.items() if n >= 4)  # td draws 4..Size-1 (media_timestamp: not ours)


@st.composite
def sweeps(draw: st.DrawFn) -> tuple[str, int, int, list[Entity]]:
    if draw(st.booleans()):
        text = "a" * draw(st.integers(1, 5)) + ":example.com:" + "a" * draw(st.integers(1, 5))
        url_offset = text.index("e")
        url_end = url_offset + 11
    else:
        text, url_offset, url_end = "a" * draw(st.integers(1, 20)), 0, 0
    short = draw(st.booleans())
    entities = []
    for _ in range(draw(st.integers(1, 20))):
        offset = draw(st.integers(0, len(text) - 1))
        top = len(text) - offset
        length = draw(st.integers(0, min(top, 4) if short and top > 4 else top))
        entities.append(Entity(draw(st.sampled_from(RANDOM_TYPES)), offset, length))
    return text, url_offset, url_end, entities


def type_mask(size: int, entities: list[Entity]) -> list[int]:
    out = [0] * size
    for e in entities:
        for pos in range(e.offset, e.offset + e.length):
            out[pos] |= 1 << TD_TYPE[e.type]
    return out


@settings(max_examples=400, deadline=None)
@given(sweep=sweeps())
def test_fix_formatted_text_random_sweep(sweep: tuple[str, int, int, list[Entity]]) -> None:
    text, url_offset, url_end, entities = sweep
    old = type_mask(len(text), entities)

    def find(s: str) -> list[Entity]:
        return detect.find_entities(s, skip_bot_commands=True)

    got, fixed = fix_formatted_text(text, entities, allow_empty=False, find=find)
    assert got == text
    new = type_mask(len(text), fixed)
    for pos in range(len(text)):
        if new[pos] & PRE_MASK:
            assert new[pos] & SPLITTABLE_MASK == 0
        else:
            assert old[pos] & SPLITTABLE_MASK == new[pos] & SPLITTABLE_MASK

    keep_url = url_end > 0  # td reads this off the fixed entities: a found URL stays unless a continuous one covers it
    for e in fixed:
        end = e.offset + e.length
        if (e.type, e.offset, e.length) == ("url", url_offset, url_end - url_offset):
            continue
        if keep_url and not (1 << TD_TYPE[e.type]) & SPLITTABLE_MASK and not (end <= url_offset or url_end <= e.offset):
            keep_url = e.type in ("blockquote", "expandable_blockquote") and e.offset <= url_offset and url_end <= end
    urls = [e for e in fixed if (e.type, e.offset, e.length) == ("url", url_offset, url_end - url_offset)]
    assert len(urls) == (1 if keep_url else 0)

    for i, a in enumerate(fixed):
        mask = 1 << TD_TYPE[a.type]
        for b in fixed[i + 1 :]:
            assert b.offset > a.offset or (b.offset == a.offset and b.length <= a.length)  # sorted
            assert b.offset >= a.end or b.end <= a.end  # not intersecting
            if b.offset < a.end:  # nested
                assert b.type != a.type
                assert mask & PRE_MASK == 0  # pre contains nothing
                if not mask & SPLITTABLE_MASK and a.type not in ("blockquote", "expandable_blockquote"):
                    assert (1 << TD_TYPE[b.type]) & SPLITTABLE_MASK  # continuous ones contain only splittable ones
