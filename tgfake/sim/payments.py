"""``POST /sim/pay``: the person pays an invoice (the flow is :func:`tgfake.world.checkout.pay`)."""

from __future__ import annotations

from aiohttp import web
from pydantic import Field

from tgfake.models import SimBody
from tgfake.sim import answers
from tgfake.sim.common import read_body, stand_of
from tgfake.sim.openapi import documented
from tgfake.wire import sim_json
from tgfake.world import checkout

routes = web.RouteTableDef()


class PayIn(SimBody):
    """Which invoice (``message_id`` in ``chat_id``, the newest one there, or a ``link``) and what the form holds.

    ``timeout`` is how long each of the bot's answers is waited for (Telegram's clients wait about 10 s).
    """

    bot: str | int = ""
    user_id: int = 0
    username: str = ""
    first_name: str = ""
    chat_id: int = 0
    message_id: int = 0
    link: str = ""
    name: str = ""
    phone_number: str = ""
    email: str = ""
    shipping_address: dict[str, str] = Field(default_factory=dict)
    shipping_option_id: str = ""
    tip: int = 0
    timeout: float = 10.0


@routes.post("/sim/pay")
@documented(answers.Paid, body=PayIn)
async def pay(request: web.Request) -> web.Response:
    stand = stand_of(request)
    body = await read_body(request, PayIn)
    person = stand.person(body.user_id, body.username, body.first_name, name_from_username=False)
    bot = stand.find_bot(body.bot) if body.bot else stand.default_bot
    chat, invoice = checkout.find_invoice(stand, bot, body.chat_id or person.id, body.message_id, body.link)
    order = checkout.Order(
        name=body.name,
        phone_number=body.phone_number,
        email=body.email,
        shipping_address=dict(body.shipping_address),
        shipping_option_id=body.shipping_option_id,
        tip=body.tip,
    )
    outcome = await checkout.pay(stand, bot, person, chat, invoice, order, max(body.timeout, 0.0))
    return sim_json(outcome)
