"""The people's side of groups, supergroups, channels and forums: what the sim's membership routes do.

Plain functions over the stand (no aiohttp). Each change goes through :func:`tgfake.world.membership.set_member`
so the updates Telegram sends come out the same whoever causes them. A person acting in a chat needs the rights
Telegram would ask of them (an owner can do everything); the chat's owner acts when nobody is named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.bounds import CHANNEL_ID_BASE, TOPIC_COLORS
from tgfake.chats import Chat, InviteLink, JoinRequest, Topic
from tgfake.errors import SimError
from tgfake.world.channels import join_query_for
from tgfake.world.members import (
    ADMINISTRATOR,
    CREATOR,
    KICKED,
    LEFT,
    MEMBER,
    PERMISSIONS,
    RESTRICTED,
    Member,
    default_permissions,
    full_rights,
)
from tgfake.world.membership import post_service, set_member
from tgfake.world.people import DEFAULT_USER_ID, User, capitalized, user_id_for

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.telegram import Telegram

CHAT_TYPES = ("group", "supergroup", "channel")


def person_ref(stand: Telegram, ref: str | int) -> User:
    """A person by id or by name (``bob``: a stable id, remembered with that username). ``@name`` names a bot
    (:func:`account_ref`), never a person: ``404 no bot @name``, or a 400 when that bot exists."""
    if isinstance(ref, int) or (isinstance(ref, str) and ref.strip().isascii() and ref.strip().isdigit()):
        uid = int(ref)
        if uid <= 0:
            raise SimError(400, f"user id {uid} must be positive")
        return stand.world.users.get(uid) or stand.person(uid, "", "", name_from_username=False)
    name = ref.strip()
    if name.startswith("@"):
        bot = _bot_named(stand, name)
        raise SimError(400, f"@{bot.username} is a bot, not a person")
    if not name:
        raise SimError(400, "a person needs a name or an id")
    uid = user_id_for(name)
    known = stand.world.users.get(uid)
    if known is not None:
        return known
    return stand.person(uid, name.lower(), capitalized(name.lower()), name_from_username=True)


def account_ref(stand: Telegram, ref: str | int) -> User:
    """A bot (by id, or by username: ``@helper_bot`` names only a bot that exists) or else a person."""
    for bot in stand.bots.values():
        if ref == bot.id or (isinstance(ref, str) and ref.strip().lstrip("@").lower() == bot.username.lower()):
            return bot.user
        if isinstance(ref, str) and ref.strip().isdigit() and int(ref) == bot.id:
            return bot.user
    if isinstance(ref, str) and ref.strip().startswith("@"):
        return _bot_named(stand, ref.strip()).user
    return person_ref(stand, ref)


def _bot_named(stand: Telegram, name: str) -> Bot:
    """The stand's bot with the username ``@name``; ``404 no bot @name`` when there is none."""
    wanted = name.removeprefix("@").lower()
    bot = next((b for b in stand.bots.values() if b.username.lower() == wanted), None)
    if bot is None:
        raise SimError(404, f"no bot {name}")
    return bot


def chat_ref(stand: Telegram, chat_id: int) -> Chat:
    chat = stand.world.chats.get(chat_id)
    if chat is None:
        raise SimError(404, f"chat {chat_id} not found (create it with POST /sim/chats)")
    return chat


def next_chat_id(stand: Telegram, chat_type: str) -> int:
    """Fresh ids in Telegram's shapes: ``-N`` for groups, ``-100…`` for supergroups and channels."""
    base = -1 if chat_type == "group" else CHANNEL_ID_BASE - 1
    taken = set(stand.world.chats)
    cid = base - len(taken)
    while cid in taken:
        cid -= 1
    return cid


def create_chat(
    stand: Telegram,
    chat_type: str,
    title: str,
    *,
    chat_id: int = 0,
    username: str = "",
    is_forum: bool = False,
    description: str = "",
    creator: str | int = DEFAULT_USER_ID,
    members: list[str | int] | None = None,
    admins: list[str | int] | None = None,
    join_by_request: bool = False,
    linked_chat_id: int = 0,
) -> Chat:
    """A new chat with its owner, members and administrators (people or bots), as Telegram announces it.

    The owner's creation message (``group_chat_created``, ``supergroup_chat_created``, ``channel_chat_created``)
    comes first; each bot put in the chat then gets ``my_chat_member``, and each later member a join message.
    """
    chat_type = chat_type.strip().lower()
    if chat_type not in CHAT_TYPES:
        raise SimError(400, f"type must be one of {', '.join(CHAT_TYPES)}, not {chat_type!r}")
    if not title.strip():
        raise SimError(400, "title is empty")
    if is_forum and chat_type != "supergroup":
        raise SimError(400, "only a supergroup can be a forum")
    if chat_id:
        if chat_id >= 0:
            raise SimError(400, f"chat id {chat_id} must be negative")
        if chat_id in stand.world.chats:
            raise SimError(409, f"chat {chat_id} already exists")
    if username and chat_type == "group":
        raise SimError(400, "a basic group has no username: make it a supergroup")
    linked = _discussion_partner(stand, chat_type, linked_chat_id) if linked_chat_id else None
    owner = person_ref(stand, creator)
    joining = [account_ref(stand, ref) for ref in members or []]  # every name resolved before the chat exists
    promoted = [account_ref(stand, ref) for ref in admins or []]
    chat = Chat(
        id=chat_id or next_chat_id(stand, chat_type),
        type=chat_type,
        title=title,
        username=username.removeprefix("@"),
        is_forum=is_forum,
        description=description,
        join_by_request=join_by_request,
    )
    if chat_type != "channel":
        chat.permissions = default_permissions()
    _check_lineup(stand, chat, owner, joining, promoted)
    stand.world.chats[chat.id] = chat
    chat.members[owner.id] = Member(user=owner, status=CREATOR)
    created = {"group": "group_chat_created", "supergroup": "supergroup_chat_created"}.get(chat_type)
    if created is not None:
        post_service(stand, chat, owner, {created: True})
    for account in joining:
        add(stand, chat, account, by=owner)
    for account in promoted:
        promote(stand, chat, account, by=owner, joining=True)
    if linked is not None:
        chat.linked_chat_id, linked.linked_chat_id = linked.id, chat.id
    return chat


def _check_lineup(stand: Telegram, chat: Chat, owner: User, joining: list[User], promoted: list[User]) -> None:
    """The refusals :func:`add` and :func:`promote` would make, made before the chat exists: a chat refused for
    who is in it (a name twice, the owner as a member, a bot where it can't be) leaves nothing behind."""
    present = {owner.id}
    for account in joining:
        may_add(stand, chat, account)
        if account.id in present:
            raise SimError(409, f"{account.handle} is already in chat {chat.id}")
        present.add(account.id)
    for account in promoted:
        if account.id == owner.id:
            raise SimError(400, "the owner of a chat is already its administrator")
        if account.id not in present:
            may_join(stand, chat, account)


def _discussion_partner(stand: Telegram, chat_type: str, linked_chat_id: int) -> Chat:
    """The chat a new one is linked to: a channel's discussion supergroup, or a supergroup's channel (one each)."""
    partner = stand.world.chats.get(linked_chat_id)
    if partner is None:
        raise SimError(404, f"no chat {linked_chat_id} to link: make it first")
    if {chat_type, partner.type} != {"channel", "supergroup"}:
        kinds = f"not a {chat_type} to a {partner.type}"
        raise SimError(400, f"a channel links to a supergroup (its discussion group), {kinds}")
    if partner.linked_chat_id:
        raise SimError(409, f"chat {partner.id} is already linked to chat {partner.linked_chat_id}")
    return partner


def actor_in(stand: Telegram, chat: Chat, by: str | int | None, right: str) -> User:
    """Who acts (the owner when nobody is named), refused unless they hold ``right``."""
    if by in (None, "", 0):
        owner = next((m.user for m in chat.members.values() if m.status == CREATOR), None)
        if owner is None:
            raise SimError(400, f"chat {chat.id} has no owner: name who acts with 'by'")
        return owner
    assert by is not None
    user = account_ref(stand, by)
    member = chat.members.get(user.id)
    if member is None or not member.present or not member.can(right):
        raise SimError(403, f"{user.handle} may not do that in chat {chat.id} (needs {right})")
    return user


def may_join(stand: Telegram, chat: Chat, account: User) -> None:
    """A bot needs ``can_join_groups`` to be put in a group."""
    if account.is_bot:
        bot = stand.bots.get(account.id)
        if bot is not None and not bot.can_join_groups and chat.type != "channel":
            raise SimError(400, f"@{bot.username} can't be added to groups (BotFather: can_join_groups off)")


def may_add(stand: Telegram, chat: Chat, account: User) -> None:
    """Whether ``account`` may be added as a member: a bot is in a channel only as its administrator."""
    if account.is_bot and chat.type == "channel":
        raise SimError(400, f"a bot is in a channel only as its administrator: promote @{account.handle} instead")
    may_join(stand, chat, account)


def add(stand: Telegram, chat: Chat, account: User, *, by: User) -> Member:
    """``by`` adds ``account`` (a person or a bot) as a member; a bot needs ``can_join_groups``. Telegram puts bots
    in channels only as administrators (:func:`promote`)."""
    may_add(stand, chat, account)
    current = chat.members.get(account.id)
    if current is not None and current.present:
        raise SimError(409, f"{account.handle} is already in chat {chat.id}")
    new = Member(user=account, status=MEMBER)
    set_member(stand, chat, new, actor=by)
    return new


def usable_link(stand: Telegram, chat: Chat, value: str) -> InviteLink:
    """The chat's invite link a person opens, if it still lets anyone in (Telegram's app says such a link is
    invalid or expired)."""
    link = chat.invite_links.get(value)
    if link is None:
        raise SimError(404, f"chat {chat.id} has no invite link {value}")
    if link.is_revoked:
        raise SimError(409, f"invite link {value} is revoked")
    if link.expire_date and link.expire_date <= stand.unix_now():
        raise SimError(409, f"invite link {value} expired at {link.expire_date}")
    if link.member_limit and link.joined >= link.member_limit:
        raise SimError(409, f"invite link {value} has reached its member limit of {link.member_limit}")
    return link


def join(
    stand: Telegram, chat: Chat, person: User, *, via_request: bool = False, link: InviteLink | None = None
) -> Member:
    """A person joins by themselves (a public chat, or ``link``: the chat_member update names it and it counts
    towards the link's member_limit); a chat that approves members queues a request instead."""
    current = chat.members.get(person.id)
    if current is not None and current.present:
        raise SimError(409, f"{person.handle} is already in chat {chat.id}")
    if current is not None and current.status == KICKED:
        raise SimError(403, f"{person.handle} is banned from chat {chat.id}")
    new = Member(user=person, status=MEMBER)
    extra: dict[str, Any] | None = {"via_join_request": True} if via_request else None
    if link is not None:
        link.joined += 1
        extra = {"invite_link": chat.link_json(link)}
    set_member(stand, chat, new, actor=person, extra=extra)
    return new


def leave(stand: Telegram, chat: Chat, account: User) -> None:
    """An account leaves by itself (``left``); the owner cannot leave."""
    current = chat.members.get(account.id)
    if current is None or not current.present:
        raise SimError(409, f"{account.handle} is not in chat {chat.id}")
    if current.status == CREATOR:
        raise SimError(400, f"{account.handle} owns chat {chat.id} and cannot leave it")
    set_member(stand, chat, Member(user=account, status=LEFT), actor=account)


def remove(stand: Telegram, chat: Chat, account: User, *, by: User, ban: bool = True, until_date: int = 0) -> None:
    """``by`` removes ``account``: banned (``kicked``) unless ``ban`` is false (then only ``left``)."""
    current = chat.members.get(account.id)
    if current is not None and current.status == CREATOR:
        raise SimError(400, "the owner of a chat can't be removed")
    status = KICKED if ban else LEFT
    set_member(stand, chat, Member(user=account, status=status, until_date=until_date), actor=by)


def promote(
    stand: Telegram,
    chat: Chat,
    account: User,
    *,
    by: User,
    rights: dict[str, bool] | None = None,
    title: str = "",
    joining: bool = False,
) -> Member:
    """``by`` makes ``account`` an administrator (every right unless ``rights`` names them).

    ``joining`` (and a bot in a channel, which Telegram has only as an administrator) puts an account that is not in
    the chat in as an administrator in one change, as Telegram's "add admin" does: one ``my_chat_member`` from
    ``left``, not a join and then a promotion."""
    current = chat.members.get(account.id)
    if current is None or not current.present:
        if not (joining or (account.is_bot and chat.type == "channel")):
            raise SimError(409, f"{account.handle} is not in chat {chat.id}: add them first")
        may_join(stand, chat, account)
    if current is not None and current.status == CREATOR:
        raise SimError(400, "the owner of a chat is already its administrator")
    granted = full_rights(chat.type)
    if rights:
        unknown = sorted(set(rights) - set(granted))
        if unknown:
            raise SimError(400, f"unknown rights for a {chat.type}: {', '.join(unknown)}")
        granted = {name: bool(rights.get(name, False)) for name in granted}
    new = Member(user=account, status=ADMINISTRATOR, rights=granted, custom_title=title, promoted_by=by.id)
    set_member(stand, chat, new, actor=by)
    return new


def demote(stand: Telegram, chat: Chat, account: User, *, by: User) -> Member:
    current = chat.members.get(account.id)
    if current is None or current.status != ADMINISTRATOR:
        raise SimError(409, f"{account.handle} is not an administrator of chat {chat.id}")
    new = Member(user=account, status=MEMBER)
    set_member(stand, chat, new, actor=by)
    return new


def restrict(
    stand: Telegram, chat: Chat, account: User, *, by: User, permissions: dict[str, bool], until_date: int = 0
) -> Member:
    """``by`` restricts a member to ``permissions`` (the rest false) until ``until_date`` (0: forever)."""
    if chat.type != "supergroup":
        raise SimError(400, "members can be restricted only in supergroups")
    unknown = sorted(set(permissions) - set(PERMISSIONS))
    if unknown:
        raise SimError(400, f"unknown permissions: {', '.join(unknown)}")
    current = chat.members.get(account.id)
    if current is not None and current.status == CREATOR:
        raise SimError(400, "the owner of a chat can't be restricted")
    present = current is not None and current.present
    perms = {name: bool(permissions.get(name, False)) for name in PERMISSIONS}
    new = Member(user=account, status=RESTRICTED, permissions=perms, until_date=until_date, is_member=present)
    set_member(stand, chat, new, actor=by)
    return new


def request_join(stand: Telegram, chat: Chat, person: User, bio: str = "", link: InviteLink | None = None) -> list[int]:
    """A person asks to join (by ``link``, one that creates join requests, or the chat's own approval setting);
    administrator bots with ``can_invite_users`` get ``chat_join_request``."""
    current = chat.members.get(person.id)
    if current is not None and current.present:
        raise SimError(409, f"{person.handle} is already in chat {chat.id}")
    date = stand.unix_now()
    via = None if link is None else chat.link_json(link)
    chat.join_requests[person.id] = JoinRequest(user=person, date=date, bio=bio, invite_link=via)
    payload: dict[str, Any] = {
        "chat": chat.json(),
        "from": person.json(),
        "user_chat_id": person.id,
        "date": date,
    }
    if bio:
        payload["bio"] = bio
    if via is not None:
        payload["invite_link"] = via
    out = []
    for member in chat.members.values():
        bot = stand.bots.get(member.user.id) if member.user.is_bot else None
        if bot is not None and member.present and member.can("can_invite_users"):
            query_id = join_query_for(stand, chat, bot, person)  # the bot the chat assigned its requests to
            out.append(bot.push("chat_join_request", {**payload, "query_id": query_id} if query_id else payload))
    return out


def block(stand: Telegram, bot: Bot, person: User, blocked: bool) -> int:
    """The person blocks (or unblocks) the bot: ``my_chat_member`` kicked ↔ member in their private chat."""
    chat = stand.private_chat(bot, person)
    if chat.blocked == blocked:
        raise SimError(409, f"{person.handle} has {'already' if blocked else 'not'} blocked @{bot.username}")
    chat.blocked = blocked
    old, new = (MEMBER, KICKED) if blocked else (KICKED, MEMBER)
    payload = {
        "chat": chat.json(),
        "from": person.json(),
        "date": stand.unix_now(),
        "old_chat_member": Member(user=bot.user, status=old).json("private"),
        "new_chat_member": Member(user=bot.user, status=new).json("private"),
    }
    return bot.push("my_chat_member", payload)


def migrate(stand: Telegram, chat: Chat, by: User) -> Chat:
    """A group becomes a supergroup: a new chat with the members, and the two migration messages."""
    if chat.type != "group":
        raise SimError(400, f"chat {chat.id} is a {chat.type}; only a group can become a supergroup")
    new_id = next_chat_id(stand, "supergroup")
    post_service(stand, chat, by, {"migrate_to_chat_id": new_id})
    chat.migrated_to = new_id
    sup = Chat(id=new_id, type="supergroup", title=chat.title, description=chat.description)
    sup.permissions = dict(chat.permissions)
    sup.members = {uid: m.copy() for uid, m in chat.members.items() if m.present}
    stand.world.chats[new_id] = sup
    post_service(stand, sup, by, {"migrate_from_chat_id": chat.id})
    return sup


def create_topic(stand: Telegram, chat: Chat, name: str, by: User, icon_color: int = 0, emoji_id: str = "") -> Topic:
    """A forum topic: its creation message's id becomes the topic's ``message_thread_id``."""
    if not chat.is_forum:
        raise SimError(400, f"chat {chat.id} is not a forum")
    if not 1 <= len(name) <= 128:
        raise SimError(400, "a topic name is 1-128 characters")
    color = icon_color or TOPIC_COLORS[len(chat.topics) % len(TOPIC_COLORS)]
    thread_id = chat.next_message_id
    created: dict[str, Any] = {"name": name, "icon_color": color}
    if emoji_id:
        created["icon_custom_emoji_id"] = emoji_id
    msg = post_service(stand, chat, by, {"forum_topic_created": created}, thread_id=thread_id)
    topic = Topic(message_thread_id=msg.message_id, name=name, icon_color=color, icon_custom_emoji_id=emoji_id)
    chat.topics[topic.message_thread_id] = topic
    return topic
