"""``/sim/business/...``: a person's business account, the person's side of tgfake/world/business.py.

The person connects a bot with rights (again: new rights), or disconnects it; each sends the bot
``business_connection``. Their customers write, edit and delete in the business chats (``business_message``,
``edited_business_message``, ``deleted_business_messages``), and the owner may answer by hand. ``GET
/sim/business/account`` shows what the bot changed; ``POST /sim/business/stars`` sets the account's Stars.
"""

from __future__ import annotations

from typing import Annotated

from aiohttp import web
from pydantic import Field

from tgfake.errors import SimError
from tgfake.models import MAX_TEXT, BotRef, MessageId, Ref, SimBody
from tgfake.sim import answers
from tgfake.sim.answers import Answer, JSONObject, Ok
from tgfake.sim.common import bot_of, query_int, read_body, stand_of
from tgfake.sim.openapi import BOT, documented, query
from tgfake.sim.page_views import chat_item, page_message, title_of
from tgfake.wire import sim_json
from tgfake.world import business, checklists, gifts
from tgfake.world.business_state import Connection
from tgfake.world.groups import person_ref
from tgfake.world.people import User

routes = web.RouteTableDef()

Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]


class ConnectIn(SimBody):
    """The person (``user``: a name or an id) connects ``bot`` (none: the stand's default bot) to their business
    account with ``rights`` (the BusinessBotRights names, each true or false; none given: none granted)."""

    user: Ref = "alice"
    bot: BotRef = ""
    rights: dict[str, bool] = Field(default_factory=dict)


class DisconnectIn(SimBody):
    user: Ref = "alice"
    bot: BotRef = ""


class CustomerIn(SimBody):
    """A customer (``customer``) of the business account of ``owner`` connected to ``bot``."""

    owner: Ref = "alice"
    customer: Ref = "bob"
    bot: BotRef = ""


class BusinessMessageIn(CustomerIn):
    """The customer writes ``text`` to the owner (``by_owner``: the owner answers the customer by hand)."""

    text: Text
    reply_to_message_id: MessageId = 0
    by_owner: bool = False


class BusinessEditIn(CustomerIn):
    message_id: MessageId
    text: Text


class BusinessDeleteIn(CustomerIn):
    message_ids: Annotated[list[MessageId], Field(min_length=1, max_length=100)]


class TaskIn(SimBody):
    id: Annotated[int, Field(ge=1, lt=1 << 31)]
    text: Annotated[str, Field(min_length=1, max_length=100)]


class ChecklistMarkIn(CustomerIn):
    """The customer (``by_owner``: the owner) marks tasks of the checklist ``message_id`` done and not done."""

    message_id: MessageId
    done: list[Annotated[int, Field(ge=1, lt=1 << 31)]] = Field(default_factory=list)
    not_done: list[Annotated[int, Field(ge=1, lt=1 << 31)]] = Field(default_factory=list)
    by_owner: bool = False


class ChecklistAddIn(CustomerIn):
    """The customer (``by_owner``: the owner) adds tasks to the checklist ``message_id``."""

    message_id: MessageId
    tasks: Annotated[list[TaskIn], Field(min_length=1, max_length=30)]
    by_owner: bool = False


Stars = Annotated[int, Field(ge=1, le=1_000_000)]


class GiftSpec(SimBody):
    """A catalogue gift: its id (none: one is made), price, upgrade price (0: not upgradable), how many exist
    (0: unlimited) and the emoji of its sticker."""

    id: Annotated[str, Field(pattern=r"^[0-9]{0,19}$")] = ""
    star_count: Stars
    upgrade_star_count: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    total_count: Annotated[int, Field(ge=0, le=1_000_000_000)] = 0
    emoji: Annotated[str, Field(max_length=16)] = ""


class CatalogueIn(SimBody):
    """The catalogue's gifts; ``replace`` false adds them to the catalogue instead of replacing it."""

    replace: bool = True
    gifts: Annotated[list[GiftSpec], Field(max_length=1000)]


class GiveIn(SimBody):
    """A person (``user``) receives the catalogue gift ``gift_id`` from another person (``sender``; none: anonymous)."""

    user: Ref = "alice"
    gift_id: Annotated[str, Field(min_length=1, max_length=19)]
    sender: Ref | None = None


class StarsIn(SimBody):
    user: Ref = "alice"
    star_count: Annotated[int, Field(ge=0, le=1_000_000_000)]


class Connected(Answer):
    """The connection as the bot was told of it, and the id of that ``business_connection`` update."""

    connection: JSONObject
    update_id: int


class BusinessSent(Answer):
    """The message entered the business chat: its id, and the update queued for the bot (0: none, the
    connection is disabled)."""

    message_id: int
    update_id: int


class BusinessUpdate(Answer):
    update_id: int


class Catalogue(Answer):
    gifts: list[JSONObject]


class Given(Answer):
    """The gift the person now owns (``owned_gift_id``: how a business bot names it)."""

    owned_gift_id: str
    gift: JSONObject


class AccountView(Answer):
    """The business account as its owner sees it: names, bio, photos, Stars, gift settings, stories, and the
    connections with the messages the bot marked read."""

    user: JSONObject
    bio: str
    star_count: int
    connections: list[JSONObject]


@routes.post("/sim/business/connect")
@documented(Connected, body=ConnectIn, errors=(400, 404))
async def connect(request: web.Request) -> web.Response:
    """A person connects a bot to their business account with rights (again: changes the rights)."""
    stand = stand_of(request)
    body = await read_body(request, ConnectIn)
    conn, update_id = business.connect(stand, stand.find_bot(body.bot), person_ref(stand, body.user), body.rights)
    return sim_json({"connection": conn.json(), "update_id": update_id})


@routes.post("/sim/business/disconnect")
@documented(Connected, body=DisconnectIn, errors=(400, 404))
async def disconnect(request: web.Request) -> web.Response:
    """A person disconnects the bot from their business account (the bot is told: ``is_enabled`` false)."""
    stand = stand_of(request)
    body = await read_body(request, DisconnectIn)
    conn, update_id = business.disconnect(stand, stand.find_bot(body.bot), person_ref(stand, body.user))
    return sim_json({"connection": conn.json(), "update_id": update_id})


def _connection(request: web.Request, body: CustomerIn) -> tuple[Connection, User]:
    stand = stand_of(request)
    owner = person_ref(stand, body.owner)
    conn = business.connection_between(stand, stand.find_bot(body.bot), owner)
    return conn, person_ref(stand, body.customer)


@routes.post("/sim/business/message")
@documented(BusinessSent, body=BusinessMessageIn, errors=(400, 404))
async def message(request: web.Request) -> web.Response:
    """A customer writes to a business account (``business_message``), or its owner answers them by hand."""
    body = await read_body(request, BusinessMessageIn)
    conn, customer = _connection(request, body)
    msg, update_id = business.customer_writes(
        stand_of(request), conn, customer, body.text, body.reply_to_message_id, by_owner=body.by_owner
    )
    return sim_json({"message_id": msg.message_id, "update_id": update_id})


@routes.post("/sim/business/edit")
@documented(BusinessUpdate, body=BusinessEditIn, errors=(400, 404))
async def edit(request: web.Request) -> web.Response:
    """A customer edits their message in the business chat (``edited_business_message``)."""
    body = await read_body(request, BusinessEditIn)
    conn, customer = _connection(request, body)
    update_id = business.customer_edits(stand_of(request), conn, customer, body.message_id, body.text)
    return sim_json({"update_id": update_id})


@routes.post("/sim/business/delete")
@documented(BusinessUpdate, body=BusinessDeleteIn, errors=(400, 404))
async def delete(request: web.Request) -> web.Response:
    """A customer deletes messages of the business chat (``deleted_business_messages``)."""
    body = await read_body(request, BusinessDeleteIn)
    conn, customer = _connection(request, body)
    update_id = business.customer_deletes(stand_of(request), conn, customer, list(body.message_ids))
    return sim_json({"update_id": update_id})


@routes.post("/sim/business/checklist/mark")
@documented(BusinessSent, body=ChecklistMarkIn, errors=(400, 403, 404))
async def checklist_mark(request: web.Request) -> web.Response:
    """A customer marks checklist tasks done or not done (a ``checklist_tasks_done`` business message)."""
    body = await read_body(request, ChecklistMarkIn)
    conn, customer = _connection(request, body)
    message_id, update_id = checklists.mark(
        stand_of(request), conn, customer, body.message_id, list(body.done), list(body.not_done), by_owner=body.by_owner
    )
    return sim_json({"message_id": message_id, "update_id": update_id})


@routes.post("/sim/business/checklist/add")
@documented(BusinessSent, body=ChecklistAddIn, errors=(400, 403, 404, 409))
async def checklist_add(request: web.Request) -> web.Response:
    """A customer adds tasks to a checklist (a ``checklist_tasks_added`` business message)."""
    body = await read_body(request, ChecklistAddIn)
    conn, customer = _connection(request, body)
    tasks = [{"id": task.id, "text": task.text} for task in body.tasks]
    message_id, update_id = checklists.add(
        stand_of(request), conn, customer, body.message_id, tasks, by_owner=body.by_owner
    )
    return sim_json({"message_id": message_id, "update_id": update_id})


@routes.put("/sim/gifts")
@documented(Catalogue, body=CatalogueIn, errors=(400,))
async def catalogue(request: web.Request) -> web.Response:
    """Set Telegram's gift catalogue (what getAvailableGifts lists and sendGift sends)."""
    body = await read_body(request, CatalogueIn)
    shown = gifts.set_catalogue(stand_of(request), [spec.model_dump() for spec in body.gifts], replace=body.replace)
    return sim_json({"gifts": shown})


@routes.post("/sim/gifts/give")
@documented(Given, body=GiveIn, errors=(400, 404))
async def give(request: web.Request) -> web.Response:
    """A person receives a catalogue gift from another person (a business account's gifts to manage)."""
    stand = stand_of(request)
    body = await read_body(request, GiveIn)
    sender = person_ref(stand, body.sender) if body.sender is not None else None
    owned = gifts.give(stand, person_ref(stand, body.user), body.gift_id, sender)
    return sim_json({"owned_gift_id": owned.id, "gift": owned.json(managed=True)})


@routes.post("/sim/business/stars")
@documented(Ok, body=StarsIn, errors=(400,))
async def stars(request: web.Request) -> web.Response:
    """Set a business account's Star balance (what getBusinessAccountStarBalance reads)."""
    stand = stand_of(request)
    body = await read_body(request, StarsIn)
    stand.world.business.account(person_ref(stand, body.user).id).stars = body.star_count
    return sim_json({"ok": True})


@routes.get("/sim/business/chats")
@documented(answers.Answer, params=(query("user", "The account's owner, a name or an id (none: alice)."),))
async def chats(request: web.Request) -> web.Response:
    """The owner's business chats, as the chat page lists them (each with its connection and bot)."""
    stand = stand_of(request)
    owner = person_ref(stand, request.query.get("user", "") or "alice")
    listed = [
        {**chat_item(stand, chat), "connection_id": conn.id, "bot": conn.bot.username}
        for conn in stand.world.business.connections.values()
        if conn.owner.id == owner.id
        for chat in conn.chats.values()
    ]
    return sim_json({"chats": sorted(listed, key=lambda c: -int(c.get("last", {}).get("date", 0)))})


@routes.get("/sim/business/chat")
@documented(
    answers.Answer,
    params=(
        query("user", "The account's owner, a name or an id (none: alice)."),
        query("customer", "The customer's id", "integer"),
        BOT,
    ),
    errors=(404,),
)
async def chat(request: web.Request) -> web.Response:
    """A business chat as the chat page shows it to the owner: its messages as Bot API objects."""
    stand = stand_of(request)
    owner = person_ref(stand, request.query.get("user", "") or "alice")
    conn = business.connection_between(stand, bot_of(request), owner)
    found = conn.chats.get(query_int(request, "customer"))
    if found is None:
        raise SimError(404, f"{owner.handle} has no business chat with {request.query.get('customer', '')!r}")
    live = [m for m in found.messages.values() if not m.deleted]
    return sim_json(
        {
            "chat_id": found.id,
            "type": "private",
            "chat": found.json(),
            "title": title_of(found),
            "business_connection_id": conn.id,
            "typing": found.typing(stand.now()),
            "messages": [page_message(found, m) for m in live],
            "drafts": [],
            "callbacks": [],
            "topics": [],
            "keyboard": None,
        }
    )


@routes.get("/sim/business/account")
@documented(AccountView, params=(query("user", "The account's owner, a name or an id (none: alice)."),))
async def account(request: web.Request) -> web.Response:
    """A business account as its owner sees it, with what connected bots changed and read."""
    stand = stand_of(request)
    owner = person_ref(stand, request.query.get("user", "") or "alice")
    view = stand.world.business.account(owner.id).json(owner)
    view["gifts"] = gifts.owned_by(stand, owner.id, {}, "", 100, managed=True)["gifts"]
    view["connections"] = [
        {**c.json(), "read": {str(k): v for k, v in c.read.items()}}
        for c in stand.world.business.connections.values()
        if c.owner.id == owner.id
    ]
    return sim_json(view)
