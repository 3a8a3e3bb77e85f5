"""giftPremiumSubscription: the bot pays Telegram Premium for a person out of its own Star balance.

Read as telegram-bot-api's ``process_gift_premium_subscription_query`` reads it (``user_id``, ``star_count`` with
``to_integer``, ``month_count`` clamped to 0..1000, the gift ``text`` with ``text_parse_mode`` / ``text_entities``,
then ``check_user``), then TDLib's ``gift_premium_with_stars`` (``check_payment_amount``) and its
``GetPremiumGiftPaymentFormQuery``: the form's one price must equal ``star_count``. The prices are the Bot API's
(1000 Stars for 3 months, 1500 for 6, 2500 for 12); a month count with no price has no form the stars could match,
so it gets the same ``wrong Premium subscription price specified``. The Stars leave the bot's balance (Telegram's
``BALANCE_TOO_LOW`` when they are not there; Stars come in through paid invoices and paid media), a
``premium_purchase`` Star transaction is recorded and the person shows ``is_premium``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import known_user
from tgfake.botapi.common import parse_caption
from tgfake.botapi.payments import MAX_AMOUNT
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, to_integer

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

PREMIUM_PRICES = {3: 1000, 6: 1500, 12: 2500}  # months -> Stars (the Bot API's giftPremiumSubscription)


@bot_method("giftPremiumSubscription")
async def gift_premium_subscription(ctx: BotCall, p: Params) -> Any:
    """Stars from the bot's balance (1000 / 1500 / 2500 for 3 / 6 / 12 months); the person becomes Premium."""
    star_count = to_integer(p.text("star_count"))
    month_count = max(0, min(to_integer(p.text("month_count")), 1000))
    parse_caption(p.text("text"), p.text("text_parse_mode"), p.get("text_entities"))
    user_id = known_user(ctx, p)
    if star_count <= 0 or star_count > MAX_AMOUNT:
        raise bad_request(errors.AMOUNT_INVALID)
    if PREMIUM_PRICES.get(month_count) != star_count:
        raise bad_request(errors.PREMIUM_PRICE_WRONG)
    payments = ctx.world.payments
    if payments.balance(ctx.bot.id) < star_count:
        raise bad_request(errors.BALANCE_TOO_LOW)
    person = ctx.world.users.get(user_id)
    partner: dict[str, Any] = {"type": "user", "transaction_type": "premium_purchase"}
    partner["user"] = person.json() if person is not None else ctx.telegram.bots[user_id].user.json()
    partner["premium_subscription_duration"] = month_count
    entry = {"id": payments.transaction_id(), "date": ctx.unix_now(), "receiver": partner, "amount": star_count}
    payments.record(ctx.bot.id, -star_count, entry)
    if person is not None:
        person.is_premium = True
    return True
