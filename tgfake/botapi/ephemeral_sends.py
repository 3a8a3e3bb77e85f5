"""A send's ephemeral form (Bot API 10.3): with ``ephemeral_message_parameters`` (or the deprecated top-level
``receiver_user_id``) sendMessage and the other sends that take it make a message only its receiver sees.

The telegram-bot-api source read (Client.cpp of May 2026) predates ephemeral messages, so this is the stand's
reading of TDLib (``sendEphemeralMessage``: the chat, then ``get_input_user`` of the receiver) and of Client.cpp's
other JSON parameters for the words: ``can't parse ephemeral message parameters JSON object``, ``object expected as
ephemeral message parameters``, then ``invalid receiver_user_id specified`` as ``get_user_id`` words it. The message
is answered with ``message_id`` 0, ``receiver_user`` and ``ephemeral_message_id`` (numbered per chat); no bot gets an
update of it, and the chat's view lists it apart (``ephemeral``), as only its receiver sees it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.chats import Chat, StoredMessage, message_json
from tgfake.errors import bad_request
from tgfake.markup import Keyboard, ReplyMarkup
from tgfake.params import Params, to_integer
from tgfake.world.channel_state import Ephemeral

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

PARAMETERS_BAD = "Bad Request: can't parse ephemeral message parameters JSON object"
PARAMETERS_NOT_OBJECT = "Bad Request: object expected as ephemeral message parameters"


def requested(p: Params) -> int | None:
    """The receiver's id a send names (``ephemeral_message_parameters`` first, then ``receiver_user_id``), or None
    for an ordinary send."""
    raw = p.get("ephemeral_message_parameters")
    if raw:
        try:
            value = json.loads(raw)
        except ValueError:
            raise bad_request(PARAMETERS_BAD) from None
        if not isinstance(value, dict):
            raise bad_request(PARAMETERS_NOT_OBJECT)
        receiver = to_integer(str(value.get("receiver_user_id", "")))
    elif p.text("receiver_user_id"):
        receiver = to_integer(p.text("receiver_user_id"))
    else:
        return None
    if receiver <= 0:
        raise bad_request(errors.INVALID_ID.format(name="receiver_user_id"))
    return receiver


def post(
    ctx: BotCall,
    chat: Chat,
    receiver_id: int,
    keyboard: Keyboard | ReplyMarkup | None,
    base: StoredMessage | None,
    fields: dict[str, Any],
) -> dict[str, Any]:
    """The ephemeral message, kept for its receiver and answered; a person the stand does not know is TDLib's
    ``can't access the user``."""
    receiver = ctx.world.users.get(receiver_id)
    if receiver is None:
        raise bad_request(errors.CANT_ACCESS_USER)
    st = ctx.world.channels
    number = st.next_ephemeral(chat.id)
    own: dict[str, Any] = {
        "message_id": 0,
        "date": ctx.unix_now(),
        "sender": ctx.bot.user,
        "keyboard": keyboard if isinstance(keyboard, list) else None,
        **fields,
    }
    msg = StoredMessage(**own) if base is None else replace(base, **own)
    msg.extra = {**msg.extra, "receiver_user": receiver.json(), "ephemeral_message_id": number}
    st.ephemeral[(chat.id, number)] = Ephemeral(ctx.bot.id, chat.id, receiver_id, number, msg)
    return message_json(chat, msg)
