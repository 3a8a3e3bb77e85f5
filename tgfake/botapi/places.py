"""Content without a file: sendLocation (static or live), sendVenue, sendContact, sendDice.

Coordinates are read as telegram-bot-api's ``get_location`` reads them (trimmed, then as numbers; the empty-field
refusals are prechecks), then checked with TDLib's rules (``process_input_message_location``): a point off the map,
a live period other than 0, 60..86400 or 0x7FFFFFFF, a heading outside 1..360. A die's value is a pure function
of the chat, the message id and the emoji, so a replayed test rolls the same numbers.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from tgfake.botapi.common import chat_id, post_message, target_chat
from tgfake.botapi.keyboards import parse_send_markup
from tgfake.botapi.registry import bot_method
from tgfake.content import Media
from tgfake.errors import bad_request
from tgfake.params import Params, parse_int

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

INVALID_LOCATION = "Bad Request: invalid location specified"
INVALID_LIVE_LOCATION = "Bad Request: invalid live location specified"
WRONG_PERIOD = "Bad Request: wrong live location period specified"
WRONG_HEADING = "Bad Request: wrong live location heading specified"
DICE_EMOJI_INVALID = "Bad Request: DICE_EMOJI_INVALID"  # the MTProto error for an emoji with no die

FOREVER = 0x7FFFFFFF
DICE = {"🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "🎰": 64}
"""Each die's emoji and its highest value (values start at 1)."""


def _number(text: str) -> float:
    """``td::to_double``: garbage reads as 0."""
    try:
        value = float(text.strip())
    except ValueError:
        return 0.0
    return value if value == value and abs(value) != float("inf") else 0.0


def location(p: Params, *, live: bool) -> dict[str, Any]:
    """The Location object of a send (or an edit of a live location), checked as TDLib checks it."""
    lat, lon = _number(p.text("latitude")), _number(p.text("longitude"))
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise bad_request(INVALID_LIVE_LOCATION if live else INVALID_LOCATION)
    out: dict[str, Any] = {"latitude": lat, "longitude": lon}
    accuracy = min(max(_number(p.text("horizontal_accuracy")), 0.0), 1500.0)
    if accuracy:
        out["horizontal_accuracy"] = accuracy
    return out


def _send(ctx: BotCall, p: Params, media: Media) -> Any:
    cid = chat_id(p)
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))
    return post_message(ctx, p, cid, keyboard, attach=lambda: {"media": media})


@bot_method("sendLocation")
async def send_location(ctx: BotCall, p: Params) -> Any:
    """A point; with ``live_period`` (60..86400 s, or 0x7FFFFFFF for ever) a live location with heading."""
    period = parse_int(p.text("live_period")) or 0
    if period and period != FOREVER and not 60 <= period <= 86400:
        raise bad_request(WRONG_PERIOD)
    heading = parse_int(p.text("heading")) or 0
    if heading and not 1 <= heading <= 360:
        raise bad_request(WRONG_HEADING)
    fields = location(p, live=bool(period))
    if period:
        fields["live_period"] = period
        if heading:
            fields["heading"] = heading
        radius = parse_int(p.text("proximity_alert_radius")) or 0
        if radius > 0:
            fields["proximity_alert_radius"] = radius
    return _send(ctx, p, Media("location", fields=fields))


@bot_method("sendVenue")
async def send_venue(ctx: BotCall, p: Params) -> Any:
    """A place: its location, title, address and the Foursquare or Google Places id and type if given."""
    fields: dict[str, Any] = {"location": location(p, live=False), "title": p.text("title")}
    fields["address"] = p.text("address")
    for key in ("foursquare_id", "foursquare_type", "google_place_id", "google_place_type"):
        if p.text(key):
            fields[key] = p.text(key)
    return _send(ctx, p, Media("venue", fields=fields))


@bot_method("sendContact")
async def send_contact(ctx: BotCall, p: Params) -> Any:
    """A phone contact: number and first name (both required), last name and vCard if given."""
    fields = {"phone_number": p.text("phone_number"), "first_name": p.text("first_name")}
    for key in ("last_name", "vcard"):
        if p.text(key):
            fields[key] = p.text(key)
    return _send(ctx, p, Media("contact", fields=fields))


def roll(chat: int, message_id: int, emoji: str) -> int:
    """The die's value: 1..6 (🎲🎯🎳), 1..5 (🏀⚽), 1..64 (🎰), fixed by chat, message and emoji."""
    digest = hashlib.sha256(f"{chat}:{message_id}:{emoji}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % DICE[emoji] + 1


@bot_method("sendDice")
async def send_dice(ctx: BotCall, p: Params) -> Any:
    """A die (🎲 when no ``emoji``); its value is deterministic (see :func:`roll`)."""
    emoji = p.text("emoji") or "🎲"
    if emoji not in DICE:
        raise bad_request(DICE_EMOJI_INVALID)
    cid = chat_id(p)
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))
    chat = target_chat(ctx, p, cid)
    value = roll(chat.id, chat.next_message_id, emoji)
    return post_message(
        ctx, p, cid, keyboard, attach=lambda: {"media": Media("dice", fields={"emoji": emoji, "value": value})}
    )
