"""Business accounts as the stand keeps them: the connections people make to bots, their business chats, and what
a connected bot may manage (the account's bio, photo, Stars, gifts and stories).

Plain objects; the rules that act on them live in :mod:`tgfake.world.business` (connections, business messages,
the account methods) and :mod:`tgfake.world.gifts` (the catalogue and owned gifts). A reset forgets all of it (it
lives on the World).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tgfake.chats import Chat

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.people import User

RIGHTS = (
    "can_reply",
    "can_read_messages",
    "can_delete_sent_messages",
    "can_delete_all_messages",
    "can_edit_name",
    "can_edit_bio",
    "can_edit_profile_photo",
    "can_edit_username",
    "can_view_gifts_and_stars",
    "can_convert_gifts_to_stars",
    "can_change_gift_settings",
    "can_transfer_and_upgrade_gifts",
    "can_transfer_stars",
    "can_manage_stories",
)
"""The Bot API's BusinessBotRights, in telegram-bot-api's order (JsonBusinessBotRights)."""


@dataclass(slots=True)
class Counter:
    """A user account's message ids: one sequence over all its private chats, as Telegram numbers them."""

    next_id: int = 1

    def mint(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value


@dataclass(slots=True)
class BusinessChat(Chat):
    """A business chat: the private chat between the account's owner and a customer, as the connected bot sees it
    (its id is the customer's). Its message ids are the owner's account's, shared by all their private chats."""

    counter: Counter = field(default_factory=Counter)

    def mint_message_id(self) -> int:
        return self.counter.mint()


@dataclass(slots=True)
class Connection:
    """One person's business account connected to one bot, with the rights they gave it."""

    id: str
    bot: Bot  # the object, not its id: the first bot takes its token's id on its first call
    owner: User
    date: int
    rights: dict[str, bool]
    enabled: bool = True
    chats: dict[int, BusinessChat] = field(default_factory=dict)  # customer id -> the business chat with them
    heard: dict[int, int] = field(default_factory=dict)  # customer id -> when they last wrote (the 24-hour window)
    read: dict[int, int] = field(default_factory=dict)  # customer id -> the newest message the bot marked read

    def can(self, right: str) -> bool:
        return self.rights.get(right, False)

    def json(self) -> dict[str, Any]:
        """The Bot API BusinessConnection, fields in telegram-bot-api's order (JsonBusinessConnection)."""
        return {
            "id": self.id,
            "user": self.owner.json(),
            "user_chat_id": self.owner.id,
            "date": self.date,
            "is_enabled": self.enabled,
            "can_reply": self.can("can_reply"),
            "rights": {name: True for name in RIGHTS if self.can(name)},
        }


@dataclass(slots=True)
class Story:
    """A story posted on a business account through a connection."""

    id: int
    connection_id: str
    content: dict[str, Any]
    active_period: int
    date: int
    caption: str = ""
    entities: list[dict[str, Any]] = field(default_factory=list)
    areas: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False


@dataclass(slots=True)
class Account:
    """The parts of a person's business account a connected bot may manage, beyond their names (on the User)."""

    bio: str = ""
    photo: dict[str, Any] | None = None  # the profile photo: its type (static, animated) and size
    public_photo: dict[str, Any] | None = None  # the photo shown to people who may not see the main one
    stars: int = 0
    gift_settings: dict[str, Any] = field(
        default_factory=lambda: {
            "show_gift_button": False,
            "accepted_gift_types": {
                "unlimited_gifts": True,
                "limited_gifts": True,
                "unique_gifts": True,
                "premium_subscription": True,
                "gifts_from_channels": True,
            },
        }
    )
    stories: dict[int, Story] = field(default_factory=dict)
    next_story_id: int = 1
    messages: Counter = field(default_factory=Counter)  # the account's message ids

    def json(self, owner: User) -> dict[str, Any]:
        """What the sim shows of the account (``GET /sim/business/account``)."""
        return {
            "user": owner.json(),
            "bio": self.bio,
            "photo": self.photo,
            "public_photo": self.public_photo,
            "star_count": self.stars,
            "gift_settings": self.gift_settings,
            "stories": [
                {"id": s.id, "caption": s.caption, "content": s.content, "active_period": s.active_period}
                for s in self.stories.values()
                if not s.deleted
            ],
        }


@dataclass(slots=True)
class OwnedGift:
    """A gift someone owns: a catalogue gift (``gift``, the Bot API Gift) as sent, or after an upgrade a unique one
    (``unique``, the Bot API UniqueGift)."""

    id: str  # the owned_gift_id a business bot names it by
    owner_id: int  # a person's id, or a chat's
    gift: dict[str, Any]
    sender: User | None
    date: int
    text: str = ""
    entities: list[dict[str, Any]] = field(default_factory=list)
    prepaid_upgrade: int = 0
    unique: dict[str, Any] | None = None
    converted: bool = False

    def json(self, *, managed: bool) -> dict[str, Any]:
        """The Bot API OwnedGift in telegram-bot-api's order (JsonReceivedGift); ``owned_gift_id`` only for the
        business account's own bot (``managed``)."""
        out: dict[str, Any] = {}
        if managed:
            out["owned_gift_id"] = self.id
        if self.unique is None:
            out.update(type="regular", gift=self.gift)
        else:
            out.update(type="unique", gift=self.unique)
        if self.sender is not None:
            out["sender_user"] = self.sender.json()
        out["send_date"] = self.date
        if self.text:
            out["text"] = self.text
        if self.entities:
            out["entities"] = self.entities
        out["is_saved"] = True
        if self.unique is None and self.gift.get("upgrade_star_count"):
            out["can_be_upgraded"] = True
        if self.unique is not None:
            out["can_be_transferred"] = True
        if self.unique is None:
            out["convert_star_count"] = self.gift["star_count"]
        if self.prepaid_upgrade and self.unique is None:
            out["prepaid_upgrade_star_count"] = self.prepaid_upgrade
        return out


@dataclass(slots=True)
class Business:
    """Every connection and business account of the session."""

    connections: dict[str, Connection] = field(default_factory=dict)  # by connection id
    accounts: dict[int, Account] = field(default_factory=dict)  # owner id -> their account
    catalogue: dict[str, dict[str, Any]] = field(default_factory=dict)  # gift id -> the Bot API Gift
    sold: dict[str, int] = field(default_factory=dict)  # gift id -> how many of a limited gift were sent
    owned: dict[str, OwnedGift] = field(default_factory=dict)  # owned gift id -> the gift
    next_id: int = 1

    def mint_id(self, bot_id: int, owner_id: int) -> str:
        """A connection id in the shape Telegram's have: URL-safe base64 of a few bytes, unique in the session."""
        raw = b"".join(n.to_bytes(8, "little") for n in (self.next_id, bot_id, owner_id))
        self.next_id += 1
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def between(self, bot: Bot, owner_id: int) -> Connection | None:
        """The connection of ``bot`` to this person's account, if they ever made one."""
        return next((c for c in self.connections.values() if c.bot is bot and c.owner.id == owner_id), None)

    def account(self, owner_id: int) -> Account:
        return self.accounts.setdefault(owner_id, Account())
