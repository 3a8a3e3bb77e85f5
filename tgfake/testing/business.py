"""A person's business account, written once for both clients: connecting a bot with rights, customers writing
to the account, the account as its owner sees it (the ``/sim/business/...`` routes, docs/sim-api.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tgfake.testing.core import Core, Op, Req
from tgfake.testing.drivers import op
from tgfake.testing.values import Person, Sent, person


def _ref(who: str | int | Person) -> str | int:
    """A person as the business routes name them: by name (``bob``, who is then Bob), else by id."""
    named = person(who)
    return named.username or named.user_id


def _customer(
    core: Core, owner: str | int | Person, customer: str | int | Person, bot: str | int | None
) -> dict[str, Any]:
    body: dict[str, Any] = {"owner": _ref(owner), "customer": _ref(customer)}
    if bot is not None:
        body["bot"] = bot
    return body


class BusinessMethods:
    """A person's business account (``user``/``owner``) and its customers (``customer``); ``bot``: the connected
    bot (none: the stand's default bot)."""

    @op
    def connect_business(
        core: Core, /, user: str | int | Person = "alice", *, bot: str | int | None = None, **rights: bool
    ) -> Op[dict[str, Any]]:
        """The person connects the bot to their business account with ``rights`` (``can_reply=True``...); again:
        new rights. The bot gets ``business_connection``; returns the connection (its ``id`` is the
        ``business_connection_id``)."""
        body: dict[str, Any] = {"user": _ref(user), "rights": rights}
        if bot is not None:
            body["bot"] = bot
        got = yield from core.post("/sim/business/connect", body)
        return dict(got["connection"])

    @op
    def disconnect_business(
        core: Core, /, user: str | int | Person = "alice", *, bot: str | int | None = None
    ) -> Op[dict[str, Any]]:
        """The person disconnects the bot (it gets ``business_connection`` with ``is_enabled`` false)."""
        body: dict[str, Any] = {"user": _ref(user)}
        if bot is not None:
            body["bot"] = bot
        got = yield from core.post("/sim/business/disconnect", body)
        return dict(got["connection"])

    @op
    def customer_writes(
        core: Core,
        /,
        text: str,
        *,
        customer: str | int | Person = "bob",
        owner: str | int | Person = "alice",
        bot: str | int | None = None,
        reply_to: int | None = None,
        by_owner: bool = False,
    ) -> Op[Sent]:
        """A customer writes to the owner's business account (``business_message``); ``by_owner``: the owner
        answers the customer by hand. Reads and waits then look at the business chat (the customer's id)."""
        body = {**_customer(core, owner, customer, bot), "text": text, "by_owner": by_owner}
        if reply_to is not None:
            body["reply_to_message_id"] = reply_to
        got = yield from core.post("/sim/business/message", body)
        chat_id = person(customer).user_id
        return Sent(chat_id, int(got["update_id"]), message_id=int(got["message_id"]))

    @op
    def customer_edits(
        core: Core,
        /,
        message_id: int,
        text: str,
        *,
        customer: str | int | Person = "bob",
        owner: str | int | Person = "alice",
        bot: str | int | None = None,
    ) -> Op[int]:
        """The customer edits their message (``edited_business_message``); returns the update id."""
        body = {**_customer(core, owner, customer, bot), "message_id": message_id, "text": text}
        got = yield from core.post("/sim/business/edit", body)
        return int(got["update_id"])

    @op
    def customer_deletes(
        core: Core,
        /,
        message_ids: Sequence[int],
        *,
        customer: str | int | Person = "bob",
        owner: str | int | Person = "alice",
        bot: str | int | None = None,
    ) -> Op[int]:
        """The customer deletes messages of the business chat (``deleted_business_messages``)."""
        body = {**_customer(core, owner, customer, bot), "message_ids": list(message_ids)}
        got = yield from core.post("/sim/business/delete", body)
        return int(got["update_id"])

    @op
    def mark_tasks(
        core: Core,
        /,
        message_id: int,
        *,
        done: Sequence[int] = (),
        not_done: Sequence[int] = (),
        customer: str | int | Person = "bob",
        owner: str | int | Person = "alice",
        bot: str | int | None = None,
        by_owner: bool = False,
    ) -> Op[Sent]:
        """The customer (``by_owner``: the owner) marks tasks of a checklist done / not done: the bot gets a
        ``checklist_tasks_done`` business message."""
        body = {**_customer(core, owner, customer, bot), "message_id": message_id, "by_owner": by_owner}
        body.update(done=list(done), not_done=list(not_done))
        got = yield from core.post("/sim/business/checklist/mark", body)
        return Sent(person(customer).user_id, int(got["update_id"]), message_id=int(got["message_id"]))

    @op
    def add_tasks(
        core: Core,
        /,
        message_id: int,
        tasks: Sequence[tuple[int, str]],
        *,
        customer: str | int | Person = "bob",
        owner: str | int | Person = "alice",
        bot: str | int | None = None,
        by_owner: bool = False,
    ) -> Op[Sent]:
        """The customer (``by_owner``: the owner) adds tasks ``(id, text)`` to a checklist: the bot gets a
        ``checklist_tasks_added`` business message."""
        body = {**_customer(core, owner, customer, bot), "message_id": message_id, "by_owner": by_owner}
        body["tasks"] = [{"id": task_id, "text": text} for task_id, text in tasks]
        got = yield from core.post("/sim/business/checklist/add", body)
        return Sent(person(customer).user_id, int(got["update_id"]), message_id=int(got["message_id"]))

    @op
    def set_gift_catalogue(core: Core, /, gifts: Sequence[dict[str, Any]]) -> Op[list[dict[str, Any]]]:
        """Telegram's gift catalogue (``PUT /sim/gifts``): ``{"star_count", "upgrade_star_count"?, "total_count"?,
        "emoji"?, "id"?}`` each; returns the gifts as getAvailableGifts lists them."""
        got = yield from core.do(Req("PUT", "/sim/gifts", body={"gifts": list(gifts)}))
        return list(got["gifts"])

    @op
    def give_gift(
        core: Core, /, gift_id: str, *, user: str | int | Person = "alice", sender: str | int | Person | None = None
    ) -> Op[str]:
        """A person receives a catalogue gift (``POST /sim/gifts/give``); returns its ``owned_gift_id``."""
        body: dict[str, Any] = {"user": _ref(user), "gift_id": gift_id}
        if sender is not None:
            body["sender"] = _ref(sender)
        got = yield from core.post("/sim/gifts/give", body)
        return str(got["owned_gift_id"])

    @op
    def set_business_stars(core: Core, /, star_count: int, *, user: str | int | Person = "alice") -> Op[None]:
        """The business account's Star balance (what getBusinessAccountStarBalance reads)."""
        yield from core.post("/sim/business/stars", {"user": _ref(user), "star_count": star_count})

    @op
    def business_account(core: Core, /, user: str | int | Person = "alice") -> Op[dict[str, Any]]:
        """The business account as its owner sees it: ``user`` (names), ``bio``, ``photo``, ``star_count``,
        ``gift_settings``, ``gifts``, ``stories``, ``connections`` (with what the bot marked ``read``)."""
        got = yield from core.do(Req("GET", "/sim/business/account", query={"user": str(_ref(user))}))
        return dict(got)
