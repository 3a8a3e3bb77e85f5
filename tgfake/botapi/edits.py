"""editMessageCaption, editMessageMedia, editMessageLiveLocation, stopMessageLiveLocation: the bot edits its message.

Each reads its parameters as telegram-bot-api does (the markup, then the caption or the media or the location),
then names the message: with no ``chat_id`` and no ``message_id`` it is an inline message (``inline_message_id``,
a chosen inline result's: the answer is then ``true``), else ``check_message`` (``message to edit not found``),
then TDLib's rules (``can_edit_message``: only the bot's own messages; a live location only during its period):
``message can't be edited``, ``there is no caption in the message to edit``, ``message media can't be edited``, the
album rules of ``edit_message_media``, and the server's ``message is not modified``. An edit sets ``edit_date`` and
goes out as ``edited_message`` / ``edited_channel_post`` to the bots that see the message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.albums import input_media
from tgfake.botapi.common import caption_text, entities_json, own_message
from tgfake.botapi.fields import required_json
from tgfake.botapi.forwards import ORIGIN
from tgfake.botapi.inline import inline_target
from tgfake.botapi.keyboards import parse_inline_keyboard, same_keyboard
from tgfake.botapi.places import FOREVER, WRONG_HEADING, location
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, StoredMessage
from tgfake.content import CAPTIONED, SPOILERED, Media
from tgfake.errors import bad_request
from tgfake.markup import Keyboard
from tgfake.params import Params, parse_int
from tgfake.world import rooms

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MEDIA_KINDS = frozenset({"animation", "audio", "document", "photo", "live_photo", "video"})
"""What editMessageMedia puts in, and (with text) what it may replace."""
HOMOGENEOUS = frozenset({"audio", "document"})  # albums of their own kind only
MAX_PROXIMITY = 100_000  # meters


def content_type(kind: str) -> str:
    """TDLib's content type of a kind: a live photo is a photo (with a video), so it may replace one in an album."""
    return "photo" if kind == "live_photo" else kind


def target(ctx: BotCall, p: Params) -> tuple[Chat, StoredMessage]:
    """The message an edit names: an inline message (by ``inline_message_id``) or the bot's own."""
    return inline_target(ctx, p) or own_message(ctx, p)


def live_until(msg: StoredMessage) -> float | None:
    """When a live location stops being live (None: not a live location; forever for 0x7FFFFFFF)."""
    if msg.media is None or msg.media.kind != "location" or "live_period" not in msg.media.fields:
        return None
    period = msg.media.fields["live_period"]
    return float("inf") if period == FOREVER else msg.date + period


def editable(ctx: BotCall, msg: StoredMessage) -> bool:
    """``can_edit_message``: never a service message, a forward or one with a reply keyboard; of the contents,
    text and captioned media always, a live location while live."""
    if msg.service or ORIGIN in msg.extra or msg.reply_markup is not None:
        return False
    if msg.media is None:
        return True
    if msg.media.kind in CAPTIONED:
        return True
    until = live_until(msg)
    return until is not None and ctx.unix_now() < until


def finish(ctx: BotCall, chat: Chat, msg: StoredMessage, keyboard: Keyboard | None) -> Any:
    msg.keyboard = keyboard
    msg.edit_date = ctx.unix_now()
    rooms.deliver(ctx.telegram, chat, msg, edited=True)
    return True if msg.inline_message_id else ctx.message_json(chat, msg)  # an inline edit answers true


@bot_method("editMessageCaption")
async def edit_message_caption(ctx: BotCall, p: Params) -> Any:
    """A captioned medium's caption (``caption`` absent or empty removes it), ``show_caption_above_media``, markup."""
    keyboard = parse_inline_keyboard(p.get("reply_markup"), ctx.chat_type(p.chat()))
    caption = caption_text(p)
    chat, msg = target(ctx, p)
    if not editable(ctx, msg):
        raise bad_request(errors.CANT_EDIT)
    if msg.media is None or not msg.media.captioned:
        raise bad_request(errors.NO_CAPTION_TO_EDIT)
    entities = entities_json(ctx, caption)
    above = p.flag("show_caption_above_media")
    same = (caption.text, entities, above) == (msg.caption, msg.entities, msg.caption_above)
    if same and same_keyboard(keyboard, msg.keyboard):
        raise bad_request(errors.NOT_MODIFIED)
    msg.caption, msg.entities, msg.caption_above = caption.text, entities, above
    msg.parse_mode = p.text("parse_mode")
    return finish(ctx, chat, msg, keyboard)


@bot_method("editMessageMedia")
async def edit_message_media(ctx: BotCall, p: Params) -> Any:
    """New content (an upload, ``attach://``, or a file id of the kind) with its own caption; a text becomes media.

    In an album the new content must be album content, and audio and documents stay among their own kind.
    """
    keyboard = parse_inline_keyboard(p.get("reply_markup"), ctx.chat_type(p.chat()))
    value = required_json(p, "media", errors.INPUT_MEDIA_BAD)
    kind, caption, make = input_media(ctx, p, value, for_album=False)
    chat, msg = target(ctx, p)
    if not editable(ctx, msg) or (msg.media is not None and msg.media.kind not in MEDIA_KINDS):
        raise bad_request(errors.MEDIA_CANT_BE_EDITED)
    old = content_type(msg.kind)
    if msg.media_group_id and old != content_type(kind):
        if kind == "animation":
            raise bad_request(errors.ALBUM_TYPE_INVALID)
        if old in HOMOGENEOUS or kind in HOMOGENEOUS:
            raise bad_request(errors.ALBUM_TYPE_CHANGE)
    entities = entities_json(ctx, caption)
    above = value.get("show_caption_above_media") is True
    known = msg.media.file if msg.media is not None else None
    if msg.media is not None and msg.media.kind == "live_photo":
        known = msg.media.fields["video"]  # a live photo's ``media`` is its motion part
    new_file = value.get("media") if isinstance(value.get("media"), str) else ""
    hidden = value.get("has_spoiler") is True and kind in SPOILERED
    unchanged = known is not None and msg.kind == kind and new_file == known.file_id
    unchanged = unchanged and msg.media is not None and msg.media.spoiler == hidden
    same_caption = (caption.text, entities, above) == (msg.caption, msg.entities, msg.caption_above)
    if unchanged and same_caption and same_keyboard(keyboard, msg.keyboard):
        raise bad_request(errors.NOT_MODIFIED)
    media: Media = make()
    msg.media, msg.text = media, ""
    msg.caption, msg.entities, msg.caption_above = caption.text, entities, above
    msg.parse_mode = value.get("parse_mode") if isinstance(value.get("parse_mode"), str) else ""
    return finish(ctx, chat, msg, keyboard)


def _live_fields(p: Params) -> dict[str, Any]:
    """``heading`` (1..360, 0: none) and ``proximity_alert_radius`` (0..100000), as TDLib checks them for an edit."""
    heading = parse_int(p.text("heading")) or 0
    if heading and not 1 <= heading <= 360:
        raise bad_request(WRONG_HEADING)
    radius = parse_int(p.text("proximity_alert_radius")) or 0
    if not 0 <= radius <= MAX_PROXIMITY:
        raise bad_request(errors.PROXIMITY_RADIUS_BAD)
    out: dict[str, Any] = {}
    if heading:
        out["heading"] = heading
    if radius:
        out["proximity_alert_radius"] = radius
    return out


def _live_message(ctx: BotCall, p: Params) -> tuple[Chat, StoredMessage, Media]:
    chat, msg = target(ctx, p)
    if not editable(ctx, msg):
        raise bad_request(errors.CANT_EDIT)
    if msg.media is None or live_until(msg) is None:
        raise bad_request(errors.NO_LIVE_LOCATION_TO_EDIT)
    return chat, msg, msg.media


@bot_method("editMessageLiveLocation")
async def edit_message_live_location(ctx: BotCall, p: Params) -> Any:
    """The point moves while the location is live; ``live_period`` (when given) replaces the period."""
    keyboard = parse_inline_keyboard(p.get("reply_markup"), ctx.chat_type(p.chat()))
    fields = location(p, live=True)
    fields.update(_live_fields(p))
    chat, msg, media = _live_message(ctx, p)
    period = parse_int(p.text("live_period")) or 0
    fields["live_period"] = period if period > 0 else media.fields["live_period"]
    order = ("latitude", "longitude", "horizontal_accuracy", "live_period", "heading", "proximity_alert_radius")
    fields = {k: fields[k] for k in order if k in fields}
    if fields == media.fields and same_keyboard(keyboard, msg.keyboard):
        raise bad_request(errors.NOT_MODIFIED)
    msg.media = Media("location", fields=fields)
    return finish(ctx, chat, msg, keyboard)


@bot_method("stopMessageLiveLocation")
async def stop_message_live_location(ctx: BotCall, p: Params) -> Any:
    """The location stops being live: its period is cut to the time it ran, so later edits are refused."""
    keyboard = parse_inline_keyboard(p.get("reply_markup"), ctx.chat_type(p.chat()))
    chat, msg, media = _live_message(ctx, p)
    fields = {k: v for k, v in media.fields.items() if k not in ("heading", "proximity_alert_radius")}
    fields["live_period"] = max(ctx.unix_now() - msg.date, 0)
    msg.media = Media("location", fields=fields)
    return finish(ctx, chat, msg, keyboard)
