"""``parse_mode=Markdown`` (legacy): TDLib's parse_markdown.

``*bold*``, ``_italic_``, `` `code` ``, ```` ```lang pre``` ````, ``[text](url)``; a backslash escapes only
``_ * ` [``; entities do not nest. TDLib rewrites the text in place while it reads it, so ``[text]`` without a
``(url)`` takes its URL from bytes it has already moved; that quirk is kept by working on one buffer the same way.
"""

from __future__ import annotations

from tgfake.text.entities import Entity, FormatError
from tgfake.text.links import link_entity

_SPACE = frozenset(b" \t\r\n\x00\x0b")
_MARKS = frozenset(b"_*`[")


def parse_markdown(text: str) -> tuple[str, list[Entity]]:
    """The plain text and its entities (UTF-16 offsets); FormatError when an entity is not closed."""
    buf = bytearray(text.encode("utf-8"))
    size = len(buf)

    def at(i: int) -> int:
        return buf[i] if i < size else 0

    result = 0
    u16 = 0
    entities: list[Entity] = []

    def take(i: int) -> None:
        nonlocal result, u16
        b = buf[i]
        if b < 0x80 or b >= 0xC0:
            u16 += 2 if b >= 0xF0 else 1
        buf[result] = b
        result += 1

    i = -1
    while True:
        i += 1
        if i >= size:
            break
        c = buf[i]
        if c == 92 and at(i + 1) in _MARKS:
            i += 1
            buf[result] = buf[i]
            result += 1
            u16 += 1
            continue
        if c not in _MARKS:
            take(i)
            continue
        begin = i
        end_char = 93 if c == 91 else c
        is_pre = False
        i += 1
        language = ""
        if c == 96 and at(i) == 96 and at(i + 1) == 96:
            i += 2
            is_pre = True
            end = i
            while at(end) not in _SPACE and at(end) != 96:
                end += 1
            if i != end and end < size and at(end) != 96:
                language = buf[i:end].decode("utf-8")
                i = end
            if at(i) in (10, 13):
                i += 2 if at(i + 1) in (10, 13) and at(i) != at(i + 1) else 1
        offset = u16
        while i < size and (buf[i] != end_char or (is_pre and not (at(i + 1) == 96 and at(i + 2) == 96))):
            take(i)
            i += 1
        if i == size:
            raise FormatError(f"Can't find end of the entity starting at byte offset {begin}")
        if offset != u16:
            length = u16 - offset
            if c == 95:
                entities.append(Entity("italic", offset, length))
            elif c == 42:
                entities.append(Entity("bold", offset, length))
            elif c == 91:
                if at(i + 1) != 40:
                    url = bytes(buf[begin + 1 : i])
                else:
                    i += 2
                    start = i
                    while i < size and buf[i] != 41:
                        i += 1
                    url = bytes(buf[start:i])
                link = link_entity(url.decode("utf-8", "replace"), offset, length)
                if link is not None:
                    entities.append(link)
            elif is_pre:
                entities.append(Entity("pre", offset, length, language=language))
            else:
                entities.append(Entity("code", offset, length))
        if is_pre:
            i += 2
    return buf[:result].decode("utf-8"), entities
