"""forwardMessage(s) and copyMessage(s): a stored message's content sent again by the bot, with or without its origin.

The checks come in telegram-bot-api's order: the source chat and message (``check_message``: ``message to forward
not found``), then the target chat, then TDLib's ``get_forwarded_messages`` / ``can_forward_message``: service
messages never travel; a message sent with ``protect_content`` is not forwarded (a bot may still copy it); invoices,
paid media and a quiz whose right answer the bot does not know are not copied. The plural forms skip missing and
unforwardable messages (``forwardMessages`` of only such: ``messages can't be forwarded``), need ids in a strictly
increasing order, and keep an album's items that travel together in one new album.

A forward names where the message came from (``forward_origin``: the user, a ``hidden_user`` when the person hides
their account in forwards, the anonymous chat, or the channel post); a forward of a forward keeps the first origin.
A copy has no origin and may change the caption. Either way the new message is built by :func:`duplicate`, which
carries every content field over without naming any, and is delivered as a fresh send to the bots that see it.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.common import caption_fields, caption_text, chat_id, checked_chat, named_message, post_message
from tgfake.botapi.keyboards import parse_send_markup
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, StoredMessage, origin_of
from tgfake.content import Media
from tgfake.errors import bad_request
from tgfake.extras import ORIGIN as ORIGIN  # edits.py reads it from here too
from tgfake.params import Params, loads
from tgfake.world import polls

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_IDS = 100
INT32 = 2**31

NOT_COPIED_MEDIA = frozenset({"paid_media", "invoice", "giveaway", "giveaway_winners"})
# What a new message never inherits: its place in the chat, its state, and who reacted to it.
FRESH: dict[str, Any] = {
    "reply_to": None,
    "quote": None,
    "keyboard": None,
    "reply_markup": None,
    "edit_date": None,
    "deleted": False,
    "media_group_id": "",
    "thread_id": 0,
}


def duplicate(src: StoredMessage, **changes: Any) -> StoredMessage:
    """A new message with ``src``'s content: every field as it is (deep-copied, files shared), the FRESH ones reset.

    No content field is named here, so a new kind of content (polls, checklists...) travels without a change.
    """
    fresh = dataclasses.replace(src, **{**FRESH, "reactions": {}, **changes})
    for f in dataclasses.fields(fresh):
        if f.name != "sender":  # the account is shared; a poll's votes or a media's fields are not
            setattr(fresh, f.name, copy.deepcopy(getattr(fresh, f.name)))
    return fresh


def travelling(ctx: BotCall, src: StoredMessage, *, is_copy: bool, **changes: Any) -> StoredMessage:
    """:func:`duplicate` for a forward or a copy: a forwarded poll is the same poll (its votes show on both
    messages, as on Telegram); a copied one is a new poll without votes."""
    base = duplicate(src, **changes)
    if src.media is not None and src.media.kind == "poll":
        base.media = Media("poll", fields=polls.copied(ctx.telegram, src.media.fields)) if is_copy else src.media
    return base


def _with_origin(msg: StoredMessage, origin: dict[str, Any] | None) -> dict[str, Any]:
    """``msg``'s extra with the origin set (a forward) or dropped (a copy)."""
    extra = {k: v for k, v in msg.extra.items() if k != ORIGIN}
    if origin is not None:
        extra[ORIGIN] = origin
    return extra


def _poll(msg: StoredMessage) -> dict[str, Any] | None:
    return msg.media.fields if msg.media is not None and msg.media.kind == "poll" else None


def travels(ctx: BotCall, msg: StoredMessage, *, is_copy: bool) -> bool:
    """TDLib's ``can_forward_message`` (and ``can_forward_message_content``) for a bot."""
    if msg.service:  # a service message never travels; games and invoices are content, and do
        return False
    if not is_copy and msg.protected:
        return False
    if not is_copy:
        return True
    if msg.media is not None and msg.media.kind in NOT_COPIED_MEDIA:
        return False
    poll = _poll(msg)
    own = msg.sender is not None and msg.sender.id == ctx.bot.id
    return not (poll is not None and poll.get("type") == "quiz" and not own and not poll.get("is_closed"))


def source_chat(ctx: BotCall, p: Params) -> Chat:
    """``from_chat_id`` as ``check_chat`` reads it for reading."""
    return checked_chat(ctx, p.chat("from_chat_id"), write=False)


def source_message(ctx: BotCall, p: Params, what: str) -> tuple[Chat, StoredMessage]:
    chat = source_chat(ctx, p)
    return chat, named_message(chat, p, what)


def message_ids(p: Params) -> list[int]:
    """``get_message_ids``: at most 100 items, each a Number or a String holding a positive 32-bit integer.

    The schema precheck has refused an absent, unparsable or non-array value already.
    """
    items = loads(p.text("message_ids"))
    if not items:
        raise bad_request(errors.MESSAGE_IDS_EMPTY)
    if len(items) > MAX_IDS:
        raise bad_request(errors.MESSAGE_IDS_TOO_MANY)
    out = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, float, str)):
            raise bad_request(errors.MESSAGE_ID_NOT_NUMBER)
        text = item if isinstance(item, str) else str(item)
        body = text[1:] if text[:1] == "-" else text
        if not (body.isascii() and body.isdigit()) or not -INT32 <= int(text) < INT32:
            raise bad_request(errors.MESSAGE_ID_UNPARSABLE)
        if int(text) <= 0:
            raise bad_request(errors.MESSAGE_ID_NOT_POSITIVE)
        out.append(int(text))
    return out


def _new_caption(ctx: BotCall, p: Params, src: StoredMessage, *, remove: bool = False) -> dict[str, Any]:
    """A copy's caption fields: replaced when ``caption`` is given (even empty), dropped with ``remove_caption``."""
    if src.media is None or not src.media.captioned:
        return {}
    if remove:
        return {"caption": "", "entities": [], "caption_above": False}
    if "caption" not in p.values:
        return {}
    return {
        **caption_fields(ctx, caption_text(p)),
        "parse_mode": p.text("parse_mode"),
        "caption_above": p.flag("show_caption_above_media"),
    }


@bot_method("forwardMessage")
async def forward_message(ctx: BotCall, p: Params) -> Any:
    """The message as it is, under the bot's name, with ``forward_origin``; returns the new Message."""
    chat, src = source_message(ctx, p, "message to forward")
    target = chat_id(p)
    ctx.chat_for_send(target)
    if not travels(ctx, src, is_copy=False):
        raise bad_request(errors.CANT_FORWARD)
    base = travelling(ctx, src, is_copy=False, extra=_with_origin(src, origin_of(chat, src)))
    return post_message(ctx, p, target, None, base=base)


@bot_method("copyMessage")
async def copy_message(ctx: BotCall, p: Params) -> Any:
    """The content without its origin, caption replaced if asked, with the bot's markup and reply; a MessageId."""
    _chat, src = source_message(ctx, p, "message to copy")
    target = chat_id(p)
    changes = _new_caption(ctx, p, src)
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(target))
    ctx.chat_for_send(target)
    if not travels(ctx, src, is_copy=True):
        raise bad_request(errors.CANT_COPY)
    base = travelling(ctx, src, is_copy=True, extra=_with_origin(src, None), **changes)
    sent = post_message(ctx, p, target, keyboard, base=base)
    return {"message_id": sent["message_id"]}


async def _many(ctx: BotCall, p: Params, *, is_copy: bool) -> Any:
    """forwardMessages / copyMessages: the target first, then the found messages that may travel, in order."""
    ids = message_ids(p)
    target = chat_id(p)
    ctx.chat_for_send(target)
    chat = source_chat(ctx, p)
    found = [m for m in (chat.live(i) for i in ids) if m is not None]
    if not found:
        raise bad_request(errors.NO_MESSAGES_TO_FORWARD)
    if any(b.message_id <= a.message_id for a, b in itertools.pairwise(found)):
        raise bad_request(errors.MESSAGE_IDS_NOT_INCREASING)
    going = [m for m in found if travels(ctx, m, is_copy=is_copy)]
    if not going:
        raise bad_request(errors.MESSAGES_CANT_FORWARD)
    groups: dict[str, int] = {}
    for m in going:
        if m.media_group_id:
            groups[m.media_group_id] = groups.get(m.media_group_id, 0) + 1
    albums: dict[str, str] = {}
    out = []
    for m in going:
        extra = _with_origin(m, None if is_copy else origin_of(chat, m))
        changes = _new_caption(ctx, p, m, remove=p.flag("remove_caption")) if is_copy else {}
        base = travelling(ctx, m, is_copy=is_copy, extra=extra, **changes)
        target_chat = ctx.chat_for_send(target)
        if groups.get(m.media_group_id, 0) > 1:
            group = albums.setdefault(m.media_group_id, f"{abs(target_chat.id)}{target_chat.next_message_id:08d}")
            base.media_group_id = group
        sent = post_message(ctx, p, target, None, base=base)
        out.append({"message_id": sent["message_id"]})
    return out


@bot_method("forwardMessages")
async def forward_messages(ctx: BotCall, p: Params) -> Any:
    """Up to 100 messages forwarded at once; missing and unforwardable ones are skipped. Returns MessageId[]."""
    return await _many(ctx, p, is_copy=False)


@bot_method("copyMessages")
async def copy_messages(ctx: BotCall, p: Params) -> Any:
    """Up to 100 messages copied at once (``remove_caption`` drops the captions). Returns MessageId[]."""
    return await _many(ctx, p, is_copy=True)
