"""sendPaidMedia: 1-10 photos, videos or live photos the person sees blurred until they pay ``star_count`` Stars.

Read as telegram-bot-api's ``process_send_paid_media_query`` reads it: ``star_count`` clamped to 0..10^9, ``media``
by ``get_paid_media`` / ``get_input_paid_media`` (a JSON array of objects; each needs its ``media`` file, ``attach://``
part or file id, and a ``type`` of ``photo``, ``video`` or ``live_photo``, whose ``photo`` is its still), the
caption, ``payload`` and ``show_caption_above_media``; then the chat; then TDLib's
``MessageContent.cpp``: the price must be 1..1000000 Stars for a bot (``Invalid media price specified``), each file
must resolve (the file id rules of every send), and there must be 1..10 of them. The bot's message shows every
item unlocked (it sent them); the sim's chat view shows the person's locked ``preview`` (width, height, duration).
The person buys with ``POST /sim/pay {"chat_id", "message_id"}`` (tgfake/world/paid_media.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import fields
from tgfake.botapi.common import caption_fields, caption_text, chat_id, post_message
from tgfake.botapi.fields import FieldError, required_json
from tgfake.botapi.keyboards import parse_send_markup
from tgfake.botapi.media import named_file, new_media
from tgfake.botapi.registry import bot_method
from tgfake.content import Media, media_json
from tgfake.errors import bad_request
from tgfake.params import Params, Upload, to_integer
from tgfake.wire import ATTACH
from tgfake.world.payments import PaidOffer

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_PAID_MEDIA = 10  # TDLib: "server-side limit"
MAX_BOT_PRICE = 1_000_000  # TDLib's limit for bots (people are held to paid_media_message_star_count_max)
PAID_KINDS = ("photo", "video", "live_photo")


def _file_ref(p: Params, value: str) -> Upload | str | None:
    """``get_input_file`` of an item's field: the ``attach://`` part, else the file id or URL, else None."""
    if value.startswith(ATTACH):
        return p.files.get(value[len(ATTACH) :])
    return value or None


def read_item(p: Params, raw: Any) -> tuple[str, Upload | str, Upload | str | None, dict[str, Any]]:
    """One InputPaidMedia: (type, its file, a live photo's still, the object); FieldError in Client.cpp's words."""
    if not isinstance(raw, dict):
        raise FieldError("expected an Object")
    media = _file_ref(p, fields.optional_string(raw, "media"))
    if media is None:
        raise FieldError("media not found")
    fields.optional_int(raw, "width")
    fields.optional_int(raw, "height")
    kind = fields.required_string(raw, "type")
    still: Upload | str | None = None
    if kind == "live_photo":
        still = _file_ref(p, fields.optional_string(raw, "photo"))
        if still is None:
            raise FieldError("photo not found")
    elif kind == "video":
        fields.optional_int(raw, "duration")
        fields.optional_bool(raw, "supports_streaming")
        fields.optional_string(raw, "cover")
        fields.optional_int(raw, "start_timestamp")
    elif kind != "photo":
        raise FieldError(f'type "{kind}" is unsupported')
    return kind, media, still, raw


def _maker(ctx: BotCall, p: Params, kind: str, ref: Upload | str, raw: dict[str, Any]) -> Callable[[], Media]:
    """The file's checks now (id of the same kind, size, a photo that is an image), its id minted when called."""
    upload, known = named_file(ctx, p, ref if isinstance(ref, Upload) else str(ref), kind)
    return new_media(ctx, kind, upload, known, raw)


def _item_json(kind: str, made: Media, still: Media | None) -> dict[str, Any]:
    """PaidMediaPhoto / PaidMediaVideo / the live photo (Client.cpp's JsonPaidMedia, JsonLivePhoto)."""
    if kind == "live_photo" and still is not None:
        video = media_json(made)["video"]
        live = {"photo": media_json(still)["photo"]}
        live |= {key: video[key] for key in ("duration", "width", "height", "mime_type") if key in video}
        live |= {key: video[key] for key in ("file_id", "file_unique_id", "file_size")}
        return {"type": "live_photo", "live_photo": live}
    return {"type": kind, **media_json(made)}


@bot_method("sendPaidMedia")
async def send_paid_media(ctx: BotCall, p: Params) -> Any:
    """Paid photos and videos (1-10, 1-1000000 Stars); the person sees previews until ``POST /sim/pay`` buys them."""
    star_count = max(0, min(to_integer(p.text("star_count")), 1_000_000_000))
    value = required_json(p, "media", errors.PAID_MEDIA_BAD_JSON)
    if not isinstance(value, list):
        raise bad_request(errors.PAID_MEDIA_NOT_ARRAY)
    try:
        items = [read_item(p, item) for item in value]
    except FieldError as exc:
        raise bad_request(errors.PAID_MEDIA_PROBLEM.format(problem=exc.message)) from None
    caption = caption_text(p)
    cid = chat_id(p)
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))
    chat = ctx.chat_for_send(cid)
    if not 0 < star_count <= MAX_BOT_PRICE:
        raise bad_request(errors.PAID_MEDIA_PRICE)
    makers = []
    for kind, ref, still, item in items:
        file_kind = "video" if kind == "live_photo" else kind
        make_still = _maker(ctx, p, "photo", still, item) if still is not None else None
        makers.append((kind, _maker(ctx, p, file_kind, ref, item), make_still))
    if not makers or len(makers) > MAX_PAID_MEDIA:
        raise bad_request(errors.PAID_MEDIA_COUNT)
    paid: list[dict[str, Any]] = []
    buyers: list[int] = []  # one list: the offer's and the chat view's (tgfake/content.py paid_media_view)

    def attach() -> dict[str, Any]:
        for kind, make, make_still in makers:
            paid.append(_item_json(kind, make(), make_still() if make_still is not None else None))
        shown = {"star_count": star_count, "paid_media": paid, "purchased_by": buyers}
        return {"media": Media("paid_media", None, shown)}

    sent = post_message(
        ctx,
        p,
        cid,
        keyboard,
        attach=attach,
        **caption_fields(ctx, caption),
        parse_mode=p.text("parse_mode"),
        caption_above=p.flag("show_caption_above_media"),
    )
    message_id = int(sent["message_id"])
    offer = PaidOffer(ctx.bot.id, chat.id, message_id, star_count, p.text("payload"), paid, buyers)
    ctx.world.payments.paid_media[(chat.id, message_id)] = offer
    return sent
