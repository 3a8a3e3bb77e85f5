"""Inline mode: answerInlineQuery, answerWebAppQuery, savePreparedInlineMessage, savePreparedKeyboardButton, and
the edits of inline messages (``inline_message_id``).

A result is read in telegram-bot-api's two passes, each worded as it words them: ``get_inline_query_result``
(Client.cpp: JSON shape, required fields per type; for answerInlineQuery wrapped in ``Can't parse inline query
result: ...``) for every result, then TDLib's ``get_input_bot_inline_result`` (MIME types, a contact's names,
the message content, the keyboard), then what Telegram's server refuses (``QUERY_ID_INVALID``,
``RESULT_ID_DUPLICATE``...). The state lives in :mod:`tgfake.world.inline`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_user
from tgfake.botapi.common import entities_json
from tgfake.botapi.fields import (
    FieldError,
    optional_bool,
    optional_int,
    optional_string,
    refuse,
    required_string,
    to_bool,
)
from tgfake.botapi.keyboards import MarkupError, parse_inline_keyboard, reply_button
from tgfake.botapi.payments import labeled_prices
from tgfake.botapi.places import INVALID_LOCATION, WRONG_HEADING, WRONG_PERIOD
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, StoredMessage
from tgfake.errors import TelegramError, bad_request
from tgfake.filestore import HTTP_URL, MAX_FILE_NAME, for_resend
from tgfake.markup import Keyboard
from tgfake.params import Params, loads
from tgfake.text import format_text
from tgfake.text.cleaning import strip_empty_characters
from tgfake.text.links import get_url_file_name
from tgfake.webapp import url_problem
from tgfake.world.inline import post_result
from tgfake.world.inline_state import (
    PREPARED_LIFETIME,
    QUERY_LIFETIME,
    InlineAnswer,
    InlineResult,
    Prepared,
    well_formed_inline_id,
)

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_RESULTS = 50
MAX_ID_BYTES = 64  # a result id and next_offset: at most 64 bytes (the server's RESULT_ID_INVALID, NEXT_OFFSET_...)
MAX_START_PARAMETER = 64
MAX_CACHE_TIME = 24 * 60 * 60
BASE64URL = re.compile(r"[A-Za-z0-9_-]*")

# Telegram's server (MTProto errors of messages.setInlineBotResults / answerWebAppQuery)
QUERY_ID_INVALID = errors.QUERY_TOO_OLD  # QUERY_ID_INVALID, as Client.cpp rewords it
RESULT_ID_DUPLICATE = "Bad Request: RESULT_ID_DUPLICATE"
RESULT_ID_INVALID = "Bad Request: RESULT_ID_INVALID"
NEXT_OFFSET_INVALID = "Bad Request: NEXT_OFFSET_INVALID"
MESSAGE_ID_INVALID = "Bad Request: MESSAGE_ID_INVALID"
BUTTON_TYPE_INVALID = errors.BUTTON_TYPE_INVALID

# Client.cpp's words
RESULTS_NOT_JSON = "Bad Request: can't parse JSON encoded inline query results: {reason}"
RESULTS_NOT_ARRAY = "Bad Request: expected an Array of inline query results"
TOO_MANY_RESULTS = "Bad Request: too many inline query results specified"
RESULT_PROBLEM = "Bad Request: can't parse inline query result: {problem}"
RESULT_NOT_SPECIFIED = "Bad Request: result isn't specified"
WEB_VIEW_RESULT_NOT_JSON = "Bad Request: can't parse JSON encoded web view query results {reason}"
RESULT_NOT_OBJECT = "Inline query result must be an object"
CONTENT_NOT_SPECIFIED = "Input message content is not specified"
TEXT_IS_EMPTY = "Message text is empty"
TYPE_UNSUPPORTED = 'type "{type}" is unsupported for the inline query result'
BUTTON_NOT_JSON = "Bad Request: can't parse inline query results button JSON object"
BUTTON_PROBLEM = "Bad Request: can't parse inline query results button: {problem}"
BUTTON_NOT_OBJECT = "InlineQueryResultsButton must be an Object"
BUTTON_ONE_FIELD = "InlineQueryResultsButton must have exactly one optional field"
KEYBOARD_BUTTON_NOT_JSON = "Bad Request: can't parse keyboard button JSON object"
KEYBOARD_BUTTON_PROBLEM = "Bad Request: can't parse keyboard button: {problem}"
FIELD_NOT_OBJECT = 'Field "{name}" must be of type Object'

# TDLib's words (InlineQueriesManager.cpp, TargetDialogTypes.cpp)
EMPTY_START_PARAMETER = "Can't use empty start_parameter"
LONG_START_PARAMETER = "Too long start_parameter specified"
START_PARAMETER_CHARS = "Unallowed characters in start_parameter are used"
USER_LINK_WEB_APP = "Link to a user can't be used in the Web App button"
CONTACT_PHONE = 'Field "phone_number" must contain a valid phone number'
CONTACT_NAME = 'Field "first_name" must be non-empty'
UNALLOWED_DOCUMENT_MIME = "Unallowed document MIME type"
UNALLOWED_VIDEO_MIME = "Unallowed video MIME type"
WRONG_STICKER_ID = "Wrong sticker_file_id specified"
NO_CHAT_TYPE = "At least one chat type must be allowed"
INVALID_INLINE_ID = "Invalid inline message identifier specified"

FILE_KIND = {
    "audio": "audio",
    "document": "document",
    "gif": "animation",
    "mpeg4_gif": "animation",
    "photo": "photo",
    "sticker": "sticker",
    "video": "video",
    "voice": "voice",
}
"""Each result type with a file and the kind of message it sends."""
_FILE_FIELD = {"gif": "gif", "mpeg4_gif": "mpeg4", "voice": "voice"}
"""The prefix of a result's ``<prefix>_url`` / ``<prefix>_file_id`` fields when it is not the type itself."""
_CLIENT_WORDS = ("Bad Request: can't parse", errors.PARSE_MODE_BAD, errors.RAW_TEXT_TOO_LONG, errors.KEYBOARD_NOT_ARRAY)


def _client_problem(exc: TelegramError) -> FieldError | None:
    """A refusal raised by code the server runs before TDLib, in the words it has inside a wrapper."""
    if not exc.description.startswith(_CLIENT_WORDS):
        return None
    inner = exc.description.removeprefix("Bad Request: ")
    return FieldError(inner[:1].upper() + inner[1:])


# --- pass one: Client.cpp's get_inline_query_result ----------------------------------------------------------------
@dataclass(slots=True)
class Draft:
    """A result as Client.cpp hands it to TDLib: typed fields, the content still to be checked."""

    type: str
    id: str
    obj: dict[str, Any]
    content: dict[str, Any] | None  # input_message_content (or the legacy message_text) as given
    legacy_text: bool
    caption: tuple[str, str, str | None]  # text, parse_mode, caption_entities JSON
    markup: dict[str, Any] | None
    title: str = ""
    file_ref: str = ""  # the url or file id of a file result
    mime_type: str = ""
    fields: dict[str, Any] = field(default_factory=dict)


def _double(obj: dict[str, Any], name: str) -> float:
    """``get_required_double_field``: a JSON Number only."""
    if name not in obj:
        raise FieldError(errors.FIELD_MISSING.format(name=name))
    value = obj[name]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise FieldError(errors.FIELD_NOT_DOUBLE.format(name=name))


def _optional_double(obj: dict[str, Any], name: str) -> float:
    return _double(obj, name) if name in obj else 0.0


def _object_field(obj: dict[str, Any], name: str) -> dict[str, Any] | None:
    """``extract_optional_field(name, Object)``: absent is None, anything but an object (null too) refused."""
    if name not in obj:
        return None
    value = obj[name]
    if not isinstance(value, dict):
        raise FieldError(FIELD_NOT_OBJECT.format(name=name))
    return value


def location_fields(obj: dict[str, Any]) -> dict[str, Any]:
    """An InputLocation-like object's Location (Client.cpp's ``get_location(JsonObject)``)."""
    out: dict[str, Any] = {"latitude": _double(obj, "latitude"), "longitude": _double(obj, "longitude")}
    accuracy = _optional_double(obj, "horizontal_accuracy")
    if accuracy:
        out["horizontal_accuracy"] = accuracy
    return out


def _live(obj: dict[str, Any]) -> dict[str, int]:
    return {
        "live_period": optional_int(obj, "live_period"),
        "heading": optional_int(obj, "heading"),
        "proximity_alert_radius": optional_int(obj, "proximity_alert_radius"),
    }


def venue_fields(obj: dict[str, Any]) -> dict[str, Any]:
    """An InputVenue-like object's Venue (``get_venue(JsonObject)``): location, title, address, provider ids."""
    out: dict[str, Any] = {"location": location_fields(obj)}
    out["title"] = required_string(obj, "title")
    out["address"] = required_string(obj, "address")
    for name in ("foursquare_id", "foursquare_type", "google_place_id", "google_place_type"):
        value = optional_string(obj, name)
        if value:
            out[name] = value
    return out


def _contact(obj: dict[str, Any]) -> dict[str, Any]:
    out = {"phone_number": required_string(obj, "phone_number"), "first_name": required_string(obj, "first_name")}
    for name in ("last_name", "vcard"):
        value = optional_string(obj, name)
        if value:
            out[name] = value
    return out


def _content_kind(content: dict[str, Any], required: bool) -> tuple[str, dict[str, Any]] | None:
    """``get_input_message_content``: text, venue, location, contact or invoice, by the fields present."""
    text = optional_string(content, "message_text")
    if text:
        link = _object_field(content, "link_preview_options")
        if link is None:
            optional_bool(content, "disable_web_page_preview")
        entities = content.get("entities")
        return "text", {
            "text": text,
            "parse_mode": optional_string(content, "parse_mode"),
            "entities": json.dumps(entities) if isinstance(entities, list) else None,
        }
    if "latitude" in content and "longitude" in content:
        if "title" in content and "address" in content:
            return "venue", venue_fields(content)
        location = location_fields(content)
        return "location", {**location, **_live(content)}
    if "phone_number" in content:
        return "contact", _contact(content)
    if "payload" in content:
        return "invoice", _invoice(content)
    if required:
        raise FieldError(CONTENT_NOT_SPECIFIED)
    return None


def _invoice(content: dict[str, Any]) -> dict[str, Any]:
    title = required_string(content, "title")
    description = required_string(content, "description")
    required_string(content, "payload")
    optional_string(content, "provider_token")
    currency = required_string(content, "currency")
    if "prices" not in content:
        raise FieldError(errors.FIELD_MISSING.format(name="prices"))
    if not isinstance(content["prices"], list):
        raise FieldError(errors.FIELD_NOT_ARRAY.format(name="prices"))
    total = sum(int(price["amount"]) for price in labeled_prices(content["prices"]))
    return {
        "title": title,
        "description": description,
        "start_parameter": "",
        "currency": currency,
        "total_amount": total,
    }


def _draft(value: Any) -> Draft:
    """One result read as Client.cpp reads it; FieldError carries its words."""
    if not isinstance(value, dict):
        raise FieldError(RESULT_NOT_OBJECT)
    obj = value
    kind = required_string(obj, "type").lower()
    rid = required_string(obj, "id")
    required = kind == "article"
    content_obj = _object_field(obj, "input_message_content")
    legacy = content_obj is None
    content: dict[str, Any] | None
    if legacy:
        text = required_string(obj, "message_text") if required else optional_string(obj, "message_text")
        optional_bool(obj, "disable_web_page_preview")
        entities = obj.get("entities")
        content = None
        if required or text:
            if not text:
                raise FieldError(TEXT_IS_EMPTY)
            content = {
                "kind": "text",
                "text": text,
                "parse_mode": optional_string(obj, "parse_mode"),
                "entities": json.dumps(entities) if isinstance(entities, list) else None,
            }
    else:
        assert content_obj is not None
        found = _content_kind(content_obj, required)
        content = {"kind": found[0], **found[1]} if found is not None else None
    if content is not None and content["kind"] == "text":
        _client_format_pass((content["text"], content["parse_mode"], content["entities"]))
    caption_entities = obj.get("caption_entities")
    caption = (
        optional_string(obj, "caption"),
        optional_string(obj, "parse_mode"),
        json.dumps(caption_entities) if isinstance(caption_entities, list) else None,
    )
    _client_format_pass(caption)
    optional_bool(obj, "show_caption_above_media")
    markup = _object_field(obj, "reply_markup")
    thumb = "thumbnail" if any(k in obj for k in ("thumbnail_url", "thumbnail_width", "thumbnail_height")) else "thumb"
    optional_string(obj, f"{thumb}_url")
    optional_int(obj, f"{thumb}_width")
    optional_int(obj, f"{thumb}_height")
    draft = Draft(type=kind, id=rid, obj=obj, content=content, legacy_text=legacy, caption=caption, markup=markup)
    _type_fields(draft)
    return draft


def _client_format_pass(text_fields: tuple[str, str, str | None]) -> None:
    """Client.cpp's ``get_formatted_text`` of a text or caption: its parse errors are the server's, wrapped."""
    text, mode, entities = text_fields
    try:
        format_text(text, mode, entities, allow_empty=True)
    except TelegramError as exc:
        problem = _client_problem(exc)
        if problem is not None:
            raise problem from None


def _type_fields(d: Draft) -> None:
    """Each type's own fields, in Client.cpp's order."""
    obj, kind = d.obj, d.type
    if kind == "article":
        optional_string(obj, "url")
        optional_bool(obj, "hide_url")
        d.title = required_string(obj, "title")
        d.fields["description"] = optional_string(obj, "description")
        return
    if kind == "contact":
        d.fields.update(_contact(obj))
        return
    if kind == "game":
        d.fields["game_short_name"] = required_string(obj, "game_short_name")
        return
    if kind == "location":
        if d.content is None:
            d.content = {"kind": "location", **location_fields(obj), **_live(obj)}
        d.fields["location"] = location_fields(obj)
        optional_int(obj, "live_period")
        d.title = required_string(obj, "title")
        return
    if kind == "venue":
        if d.content is None:
            d.content = {"kind": "venue", **venue_fields(obj)}
        d.fields.update(venue_fields(obj))
        d.title = str(d.fields["title"])
        return
    if kind not in FILE_KIND:
        raise FieldError(TYPE_UNSUPPORTED.format(type=kind))
    prefix = _FILE_FIELD.get(kind, kind)
    if kind == "audio":
        url = optional_string(obj, "audio_url")
        d.fields["duration"] = optional_int(obj, "audio_duration")
        d.title = required_string(obj, "title") if url else optional_string(obj, "title")
        d.fields["performer"] = optional_string(obj, "performer")
    elif kind in ("document", "video"):
        d.title = required_string(obj, "title")
        optional_string(obj, "description")
        url = optional_string(obj, f"{kind}_url")
        d.mime_type = required_string(obj, "mime_type") if url else optional_string(obj, "mime_type")
        if kind == "video":
            d.fields["width"] = optional_int(obj, "video_width")
            d.fields["height"] = optional_int(obj, "video_height")
            d.fields["duration"] = optional_int(obj, "video_duration")
            optional_int(obj, "video_start_timestamp")
    elif kind in ("gif", "mpeg4_gif"):
        d.title = optional_string(obj, "title")
        url = optional_string(obj, f"{prefix}_url")
        mime_field = "thumbnail_mime_type" if "thumbnail_mime_type" in obj else "thumb_mime_type"
        optional_string(obj, mime_field)
        d.fields["duration"] = optional_int(obj, f"{prefix}_duration")
        d.fields["width"] = optional_int(obj, f"{prefix}_width")
        d.fields["height"] = optional_int(obj, f"{prefix}_height")
        d.mime_type = "image/gif" if kind == "gif" else "video/mp4"
    elif kind == "photo":
        d.title = optional_string(obj, "title")
        optional_string(obj, "description")
        url = optional_string(obj, "photo_url")
        d.fields["width"] = optional_int(obj, "photo_width")
        d.fields["height"] = optional_int(obj, "photo_height")
    elif kind == "voice":
        d.title = required_string(obj, "title")
        url = optional_string(obj, "voice_url")
        d.fields["duration"] = optional_int(obj, "voice_duration")
    else:  # sticker
        url = ""
    d.file_ref = url or required_string(obj, f"{prefix}_file_id")


# --- pass two: TDLib's get_input_bot_inline_result ---------------------------------------------------------------
def _keyboard(markup: dict[str, Any] | None) -> Keyboard | None:
    """An inline keyboard only (TDLib's ``get_inline_reply_markup``); its refusals as the send's are."""
    if markup is None:
        return None
    try:
        inline = parse_inline_keyboard(json.dumps(markup), "private")
    except TelegramError as exc:
        problem = _client_problem(exc)
        if problem is not None:
            raise bad_request(RESULT_PROBLEM.format(problem=problem.message)) from None
        raise
    return inline


def _check_location(fields: dict[str, Any]) -> None:
    """TDLib's ``process_input_message_location``, as sendLocation checks it."""
    lat, lon = fields["latitude"], fields["longitude"]
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise bad_request(INVALID_LOCATION)
    period = fields.get("live_period", 0)
    if period and not (60 <= period <= 86400 or period == 0x7FFFFFFF):
        raise bad_request(WRONG_PERIOD)
    heading = fields.get("heading", 0)
    if heading and not 1 <= heading <= 360:
        raise bad_request(WRONG_HEADING)


def _file_name(url: str, kind: str) -> str:
    """The file name td gives a result's file (get_url_file_name of its URL, kept as every document's file name is
    kept; the kind when that is empty)."""
    return strip_empty_characters(get_url_file_name(url), MAX_FILE_NAME, strip_rtlo=True) or kind


def _result(ctx: BotCall, d: Draft) -> InlineResult:
    """TDLib's checks of one result, and the message it sends when chosen."""
    kind = d.type
    if kind == "contact":
        if not str(d.fields["phone_number"]).strip():
            raise refuse(CONTACT_PHONE)
        if not str(d.fields["first_name"]).strip():
            raise refuse(CONTACT_NAME)
    if kind in ("document", "video") and "." in d.file_ref:
        allowed = ("application/pdf", "application/zip") if kind == "document" else ("video/mp4", "text/html")
        match = next((m for m in allowed if d.mime_type.startswith(m)), None)
        if match is None:
            raise refuse(UNALLOWED_DOCUMENT_MIME if kind == "document" else UNALLOWED_VIDEO_MIME)
        d.mime_type = match
    if kind == "sticker" and "." in d.file_ref:
        raise refuse(WRONG_STICKER_ID)
    keyboard = _keyboard(d.markup)
    shown = dict(d.obj)
    result = InlineResult(id=d.id, type=kind, shown=shown, keyboard=keyboard)
    content = d.content
    if content is not None and content["kind"] == "text":
        text = format_text(content["text"], content["parse_mode"], content["entities"], limit=4096)
        result.text, result.entities = text.text, entities_json(ctx, text)
        result.parse_mode = content["parse_mode"]
        return result
    if content is not None:
        fields = {k: v for k, v in content.items() if k != "kind"}
        result.kind = content["kind"]
        if result.kind == "location":
            _check_location(fields)
            fields = {k: v for k, v in fields.items() if v or k in ("latitude", "longitude")}
        if result.kind == "venue":
            _check_location(fields["location"])
        result.fields = fields
        return result
    if kind == "game":
        result.kind = "game"
        result.fields = {"title": d.fields["game_short_name"], "description": "", "photo": []}
        return result
    if kind == "contact":
        result.kind, result.fields = "contact", dict(d.fields)
        return result
    # a file result sending its own file, with the caption
    caption = format_text(*d.caption, allow_empty=True, limit=1024, too_long=errors.CAPTION_TOO_LONG)
    result.text, result.entities = caption.text, entities_json(ctx, caption)
    result.parse_mode = d.caption[1]
    result.kind = FILE_KIND[kind]
    result.fields = {k: v for k, v in d.fields.items() if v}
    if d.title and kind == "audio":
        result.fields["title"] = d.title
    if HTTP_URL.match(d.file_ref):
        result.url = d.file_ref
        result.file_name = _file_name(d.file_ref, result.kind)
        result.mime_type = d.mime_type
    else:
        result.file = for_resend(ctx.telegram, d.file_ref, result.kind)
    return result


# --- the parameters -------------------------------------------------------------------------------------------------
def _results(ctx: BotCall, p: Params) -> list[InlineResult]:
    raw = p.text("results")
    if not raw:
        return []
    try:
        values = loads(raw)
    except ValueError:
        raise bad_request(RESULTS_NOT_JSON.format(reason=json_reason(raw))) from None
    if values is None:
        return []
    if not isinstance(values, list):
        raise bad_request(RESULTS_NOT_ARRAY)
    if len(values) > MAX_RESULTS:
        raise bad_request(TOO_MANY_RESULTS)
    drafts = []
    for value in values:
        try:
            drafts.append(_draft(value))
        except FieldError as exc:
            raise bad_request(RESULT_PROBLEM.format(problem=exc.message)) from None
    return [_result(ctx, d) for d in drafts]


def _one_result(ctx: BotCall, p: Params) -> InlineResult:
    """The ``result`` of answerWebAppQuery and savePreparedInlineMessage (Client.cpp's words, unwrapped)."""
    raw = p.text("result")
    if not raw:
        raise bad_request(RESULT_NOT_SPECIFIED)
    try:
        value = loads(raw)
    except ValueError:
        raise bad_request(WEB_VIEW_RESULT_NOT_JSON.format(reason=json_reason(raw))) from None
    try:
        draft = _draft(value)
    except FieldError as exc:
        raise refuse(exc.message) from None
    return _result(ctx, draft)


def checked_result(ctx: BotCall, p: Params) -> InlineResult:
    """One ``result`` (answerWebAppQuery's, answerGuestQuery's) read and its id checked, in Client.cpp's order."""
    result = _one_result(ctx, p)
    _check_id(result)
    return result


def _button(p: Params) -> dict[str, Any] | None:
    """``button`` (InlineQueryResultsButton), else the legacy ``switch_pm_text`` / ``switch_pm_parameter``."""
    raw = p.text("button")
    if not raw:
        text = p.text("switch_pm_text")
        return {"text": text, "start_parameter": p.text("switch_pm_parameter")} if text else None
    try:
        value = loads(raw)
    except ValueError:
        raise bad_request(BUTTON_NOT_JSON) from None
    try:
        if not isinstance(value, dict):
            raise FieldError(BUTTON_NOT_OBJECT)
        text = required_string(value, "text")
        if "start_parameter" in value:
            return {"text": text, "start_parameter": required_string(value, "start_parameter")}
        if "web_app" in value:
            if not isinstance(value["web_app"], dict):
                raise FieldError(FIELD_NOT_OBJECT.format(name="web_app"))
            return {"text": text, "web_app": {"url": required_string(value["web_app"], "url")}}
        raise FieldError(BUTTON_ONE_FIELD)
    except FieldError as exc:
        raise bad_request(BUTTON_PROBLEM.format(problem=exc.message)) from None


def _check_button(button: dict[str, Any]) -> None:
    """TDLib's checks of the button (after the results are read, before they are checked)."""
    if "start_parameter" in button:
        start = str(button["start_parameter"])
        if not start:
            raise refuse(EMPTY_START_PARAMETER)
        if len(start.encode()) > MAX_START_PARAMETER:
            raise refuse(LONG_START_PARAMETER)
        if not BASE64URL.fullmatch(start):
            raise refuse(START_PARAMETER_CHARS)
        return
    url = str(button["web_app"]["url"])
    if re.match(r"(?i)(https?://)?(t\.me|telegram\.me|telegram\.dog)/[A-Za-z]", url.strip()):
        raise refuse(USER_LINK_WEB_APP)
    problem = url_problem(url)
    if problem is not None:
        raise refuse(f"Inline query button {problem}")


LITERALS = {ord("f"): b"false", ord("t"): b"true", ord("n"): b"null"}
NUMBER_START = frozenset(b"-+.0123456789")
NUMBER_CHARS = frozenset(b"-+.0123456789eE")
TD_MAX_DEPTH = 100


class _TdJsonError(Exception):
    pass


def json_reason(text: str) -> str:
    """Why TDLib's JSON decoder (tdutils' ``json_decode``, ported) refuses ``text``, in its words.

    It reads bytes, takes numbers loosely (``+1``, ``.5``) and nests 100 deep at most; for text it would accept
    but Python's decoder does not, its closest refusal is given (``Expected string end``).
    """
    data = text.encode("utf-8", "surrogateescape")
    try:
        end = _td_value(data, _td_blank(data, 0), TD_MAX_DEPTH)
        if _td_blank(data, end) != len(data):
            return "Expected string end"
    except _TdJsonError as exc:
        return str(exc)
    return "Expected string end"


def _td_blank(data: bytes, i: int) -> int:
    while i < len(data) and data[i] in b" \t\r\n":
        i += 1
    return i


def _td_string(data: bytes, i: int) -> int:
    if i >= len(data) or data[i] != 0x22:
        raise _TdJsonError("Opening '\"' expected")
    i += 1
    while True:
        if i >= len(data):
            raise _TdJsonError("Closing '\"' not found")
        c = data[i]
        if c == 0x22:
            return i + 1
        if c != 0x5C:
            i += 1
            continue
        i += 1
        if i >= len(data):
            raise _TdJsonError("Closing '\"' not found")
        if data[i] != ord("u"):
            i += 1
            continue
        i += 1
        if i + 4 > len(data):
            raise _TdJsonError("\\u has less than 4 symbols")
        if not all(chr(b) in "0123456789abcdefABCDEF" for b in data[i : i + 4]):
            raise _TdJsonError("Invalid \\u -- not hex digit")
        i += 4


def _td_value(data: bytes, i: int, depth: int) -> int:
    """One value from ``i`` (whitespace skipped); the index after it, or _TdJsonError with td's words."""
    if depth < 0:
        raise _TdJsonError("Too big object depth")
    i = _td_blank(data, i)
    c = data[i] if i < len(data) else 0
    if c in LITERALS:
        word = LITERALS[c]
        if data[i : i + len(word)] != word:
            raise _TdJsonError(f"Token starts with '{chr(c)}' -- {word.decode()} expected")
        return i + len(word)
    if c == 0x22:
        return _td_string(data, i)
    if c in (0x5B, 0x7B):
        close = 0x5D if c == 0x5B else 0x7D
        kind = "Array" if c == 0x5B else "Object"
        i = _td_blank(data, i + 1)
        if i < len(data) and data[i] == close:
            return i + 1
        while True:
            if i >= len(data):
                raise _TdJsonError("Unexpected string end")
            if c == 0x7B:
                i = _td_blank(data, _td_string(data, i))
                if i >= len(data) or data[i] != 0x3A:
                    raise _TdJsonError("':' expected")
                i += 1
            i = _td_blank(data, _td_value(data, i, depth - 1))
            if i < len(data) and data[i] == close:
                return i + 1
            if i < len(data) and data[i] == 0x2C:
                i = _td_blank(data, i + 1)
                continue
            if i >= len(data):
                raise _TdJsonError("Unexpected string end")
            raise _TdJsonError(f"Unexpected symbol while parsing JSON {kind}")
    if c in NUMBER_START:
        while i < len(data) and data[i] in NUMBER_CHARS:
            i += 1
        return i
    if c == 0:
        raise _TdJsonError("Unexpected string end")
    raise _TdJsonError(f"Unexpected symbol '{chr(c)}'" if 0 < c < 127 else "Unexpected symbol")


def _check_id(result: InlineResult) -> None:
    """The server's rule for a result id: 1..64 bytes."""
    if not result.id or len(result.id.encode()) > MAX_ID_BYTES:
        raise bad_request(RESULT_ID_INVALID)


@bot_method("answerInlineQuery")
async def answer_inline_query(ctx: BotCall, p: Params) -> Any:
    """Store the answer for the person's client; one answer per query, within its lifetime."""
    is_personal = to_bool(p.text("is_personal"))
    cache_time = p.int_or_zero("cache_time") if p.text("cache_time") else 300
    cache_time = max(0, min(cache_time, MAX_CACHE_TIME))
    next_offset = p.text("next_offset")
    button = _button(p)
    results = _results(ctx, p)
    if button is not None:
        _check_button(button)
    inline = ctx.world.inline
    query = inline.queries.get(p.text("inline_query_id").strip())
    if query is None or query.bot_id != ctx.bot.id or query.answer is not None or ctx.now() - query.at > QUERY_LIFETIME:
        raise bad_request(QUERY_ID_INVALID)
    seen: set[str] = set()
    for result in results:
        _check_id(result)
        if result.id in seen:
            raise bad_request(RESULT_ID_DUPLICATE)
        seen.add(result.id)
    if len(next_offset.encode()) > MAX_ID_BYTES:
        raise bad_request(NEXT_OFFSET_INVALID)
    query.answer = InlineAnswer(results, next_offset, cache_time, is_personal, button)
    query.answered_at = ctx.now()
    return True


@bot_method("answerWebAppQuery")
async def answer_web_app_query(ctx: BotCall, p: Params) -> Any:
    """Post the result into the chat the Mini App was opened from, as the person, via the bot (once)."""
    result = _one_result(ctx, p)
    _check_id(result)
    query = ctx.world.inline.web_app_queries.get(p.text("web_app_query_id"))
    if query is None or query.bot_id != ctx.bot.id or query.answered:
        raise bad_request(QUERY_ID_INVALID)
    person = ctx.world.users.get(query.person_id)
    if person is None:
        raise bad_request(QUERY_ID_INVALID)
    chat = ctx.telegram.private_chat(ctx.bot, person) if query.chat_id in (0, person.id) else ctx.chat(query.chat_id)
    if chat is None:
        raise bad_request(QUERY_ID_INVALID)
    query.answered = True
    msg = post_result(ctx.telegram, chat, person, ctx.bot.user, result)
    return {"inline_message_id": msg.inline_message_id} if msg.inline_message_id else {}


@bot_method("savePreparedInlineMessage")
async def save_prepared_inline_message(ctx: BotCall, p: Params) -> Any:
    """A result the person's Mini App may share (``shareMessage``); it expires a day later on the stand's clock."""
    user_id = known_user(ctx, p)
    result = _one_result(ctx, p)
    kinds = tuple(k for k in ("user", "bot", "group", "channel") if to_bool(p.text(f"allow_{k}_chats")))
    if not kinds:
        raise refuse(NO_CHAT_TYPE)
    _check_id(result)
    inline = ctx.world.inline
    prepared = Prepared(
        id=inline.mint_prepared_id(),
        bot_id=ctx.bot.id,
        user_id=user_id,
        result=result,
        expiration_date=ctx.unix_now() + PREPARED_LIFETIME,
        chat_types=kinds,
    )
    inline.prepared[prepared.id] = prepared
    return {"id": prepared.id, "expiration_date": prepared.expiration_date}


PREPARED_BUTTON_KINDS = ("request_users", "request_chat", "request_managed_bot")
"""The buttons a Mini App may ask the person to press (savePreparedKeyboardButton's documented kinds)."""


@bot_method("savePreparedKeyboardButton")
async def save_prepared_keyboard_button(ctx: BotCall, p: Params) -> Any:
    """A request_users / request_chat / request_managed_bot button for the person's Mini App; returns its id."""
    user_id = known_user(ctx, p)
    try:
        value = loads(p.text("button"))
    except ValueError:
        raise bad_request(KEYBOARD_BUTTON_NOT_JSON) from None
    try:
        button = reply_button(value)
    except MarkupError as exc:
        raise bad_request(KEYBOARD_BUTTON_PROBLEM.format(problem=exc)) from None
    if button.kind not in PREPARED_BUTTON_KINDS and not (isinstance(value, dict) and "request_managed_bot" in value):
        raise bad_request(BUTTON_TYPE_INVALID)
    shown = button.json() if button.kind in PREPARED_BUTTON_KINDS else dict(value)
    inline = ctx.world.inline
    bid = f"btn{inline.next_prepared}"
    inline.next_prepared += 1
    inline.prepared_buttons[bid] = {"id": bid, "bot_id": ctx.bot.id, "user_id": user_id, "button": shown}
    return {"id": bid}


# --- inline messages: the edits' hook ---------------------------------------------------------------------------------
def inline_target(ctx: BotCall, p: Params) -> tuple[Chat, StoredMessage] | None:
    """The inline message an edit names by ``inline_message_id`` (no ``chat_id`` and no ``message_id``), else None.

    Client.cpp takes the inline path when both are absent: then an empty id is ``message identifier is not
    specified``, one TDLib cannot decode is invalid, and one that names no message of this bot is the server's
    ``MESSAGE_ID_INVALID``.
    """
    if p.text("chat_id") or (p.int_or_zero("message_id") if p.text("message_id") else 0):
        return None
    value = p.text("inline_message_id")
    if not value:
        raise bad_request(errors.INLINE_MESSAGE_ID_EMPTY)
    if not well_formed_inline_id(value):
        raise refuse(INVALID_INLINE_ID)
    found = ctx.world.inline.messages.get(value)
    if found is None or found.bot_id != ctx.bot.id:
        raise bad_request(MESSAGE_ID_INVALID)
    stand = ctx.telegram
    owner = stand.bots.get(found.chat_bot_id) if found.chat_bot_id else ctx.bot
    chat = stand.chat_of(owner or ctx.bot, found.chat_id)
    msg = chat.live(found.message_id) if chat is not None else None
    if chat is None or msg is None:
        raise bad_request(MESSAGE_ID_INVALID)
    return chat, msg


__all__ = ["inline_target"]
