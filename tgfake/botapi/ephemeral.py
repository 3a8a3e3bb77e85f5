"""Ephemeral messages: the stand never has one, so editing or deleting one finds no such message.

A bot creates an ephemeral message with sendMessage's ``ephemeral_message_parameters`` (Bot API 10.3): a message
only ``receiver_user_id`` sees in a group. The stand's sendMessage does not model that parameter, so no ephemeral
message exists. The calls are read as telegram-bot-api reads its other methods (``receiver_user_id`` with
``get_user_id``, then ``check_chat``); then TDLib's ``ephemeral.*`` queries name the receiver (``Can't access the
user`` for anyone the stand does not know); then Telegram's server answers the message id it has no message for
with ``MESSAGE_ID_INVALID``. The telegram-bot-api version read (Client.cpp) predates these methods, so their server
side is the stand's reading of TDLib (``MessageQueryManager.cpp``), documented in docs/bot-api.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_chat
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, to_integer

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True


@bot_method("deleteEphemeralMessage")
@bot_method("editEphemeralMessageText")
@bot_method("editEphemeralMessageCaption")
@bot_method("editEphemeralMessageMedia")
@bot_method("editEphemeralMessageReplyMarkup")
async def no_ephemeral_message(ctx: BotCall, p: Params) -> Any:
    """No ephemeral message exists (sendMessage's ephemeral parameters are not modelled): ``MESSAGE_ID_INVALID``.

    The receiver and the chat are checked first, in the order the other methods read them.
    """
    receiver = to_integer(p.text("receiver_user_id"))
    if receiver <= 0:
        raise bad_request(errors.INVALID_ID.format(name="receiver_user_id"))
    if not p.text("chat_id"):
        raise bad_request(errors.CHAT_ID_EMPTY)
    known_chat(ctx, p)
    if receiver not in ctx.world.users and receiver not in ctx.telegram.bots:
        raise bad_request(errors.CANT_ACCESS_USER)
    raise bad_request(errors.MESSAGE_ID_INVALID)
