"""Entities back to markup: Telegram-style HTML, and the transcript's readable notation.

Both take a message's ``text`` and its Bot API ``entities`` (UTF-16 offsets). Entities Telegram detects by itself
(links, mentions, commands, ...) are shown as plain text, so a message without formatting renders as its text.

Transcript notation (documented in docs/formatting.md): ``**bold**``, ``_italic_``, ``__underline__``,
``~~strike~~``, ``||spoiler||``, `` `code` ``, ```` ```lang␤pre``` ````, ``[text](url)``, ``[text](tg://user?id=N)``,
``[text](tg://time?unix=N)``; a custom emoji is its fallback text; blockquote lines start with ``> ``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from tgfake.text.entities import FOUND

Ent = Mapping[str, Any]


def _units(text: str) -> list[str]:
    """The text as UTF-16 positions: an astral character occupies its position and an empty one after it."""
    if text.isascii() or all(c <= "\uffff" for c in text):
        return list(text)
    out: list[str] = []
    for c in text:
        out.append(c)
        if c > "\uffff":
            out.append("")
    return out


def _render(
    text: str,
    entities: Sequence[Ent],
    opening: Callable[[Ent], str],
    closing: Callable[[Ent], str],
    plain: Callable[[str, list[Ent]], str],
) -> str:
    """Walk the text, opening and closing tags at entity borders; overlapping entities are closed and reopened."""
    shown = [e for e in entities if e.get("type") not in FOUND and int(e.get("length", 0)) > 0]
    if not shown:
        return plain(text, [])
    units = _units(text)
    shown.sort(key=lambda e: (e["offset"], -e["length"]))
    starts: dict[int, list[Ent]] = {}
    for e in shown:
        starts.setdefault(e["offset"], []).append(e)
    out: list[str] = []
    stack: list[Ent] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            out.append(plain("".join(run), stack))
            run.clear()

    for pos in range(len(units) + 1):
        ending = [e for e in stack if e["offset"] + e["length"] <= pos]
        if ending:
            flush()
            reopen: list[Ent] = []
            while any(e["offset"] + e["length"] <= pos for e in stack):
                top = stack.pop()
                out.append(closing(top))
                if top["offset"] + top["length"] > pos:
                    reopen.append(top)
            for e in reversed(reopen):
                out.append(opening(e))
                stack.append(e)
        if pos in starts:
            flush()
            for e in starts[pos]:
                out.append(opening(e))
                stack.append(e)
        if pos < len(units):
            run.append(units[pos])
    flush()
    while stack:
        out.append(closing(stack.pop()))
    return "".join(out)


_HTML_TAGS = {
    "bold": "b",
    "italic": "i",
    "underline": "u",
    "strikethrough": "s",
    "spoiler": "tg-spoiler",
    "code": "code",
    "blockquote": "blockquote",
}


def _html_open(e: Ent) -> str:
    kind = e["type"]
    if kind in _HTML_TAGS:
        return f"<{_HTML_TAGS[kind]}>"
    if kind == "expandable_blockquote":
        return "<blockquote expandable>"
    if kind == "pre":
        lang = e.get("language")
        return f'<pre><code class="language-{escape(lang)}">' if lang else "<pre>"
    if kind == "text_link":
        return f'<a href="{escape(str(e.get("url", "")))}">'
    if kind == "text_mention":
        return f'<a href="tg://user?id={int(e.get("user", {}).get("id", 0))}">'
    if kind == "custom_emoji":
        return f'<tg-emoji emoji-id="{escape(str(e.get("custom_emoji_id", "")))}">'
    if kind == "date_time":
        fmt = e.get("date_time_format") or ""
        extra = f' format="{escape(fmt)}"' if fmt else ""
        return f'<tg-time unix="{int(e.get("unix_time", 0))}"{extra}>'
    return ""


def _html_close(e: Ent) -> str:
    kind = e["type"]
    if kind in _HTML_TAGS:
        return f"</{_HTML_TAGS[kind]}>"
    if kind == "expandable_blockquote":
        return "</blockquote>"
    if kind == "pre":
        return "</code></pre>" if e.get("language") else "</pre>"
    if kind in ("text_link", "text_mention"):
        return "</a>"
    if kind == "custom_emoji":
        return "</tg-emoji>"
    if kind == "date_time":
        return "</tg-time>"
    return ""


def to_html(text: str, entities: Sequence[Ent] | None) -> str:
    """The message as Telegram's HTML parse mode would write it (``parse_mode=HTML`` reads it back the same)."""
    if not entities:
        return escape(text, quote=False)
    return _render(text, entities or (), _html_open, _html_close, lambda run, _: escape(run, quote=False))


_MARKS = {
    "bold": "**",
    "italic": "_",
    "underline": "__",
    "strikethrough": "~~",
    "spoiler": "||",
    "code": "`",
}


def _mark_open(e: Ent) -> str:
    kind = e["type"]
    if kind in _MARKS:
        return _MARKS[kind]
    if kind == "pre":
        return "```" + str(e.get("language") or "") + "\n"
    if kind in ("text_link", "text_mention", "date_time"):
        return "["
    return ""


def _mark_close(e: Ent) -> str:
    kind = e["type"]
    if kind in _MARKS:
        return _MARKS[kind]
    if kind == "pre":
        return "\n```"
    if kind == "text_link":
        return f"]({e.get('url', '')})"
    if kind == "text_mention":
        return f"](tg://user?id={int(e.get('user', {}).get('id', 0))})"
    if kind == "date_time":
        return f"](tg://time?unix={int(e.get('unix_time', 0))})"
    return ""


def _mark_plain(run: str, stack: list[Ent]) -> str:
    if any(e["type"] in ("blockquote", "expandable_blockquote") for e in stack):
        return run.replace("\n", "\n> ")
    return run


def _quote_open(e: Ent) -> str:
    return "> " if e["type"] in ("blockquote", "expandable_blockquote") else _mark_open(e)


def to_transcript(text: str, entities: Sequence[Ent] | None) -> str:
    """The message in the transcript's notation; a text without formatting is returned unchanged."""
    if not entities:
        return text
    return _render(text, entities or (), _quote_open, _mark_close, _mark_plain)
