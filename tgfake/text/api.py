"""The one entry point: a text with its ``parse_mode`` or ``entities`` → the text and entities Telegram stores.

The order is the Bot API server's (``Client::get_formatted_text``) and then TDLib's (``get_message_entities``,
``fix_formatted_text``): raw size, parse or read the explicit entities, check link targets, normalise, trim,
refuse an empty text, add the entities the server detects, count the length.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tgfake import errors
from tgfake.errors import TelegramError, bad_request
from tgfake.text.detect import server_entities
from tgfake.text.entities import (
    DAY_OF_WEEK,
    FOUND,
    LONG_DATE,
    LONG_TIME,
    MAX_USER_ID,
    RELATIVE,
    SHORT_DATE,
    SHORT_TIME,
    Entity,
    FormatError,
    fix_formatted_text,
    limit_user_entities,
)
from tgfake.text.html import parse_html
from tgfake.text.links import LinkError, check_link, link_user_id, to_int
from tgfake.text.markdown import parse_markdown
from tgfake.text.markdown_v2 import parse_markdown_v2

MAX_RAW_BYTES = 1 << 15  # the Bot API refuses longer raw text before parsing
PARSERS: dict[str, Callable[[str], tuple[str, list[Entity]]]] = {
    "html": parse_html,
    "markdownv2": parse_markdown_v2,
    "markdown": parse_markdown,
}
UserJson = Callable[[int], dict[str, Any]]
MEMO_CHARS = 2048  # formatted texts up to this long are memoised (see format_text)
MEMO_SIZE = 256


@dataclass(frozen=True, slots=True)
class FormattedText:
    """What a message stores: its text and entities (sorted, UTF-16 offsets)."""

    text: str
    entities: tuple[Entity, ...] = ()

    def entities_json(self, user: UserJson | None = None) -> list[dict[str, Any]]:
        return [e.json(user) for e in self.entities]


def _utf8_ok(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def format_text(
    text: str,
    parse_mode: str = "",
    entities_json: str | None = None,
    *,
    allow_empty: bool = False,
    limit: int = 0,
    too_long: str = errors.TEXT_TOO_LONG,
) -> FormattedText:
    """Parse, validate and normalise one text as Telegram does, or raise TelegramError in Telegram's words.

    ``allow_empty`` is for captions and drafts (a text that is empty after parsing is fine); ``limit`` is the
    code-point limit counted on the result (0: none), refused with ``too_long``.

    A pure function of its arguments, so a formatted text (``parse_mode`` or ``entities``) of up to
    ``MEMO_CHARS`` characters is kept in a bounded memo: bots send the same menus and templates again and again,
    and the parse, the checks and the detection were most of such a send. The result is shared (it is frozen and
    nothing downstream changes its entities); refusals are not kept (they raise again). Plain text is not kept:
    it is cheap, and it is what varies.
    """
    if (parse_mode or entities_json) and len(text) <= MEMO_CHARS:
        return _memo(text, parse_mode, entities_json, allow_empty, limit, too_long)
    return _format(text, parse_mode, entities_json, allow_empty, limit, too_long)


def _format(
    text: str, parse_mode: str, entities_json: str | None, allow_empty: bool, limit: int, too_long: str
) -> FormattedText:
    if not _utf8_ok(text):
        raise bad_request(errors.STRINGS_NOT_UTF8)
    if len(text) > MAX_RAW_BYTES // 4 and len(text.encode("utf-8")) > MAX_RAW_BYTES:
        raise bad_request(errors.RAW_TEXT_TOO_LONG)
    mode = parse_mode.lower() if parse_mode else ""
    entities: list[Entity] = []
    if text and mode and mode != "none":
        parser = PARSERS.get(mode)
        if parser is None:
            raise bad_request(errors.PARSE_MODE_BAD)
        try:
            text, entities = parser(text)
        except FormatError as exc:
            raise bad_request(errors.CANT_PARSE_ENTITIES.format(reason=exc)) from None
    elif entities_json:
        entities = parse_entities_json(entities_json)
    if entities:
        entities = _checked_targets(entities)
    try:
        text, fixed = fix_formatted_text(
            text, entities, allow_empty=allow_empty, allow_empty_string=allow_empty, find=server_entities
        )
    except FormatError as exc:
        raise TelegramError(400, bot_api_words(str(exc))) from None
    if limit and len(text) > limit:
        raise bad_request(too_long)
    return FormattedText(text, tuple(limit_user_entities(fixed) if fixed else ()))


_memo = functools.lru_cache(maxsize=MEMO_SIZE)(_format)


def plain_entities(text: str) -> list[Entity]:
    """The entities the server detects in a person's plain text (their client sends no formatting)."""
    return server_entities(text)


def bot_api_words(message: str) -> str:
    """How the Bot API words a TDLib error: "Bad Request: " and the first letter lower-cased, unless the second
    letter is upper-case or ``_`` (so ALL_CAPS codes and "URL ..." survive)."""
    if len(message) >= 2 and (message[1] == "_" or "A" <= message[1] <= "Z"):
        return f"{errors.BAD_REQUEST}: {message}"
    return f"{errors.BAD_REQUEST}: {message[:1].lower()}{message[1:]}"


def _checked_targets(entities: list[Entity]) -> list[Entity]:
    """TDLib's get_message_entities: link targets checked, ``tg://user`` links made text mentions."""
    for e in entities:
        if e.type == "text_link":
            user_id = link_user_id(e.url)
            if 0 < user_id <= MAX_USER_ID:
                e.type, e.url, e.user_id = "text_mention", "", user_id
                continue
            try:
                e.url = check_link(e.url)
            except LinkError as exc:
                raise TelegramError(400, bot_api_words(f"Entity {exc}")) from None
        elif e.type == "text_mention" and not 0 < e.user_id <= MAX_USER_ID:
            raise bad_request(errors.USER_NOT_FOUND)
        elif e.type == "custom_emoji" and e.custom_emoji_id == 0:
            raise bad_request(errors.CUSTOM_EMOJI_INVALID)
        elif e.type == "date_time" and e.unix_time <= 0:
            raise bad_request(errors.DATE_INVALID)
    return entities


# --- explicit entities: the Bot API's reading of a MessageEntity JSON array ----------------------------------------
class _Number(str):
    """A JSON number kept as its source text (the Bot API reads integers from it strictly)."""


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _first_key_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        out.setdefault(key, value)
    return out


def _decode(raw: str) -> Any:
    try:
        return json.loads(
            raw,
            parse_int=_Number,
            parse_float=_Number,
            parse_constant=_no_constant,
            object_pairs_hook=_first_key_wins,
        )
    except (ValueError, RecursionError):
        return None


class _Refused(Exception):
    pass


def _int_field(obj: dict[str, Any], name: str, bits: int = 32, *, required: bool = True) -> int:
    if name not in obj:
        if required:
            raise _Refused(f'Can\'t find field "{name}"')
        return 0
    value = obj[name]
    if isinstance(value, str):  # a JSON string, or a number kept as text
        parsed = to_int(value, bits)
        if parsed is None:
            raise _Refused(f'Field "{name}" must be a valid Number')
        return parsed
    raise _Refused(f'Field "{name}" must be a Number')


def _str_field(obj: dict[str, Any], name: str, *, required: bool = True) -> str:
    if name not in obj:
        if required:
            raise _Refused(f'Can\'t find field "{name}"')
        return ""
    value = obj[name]
    if isinstance(value, str):
        return str(value)
    raise _Refused(f'Field "{name}" must be of type String')


def _json_date_flags(fmt: str) -> int:
    if not fmt:
        return 0
    if fmt in ("r", "R"):
        return RELATIVE
    time = day = 0
    week = False
    for c in fmt:
        if c in "tT":
            time = SHORT_TIME if c == "t" else LONG_TIME
        elif c in "dD":
            day = SHORT_DATE if c == "d" else LONG_DATE
        elif c in "wW":
            week = True
        else:
            raise _Refused("Invalid date-time format specified")
    return time | day | (DAY_OF_WEEK if week else 0)


def _entity(value: Any) -> Entity | None:
    if not isinstance(value, dict):
        raise _Refused("expected an Object")
    offset = _int_field(value, "offset")
    length = _int_field(value, "length")
    kind = _str_field(value, "type")
    if not kind:
        raise _Refused("Type is not specified")
    e = Entity(kind, offset, length)
    if kind in ("bold", "italic", "underline", "strikethrough", "spoiler", "code", "blockquote"):
        return e
    if kind == "expandable_blockquote":
        return e
    if kind == "pre":
        e.language = _str_field(value, "language", required=False)
    elif kind == "text_link":
        e.url = _str_field(value, "url")
    elif kind == "text_mention":
        if "user" not in value:
            raise _Refused('Can\'t find field "user"')
        if not isinstance(value["user"], dict):
            raise _Refused('Field "user" must be of type Object')
        e.user_id = _int_field(value["user"], "id", 64)
    elif kind == "custom_emoji":
        e.custom_emoji_id = _int_field(value, "custom_emoji_id", 64)
    elif kind == "date_time":
        e.unix_time = _int_field(value, "unix_time")
        e.date_flags = _json_date_flags(_str_field(value, "date_time_format", required=False))
    elif kind in FOUND:
        return None  # detected by the server instead
    else:
        raise _Refused("Unsupported type specified")
    return e


def parse_entities_json(raw: str | None) -> list[Entity]:
    """An ``entities``/``caption_entities`` parameter: ignored unless it is a JSON array (as the Bot API does);
    each element must be a valid MessageEntity, else ``can't parse MessageEntity: ...``."""
    if not raw:
        return []
    value = _decode(raw)
    if not isinstance(value, list):
        return []
    out: list[Entity] = []
    for item in value:
        try:
            e = _entity(item)
        except _Refused as exc:
            raise bad_request(errors.CANT_PARSE_ENTITY.format(reason=exc)) from None
        if e is not None:
            out.append(e)
    return out
