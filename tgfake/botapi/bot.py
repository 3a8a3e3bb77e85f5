"""The bot itself and its updates: getMe, getUpdates, answerCallbackQuery (settings: :mod:`tgfake.botapi.settings`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.registry import bot_method
from tgfake.chats import CallbackAnswer
from tgfake.errors import TelegramError, bad_request
from tgfake.params import Params, loads, parse_int

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


@bot_method("getMe")
async def get_me(ctx: BotCall, p: Params) -> Any:
    return ctx.bot.get_me()


@bot_method("getUpdates")
async def get_updates(ctx: BotCall, p: Params) -> Any:
    """Long polling: refused while a webhook is set, then ``allowed_updates``; the offset confirms at the start."""
    if ctx.bot.webhook.active:
        raise TelegramError(409, errors.CONFLICT_WEBHOOK)
    read_allowed_updates(ctx, p)
    timeout = parse_int(p.text("timeout")) or 0
    stand = ctx.telegram
    return await ctx.bot.get_updates(
        p.int_or_zero("offset"),
        p.int_or_zero("limit"),
        max(timeout, 0),
        poll_max=stand.options.poll_max,
        closing=stand.is_closing,
        on_hold=stand.calls_signal,
    )


def read_allowed_updates(ctx: BotCall, p: Params) -> None:
    """``allowed_updates`` (getUpdates, setWebhook): absent, blank or ``null`` keeps the subscription."""
    raw = p.get("allowed_updates")
    if raw is not None and raw.strip() not in ("", "null"):
        try:
            kinds = loads(raw)
        except ValueError:
            kinds = None
        if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
            raise bad_request(errors.ALLOWED_UPDATES_BAD)
        ctx.bot.set_allowed_updates(kinds)


@bot_method("answerCallbackQuery")
async def answer_callback_query(ctx: BotCall, p: Params) -> Any:
    """Each query is answered once; the id is then forgotten (as are ids minted before a reset)."""
    query_id = p.text("callback_query_id")
    if not query_id:
        raise bad_request(errors.CALLBACK_ID_EMPTY)
    cid = ctx.bot.callback_queries.pop(query_id, None)
    if cid is None:
        raise bad_request(errors.QUERY_TOO_OLD)
    chat = ctx.chat(cid)
    if chat is not None:
        chat.callbacks.append(CallbackAnswer(query_id, p.text("text"), p.flag("show_alert"), p.text("url")))
    return True
