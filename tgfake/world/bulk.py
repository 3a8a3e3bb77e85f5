"""A world built in bulk: thousands of people and groups at once, as they stood before the bot started.

``POST /sim/world/bulk`` (tgfake/sim/load.py) and ``tgfake load`` build their crowd here. Nothing is announced: no
update reaches a bot, no service message is posted (the people and groups already existed when the bot came), so
10,000 people and 1,000 groups take a fraction of a second. Each group has an owner and members drawn from the
people (a seeded draw: the same seed gives the same world), and the bot is in every group, as an administrator
(it gets every message) or as a member in privacy mode (commands, mentions and replies only).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tgfake.bounds import CHANNEL_ID_BASE
from tgfake.chats import Chat
from tgfake.errors import SimError
from tgfake.world.members import ADMINISTRATOR, CREATOR, MEMBER, Member, default_permissions, full_rights
from tgfake.world.people import User

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.telegram import Telegram

PERSON_ID_BASE = 100_000_000
"""Bulk people's ids start above this (clear of alice's 4242 and the ids of named people, 10,000..99,999)."""
GROUP_ID_BASE = 1_000_000
"""A bulk basic group's id is ``-(GROUP_ID_BASE + n)``; a supergroup's ``CHANNEL_ID_BASE - GROUP_ID_BASE - n``."""
FIRST_NAMES = (
    "Ada", "Boris", "Chen", "Dana", "Emil", "Fatima", "Goran", "Hana", "Ivan", "Jun", "Kemal", "Lena", "Mateo",
    "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera", "Wen", "Ximena", "Yusuf", "Zoe",
)  # fmt: skip


@dataclass(slots=True)
class Built:
    """What a bulk build made: the new people's ids and each new group's id with its members' ids (owner first)."""

    people: list[int] = field(default_factory=list)
    groups: dict[int, list[int]] = field(default_factory=dict)


def build(
    t: Telegram,
    bot: Bot,
    people: int,
    groups: int,
    members: int,
    *,
    chat_type: str = "supergroup",
    bot_admin: bool = True,
    seed: int = 1,
) -> Built:
    """Add ``people`` people and ``groups`` groups of ``members`` people each (drawn from every bulk person the
    world has, old and new), with ``bot`` in each; nothing announced. Refused (400) when the groups would need more
    people than there are."""
    if chat_type not in ("group", "supergroup"):
        raise SimError(400, f"chat_type must be group or supergroup, not {chat_type!r}")
    users = t.world.users
    have = sum(1 for uid in users if uid > PERSON_ID_BASE) + people
    if groups and members > have:  # refused before anything is built: nothing is left behind
        raise SimError(400, f"groups of {members} members need that many people; the world has {have}")
    if groups and members < 1:
        raise SimError(400, "a group needs at least one member (its owner)")
    start = _next_free(users, PERSON_ID_BASE + 1)
    built = Built()
    for n in range(people):
        uid = start + n
        while uid in users:  # only when someone took an id in the range by hand
            uid += 1
        name = FIRST_NAMES[n % len(FIRST_NAMES)]
        users[uid] = User(id=uid, first_name=name, last_name=f"N{uid - PERSON_ID_BASE}", username=f"u{uid}")
        built.people.append(uid)
    pool = [uid for uid in users if uid > PERSON_ID_BASE]
    draw = random.Random(seed)
    chats = t.world.chats
    base = CHANNEL_ID_BASE - GROUP_ID_BASE if chat_type == "supergroup" else -GROUP_ID_BASE
    cid = base
    rights = full_rights(chat_type)
    for n in range(groups):
        while cid in chats:
            cid -= 1
        chat = Chat(id=cid, type=chat_type, title=f"Group {n + 1}", permissions=default_permissions())
        chosen = draw.sample(pool, members)
        chat.members[chosen[0]] = Member(user=users[chosen[0]], status=CREATOR)
        for uid in chosen[1:]:
            chat.members[uid] = Member(user=users[uid], status=MEMBER)
        status = ADMINISTRATOR if bot_admin else MEMBER
        chat.members[bot.id] = Member(user=bot.user, status=status, rights=dict(rights) if bot_admin else {})
        chats[cid] = chat
        built.groups[cid] = chosen
    return built


def _next_free(users: dict[int, User], low: int) -> int:
    """The id after the highest bulk person's (``low`` in a world with none)."""
    taken = [uid for uid in users if uid >= low]
    return max(taken) + 1 if taken else low
