"""``POST /sim/pay``: the person pays an invoice (:func:`tgfake.world.checkout.pay`) or buys paid media.

A ``message_id`` naming a sendPaidMedia message buys it (:func:`tgfake.world.paid_media.buy`); anything else is an
invoice (the newest in the chat when no ``message_id`` is given).
"""

from __future__ import annotations

from typing import Annotated

from aiohttp import web
from pydantic import Field

from tgfake.action_models import TargetIn
from tgfake.models import WaitSeconds
from tgfake.sim import answers
from tgfake.sim.common import read_body, stand_of
from tgfake.sim.openapi import documented
from tgfake.wire import sim_json
from tgfake.world import checkout, paid_media

routes = web.RouteTableDef()


class PayIn(TargetIn):
    """Which invoice (``message_id`` in ``chat_id``, the newest one there, or a ``link``) and what the form holds.

    A ``message_id`` of a sendPaidMedia message buys that media instead (the form's fields do not apply).

    ``timeout`` is how long each of the bot's answers is waited for (Telegram's clients wait about 10 s).
    """

    link: str = ""
    name: str = ""
    phone_number: str = ""
    email: str = ""
    shipping_address: dict[str, str] = Field(default_factory=dict)
    shipping_option_id: str = ""
    tip: Annotated[int, Field(ge=0, lt=1 << 63)] = 0  # in the currency's smallest units, as td's int64
    timeout: WaitSeconds = 10.0


@routes.post("/sim/pay")
@documented(answers.Paid, body=PayIn)
async def pay(request: web.Request) -> web.Response:
    stand = stand_of(request)
    body = await read_body(request, PayIn)
    person = stand.person(body.user_id, body.username, body.first_name, name_from_username=False)
    bot = stand.find_bot(body.bot)
    if body.message_id and not body.link:
        chat = stand.chat_of(bot, body.chat_id or person.id)
        offer = paid_media.offer_in(stand, chat, body.message_id) if chat is not None else None
        if chat is not None and offer is not None:
            return sim_json(paid_media.buy(stand, person, chat, offer))
    chat, invoice = checkout.find_invoice(stand, bot, body.chat_id or person.id, body.message_id, body.link)
    order = checkout.Order(
        name=body.name,
        phone_number=body.phone_number,
        email=body.email,
        shipping_address=dict(body.shipping_address),
        shipping_option_id=body.shipping_option_id,
        tip=body.tip,
    )
    outcome = await checkout.pay(stand, bot, person, chat, invoice, order, body.timeout)
    return sim_json(outcome)
