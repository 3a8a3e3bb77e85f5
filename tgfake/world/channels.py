"""Issue 25's channel families as Telegram runs them: people boost chats, bots verify on an organisation's behalf,
people create bots that another bot manages, chats hand their join requests to a bot, people summon a bot into a
chat it is not in, and people cancel their subscriptions. The person's side of each is a sim route
(``tgfake/sim/channels.py``); the bot's side is in ``tgfake/botapi/`` (boosts, verification, managed_bots,
join_queries, guest). State: :mod:`tgfake.world.channel_state`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.chats import Chat, StoredMessage, message_json
from tgfake.errors import SimError
from tgfake.models import BotIn
from tgfake.world import rooms
from tgfake.world.channel_state import (
    BOOST_DAYS,
    BOOSTS_PER_PERSON,
    QUERY_SECONDS,
    Boost,
    ChannelState,
    Ephemeral,
    GuestQuery,
    JoinQuery,
    ManagedBot,
)
from tgfake.world.inline import result_media
from tgfake.world.inline_state import InlineMessage, InlineResult
from tgfake.world.members import MEMBER, Member
from tgfake.world.membership import post_service, set_member

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.people import User
    from tgfake.world.telegram import Telegram


def state(t: Telegram) -> ChannelState:
    return t.world.channels


def _admin_bots(t: Telegram, chat: Chat) -> list[Bot]:
    """The bots administering a chat: who Telegram tells of its boosts."""
    out = []
    for member in chat.members.values():
        bot = t.bots.get(member.user.id) if member.user.is_bot else None
        if bot is not None and member.present and member.is_admin:
            out.append(bot)
    return out


# --- boosts ----------------------------------------------------------------------------------------------------------
def boost(t: Telegram, chat: Chat, person: User, count: int = 1) -> list[Boost]:
    """The person (a Premium user: boosting makes them one) gives the chat ``count`` of their four boosts; each is a
    ``chat_boost`` for the chat's administrator bots, and a supergroup shows ``boost_added``."""
    if chat.type not in ("channel", "supergroup"):
        raise SimError(400, f"only channels and supergroups are boosted, not a {chat.type}")
    now = t.unix_now()
    st = state(t)
    used = sum(1 for b in st.boosts.values() if b.user.id == person.id and b.expiration_date > now)
    if not 1 <= count <= BOOSTS_PER_PERSON - used:
        raise SimError(409, f"{person.handle} has {BOOSTS_PER_PERSON - used} of {BOOSTS_PER_PERSON} boosts left")
    person.is_premium = True
    made = []
    for _ in range(count):
        item = Boost(st.mint(), chat.id, person, now, now + BOOST_DAYS * 86400)
        st.boosts[item.boost_id] = item
        made.append(item)
        for bot in _admin_bots(t, chat):
            bot.push("chat_boost", {"chat": chat.json(), "boost": item.json()})
    if chat.type == "supergroup":
        post_service(t, chat, person, {"boost_added": {"boost_count": count}})
    return made


def unboost(t: Telegram, chat: Chat, person: User) -> list[Boost]:
    """The person takes their boosts back from the chat: a ``removed_chat_boost`` for each (Client.cpp's
    ``JsonChatBoostRemoved``: the removal's date as ``remove_date``)."""
    st = state(t)
    now = t.unix_now()
    mine = st.boosts_of(chat.id, person.id, now)
    if not mine:
        raise SimError(409, f"{person.handle} does not boost chat {chat.id}")
    for item in mine:
        del st.boosts[item.boost_id]
        payload = {"chat": chat.json(), "boost_id": item.boost_id, "remove_date": now, "source": item.source()}
        for bot in _admin_bots(t, chat):
            bot.push("removed_chat_boost", payload)
    return mine


# --- verification ----------------------------------------------------------------------------------------------------
def set_verifier(t: Telegram, bot: Bot, enabled: bool) -> None:
    """The bot becomes (or stops being) a verification bot of an organisation; its marks go with it."""
    st = state(t)
    if enabled:
        st.verifiers.add(bot.id)
        return
    st.verifiers.discard(bot.id)
    for key in [k for k in st.verified if k[0] == bot.id]:
        del st.verified[key]


def verifications(t: Telegram, bot: Bot) -> dict[str, Any]:
    st = state(t)
    marks = [{"id": target, "custom_description": text} for (b, target), text in st.verified.items() if b == bot.id]
    return {"bot": bot.username, "verifier": bot.id in st.verifiers, "verified": marks}


# --- managed bots ----------------------------------------------------------------------------------------------------
def create_managed_bot(t: Telegram, manager: Bot, owner: User, username: str, first_name: str) -> Bot:
    """The person creates a bot through ``manager``'s ``request_managed_bot`` button: a new bot on the stand that
    ``manager`` manages; ``manager`` gets ``managed_bot`` and, in its chat with the person, ``managed_bot_created``."""
    created = t.create_bot(BotIn(username=username, first_name=first_name))
    state(t).managed[created.id] = ManagedBot(created.id, owner, manager.id)
    chat = t.private_chat(manager, owner)
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=t.unix_now(),
            sender=owner,
            service={"managed_bot_created": {"bot": created.user.json()}},
        )
    )
    manager.push("message", message_json(chat, msg))
    manager.push("managed_bot", {"user": owner.json(), "bot": created.user.json()})
    return created


def replace_token(t: Telegram, managed: Bot) -> str:
    """A new token for a managed bot: the old one stops working (``Unauthorized``) at once."""
    registry = t.registry
    registry.tokens.pop(managed.token, None)
    managed.token = f"{managed.id}:tgfake-managed-{state(t).mint()}"
    registry.tokens[managed.token] = managed
    record = state(t).managed[managed.id]
    manager = t.bots.get(record.manager_id)
    if manager is not None:
        manager.push("managed_bot", {"user": record.owner.json(), "bot": managed.user.json()})
    return managed.token


# --- join request queries --------------------------------------------------------------------------------------------
def assign_join_requests(t: Telegram, chat: Chat, bot: Bot | None) -> None:
    """The chat hands its join requests to ``bot`` (an administrator that may invite users), or takes them back."""
    st = state(t)
    if bot is None:
        st.join_bots.pop(chat.id, None)
        return
    member = chat.member(bot.id)
    if member is None or not member.present or not member.can("can_invite_users"):
        raise SimError(409, f"@{bot.username} is no administrator of chat {chat.id} that may invite users")
    st.join_bots[chat.id] = bot.id


def join_query_for(t: Telegram, chat: Chat, bot: Bot, person: User) -> str:
    """The ``query_id`` of a join request's update for the bot the chat assigned its join requests to ('' else)."""
    st = state(t)
    if st.join_bots.get(chat.id) != bot.id:
        return ""
    query = JoinQuery(st.mint(), bot.id, chat.id, person.id, t.unix_now())
    st.join_queries[query.query_id] = query
    return query.query_id


def answer_join_query(t: Telegram, query: JoinQuery, result: str) -> None:
    """``approve`` puts the person in the chat (``via_join_request``, as approveChatJoinRequest does), ``decline``
    drops the request, ``queue`` leaves it to the chat's administrators."""
    query.answered = True
    chat = t.world.chats.get(query.chat_id)
    request = chat.join_requests.get(query.user_id) if chat is not None else None
    if chat is None or request is None or result == "queue":
        return
    del chat.join_requests[query.user_id]
    if result == "approve" and not chat.present(query.user_id):
        link = request.invite_link
        extra: dict[str, Any] = {"invite_link": link} if link else {"via_join_request": True}
        set_member(t, chat, Member(user=request.user, status=MEMBER), actor=request.user, extra=extra)


def open_join_query(t: Telegram, bot: Bot, query_id: str) -> JoinQuery | None:
    """The bot's join request query, unanswered and younger than 10 seconds of the stand's clock."""
    query = state(t).join_queries.get(query_id)
    if query is None or query.bot_id != bot.id or query.answered or t.unix_now() - query.date > QUERY_SECONDS:
        return None
    return query


# --- guest queries ---------------------------------------------------------------------------------------------------
def summon(t: Telegram, bot: Bot, chat: Chat, person: User, text: str) -> tuple[StoredMessage, int, str]:
    """The person writes in a chat ``bot`` is not in, mentioning it: the message is the chat's (its bots see it as
    any), and ``bot`` gets it as ``guest_message`` with a ``guest_query_id`` to answer."""
    if chat.present(bot.id):
        raise SimError(409, f"@{bot.username} is in chat {chat.id}: it gets the message itself, not as a guest")
    if not chat.present(person.id):
        raise SimError(403, f"{person.handle} is not in chat {chat.id}")
    mention = f"@{bot.username}"
    if mention.lower() not in text.lower():
        text = f"{mention} {text}"
    start = text.lower().index(mention.lower())
    entity = {"type": "mention", "offset": len(text[:start].encode("utf-16-le")) // 2, "length": len(mention)}
    msg = chat.add(
        StoredMessage(message_id=chat.mint_message_id(), date=t.unix_now(), sender=person, text=text, entities=[entity])
    )
    rooms.deliver(t, chat, msg)
    st = state(t)
    query = GuestQuery(st.mint(), bot.id, chat.id, person.id, msg.message_id)
    st.guest_queries[query.query_id] = query
    payload = message_json(chat, msg)
    payload["guest_query_id"] = query.query_id
    return msg, bot.push("guest_message", payload), query.query_id


def guest_reply(t: Telegram, query: GuestQuery, bot: Bot, result: InlineResult) -> str:
    """The bot's answer enters the chat as its message, naming who summoned it (``guest_bot_caller_user``,
    ``guest_bot_caller_chat``); it is an inline message the bot edits by the id answered."""
    chat = t.world.chats[query.chat_id]
    query.answered = True
    person = t.world.users.get(query.user_id)
    media = result_media(t, result)
    captioned = media is None or media.captioned
    inline_id = t.world.inline.mint_message_id(bot.id)
    caller = {"guest_bot_caller_user": person.json()} if person is not None else {}
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=t.unix_now(),
            sender=bot.user,
            text=result.text if media is None else "",
            caption=result.text if media is not None and media.captioned else "",
            entities=list(result.entities) if captioned else [],
            parse_mode=result.parse_mode,
            media=media,
            keyboard=result.keyboard,
            reply_to=query.message_id,
            extra={**caller, "guest_bot_caller_chat": chat.json()},
            inline_message_id=inline_id,
        )
    )
    t.world.inline.messages[inline_id] = InlineMessage(inline_id, bot.id, chat.id, 0, msg.message_id)
    rooms.deliver(t, chat, msg)
    return inline_id


# --- ephemeral commands ----------------------------------------------------------------------------------------------
def ephemeral_command(t: Telegram, bot: Bot, chat: Chat, person: User, text: str) -> tuple[StoredMessage, int]:
    """The person sends, in a group, a command the bot's menu marks ``is_ephemeral``: an ephemeral message only the
    bot receives (``message_id`` 0, ``receiver_user``, ``ephemeral_message_id``); no one else sees it. The bot answers
    with an ephemeral message to the person (``reply_parameters.ephemeral_message_id`` names this one)."""
    if chat.type not in ("group", "supergroup"):
        raise SimError(400, "ephemeral messages are sent in groups and supergroups")
    if not chat.present(bot.id) or not chat.present(person.id):
        raise SimError(409, f"both {person.handle} and @{bot.username} must be in chat {chat.id}")
    command = text[1:].split(maxsplit=1)[0].split("@")[0] if text.startswith("/") and len(text) > 1 else ""
    member = chat.member(person.id)
    seen = bot.settings.commands_seen(
        chat.type, chat.id, person.id, is_admin=member is not None and member.is_admin, language=person.language_code
    )
    if not any(c["command"] == command and c.get("is_ephemeral") for c in seen):
        raise SimError(409, f"/{command} is no ephemeral command of @{bot.username} here (setMyCommands: is_ephemeral)")
    st = state(t)
    number = st.next_ephemeral(chat.id)
    length = len(text.split(maxsplit=1)[0].encode("utf-16-le")) // 2
    msg = StoredMessage(
        message_id=0,
        date=t.unix_now(),
        sender=person,
        text=text,
        entities=[{"type": "bot_command", "offset": 0, "length": length}],
        extra={"receiver_user": bot.user.json(), "ephemeral_message_id": number},
    )
    st.ephemeral[(chat.id, number)] = Ephemeral(bot.id, chat.id, bot.id, number, msg)
    return msg, bot.push("message", message_json(chat, msg))


# --- subscriptions ---------------------------------------------------------------------------------------------------
def change_subscription(t: Telegram, bot: Bot, person: User, charge_id: str, new_state: str) -> int:
    """The person's subscription to ``bot`` (the charge of its first payment) becomes ``canceled`` (the person
    cancelled it), ``active`` (they re-enabled it) or ``failed`` (a renewal's payment failed): the bot gets
    ``subscription`` (BotSubscriptionUpdated: the person, the invoice's payload, the new state)."""
    charge = t.world.payments.charges.get(charge_id)
    if charge is None or charge.bot_id != bot.id or charge.user_id != person.id or not charge.subscription_period:
        raise SimError(404, f"{person.handle} has no subscription to @{bot.username} with charge {charge_id!r}")
    if (new_state == "active") != charge.canceled:
        now = "cancelled" if charge.canceled else "active"
        raise SimError(409, f"the subscription is {now}: it can't become {new_state}")
    charge.canceled = new_state != "active"
    payload = {"user": person.json(), "invoice_payload": charge.payload, "state": new_state}
    return bot.push("subscription", payload)
