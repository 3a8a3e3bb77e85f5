"""The state of issue 25's channel families: boosts, verification marks, managed bots, join request and guest
queries. Plain objects on the World (a reset forgets them); their rules are in :mod:`tgfake.world.channels`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tgfake.chats import StoredMessage
    from tgfake.world.people import User

BOOST_DAYS = 30
"""A boost lasts as long as the booster's Premium: the stand gives each a month from the boost."""

BOOSTS_PER_PERSON = 4
"""A Premium user's boost slots (Telegram gives four)."""

QUERY_SECONDS = 10
"""A join request query must be answered within 10 seconds (Bot API ``ChatJoinRequest.query_id``)."""


@dataclass(slots=True)
class Boost:
    """One boost of a chat: its id, the booster (``ChatBoostSourcePremium``) and its dates."""

    boost_id: str
    chat_id: int
    user: User
    add_date: int
    expiration_date: int

    def source(self) -> dict[str, Any]:
        return {"source": "premium", "user": self.user.json()}

    def json(self) -> dict[str, Any]:
        """Client.cpp's ``JsonChatBoost``."""
        return {
            "boost_id": self.boost_id,
            "add_date": self.add_date,
            "expiration_date": self.expiration_date,
            "source": self.source(),
        }


@dataclass(slots=True)
class ManagedBot:
    """A bot a person created through another bot (``KeyboardButtonRequestManagedBot``): who owns it, which bot
    manages it, and who may use it."""

    bot_id: int
    owner: User
    manager_id: int
    restricted: bool = False
    added_users: list[int] = field(default_factory=list)


@dataclass(slots=True)
class JoinQuery:
    """A join request handed to the bot the chat assigned its join requests to."""

    query_id: str
    bot_id: int
    chat_id: int
    user_id: int
    date: int
    answered: bool = False
    web_app_url: str = ""


@dataclass(slots=True)
class GuestQuery:
    """A person summoned a bot into a chat it is not in: the message that did, waiting for the bot's answer."""

    query_id: str
    bot_id: int
    chat_id: int
    user_id: int
    message_id: int
    answered: bool = False


@dataclass(slots=True)
class Ephemeral:
    """A bot's ephemeral message: only ``receiver_id`` sees it; ``message.message_id`` is 0 (Bot API 10.3)."""

    bot_id: int
    chat_id: int
    receiver_id: int
    ephemeral_id: int
    message: StoredMessage


@dataclass(slots=True)
class ChannelState:
    boosts: dict[str, Boost] = field(default_factory=dict)  # boost id -> boost (removed ones are dropped)
    next_id: int = 0  # boost, query and guest ids
    verifiers: set[int] = field(default_factory=set)  # bots the sim made verifiers (an organisation's bots)
    verified: dict[tuple[int, int], str] = field(default_factory=dict)  # (verifier, user or chat id) -> description
    managed: dict[int, ManagedBot] = field(default_factory=dict)  # managed bot id -> who owns and manages it
    join_bots: dict[int, int] = field(default_factory=dict)  # chat id -> the bot assigned its join requests
    join_queries: dict[str, JoinQuery] = field(default_factory=dict)
    guest_queries: dict[str, GuestQuery] = field(default_factory=dict)
    ephemeral: dict[tuple[int, int], Ephemeral] = field(default_factory=dict)  # (chat id, ephemeral id) -> it
    ephemeral_ids: dict[int, int] = field(default_factory=dict)  # chat id -> the last ephemeral id minted there
    direct_messages: dict[int, int] = field(default_factory=dict)  # channel id -> its direct messages chat's id
    scheduled: list[tuple[int, int, int]] = field(default_factory=list)  # approved posts: (date, chat, message id)

    def mint(self) -> str:
        self.next_id += 1
        return str(self.next_id)

    def next_ephemeral(self, chat_id: int) -> int:
        """The chat's next ephemeral message id (numbered per chat)."""
        number = self.ephemeral_ids.get(chat_id, 0) + 1
        self.ephemeral_ids[chat_id] = number
        return number

    def ephemeral_in(self, chat_id: int) -> list[Ephemeral]:
        """The chat's live ephemeral messages, oldest first."""
        return [e for (cid, _), e in self.ephemeral.items() if cid == chat_id and not e.message.deleted]

    def boosts_of(self, chat_id: int, user_id: int, now: int) -> list[Boost]:
        """A person's live boosts of a chat, oldest first."""
        return [
            b for b in self.boosts.values() if b.chat_id == chat_id and b.user.id == user_id and b.expiration_date > now
        ]
