"""Properties of the text pipeline: HTML written from entities reads back the same; nothing raises but refusals."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tgfake.errors import TelegramError
from tgfake.text import FormattedText, format_text, to_html
from tgfake.text.detect import find_entities, server_entities

# Text built from the characters the parsers care about, plus astral, combining and control characters.
ALPHABET = st.sampled_from([*list("ab c\n\t\r<>&;/#@$._*~|`[]()!\\=-+{}:'\"0129"), "🙂", "я", "̳", "\u200e", "é"])
TEXT = st.lists(ALPHABET, max_size=60).map("".join)
TAGS = ["b", "i", "u", "s", "tg-spoiler", "code", "pre", "blockquote", "blockquote expandable"]


@st.composite
def html_documents(draw: st.DrawFn) -> str:
    """Well-formed HTML in Telegram's tag set, nested at random, with links and code languages."""
    depth = draw(st.integers(0, 3))

    def node(level: int) -> str:
        parts = []
        for _ in range(draw(st.integers(1, 3))):
            if level < depth and draw(st.booleans()):
                tag = draw(st.sampled_from([*TAGS, "a", "pre-code"]))
                inner = node(level + 1)
                if tag == "a":
                    url = draw(st.sampled_from(["https://example.com/x", "t.me/a", "tg://user?id=7", "bad"]))
                    parts.append(f'<a href="{url}">{inner}</a>')
                elif tag == "pre-code":
                    parts.append(f'<pre><code class="language-py">{inner}</code></pre>')
                else:
                    parts.append(f"<{tag}>{inner}</{tag.split()[0]}>")
            else:
                raw = draw(TEXT)
                parts.append(raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
        return "".join(parts)

    return node(0)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(html_documents())
def test_html_written_from_the_entities_reads_back_the_same(doc: str) -> None:
    try:
        first = format_text(doc, "HTML", allow_empty=True)
    except TelegramError:
        return  # e.g. a link target Telegram refuses
    entities = first.entities_json()
    again = format_text(to_html(first.text, entities), "HTML", allow_empty=True)
    assert (again.text, again.entities_json()) == (first.text, entities)


@settings(max_examples=400, deadline=None)
@given(TEXT, st.sampled_from(["HTML", "MarkdownV2", "Markdown", "", "none", "bogus"]), st.booleans())
def test_any_text_is_formatted_or_refused(text: str, mode: str, caption: bool) -> None:
    formatted_or_refused(lambda: format_text(text, mode, allow_empty=caption, limit=4096))


def formatted_or_refused(run: Callable[[], FormattedText]) -> None:
    """The call either refuses with a 400 in the Bot API's words or gives entities inside the text."""
    try:
        result = run()
    except TelegramError as exc:
        refusal: TelegramError | None = exc
    else:
        refusal = None
    if refusal is not None:
        assert (refusal.status, refusal.description[:13]) == (400, "Bad Request: ")
        return
    units = len(result.text.encode("utf-16-le")) // 2
    for e in result.entities:
        assert e.offset >= 0
        assert e.length > 0
        assert e.offset + e.length <= units


ENTITY = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(
            ["bold", "italic", "code", "pre", "text_link", "text_mention", "custom_emoji", "date_time", "url", "x", ""]
        ),
        "offset": st.one_of(st.integers(-3, 70), st.text(max_size=3), st.none(), st.floats(allow_nan=False)),
        "length": st.one_of(st.integers(-3, 70), st.text(max_size=3), st.booleans()),
        "url": st.sampled_from(["https://a.b", "a", "tg://user?id=5", ""]),
        "user": st.one_of(st.fixed_dictionaries({"id": st.integers(-2, 2**41)}), st.integers()),
        "custom_emoji_id": st.one_of(st.integers(-1, 3), st.text(max_size=2)),
        "unix_time": st.integers(-1, 3),
        "date_time_format": st.sampled_from(["", "r", "wDt", "x"]),
        "language": st.text(max_size=3),
    },
)


@settings(max_examples=400, deadline=None)
@given(TEXT, st.one_of(st.lists(ENTITY, max_size=5).map(json.dumps), st.text(max_size=10)))
def test_any_explicit_entities_are_used_or_refused(text: str, raw: str) -> None:
    formatted_or_refused(lambda: format_text(text, "", raw, allow_empty=True))


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_detected_entities_do_not_overlap(text: str) -> None:
    for found in (find_entities(text), server_entities(text)):
        ends = 0
        for e in found:
            assert e.offset >= ends
            assert e.length > 0
            ends = e.offset + e.length
