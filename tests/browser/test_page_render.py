"""The page's entity renderer, run in Chromium on generated texts: every code unit shown once, in order, as text;
entities cut at UTF-16 offsets; only the page's own elements are ever made, and links only to http(s) and tg:."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.browser.conftest import WAIT_MS
from tgfake.testing import StandClient

TYPES = [
    "bold", "italic", "underline", "strikethrough", "spoiler", "code", "pre", "blockquote", "expandable_blockquote",
    "text_link", "url", "mention", "hashtag", "bot_command", "email", "text_mention", "custom_emoji", "date_time",
]  # fmt: skip
ALLOWED_TAGS = {"DIV", "B", "I", "U", "S", "SPAN", "CODE", "PRE", "BLOCKQUOTE", "A", "TIME"}
# Text a bot might send, markup and emoji (two UTF-16 units each) included.
PIECES = [*"ab <>&\"'/=\n", "👍", "é", "𝕏", "<b>", "<img src=x onerror=alert(1)>", "&lt;"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)
LINKS = st.sampled_from(["https://example.com/a", "http://x.test", "tg://resolve?domain=a", "javascript:alert(1)",
                         "data:text/html,x", "file:///etc/passwd", "//evil.test"])  # fmt: skip

RENDER = """([text, entities]) => {
  const node = window.__tgfakePage.formatted("body", text, entities);
  return {
    text: node.textContent,
    tags: [...node.querySelectorAll("*")].map((e) => e.tagName),
    hrefs: [...node.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")),
    children: [...node.children].map((e) => e.textContent),
  };
}"""


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@pytest.fixture(scope="module")
def renderer(browser: Any, tgfake_server: Any) -> Iterator[Any]:
    """One page for every example: the stand's root page, whose renderer the page exposes for tests."""
    context = browser.new_context()
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    opened.goto(tgfake_server.url + "/")
    opened.wait_for_function("window.__tgfakePage !== undefined")
    yield opened
    context.close()


@st.composite
def segmented(draw: st.DrawFn) -> tuple[list[str], list[dict[str, Any] | None]]:
    """Text as segments; some segments carry one entity covering exactly them (disjoint, as in most messages)."""
    segments = draw(st.lists(TEXT.filter(bool), min_size=1, max_size=6))
    marks: list[dict[str, Any] | None] = []
    for _ in segments:
        kind = draw(st.none() | st.sampled_from(TYPES))
        mark: dict[str, Any] | None = None if kind is None else {"type": kind}
        if kind == "text_link":
            assert mark is not None
            mark["url"] = draw(LINKS)
        if kind == "pre":
            assert mark is not None
            mark["language"] = draw(st.sampled_from(["", "python"]))
        marks.append(mark)
    return segments, marks


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=segmented())
def test_each_entity_covers_exactly_its_utf16_span(renderer: Any, case: tuple[list[str], list[Any]]) -> None:
    segments, marks = case
    entities, offset = [], 0
    for segment, mark in zip(segments, marks, strict=True):
        if mark is not None:
            entities.append({**mark, "offset": offset, "length": utf16(segment)})
        offset += utf16(segment)
    got = renderer.evaluate(RENDER, ["".join(segments), entities])
    assert got["text"] == "".join(segments)
    assert got["children"] == [s for s, m in zip(segments, marks, strict=True) if m is not None]
    assert set(got["tags"]) <= ALLOWED_TAGS
    assert all(h.startswith(("https:", "http:", "tg:")) for h in got["hrefs"]), got["hrefs"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=TEXT,
    raw=st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14), st.sampled_from(TYPES), LINKS), max_size=6),
)
def test_any_entities_keep_the_text_whole_and_inert(renderer: Any, text: str, raw: list[Any]) -> None:
    """Overlapping, out-of-range or empty entities (what a buggy bot might store) never lose or add text."""
    entities = [{"type": t, "offset": o, "length": n, "url": u} for o, n, t, u in raw]
    got = renderer.evaluate(RENDER, [text, entities])
    assert got["text"] == text
    assert set(got["tags"]) <= ALLOWED_TAGS
    assert all(h.startswith(("https:", "http:", "tg:")) for h in got["hrefs"]), got["hrefs"]


ANSWER = "Steep for three minutes."


@pytest.mark.tgfake(script=[{"match": "", "answer": ANSWER}])
def test_the_journal_panel_reads_the_models_answer_from_every_route(renderer: Any, tgfake: StandClient) -> None:
    """Chat Completions whole and streamed, Responses, Anthropic Messages streamed: the panel shows the text."""
    ask = [{"role": "user", "content": "tea?"}]
    for path, body in (
        ("/v1/chat/completions", {"model": "m", "messages": ask}),
        ("/v1/chat/completions", {"model": "m", "messages": ask, "stream": True}),
        ("/v1/responses", {"model": "m", "input": "tea?"}),
        ("/v1/messages", {"model": "m", "max_tokens": 50, "messages": ask, "stream": True}),
    ):
        request = urllib.request.Request(
            tgfake.url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as resp:
            assert resp.status == 200
            resp.read()
    with urllib.request.urlopen(tgfake.url + "/sim/llm/log", timeout=30) as resp:
        entries = json.loads(resp.read())["entries"]
    assert len(entries) == 4
    shown = renderer.evaluate("(raw) => raw.map(window.__tgfakePage.modelText)", [e["response"] for e in entries])
    assert shown == [ANSWER] * 4
