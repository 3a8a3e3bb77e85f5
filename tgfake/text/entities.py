"""The entity model and TDLib's normalisation of a formatted text (``fix_formatted_text``).

Offsets and lengths are UTF-16 code units, as Telegram counts them. The rules are TDLib's
(``td/telegram/MessageEntity.cpp``), re-expressed over Python strings: entities are sorted by offset, longer
first, then by a fixed type priority; bold/italic/underline/strikethrough/spoiler are split so that nothing
nests inside them; everything inside code and pre is dropped; control characters become spaces, ``\\r`` and a
few invisible marks are removed with the offsets moved; the text is trimmed; then the entities Telegram's
server finds by itself (mentions, links, ...) are merged in where nothing else is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tgfake.text.cleaning import NEEDS_CLEAN, REMOVED, clean_input_string, is_empty_string, replace_offending_characters

# --- entity types (the Bot API names) ------------------------------------------------------------------------
SPLITTABLE = ("bold", "italic", "underline", "strikethrough", "spoiler")  # TDLib's split order
BLOCKQUOTES = frozenset({"blockquote", "expandable_blockquote"})
CONTINUOUS = frozenset(
    {
        "mention",
        "hashtag",
        "bot_command",
        "url",
        "email",
        "text_link",
        "text_mention",
        "cashtag",
        "phone_number",
        "bank_card_number",
        "custom_emoji",
    }
)
PRE_LIKE = frozenset({"pre", "code", "date_time"})  # nothing nests inside these
FOUND = frozenset({"mention", "hashtag", "cashtag", "bot_command", "url", "email", "phone_number", "bank_card_number"})
"""Types the server detects by itself; the Bot API ignores them in explicit ``entities`` and finds them anew."""
USER = frozenset(SPLITTABLE) | BLOCKQUOTES | PRE_LIKE | {"text_link", "text_mention", "custom_emoji"}
ALL_TYPES = USER | FOUND
MAX_USER_ENTITIES = 100  # the server keeps at most this many (custom emoji are not counted)

_SPLIT_INDEX = {name: i for i, name in enumerate(SPLITTABLE)}
_PRIORITY = {
    "mention": 50,
    "hashtag": 50,
    "bot_command": 50,
    "url": 50,
    "email": 50,
    "bold": 90,
    "italic": 91,
    "code": 20,
    "pre": 11,  # 10 when it has a language (TDLib's PreCode)
    "text_link": 49,
    "text_mention": 49,
    "cashtag": 50,
    "phone_number": 50,
    "underline": 92,
    "strikethrough": 93,
    "blockquote": 0,
    "bank_card_number": 50,
    "spoiler": 94,
    "custom_emoji": 99,
    "expandable_blockquote": 0,
    "date_time": 30,
}

# date_time formatting flags (TDLib's FormattedDate)
RELATIVE, SHORT_TIME, LONG_TIME, SHORT_DATE, LONG_DATE, DAY_OF_WEEK = 1, 2, 4, 8, 16, 32
MAX_USER_ID = (1 << 40) - 1


@dataclass(slots=True)
class Entity:
    """One MessageEntity; only the field of its own type is meaningful among the optional ones."""

    type: str
    offset: int
    length: int
    url: str = ""  # text_link
    language: str = ""  # pre
    user_id: int = 0  # text_mention
    custom_emoji_id: int = 0  # custom_emoji
    unix_time: int = 0  # date_time
    date_flags: int = 0  # date_time, see RELATIVE ... DAY_OF_WEEK

    @property
    def end(self) -> int:
        return self.offset + self.length

    def json(self, user: Callable[[int], dict[str, Any]] | None = None) -> dict[str, Any]:
        """The Bot API object, keys in the order Telegram writes them; ``user`` resolves a text_mention's user."""
        out: dict[str, Any] = {"offset": self.offset, "length": self.length, "type": self.type}
        if self.type == "pre" and self.language:
            out["language"] = self.language
        elif self.type == "text_link":
            out["url"] = self.url
        elif self.type == "text_mention":
            out["user"] = user(self.user_id) if user else {"id": self.user_id, "is_bot": False, "first_name": ""}
        elif self.type == "custom_emoji":
            out["custom_emoji_id"] = str(self.custom_emoji_id)
        elif self.type == "date_time":
            out["unix_time"] = self.unix_time
            out["date_time_format"] = date_format(self.date_flags)
        return out


def date_format(flags: int) -> str:
    """The ``date_time_format`` the Bot API writes back for these flags ("" when none)."""
    if flags & RELATIVE:
        return "r"
    out = "w" if flags & DAY_OF_WEEK else ""
    out += "d" if flags & SHORT_DATE else "D" if flags & LONG_DATE else ""
    out += "t" if flags & SHORT_TIME else "T" if flags & LONG_TIME else ""
    return out


def date_flags(text: str) -> int | None:
    """Flags of a ``format`` string (``r``/``R`` alone, else any of ``tTdDwW``); None when a letter is unknown."""
    if text in ("r", "R"):
        return RELATIVE
    flags = 0
    for c in text:
        bit = {"t": SHORT_TIME, "T": LONG_TIME, "d": SHORT_DATE, "D": LONG_DATE, "w": DAY_OF_WEEK, "W": DAY_OF_WEEK}
        if c not in bit:
            return None
        flags |= bit[c]
    return flags


def priority(e: Entity) -> int:
    return 10 if e.type == "pre" and e.language else _PRIORITY[e.type]


def sort_key(e: Entity) -> tuple[int, int, int]:
    return (e.offset, -e.length, priority(e))


def sort_entities(entities: list[Entity]) -> None:
    entities.sort(key=sort_key)


def utf16_len(text: str) -> int:
    """UTF-16 code units: astral characters count two."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for c in text if c > "\uffff")


def utf16_units(chunk: bytes) -> int:
    """UTF-16 units of valid UTF-8 bytes: one per character start, two for four-byte characters."""
    if chunk.isascii():
        return len(chunk)
    return sum(1 for b in chunk if b < 0x80 or b >= 0xC0) + sum(1 for b in chunk if b >= 0xF0)


class FormatError(Exception):
    """A refusal in TDLib's own words (the Bot API adds the prefix and lower-cases the first letter)."""


# --- validity and splitting ------------------------------------------------------------------------------------
def _valid(entities: list[Entity]) -> bool:
    """TDLib's are_entities_valid: nothing needs splitting, merging or dropping."""
    end_pos = [-1] * len(SPLITTABLE)
    stack: list[Entity] = []
    for e in entities:
        while stack and e.offset >= stack[-1].end:
            stack.pop()
        if stack:
            if e.end > stack[-1].end:
                return False
            types = {s.type for s in stack}
            if e.type in types or stack[-1].type in PRE_LIKE:
                return False
            if e.type in PRE_LIKE and types - BLOCKQUOTES:
                return False
            if (e.type in CONTINUOUS or e.type in BLOCKQUOTES) and types & CONTINUOUS:
                return False
            if e.type in BLOCKQUOTES and types & BLOCKQUOTES:
                return False
            if types & _SPLITTABLE_SET:
                return False
        index = _SPLIT_INDEX.get(e.type)
        if index is not None:
            if end_pos[index] >= e.offset:
                return False
            end_pos[index] = e.end
        stack.append(e)
    return True


_SPLITTABLE_SET = frozenset(SPLITTABLE)


def _remove_intersecting(entities: list[Entity]) -> list[Entity]:
    """Keep an entity only if it starts after every kept one ends (drops nested ones too)."""
    out: list[Entity] = []
    last_end = 0
    for e in entities:
        if e.offset >= last_end:
            last_end = e.end
            out.append(e)
    return out


def _remove_intersecting_blockquote(entities: list[Entity], quotes: list[Entity]) -> list[Entity]:
    """Drop entities that cross a blockquote's border (inside or outside one is fine)."""
    if not quotes:
        return entities
    out: list[Entity] = []
    q = 0
    for e in entities:
        while q < len(quotes) and (quotes[q].type not in BLOCKQUOTES or quotes[q].end <= e.offset):
            q += 1
        if q < len(quotes) and (quotes[q].end < e.end or e.offset < quotes[q].offset < e.end):
            continue
        out.append(e)
    return out


def _split(entities: list[Entity], others: list[Entity]) -> list[Entity]:
    """Cut splittable entities at the borders of the others and merge touching pieces of one type.

    Pieces inside code/pre are dropped (TDLib's split_entities).
    """
    begin = [0] * len(SPLITTABLE)
    end = [0] * len(SPLITTABLE)
    result: list[Entity] = []
    it = 0

    def flush(offset: int) -> None:
        for i, kind in enumerate(SPLITTABLE):
            if end[i] != 0 and begin[i] < offset:
                if end[i] <= offset:
                    result.append(Entity(kind, begin[i], end[i] - begin[i]))
                    begin[i] = end[i] = 0
                else:
                    result.append(Entity(kind, begin[i], offset - begin[i]))
                    begin[i] = offset

    def add_entities(end_offset: int) -> None:
        nonlocal it
        while it < len(entities):
            e = entities[it]
            if e.offset >= end_offset:
                break
            i = _SPLIT_INDEX[e.type]
            if e.offset <= end[i] and end[i] != 0:
                end[i] = max(end[i], e.end)
            else:
                flush(e.offset)
                begin[i] = e.offset
                end[i] = e.end
            it += 1
        flush(end_offset)

    stack: list[Entity] = []

    def add_offset(offset: int) -> None:
        while stack and offset >= stack[-1].end:
            old = len(result)
            add_entities(stack[-1].end)
            if stack[-1].type in PRE_LIKE:
                del result[old:]
            stack.pop()
        add_entities(offset)

    for other in others:
        add_offset(other.offset)
        stack.append(other)
    add_offset(1 << 62)
    sort_entities(result)
    return result


def _resplit(splittable: list[Entity], others: list[Entity]) -> list[Entity]:
    if not splittable:
        return others
    pieces = _split(splittable, others)
    if not others:
        return pieces
    merged = others + pieces
    sort_entities(merged)
    return merged


def _partition(entities: Iterable[Entity]) -> tuple[list[Entity], list[Entity], list[Entity]]:
    continuous: list[Entity] = []
    quotes: list[Entity] = []
    splittable: list[Entity] = []
    for e in entities:
        if e.type in _SPLITTABLE_SET:
            splittable.append(e)
        elif e.type in BLOCKQUOTES:
            quotes.append(e)
        else:
            continuous.append(e)
    return continuous, quotes, splittable


def fix_entities(entities: list[Entity]) -> list[Entity]:
    """Sorted, non-overlapping except proper nesting, splittable ones cut around the rest (TDLib's fix_entities)."""
    sort_entities(entities)
    if _valid(entities):
        return entities
    continuous, quotes, splittable = _partition(entities)
    continuous = _remove_intersecting(continuous)
    if quotes:
        quotes = _remove_intersecting(quotes)
        continuous = _remove_intersecting_blockquote(continuous, quotes)
        continuous = continuous + quotes
        sort_entities(continuous)
    return _resplit(splittable, continuous)


def _merge_found(entities: list[Entity], found: list[Entity]) -> list[Entity]:
    """Add detected entities wherever no other continuous entity covers them (TDLib's merge_new_entities)."""
    if not found:
        return entities
    continuous, quotes, splittable = _partition(entities)
    found = _remove_intersecting_blockquote(found, quotes)
    merged: list[Entity] = []
    j = 0
    for old in continuous:
        while j < len(found) and found[j].end <= old.offset:
            merged.append(found[j])
            j += 1
        merged.append(old)
        while j < len(found) and found[j].offset < old.end:
            j += 1
    merged.extend(found[j:])
    if quotes:
        merged = merged + quotes
        sort_entities(merged)
    return _resplit(splittable, merged)


# --- cleaning ------------------------------------------------------------------------------------------------------
def clean_text(text: str) -> str:
    """TDLib's clean_input_string of a message text (FormatError when it is not UTF-8)."""
    cleaned = clean_input_string(text)
    if cleaned is None:
        raise FormatError("Strings must be encoded in UTF-8")
    return cleaned


def _utf8_len(c: int) -> int:
    return 1 if c < 0x80 else 2 if c < 0x800 else 3 if c < 0x10000 else 4


def _clean_with_entities(text: str, entities: list[Entity]) -> str:
    """clean_text, moving entity offsets over removed characters and refusing entities that split a character."""
    stack: list[tuple[Entity, int]] = []
    current = 0
    u16 = skipped = byte = 0
    out: list[str] = []
    n = len(text)
    for idx in range(n + 1):
        while stack:
            e, before = stack[-1]
            end = e.offset + e.length
            if u16 < end:
                break
            if u16 != end:
                raise FormatError(
                    f"Entity beginning at UTF-16 offset {e.offset} ends in a middle of a UTF-16 symbol "
                    f"at byte offset {byte}"
                )
            e.offset -= before
            e.length -= skipped - before
            stack.pop()
        while current < len(entities) and u16 >= entities[current].offset:
            if u16 != entities[current].offset:
                raise FormatError(f"Entity begins in a middle of a UTF-16 symbol at byte offset {byte}")
            stack.append((entities[current], skipped))
            current += 1
        if idx == n:
            break
        ch = text[idx]
        c = ord(ch)
        if c < 32 and c not in (10, 13):
            out.append(" ")
            u16 += 1
        elif c == 13:
            u16 += 1
            skipped += 1
        else:
            u16 += 2 if c > 0xFFFF else 1
            if c in REMOVED:
                skipped += 1
            else:
                out.append(ch)
        byte += _utf8_len(c)
    if current != len(entities):
        raise FormatError(f"Entity begins after the end of the text at UTF-16 offset {entities[current].offset}")
    if stack:
        e = stack[-1][0]
        raise FormatError(
            f"Entity beginning at UTF-16 offset {e.offset} ends after the end of the text at UTF-16 offset {e.end}"
        )
    return replace_offending_characters("".join(out))


is_empty = is_empty_string


def _copy(e: Entity) -> Entity:
    return Entity(
        e.type, e.offset, e.length, e.url, e.language, e.user_id, e.custom_emoji_id, e.unix_time, e.date_flags
    )


def _valid_entity(e: Entity) -> bool:
    """remove_empty_entities: empty ones, and links, mentions, emoji and dates without a valid target."""
    if e.length <= 0:
        return False
    if e.type == "text_link":
        return bool(e.url)
    if e.type == "text_mention":
        return 0 < e.user_id <= MAX_USER_ID
    if e.type == "custom_emoji":
        return e.custom_emoji_id != 0
    if e.type == "date_time":
        return e.unix_time > 0
    return True


def fix_formatted_text(
    text: str,
    entities: list[Entity],
    *,
    allow_empty: bool,
    allow_empty_string: bool = False,
    find: Callable[[str], list[Entity]] | None = None,
    skip_trim: bool = False,
) -> tuple[str, list[Entity]]:
    """TDLib's fix_formatted_text; ``find`` detects the entities the server adds (None: add none).

    Raises FormatError with TDLib's words ("Text must be non-empty", "Entity begins after the end of ...").
    """
    if not entities and not skip_trim:  # the common case, plain text: clean, trim, detect
        result = clean_text(text).strip(" \n")
        if not result or is_empty(result):
            if allow_empty and (not result or not allow_empty_string):
                return "", []
            if not allow_empty:
                raise FormatError("Text must be non-empty")
        return result, find(result) if find is not None else []
    entities = [_copy(e) for e in entities]
    if not entities:
        result = clean_text(text)
    else:
        for e in entities:
            if not 0 <= e.offset <= 1000000:
                raise FormatError(f"Receive an entity with incorrect offset {e.offset}")
            if not 0 <= e.length <= 1000000:
                raise FormatError(f"Receive an entity with incorrect length {e.length}")
        entities = fix_entities([e for e in entities if _valid_entity(e)])
        units = utf16_len(text)
        if units == len(text) and not NEEDS_CLEAN.search(text) and all(e.end <= units for e in entities):
            result = text  # nothing to remove and no surrogate pairs: offsets stay, no entity can be cut
        else:
            result = _clean_with_entities(text, entities)

    # the last character that is not a space or a line break, and the UTF-16 offset of its last unit
    last = len(result.rstrip(" \n")) - 1
    if last < 0:
        if allow_empty:
            return "", []
        raise FormatError("Text must be non-empty")
    entities = [e for e in entities if _valid_entity(e)]
    entities = fix_entities(entities)

    if not skip_trim:
        last_u16 = utf16_len(result[: last + 1]) - 1
        result = result[: last + 1]
        while entities and entities[-1].offset > last_u16:
            entities.pop()
        clipped = False
        for e in entities:
            if e.end > last_u16 + 1:
                e.length = last_u16 + 1 - e.offset
                clipped = True
        if clipped:
            sort_entities(entities)
        bound = entities[0].offset if entities else len(result)
        first = 0
        while first < bound and result[first] in " \n":
            first += 1
        if first:
            result = result[first:]
            for e in entities:
                e.offset -= first
    if is_empty(result):
        if not allow_empty:
            raise FormatError("Text must be non-empty")
        if not allow_empty_string:
            return "", []
    if find is not None:
        entities = _merge_found(entities, find(result))
    return result, entities


def limit_user_entities(entities: list[Entity]) -> list[Entity]:
    """What the server keeps: custom emoji, then at most 100 other user-set entities (splittable ones last)."""
    user = [e for e in entities if e.type in USER and e.type != "custom_emoji"]
    if len(user) <= MAX_USER_ENTITIES:
        return entities
    kept: list[Entity] = []
    count = 0
    for e in entities:
        if e.type in USER and e.type != "custom_emoji" and e.type not in _SPLITTABLE_SET:
            if count >= MAX_USER_ENTITIES:
                continue
            count += 1
        kept.append(e)
    out: list[Entity] = []
    for e in kept:
        if e.type in _SPLITTABLE_SET:
            if count >= MAX_USER_ENTITIES:
                continue
            count += 1
        out.append(e)
    return out
