"""The person buys paid media: Stars to the bot (or the channel), ``purchased_paid_media``, the media unlocked.

What Telegram does when a person pays for a sendPaidMedia message: no pre-checkout query (the price is the
message's); outside channels the Stars go to the bot, which sees a Star transaction with
``transaction_type: paid_media_payment`` (the media and the payload) and, when the payload is non-empty, a
``purchased_paid_media`` update (Client.cpp's JsonPaidMediaPurchased; a default update kind, not an opt-in one). In
a channel the Stars go to the channel's balance, so the bot gets neither. No transport types here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.errors import SimError
from tgfake.world.payments import PaidOffer

if TYPE_CHECKING:
    from tgfake.chats import Chat
    from tgfake.world.people import User
    from tgfake.world.telegram import Telegram


def offer_in(stand: Telegram, chat: Chat, message_id: int) -> PaidOffer | None:
    """The paid media offered by message ``message_id`` of ``chat``, if that message is one."""
    if chat.live(message_id) is None:
        return None
    return stand.world.payments.paid_media.get((chat.id, message_id))


def buy(stand: Telegram, person: User, chat: Chat, offer: PaidOffer) -> dict[str, Any]:
    """The purchase, once per person: the outcome shows the media as the person now sees it."""
    if person.id in offer.buyers:
        raise SimError(409, f"user {person.id} already bought message {offer.message_id}")
    if chat.type != "private" and not chat.present(person.id):
        raise SimError(409, f"user {person.id} is not in chat {chat.id}")
    payments = stand.world.payments
    offer.buyers.append(person.id)
    transaction_id = payments.transaction_id()
    if chat.type != "channel":
        bot = stand.bots[offer.bot_id]
        partner: dict[str, Any] = {"type": "user", "transaction_type": "paid_media_payment", "user": person.json()}
        partner["paid_media"] = offer.paid_media
        if offer.payload:
            partner["paid_media_payload"] = offer.payload
        entry = {"id": transaction_id, "date": stand.unix_now(), "source": partner, "amount": offer.star_count}
        payments.record(bot.id, offer.star_count, entry)
        if offer.payload:
            bot.push("purchased_paid_media", {"from": person.json(), "paid_media_payload": offer.payload})
    return {
        "status": "paid",
        "star_count": offer.star_count,
        "transaction_id": transaction_id,
        "paid_media": offer.paid_media,
    }
