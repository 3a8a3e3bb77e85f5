"""``parse_mode=HTML``: TDLib's parse_html, over the UTF-8 bytes so that refusals name the same byte offsets.

Tags: b/strong, i/em, u/ins, s/strike/del, tg-spoiler, span class="tg-spoiler", a href, code (class
"language-x" inside pre), pre, blockquote (``expandable``), tg-emoji emoji-id, tg-time unix/format. Only
``&lt; &gt; &amp; &quot;`` and numeric references are decoded; any other ``&name;`` stays as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tgfake.text.entities import Entity, FormatError, date_flags, sort_entities, utf16_units
from tgfake.text.links import link_entity, to_int, to_int_prefix

_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "tg-time",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)
_SIMPLE = {
    "i": "italic",
    "em": "italic",
    "b": "bold",
    "strong": "bold",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "u": "underline",
    "ins": "underline",
    "tg-spoiler": "spoiler",
}
_SPACE = frozenset(b" \t\r\n\x00\x0b")
_PLAIN = re.compile(rb"[^<&]+")
_ALPHA = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGITS = frozenset(b"0123456789")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_TILL_SPACE_OR_GT = re.compile(rb"[^ \t\r\n\x00\x0b>]*")
_SPACES = re.compile(rb"[ \t\r\n\x0b]*")  # TDLib skips blanks but stops at NUL
_ATTR_NAME = re.compile(rb"[^ \t\r\n\x00\x0b=>/\"']*")
_TOKEN = re.compile(rb"[a-zA-Z0-9.\-]*")
_QUOTED = {ord('"'): re.compile(rb'[^"\x00&]*'), ord("'"): re.compile(rb"[^'\x00&]*")}
"""A quoted attribute value's run of plain bytes: up to its quote, a NUL (TDLib's end of input) or an ``&``."""


def _skip(pattern: re.Pattern[bytes], data: bytes, pos: int) -> int:
    """Where a run of ``pattern`` starting at ``pos`` ends (the patterns match the empty run too)."""
    m = pattern.match(data, pos)
    return m.end() if m else pos


@dataclass(slots=True)
class _Open:
    tag: str
    argument: str
    date: int
    offset: int  # UTF-16 offset in the result
    begin: int  # byte position in the result


def _entity(data: bytes, pos: int) -> tuple[int, int]:
    """Decode the character reference at ``pos`` (an ``&``): (code point or 0, position after it)."""
    end = pos + 1
    value = 0
    n = len(data)

    def at(i: int) -> int:
        return data[i] if i < n else 0

    if at(pos + 1) == ord("#"):
        end += 1
        if at(pos + 2) == ord("x"):
            end += 1
            while at(end) in _HEX:
                value = value * 16 + int(chr(data[end]), 16)
                end += 1
        else:
            while at(end) in _DIGITS:
                value = value * 10 + data[end] - 48
                end += 1
        if value == 0 or value >= 0x10FFFF or end - pos >= 10:
            return 0, pos
    else:
        while at(end) in _ALPHA:
            end += 1
        value = {b"lt": 60, b"gt": 62, b"amp": 38, b"quot": 34}.get(data[pos + 1 : end], 0)
        if value == 0:
            return 0, pos
    if at(end) == ord(";"):
        end += 1
    return value, end


def _char(code: int) -> bytes:
    return chr(code).encode("utf-8", "surrogatepass")


def parse_html(text: str) -> tuple[str, list[Entity]]:
    """The plain text and its entities (UTF-16 offsets); FormatError with TDLib's words when malformed."""
    data = text.encode("utf-8")
    n = len(data)

    def at(i: int) -> int:
        return data[i] if i < n else 0

    out = bytearray()
    u16 = 0
    recheck = False
    entities: list[Entity] = []
    stack: list[_Open] = []
    i = 0
    while i < n:
        c = data[i]
        if c == 38:  # &
            code, after = _entity(data, i)
            if code:
                u16 += 2 if code > 0xFFFF else 1
                recheck = recheck or 0xD800 <= code <= 0xDFFF
                out += _char(code)
                i = after
                continue
        if c != 60:  # <
            m = _PLAIN.match(data, i + 1)
            end = m.end() if m else i + 1
            chunk = data[i:end]
            u16 += utf16_units(chunk)
            out += chunk
            i = end
            continue
        begin = i
        i += 1
        if at(i) != ord("/"):
            i = _skip(_TILL_SPACE_OR_GT, data, i)
            if at(i) == 0:
                raise FormatError(f"Unclosed start tag at byte offset {begin}")
            tag = _ascii_lower(data[begin + 1 : i])
            if tag not in _TAGS:
                raise FormatError(f'Unsupported start tag "{tag}" at byte offset {begin}')
            argument = ""
            date = 0
            while at(i) != ord(">"):
                i = _skip(_SPACES, data, i)
                if at(i) == ord(">"):
                    break
                name_begin = i
                i = _skip(_ATTR_NAME, data, i)
                name = data[name_begin:i]
                if not name:
                    raise FormatError(f'Empty attribute name in the tag "{tag}" at byte offset {begin}')
                i = _skip(_SPACES, data, i)
                if at(i) != ord("="):
                    if at(i) == 0:
                        raise FormatError(f'Unclosed start tag "{tag}" at byte offset {begin}')
                    if tag == "blockquote" and name == b"expandable":
                        argument = "1"
                    continue
                i = _skip(_SPACES, data, i + 1)
                if at(i) == 0:
                    raise FormatError(f'Unclosed start tag "{tag}" at byte offset {begin}')
                if at(i) not in b"'\"":
                    token_begin = i
                    i = _skip(_TOKEN, data, i)
                    value = _ascii_lower(data[token_begin:i])
                    if at(i) not in _SPACE and at(i) != ord(">"):
                        raise FormatError(f"Unexpected end of name token at byte offset {token_begin}")
                else:
                    quote = data[i]
                    i += 1
                    raw = bytearray()
                    run = _QUOTED[quote]
                    while True:  # up to the closing quote, a NUL or the end: runs copied whole, references decoded
                        end = run.match(data, i).end()  # type: ignore[union-attr]  # matches the empty run too
                        raw += data[i:end]
                        i = end
                        if at(i) != 38:
                            break
                        code, after = _entity(data, i)
                        if code:
                            raw += _char(code)
                            i = after
                        else:
                            raw.append(38)
                            i += 1
                    if at(i) == quote:
                        i += 1
                    value = raw.decode("utf-8", "surrogatepass")
                if at(i) == 0:
                    raise FormatError(f"Unclosed start tag at byte offset {begin}")
                if tag == "a" and name == b"href":
                    argument = value
                elif tag == "code" and name == b"class" and value.startswith("language-"):
                    argument = value[9:]
                elif tag == "span" and name == b"class" and value.startswith("tg-"):
                    argument = value[3:]
                elif tag == "tg-emoji" and name == b"emoji-id":
                    argument = value
                elif tag == "blockquote" and name == b"expandable":
                    argument = "1"
                elif tag == "tg-time" and name == b"unix":
                    date = to_int_prefix(value, 32)
                elif tag == "tg-time" and name == b"format":
                    argument = value
            if tag == "span" and argument != "spoiler":
                raise FormatError(f'Tag "span" must have class "tg-spoiler" at byte offset {begin}')
            stack.append(_Open(tag, argument, date, u16, len(out)))
            i += 1  # past '>'
            continue
        # an end tag
        if not stack:
            raise FormatError(f"Unexpected end tag at byte offset {begin}")
        i = _skip(_TILL_SPACE_OR_GT, data, i)
        end_tag = _ascii_lower(data[begin + 2 : i])
        i = _skip(_SPACES, data, i)
        if at(i) != ord(">"):
            raise FormatError(f"Unclosed end tag at byte offset {begin}")
        top = stack[-1]
        if end_tag and end_tag != top.tag:
            raise FormatError(
                f'Unmatched end tag at byte offset {begin}, expected "</{top.tag}>", found "</{end_tag}>"'
            )
        if u16 > top.offset:
            _close(top, u16 - top.offset, bytes(out[top.begin :]), entities)
        stack.pop()
        i += 1
    if stack:
        raise FormatError(f'Can\'t find end tag corresponding to start tag "{stack[-1].tag}"')
    for e in entities:
        if e.type == "code":
            e.language = ""
    sort_entities(entities)
    try:
        result = out.decode("utf-8")
    except UnicodeDecodeError:
        if not recheck:
            raise
        raise FormatError(
            "Text contains invalid Unicode characters after decoding HTML entities, check for unmatched "
            "surrogate code units"
        ) from None
    return result, entities


def _ascii_lower(raw: bytes) -> str:
    return raw.lower().decode("utf-8", "surrogateescape")


def _close(top: _Open, length: int, inner: bytes, entities: list[Entity]) -> None:
    """The entity an end tag closes (none for an empty link target or a zero date)."""
    tag, offset = top.tag, top.offset
    kind = _SIMPLE.get(tag)
    if kind is not None or (tag == "span" and top.argument == "spoiler"):
        entities.append(Entity(kind or "spoiler", offset, length))
    elif tag == "tg-emoji":
        emoji_id = to_int(top.argument, 64)
        if not emoji_id:
            raise FormatError("Invalid custom emoji identifier specified")
        entities.append(Entity("custom_emoji", offset, length, custom_emoji_id=emoji_id))
    elif tag == "tg-time":
        flags = date_flags(top.argument)
        if flags is None:
            raise FormatError("Invalid date format used")
        if top.date > 0:
            entities.append(Entity("date_time", offset, length, unix_time=top.date, date_flags=flags))
    elif tag == "a":
        link = link_entity(top.argument or inner.decode("utf-8", "surrogatepass"), offset, length)
        if link is not None:
            entities.append(link)
    elif tag == "pre":
        last = entities[-1] if entities else None
        if last and last.type == "code" and (last.offset, last.length) == (offset, length) and last.language:
            last.type = "pre"
        else:
            entities.append(Entity("pre", offset, length))
    elif tag == "code":
        last = entities[-1] if entities else None
        if last and last.type == "pre" and (last.offset, last.length) == (offset, length) and top.argument:
            last.language = top.argument
        else:
            entities.append(Entity("code", offset, length, language=top.argument))
    else:  # blockquote
        entities.append(Entity("expandable_blockquote" if top.argument else "blockquote", offset, length))
