"""The person's side of issue 25's channel families: boosting a chat, making a bot a verifier, creating a managed
bot, assigning a chat's join requests to a bot, summoning a bot as a guest, and a subscription's change.

Rules in :mod:`tgfake.world.channels`; the bot's side in ``tgfake/botapi/`` (boosts, verification, managed_bots,
join_queries, guest; payments for subscriptions).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Literal

from aiohttp import web
from pydantic import Field

from tgfake.chats import Chat
from tgfake.errors import SimError
from tgfake.models import BotRef, ChatId, Ref, SimBody, Username
from tgfake.params import parse_int
from tgfake.sim import answers
from tgfake.sim.common import bot_of, read_body, stand_of
from tgfake.sim.openapi import BOT, CHAT_ID, documented
from tgfake.wire import sim_json
from tgfake.world import channels, groups, suggested
from tgfake.world.channel_state import BOOSTS_PER_PERSON

routes = web.RouteTableDef()


class BoostIn(SimBody):
    """Who boosts (``user``: an id or a name) and with how many of their four boosts."""

    user: Ref = "alice"
    count: Annotated[int, Field(ge=1, le=BOOSTS_PER_PERSON)] = 1


class VerifierIn(SimBody):
    """The bot (token, id or username; the default bot) an organisation makes its verifier, or stops."""

    bot: BotRef = ""
    enabled: bool = True


class ManagedBotIn(SimBody):
    """The person (``user``) creates a bot through ``bot``'s ``request_managed_bot`` button."""

    bot: BotRef = ""
    user: Ref = "alice"
    username: Username = ""
    first_name: Annotated[str, Field(max_length=64)] = ""


class JoinRequestBotIn(SimBody):
    """The bot the chat hands its join requests to (``enabled`` false takes them back)."""

    bot: BotRef = ""
    enabled: bool = True


class GuestIn(SimBody):
    """The person (``user``) writes ``text`` in ``chat_id``, a chat ``bot`` is not in, mentioning the bot."""

    bot: BotRef = ""
    chat_id: ChatId
    user: Ref = "alice"
    text: Annotated[str, Field(min_length=1, max_length=4096)]


class PriceIn(SimBody):
    """A suggested post's price: ``XTR`` (Stars, 5..100000) or ``TON`` (nanograms, 10^7..10^13)."""

    currency: Literal["XTR", "TON"]
    amount: Annotated[int, Field(ge=1)]


class SuggestIn(SimBody):
    """The person (``user``) suggests ``text`` as a post of the channel, with a ``price`` and a ``send_date`` if
    they offer them."""

    user: Ref = "alice"
    text: Annotated[str, Field(min_length=1, max_length=4096)]
    price: PriceIn | None = None
    send_date: Annotated[int, Field(ge=0)] = 0


class EphemeralCommandIn(SimBody):
    """The person (``user``) sends ``text``, a command of ``bot`` marked ``is_ephemeral``, in group ``chat_id``."""

    bot: BotRef = ""
    chat_id: ChatId
    user: Ref = "alice"
    text: Annotated[str, Field(min_length=2, max_length=4096)]


class SubscriptionIn(SimBody):
    """The person's subscription (the charge of its first payment) changes state: ``canceled`` by the person,
    ``active`` again, or ``failed`` (a renewal's payment)."""

    bot: BotRef = ""
    user: Ref = "alice"
    telegram_payment_charge_id: Annotated[str, Field(min_length=1, max_length=256)]
    state: Literal["canceled", "active", "failed"]


def _chat(request: web.Request) -> Chat:
    raw = request.match_info["id"]
    cid = parse_int(raw) if raw == raw.strip() else None
    if cid is None:
        raise SimError(400, "chat id must be an integer")
    return groups.chat_ref(stand_of(request), cid)


@routes.post("/sim/chats/{id}/boost")
@documented(answers.Boosted, body=BoostIn, params=(CHAT_ID,), errors=(404, 409))
async def boost(request: web.Request) -> web.Response:
    """A person boosts a channel or supergroup: each boost is a ``chat_boost`` for its administrator bots."""
    stand = stand_of(request)
    body = await read_body(request, BoostIn)
    chat = _chat(request)
    made = channels.boost(stand, chat, groups.person_ref(stand, body.user), body.count)
    return sim_json({"chat_id": chat.id, "boosts": [b.json() for b in made]})


@routes.post("/sim/chats/{id}/unboost")
@documented(answers.Boosted, body=BoostIn, params=(CHAT_ID,), errors=(404, 409))
async def unboost(request: web.Request) -> web.Response:
    """The person takes their boosts back: a ``removed_chat_boost`` for each."""
    stand = stand_of(request)
    body = await read_body(request, BoostIn)
    chat = _chat(request)
    gone = channels.unboost(stand, chat, groups.person_ref(stand, body.user))
    return sim_json({"chat_id": chat.id, "boosts": [b.json() for b in gone]})


@routes.post("/sim/verifiers")
@documented(answers.Verifier, body=VerifierIn)
async def verifier(request: web.Request) -> web.Response:
    """An organisation makes the bot its verifier (verifyUser, verifyChat and their removal work), or stops."""
    stand = stand_of(request)
    body = await read_body(request, VerifierIn)
    bot = stand.find_bot(body.bot)
    channels.set_verifier(stand, bot, body.enabled)
    return sim_json(channels.verifications(stand, bot))


@routes.get("/sim/verifiers")
@documented(answers.Verifier, params=(BOT,))
async def verifications(request: web.Request) -> web.Response:
    """Whether the bot is a verifier, and the people and chats it verified with their descriptions."""
    return sim_json(channels.verifications(stand_of(request), bot_of(request)))


@routes.post("/sim/managed-bots")
@documented(answers.BotCreated, body=ManagedBotIn, errors=(409,))
async def managed_bot(request: web.Request) -> web.Response:
    """The person creates a bot that ``bot`` manages: ``managed_bot`` and ``managed_bot_created`` for ``bot``."""
    stand = stand_of(request)
    body = await read_body(request, ManagedBotIn)
    manager = stand.find_bot(body.bot)
    owner = groups.person_ref(stand, body.user)
    created = channels.create_managed_bot(stand, manager, owner, body.username, body.first_name)
    return sim_json({"bot": created.get_me(), "token": created.token, "manager": manager.username})


@routes.post("/sim/chats/{id}/join-request-bot")
@documented(answers.JoinRequestBot, body=JoinRequestBotIn, params=(CHAT_ID,), errors=(404, 409))
async def join_request_bot(request: web.Request) -> web.Response:
    """The chat assigns its join requests to the bot (an administrator that may invite users): each request it
    gets carries a ``query_id`` for answerChatJoinRequestQuery."""
    stand = stand_of(request)
    body = await read_body(request, JoinRequestBotIn)
    chat = _chat(request)
    bot = stand.find_bot(body.bot)
    channels.assign_join_requests(stand, chat, bot if body.enabled else None)
    queries = [asdict(q) for q in stand.world.channels.join_queries.values() if q.chat_id == chat.id]
    return sim_json({"chat_id": chat.id, "bot": bot.username if body.enabled else None, "queries": queries})


@routes.post("/sim/guest-message")
@documented(answers.GuestSent, body=GuestIn, errors=(403, 404, 409))
async def guest_message(request: web.Request) -> web.Response:
    """The person mentions the bot in a chat it is not in: the bot gets ``guest_message`` (with
    ``guest_query_id``) and answers with answerGuestQuery."""
    stand = stand_of(request)
    body = await read_body(request, GuestIn)
    chat = groups.chat_ref(stand, body.chat_id)
    bot = stand.find_bot(body.bot)
    msg, update_id, query_id = channels.summon(stand, bot, chat, groups.person_ref(stand, body.user), body.text)
    return sim_json({"message_id": msg.message_id, "update_id": update_id, "guest_query_id": query_id})


@routes.post("/sim/subscription")
@documented(answers.SubscriptionChanged, body=SubscriptionIn, errors=(404, 409))
async def subscription(request: web.Request) -> web.Response:
    """The person's subscription to the bot changes state: the bot gets ``subscription``."""
    stand = stand_of(request)
    body = await read_body(request, SubscriptionIn)
    bot = stand.find_bot(body.bot)
    person = groups.person_ref(stand, body.user)
    update_id = channels.change_subscription(stand, bot, person, body.telegram_payment_charge_id, body.state)
    return sim_json({"update_id": update_id, "state": body.state})


@routes.post("/sim/chats/{id}/suggest-post")
@documented(answers.Suggested, body=SuggestIn, params=(CHAT_ID,), errors=(404,))
async def suggest_post(request: web.Request) -> web.Response:
    """A person suggests a post in the channel's direct messages (made on first use): the channel's administrator
    bots get the suggestion, which approveSuggestedPost publishes or declineSuggestedPost turns down."""
    stand = stand_of(request)
    body = await read_body(request, SuggestIn)
    channel = _chat(request)
    person = groups.person_ref(stand, body.user)
    price = body.price.model_dump() if body.price is not None else None
    msg = suggested.suggest(stand, channel, person, body.text, price, body.send_date)
    chat_id = stand.world.channels.direct_messages[channel.id]
    return sim_json({"chat_id": chat_id, "message_id": msg.message_id})


@routes.post("/sim/ephemeral-command")
@documented(answers.EphemeralSent, body=EphemeralCommandIn, errors=(404, 409))
async def ephemeral_command(request: web.Request) -> web.Response:
    """The person sends the bot's ephemeral command in a group: only the bot gets it, as an ephemeral message."""
    stand = stand_of(request)
    body = await read_body(request, EphemeralCommandIn)
    chat = groups.chat_ref(stand, body.chat_id)
    bot = stand.find_bot(body.bot)
    msg, update_id = channels.ephemeral_command(stand, bot, chat, groups.person_ref(stand, body.user), body.text)
    return sim_json({"ephemeral_message_id": msg.extra["ephemeral_message_id"], "update_id": update_id})
