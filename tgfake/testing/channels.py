"""Issue 25's channel families from the person's side, written once for both clients: boosts, verifiers, managed
bots, join requests handed to a bot, guest summons and subscription changes."""

from __future__ import annotations

from typing import Any

from tgfake.testing.core import Core, Op, Req
from tgfake.testing.drivers import op
from tgfake.testing.world import Account, BotInfo, ChatArg, _chat_id, _ref


def _bot(body: dict[str, Any], bot: str | int | None) -> dict[str, Any]:
    if bot is not None:
        body["bot"] = bot
    return body


class ChannelMethods:
    """Boosting chats, verification, managed bots, join request queries, guest messages, subscriptions."""

    @op
    def boost(core: Core, /, chat: ChatArg, *, user: Account = "alice", count: int = 1) -> Op[dict[str, Any]]:
        """A person boosts a channel or supergroup ``count`` times (``POST /sim/chats/{id}/boost``): each boost is a
        ``chat_boost`` for its administrator bots. Answers ``{"chat_id", "boosts"}``."""
        got = yield from core.post(f"/sim/chats/{_chat_id(chat)}/boost", {"user": _ref(user), "count": count})
        core.acted_in(_chat_id(chat))  # the bot's thanks is read there
        return got

    @op
    def unboost(core: Core, /, chat: ChatArg, *, user: Account = "alice") -> Op[dict[str, Any]]:
        """The person takes their boosts back (``POST /sim/chats/{id}/unboost``): ``removed_chat_boost`` each."""
        got = yield from core.post(f"/sim/chats/{_chat_id(chat)}/unboost", {"user": _ref(user)})
        core.acted_in(_chat_id(chat))
        return got

    @op
    def make_verifier(core: Core, /, enabled: bool = True, *, bot: str | int | None = None) -> Op[dict[str, Any]]:
        """An organisation makes the bot (the stand's bot if none) its verifier (``POST /sim/verifiers``)."""
        got = yield from core.post("/sim/verifiers", _bot({"enabled": enabled}, bot))
        return got

    @op
    def verifications(core: Core, /, *, bot: str | int | None = None) -> Op[dict[str, Any]]:
        """Whether the bot is a verifier and what it verified (``GET /sim/verifiers``)."""
        query = {"bot": str(bot)} if bot is not None else None
        got = yield from core.do(Req("GET", "/sim/verifiers", query=query))
        return dict(got)

    @op
    def create_managed_bot(
        core: Core,
        /,
        username: str = "",
        *,
        first_name: str = "",
        user: Account = "alice",
        bot: str | int | None = None,
    ) -> Op[BotInfo]:
        """A person creates a bot through the bot's ``request_managed_bot`` button (``POST /sim/managed-bots``):
        the managing bot gets ``managed_bot`` and ``managed_bot_created``."""
        body = _bot({"user": _ref(user), "username": username, "first_name": first_name}, bot)
        got = yield from core.post("/sim/managed-bots", body)
        me = got["bot"]
        return BotInfo(int(me["id"]), str(me["username"]), str(got["token"]), str(me.get("first_name") or ""), got)

    @op
    def assign_join_requests(
        core: Core, /, chat: ChatArg, *, bot: str | int | None = None, enabled: bool = True
    ) -> Op[dict[str, Any]]:
        """The chat hands its join requests to the bot (``POST /sim/chats/{id}/join-request-bot``): each
        ``chat_join_request`` it gets carries a ``query_id``."""
        got = yield from core.post(f"/sim/chats/{_chat_id(chat)}/join-request-bot", _bot({"enabled": enabled}, bot))
        return got

    @op
    def summon(
        core: Core, /, chat: ChatArg, text: str, *, user: Account = "alice", bot: str | int | None = None
    ) -> Op[dict[str, Any]]:
        """A person mentions the bot in a chat it is not in (``POST /sim/guest-message``): the bot gets
        ``guest_message``. Answers ``{"message_id", "update_id", "guest_query_id"}``."""
        body = _bot({"chat_id": _chat_id(chat), "user": _ref(user), "text": text}, bot)
        got = yield from core.post("/sim/guest-message", body)
        core.acted_in(_chat_id(chat))
        return got

    @op
    def suggest_post(
        core: Core,
        /,
        channel: ChatArg,
        text: str,
        *,
        user: Account = "alice",
        price: dict[str, Any] | None = None,
        send_date: int = 0,
    ) -> Op[dict[str, Any]]:
        """A person suggests a post in the channel's direct messages (``POST /sim/chats/{id}/suggest-post``),
        with a ``price`` (``{"currency": "XTR", "amount": 50}``) and a ``send_date`` if given. Answers
        ``{"chat_id"`` (the direct messages chat), ``"message_id"}``."""
        body: dict[str, Any] = {"user": _ref(user), "text": text}
        if price is not None:
            body["price"] = price
        if send_date:
            body["send_date"] = send_date
        got = yield from core.post(f"/sim/chats/{_chat_id(channel)}/suggest-post", body)
        core.acted_in(int(got["chat_id"]))
        return got

    @op
    def ephemeral_command(
        core: Core, /, chat: ChatArg, text: str, *, user: Account = "alice", bot: str | int | None = None
    ) -> Op[dict[str, Any]]:
        """A person sends the bot's ephemeral command (its menu marks it ``is_ephemeral``) in a group
        (``POST /sim/ephemeral-command``): only the bot gets it. Answers ``{"ephemeral_message_id", "update_id"}``."""
        body = _bot({"chat_id": _chat_id(chat), "user": _ref(user), "text": text}, bot)
        got = yield from core.post("/sim/ephemeral-command", body)
        return got

    @op
    def change_subscription(
        core: Core, /, charge_id: str, state: str, *, user: Account = "alice", bot: str | int | None = None
    ) -> Op[dict[str, Any]]:
        """The person's subscription (its first payment's charge id) becomes ``canceled``, ``active`` or
        ``failed`` (``POST /sim/subscription``): the bot gets ``subscription``."""
        body = _bot({"user": _ref(user), "telegram_payment_charge_id": charge_id, "state": state}, bot)
        got = yield from core.post("/sim/subscription", body)
        return got
