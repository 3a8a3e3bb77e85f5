"""setUserEmojiStatus and getUserPersonalChatMessages: what a bot may do with a person's profile.

setUserEmojiStatus is ``process_set_user_emoji_status_query`` (``user_id``, the custom emoji id and expiry read with
``to_integer``, ``check_user``) and TDLib's ``UpdateUserEmojiStatusQuery``: without the person's leave (the Mini
App's ``requestEmojiStatusAccess``, played by ``POST /sim/emoji-status-access``) Telegram's server answers
``USER_PERMISSION_DENIED``, which TDLib words as a 403. getChat of the person's private chat then shows the
status. The stand does not check that the custom emoji exists.

getUserPersonalChatMessages is ``process_get_user_personal_chat_messages_query`` (``limit`` clamped to 0..20, then
``check_user``) and TDLib's ``get_personal_chat_history`` (``Limit must be positive``): the newest ``limit``
messages of the channel on the person's profile (``POST /sim/profile`` ``personal_chat``), newest first; none
for a person without one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_user
from tgfake.botapi.registry import bot_method
from tgfake.errors import TelegramError, bad_request
from tgfake.params import Params, to_integer

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


@bot_method("setUserEmojiStatus")
async def set_user_emoji_status(ctx: BotCall, p: Params) -> Any:
    """Sets (or with no emoji id clears) the status of a person who allowed it (``POST /sim/emoji-status-access``)."""
    emoji_id = to_integer(p.text("emoji_status_custom_emoji_id"))
    expiration = to_integer(p.text("emoji_status_expiration_date"))
    user_id = known_user(ctx, p)
    grants = ctx.world.grants
    if (ctx.bot.id, user_id) not in grants.emoji_status_access:
        raise TelegramError(403, errors.EMOJI_STATUS_FORBIDDEN)
    if emoji_id == 0:
        grants.emoji_statuses.pop(user_id, None)
    else:
        status: dict[str, Any] = {"custom_emoji_id": str(emoji_id)}
        if expiration:
            status["expiration_date"] = expiration
        grants.emoji_statuses[user_id] = status
    return True


@bot_method("getUserPersonalChatMessages")
async def get_user_personal_chat_messages(ctx: BotCall, p: Params) -> Any:
    """The newest messages of the person's personal chat, newest first (``limit`` must be 1..20)."""
    limit = max(0, min(to_integer(p.text("limit")), 20))
    user_id = known_user(ctx, p)
    if limit <= 0:
        raise bad_request(errors.LIMIT_NOT_POSITIVE)
    chat = ctx.world.chats.get(ctx.world.profiles.personal_chats.get(user_id, 0))
    if chat is None:
        return []
    newest = sorted((m for m in chat.messages.values() if not m.deleted), key=lambda m: -m.message_id)[:limit]
    return [ctx.message_json(chat, m) for m in newest]
