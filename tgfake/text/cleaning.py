"""How TDLib cleans the strings a bot sends (td/telegram/misc.cpp), before it uses them.

Every string parameter first goes through ``clean_input_string`` (control characters to spaces, ``\\r`` and a few
invisible marks removed; refused when it is not UTF-8); then a title or a name through ``clean_name``, a
description or a custom title through ``strip_empty_characters``, a sticker set name through ``clean_username``.
These work on code points where TDLib works on UTF-8 bytes; the results are the same for any UTF-8 text.
"""

from __future__ import annotations

import re

LENGTH_LIMIT = 35000  # bytes: the server's limit, which clean_input_string cuts a longer text to (less 3 bytes)
_CUT = LENGTH_LIMIT - 4  # a character that would start at this byte offset or later is dropped

_CONTROL = dict.fromkeys((c for c in range(32) if c not in (10, 13)), " ")
REMOVED = {13: None, 0x333: None, 0x33F: None, 0x30A: None, **dict.fromkeys(range(0x2028, 0x202F))}
_CLEAN_TABLE = str.maketrans({**_CONTROL, **REMOVED})
NEEDS_CLEAN = re.compile("[\x00-\x09\x0b-\x1f\r\u0333\u033f\u030a\u2028-\u202e\u200e\u200f]")
_DIRECTION_RUN = re.compile("[\u200e\u200f](?=[\u200e\u200f])")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SUSPECT = re.compile(NEEDS_CLEAN.pattern[:-1] + "\ud800-\udfff]")  # what cleaning or refusing would touch


def replace_offending_characters(text: str) -> str:
    """A run of left-to-right/right-to-left marks keeps only its last one; the others become ZWNJ."""
    if "\u200e" in text or "\u200f" in text:
        return _DIRECTION_RUN.sub("\u200c", text)
    return text


def clean_input_string(text: str | bytes) -> str | None:
    """td's clean_input_string: None when the text is not UTF-8, else the cleaned text (at most 34 996 bytes).

    Control characters become spaces (a tab too, ``\\n`` stays), ``\\r``, U+2028..U+202E and the combining marks
    U+0333, U+033F, U+030A are removed, and runs of direction marks lose all but their last one.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeDecodeError:
            return None
    elif len(text) <= _CUT // 4 and not _SUSPECT.search(text):  # one scan for the plain text nearly every call is
        return text
    elif _SURROGATE.search(text):
        return None
    if NEEDS_CLEAN.search(text):
        text = text.translate(_CLEAN_TABLE)
    if len(text) > _CUT // 4:
        text = _cut(text)
    return replace_offending_characters(text)


def _cut(text: str) -> str:
    data = text.encode()
    if len(data) <= _CUT:
        return text
    end = _CUT
    while end < len(data) and data[end] & 0xC0 == 0x80:  # the character begun before the limit is kept whole
        end += 1
    return data[:end].decode()


TRIMMED = " \t\r\n\x00\x0b"  # td's is_space: what trim() removes at both ends
_SPACES = "\u1680\u180e\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u2800\u3000\ufffc"
_TAGS = dict.fromkeys(range(0xE0000, 0xE0080), " ")
_SPACE_TABLE = {**dict.fromkeys(map(ord, _SPACES), " "), **_TAGS}
_SPACE_TABLE_RTLO = {**_SPACE_TABLE, 0x202E: " "}
_EMPTY = frozenset(" \n\u200b\u200c\u200d\u200e\u200f\u202e\ufeff\u00a0")  # invisible once the spaces are gone


def strip_empty_characters(text: str, max_length: int, strip_rtlo: bool = False) -> str:
    """td's strip_empty_characters: unusual spaces (and the tag characters U+E0000..U+E007F) become plain spaces,
    the text is trimmed, cut to ``max_length`` code points and trimmed again; "" when nothing visible is left.

    ``strip_rtlo`` also turns U+202E (right-to-left override) into a space, as a file name's cleaning does.
    """
    text = text.translate(_SPACE_TABLE_RTLO if strip_rtlo else _SPACE_TABLE)
    text = text.strip(TRIMMED)[:max_length].strip(TRIMMED)
    return "" if all(c in _EMPTY for c in text) else text


_BLANK = frozenset(TRIMMED + _SPACES) | _EMPTY


def is_empty_string(text: str) -> bool:
    """td's is_empty_string: nothing but spaces, line breaks and invisible characters."""
    if text and text[0] not in _BLANK and not "\U000e0000" <= text[0] <= "\U000e007f":
        return False  # a visible first character survives the trim and the cut
    return not strip_empty_characters(text, len(text))


_NAME_BLANKS = re.compile("[ \n\u00a0]+")


def clean_name(text: str, max_length: int) -> str:
    """td's clean_name (titles, names): strip_empty_characters, then every run of spaces, line breaks and no-break
    spaces becomes one space, and the ends are trimmed."""
    return _NAME_BLANKS.sub(" ", strip_empty_characters(text, max_length)).strip(TRIMMED)


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def clean_username(text: str) -> str:
    """td's clean_username: dots removed, ASCII letters lower-cased (others kept), the ends trimmed."""
    return text.replace(".", "").translate(_LOWER).strip(TRIMMED)
