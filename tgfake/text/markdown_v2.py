"""``parse_mode=MarkdownV2``: TDLib's parse_markdown_v2, over the UTF-8 bytes (refusals name byte offsets).

``*bold*``, ``_italic_``, ``__underline__``, ``~strike~``, ``||spoiler||``, `` `code` ``, ```` ```lang pre``` ````,
``[text](url)``, ``![👍](tg://emoji?id=N)`` or ``![time](tg://time?unix=N)``, ``>`` blockquotes at line starts
(``||`` at the end of the quote makes it expandable). Every other ``_*[]()~`>#+-=|{}.!`` must be escaped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tgfake.text.entities import MAX_USER_ID, Entity, FormatError, sort_entities, utf16_units
from tgfake.text.links import LinkError, checked_link, link_custom_emoji_id, link_date, link_user_id

_RESERVED = frozenset(b"_*[]()~`>#+-=|{}.!\n")
_CODE_RESERVED = frozenset(b"`")
_PLAIN = re.compile(rb"[^_*\[\]()~`>#+\-=|{}.!\n\\]+")
_CODE_PLAIN = re.compile(rb"[^`\\]+")
_SPACE = frozenset(b" \t\r\n\x00\x0b")
NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji",
    "blockquote": "BlockQuote",
}


@dataclass(slots=True)
class _Open:
    type: str
    argument: str
    offset: int  # UTF-16 offset in the result
    byte_offset: int  # in the input, for refusals
    begin: int  # byte position in the result

    @property
    def name(self) -> str:
        return "PreCode" if self.type == "pre" and self.argument else NAMES[self.type]


def _reserved(c: int) -> FormatError:
    return FormatError(f"Character '{chr(c)}' is reserved and must be escaped with the preceding '\\'")


def _unclosed(top: _Open) -> FormatError:
    return FormatError(f"Can't find end of {top.name} entity at byte offset {top.byte_offset}")


def parse_markdown_v2(text: str) -> tuple[str, list[Entity]]:
    """The plain text and its entities (UTF-16 offsets); FormatError with TDLib's words when malformed."""
    data = text.encode("utf-8")
    n = len(data)

    def at(i: int) -> int:
        return data[i] if i < n else 0

    out = bytearray()
    u16 = 0
    entities: list[Entity] = []
    stack: list[_Open] = []
    have_blockquote = False
    can_start_blockquote = True
    i = -1
    while True:
        i += 1
        if i >= n:
            break
        c = data[i]
        if c == 92 and 0 < at(i + 1) <= 126:  # backslash escape
            i += 1
            u16 += 1
            out.append(data[i])
            if data[i] != 13:
                can_start_blockquote = data[i] == 10
            continue
        in_code = bool(stack) and stack[-1].type in ("code", "pre")
        if c not in (_CODE_RESERVED if in_code else _RESERVED):
            m = (_CODE_PLAIN if in_code else _PLAIN).match(data, i)
            chunk = data[i : m.end()] if m else data[i : i + 1]
            u16 += utf16_units(chunk)
            if chunk.strip(b"\r"):  # any character but \r (a chunk starts on a character)
                can_start_blockquote = False
            out += chunk
            i += len(chunk) - 1
            continue

        if not stack:
            is_end = False
        elif have_blockquote and c == 10 and (i + 1 == n or data[i + 1] != 62):
            is_end = True
        else:
            top_type = stack[-1].type
            nxt = at(i + 1)
            is_end = {
                "bold": c == 42,
                "italic": c == 95 and nxt != 95,
                "code": c == 96,
                "pre": c == 96 and nxt == 96 and at(i + 2) == 96,
                "text_link": c == 93,
                "underline": c == 95 and nxt == 95,
                "strikethrough": c == 126,
                "spoiler": c == 124 and nxt == 124,
                "custom_emoji": c == 93,
                "blockquote": False,
            }[top_type]

        if not is_end:
            kind: str | None
            argument = ""
            byte_offset = i
            if c == 95:  # _
                if at(i + 1) == 95:
                    kind = "underline"
                    i += 1
                else:
                    kind = "italic"
            elif c == 42:
                kind = "bold"
            elif c == 126:
                kind = "strikethrough"
            elif c == 124:
                if at(i + 1) != 124:
                    raise _reserved(c)
                i += 1
                kind = "spoiler"
            elif c == 91:
                kind = "text_link"
            elif c == 96:
                if at(i + 1) == 96 and at(i + 2) == 96:
                    i += 3
                    kind = "pre"
                    end = i
                    while at(end) not in _SPACE and at(end) != 96:
                        end += 1
                    if i != end and end < n and at(end) != 96:
                        argument = data[i:end].decode("utf-8")
                        i = end
                    if at(i) in (10, 13):
                        i += 2 if at(i + 1) in (10, 13) and at(i) != at(i + 1) else 1
                    i -= 1
                else:
                    kind = "code"
            elif c == 33:  # !
                if at(i + 1) != 91:
                    raise _reserved(c)
                i += 1
                kind = "custom_emoji"
            elif c == 10:
                u16 += 1
                out.append(10)
                can_start_blockquote = True
                kind = None
            elif c == 62:  # >
                if not can_start_blockquote:
                    raise _reserved(c)
                if have_blockquote:
                    kind = None
                else:
                    kind = "blockquote"
                    have_blockquote = True
            else:
                raise _reserved(c)
            if kind is None:
                continue
            stack.append(_Open(kind, argument, u16, byte_offset, len(out)))
            continue

        # the end of an entity
        top = stack[-1]
        kind = top.type
        if c == 10 and kind != "blockquote":
            if kind != "spoiler" or not (
                top.byte_offset == i - 2 or (top.byte_offset == i - 3 and out and out[-1] == 13)
            ):
                raise _unclosed(top)
            stack.pop()
            top = stack[-1]
            if top.type != "blockquote":
                raise _unclosed(top)
            kind = "expandable_blockquote"
        argument = top.argument
        user_id = emoji_id = unix = flags = 0
        skip = u16 == top.offset
        if kind in ("underline", "spoiler"):
            i += 1
        elif kind == "pre":
            i += 2
        elif kind in ("text_link", "custom_emoji"):
            if at(i + 1) != 40:  # (
                if kind == "custom_emoji":
                    raise FormatError("The entity must contain a tg://emoji or tg://time URL")
                url = bytes(out[top.begin :])
            else:
                i += 2
                url_begin = i
                raw = bytearray()
                while i < n and data[i] != 41:
                    if data[i] == 92 and 0 < at(i + 1) <= 126:
                        raw.append(data[i + 1])
                        i += 2
                        continue
                    raw.append(data[i])
                    i += 1
                if at(i) != 41:
                    raise FormatError(f"Can't find end of a URL at byte offset {url_begin}")
                url = bytes(raw)
            link = url.decode("utf-8")
            if kind == "text_link":
                user_id = link_user_id(link)
                if not 0 < user_id <= MAX_USER_ID:
                    user_id = 0
                    argument = checked_link(link)
                    skip = skip or not argument
            else:
                try:
                    emoji_id = link_custom_emoji_id(link)
                except LinkError:
                    try:
                        unix, flags = link_date(link)
                    except LinkError:
                        raise FormatError("Invalid tg://emoji or tg://time URL specified") from None
                    kind = "date_time"
        elif kind in ("blockquote", "expandable_blockquote"):
            have_blockquote = False
            out.append(data[i])
            can_start_blockquote = True
            u16 += 1
            skip = False
        if not skip:
            offset = top.offset
            length = u16 - offset
            if user_id:
                entities.append(Entity("text_mention", offset, length, user_id=user_id))
            elif emoji_id:
                entities.append(Entity("custom_emoji", offset, length, custom_emoji_id=emoji_id))
            elif kind == "date_time":
                entities.append(Entity("date_time", offset, length, unix_time=unix, date_flags=flags))
            elif kind == "text_link":
                entities.append(Entity("text_link", offset, length, url=argument))
            elif kind == "pre":
                entities.append(Entity("pre", offset, length, language=argument))
            else:
                entities.append(Entity(kind, offset, length))
        stack.pop()

    if have_blockquote:
        kind = "blockquote"
        if stack[-1].type == "spoiler" and stack[-1].byte_offset == n - 2:
            stack.pop()
            kind = "expandable_blockquote"
        if stack[-1].type == "blockquote":
            length = u16 - stack[-1].offset
            if length:
                entities.append(Entity(kind, stack[-1].offset, length))
            stack.pop()
    if stack:
        raise _unclosed(stack[-1])
    sort_entities(entities)
    return out.decode("utf-8"), entities
