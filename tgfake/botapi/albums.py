"""sendMediaGroup: an album of 1-10 photos and videos, or documents only, or audio only.

Each item of ``media`` is an InputMedia object whose ``media`` is ``attach://<part>``, a file id of the item's
kind or a URL (refused: the stand has no network). The items are read as telegram-bot-api's ``get_input_media``
reads them, then TDLib's album rules apply (``send_message_group``): at most 10, documents and audio only among
their own kind, animations never. Every item becomes its own message with one ``media_group_id`` (an album of two
or more; a single item is a plain message) and its own caption. Nothing is stored unless every item passes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.common import caption_fields, chat_id, parse_caption, post_message, target_chat
from tgfake.botapi.fields import FieldError, required_json
from tgfake.botapi.media import given_thumbnail, named_file, new_media
from tgfake.botapi.registry import bot_method
from tgfake.content import Media
from tgfake.errors import bad_request
from tgfake.params import Params, Upload
from tgfake.text import FormattedText
from tgfake.wire import ATTACH, compact

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_ALBUM = 10
ALBUM_KINDS = ("photo", "video", "audio", "document")

BAD_ITEM = "Bad Request: can't parse InputMedia: {problem}"
NO_MESSAGES = "Bad Request: there are no messages to send"
TOO_MANY = "Bad Request: too many messages to send as an album"
NOT_MIXED = "Bad Request: {kind} can't be mixed with other media types"


def _file_ref(p: Params, raw: dict[str, Any], name: str) -> Upload | str | None:
    """A field naming a file as ``get_input_file`` reads it: an ``attach://`` part sent with the call, else the
    file id or URL as written; None when there is none (an empty value, a missing part)."""
    value = raw.get(name)
    value = value if isinstance(value, str) else ""
    if value.startswith(ATTACH):
        return p.files.get(value[len(ATTACH) :])
    return value or None


def _flag(raw: dict[str, Any], name: str) -> bool:
    """An optional Boolean field of the object (``get_optional_bool_field``: true or false only)."""
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise bad_request(BAD_ITEM.format(problem=f'Field "{name}" must be of type Boolean'))
    return value


def input_media(
    ctx: BotCall, p: Params, raw: Any, *, for_album: bool = True
) -> tuple[str, FormattedText, Callable[[], Media]]:
    """One InputMedia: (kind, caption, a maker that mints its file once every item has passed); outside an album
    (editMessageMedia) an animation is allowed too. A ``live_photo``'s ``media`` is its motion part (a video) and
    ``photo`` its still; ``has_spoiler`` hides a photo, live photo, video or animation."""
    if not isinstance(raw, dict):
        raise bad_request(BAD_ITEM.format(problem="expected an Object"))
    caption = raw.get("caption", "")
    if not isinstance(caption, str):
        raise bad_request(BAD_ITEM.format(problem='Field "caption" must be of type String'))
    _flag(raw, "show_caption_above_media")
    spoiler = _flag(raw, "has_spoiler")
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise bad_request(BAD_ITEM.format(problem='Can\'t find field "type"'))
    if _file_ref(p, raw, "media") is None:
        raise bad_request(BAD_ITEM.format(problem="media not found"))
    if kind == "animation" and for_album:
        raise bad_request(BAD_ITEM.format(problem='type "animation" can\'t be used in sendMediaGroup'))
    if kind not in ALBUM_KINDS and kind not in ("animation", "live_photo"):
        raise bad_request(BAD_ITEM.format(problem=f'type "{kind}" is unsupported'))
    parse_mode = raw.get("parse_mode")
    entities = raw.get("caption_entities")
    text = parse_caption(
        caption,
        parse_mode if isinstance(parse_mode, str) else "",
        compact(entities) if entities is not None else None,
    )
    try:
        return kind, text, file_media(ctx, p, raw, kind, spoiler=spoiler)
    except FieldError as exc:
        raise bad_request(BAD_ITEM.format(problem=exc.message)) from None


def file_media(
    ctx: BotCall, p: Params, raw: dict[str, Any], kind: str, *, spoiler: bool = False
) -> Callable[[], Media]:
    """The file part of ``get_input_media`` for a known ``kind`` (an album item, an edit, a poll's medium): its
    ``media`` (a live photo's motion part, with its still in ``photo``) checked now, minted when called.
    ``media not found`` / ``photo not found`` raise FieldError for the caller's wording."""
    ref = _file_ref(p, raw, "media")
    if ref is None:
        raise FieldError("media not found")
    if kind != "live_photo":
        thumbnail = given_thumbnail(p, raw)
        return new_media(ctx, kind, *named_file(ctx, p, ref, kind), raw, spoiler=spoiler, thumbnail=thumbnail)
    still = _file_ref(p, raw, "photo")
    if still is None:
        raise FieldError("photo not found")
    video = new_media(ctx, "video", *named_file(ctx, p, ref, "video"), {})
    photo = new_media(ctx, "photo", *named_file(ctx, p, still, "photo"), {})

    def make() -> Media:
        moving = video().file
        assert moving is not None
        return Media("live_photo", photo().file, {"video": moving}, spoiler=spoiler)

    return make


def _check_mix(kinds: list[str]) -> None:
    for kind in ("document", "audio"):
        if kind in kinds and any(k != kind for k in kinds):
            raise bad_request(NOT_MIXED.format(kind=kind))


@bot_method("sendMediaGroup")
async def send_media_group(ctx: BotCall, p: Params) -> Any:
    """An album: an array of the messages sent, each with the album's ``media_group_id`` and its own caption."""
    cid = chat_id(p)
    items = required_json(p, "media", errors.MEDIA_GROUP_BAD_JSON)
    if not isinstance(items, list):
        raise bad_request(errors.MEDIA_GROUP_NOT_ARRAY)
    parsed = [input_media(ctx, p, item) for item in items]
    if not parsed:
        raise bad_request(NO_MESSAGES)
    if len(parsed) > MAX_ALBUM:
        raise bad_request(TOO_MANY)
    _check_mix([kind for kind, _, _ in parsed])
    chat = target_chat(ctx, p, cid)
    group = f"{abs(chat.id)}{chat.next_message_id:08d}" if len(parsed) > 1 else ""
    sent = []
    for item, (_, caption, make) in zip(items, parsed, strict=True):

        def attach(make: Callable[[], Media] = make) -> dict[str, Any]:
            return {"media": make()}

        sent.append(
            post_message(
                ctx,
                p,
                cid,
                None,
                attach=attach,
                **caption_fields(ctx, caption),
                media_group_id=group,
                caption_above=item.get("show_caption_above_media") is True,
            )
        )
    return sent
