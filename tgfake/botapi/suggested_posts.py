"""approveSuggestedPost and declineSuggestedPost: a person's suggestion in a channel's direct messages
(``POST /sim/chats/{id}/suggest-post``), approved or declined by an administrator bot (rules:
tgfake/world/suggested.py).

Client.cpp's ``check_message(chat_id, message_id, ..., "suggested post")``: a chat the bot cannot see is ``chat not
found``, a message that is not there ``suggested post not found``; then TDLib's ``process_suggested_post``: not a
person's pending suggestion in a direct messages chat (or, approving, no ``can_post_messages`` in the channel) is
``message can't be used in the method``. ``send_date`` and ``comment`` are passed on as read; the server's limits on
them (30 days ahead, 128 characters) are not checked. A later date publishes the post when the stand's clock
reaches it (at the next call or clock move, or a timer on the wall clock).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_chat
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, StoredMessage
from tgfake.errors import bad_request
from tgfake.params import Params, to_integer
from tgfake.world import suggested

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


def suggestion(ctx: BotCall, p: Params) -> tuple[Chat, StoredMessage]:
    chat = ctx.chat(known_chat(ctx, p))
    msg = chat.live(to_integer(p.text("message_id"))) if chat is not None else None
    if chat is None or msg is None:
        raise bad_request(errors.SUGGESTED_POST_NOT_FOUND)
    return chat, msg


@bot_method("approveSuggestedPost")
async def approve_suggested_post(ctx: BotCall, p: Params) -> Any:
    """The post is published in the channel; ``suggested_post_approved`` in the direct messages."""
    chat, msg = suggestion(ctx, p)
    date = suggested.approve(ctx.telegram, ctx.bot, chat, msg, to_integer(p.text("send_date")))
    if date > ctx.unix_now():  # on the wall clock nobody may call then: a timer publishes it (a moved clock does too)
        asyncio.get_running_loop().call_later(date - ctx.now(), suggested.publish_due, ctx.telegram)
    return True


@bot_method("declineSuggestedPost")
async def decline_suggested_post(ctx: BotCall, p: Params) -> Any:
    """``suggested_post_declined`` with the ``comment`` in the direct messages."""
    chat, msg = suggestion(ctx, p)
    suggested.decline(ctx.telegram, chat, msg, p.text("comment"))
    return True
