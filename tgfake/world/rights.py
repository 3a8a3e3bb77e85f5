"""Rights: which administrator right each action needs, what an administrator may grant, who may edit whom.

The one place for Telegram's rules on changing a chat or a membership, whoever asks (the Bot API methods in
``tgfake/botapi/{chats,members,invites,topics}.py`` call these). The checks run in the order the real server runs
them: telegram-bot-api's own checks, then TDLib's (``DialogParticipantManager``, ``DialogManager``,
``ForumTopicManager``), then what Telegram's servers answer (``CHAT_ADMIN_REQUIRED``, ``RIGHT_FORBIDDEN``, ...), so
a call that breaks two rules is refused for the one Telegram names.

- An owner can do everything; an administrator what its rights say; a member only what the chat's permissions
  allow (forum topics) and nothing in basic groups that needs an appointed administrator.
- An administrator edits (restricts, bans, demotes) only the administrators it promoted itself (``promoted_by``),
  and grants only rights it holds; nobody edits the owner.
- Restrictions and bans end at ``until_date`` (lifted the next time the membership is read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tgfake import errors
from tgfake.chats import Chat
from tgfake.errors import TelegramError, bad_request
from tgfake.world.members import ADMINISTRATOR, CREATOR, KICKED, LEFT, MEMBER, RESTRICTED, Member, full_rights

if TYPE_CHECKING:
    from tgfake.world.people import User

FOREVER_BELOW = 30  # seconds: a ban or restriction shorter than this is forever (the Bot API docs)
FOREVER_ABOVE = 366 * 86400  # and so is one longer than 366 days

# The right each managed action needs of an administrator, and the words of its refusal ("not enough rights to ...").
RIGHTS = {
    "restrict": ("can_restrict_members", "restrict/unrestrict chat member"),
    "title": ("can_change_info", "change chat title"),
    "photo": ("can_change_info", "change chat photo"),
    "description": ("can_change_info", "set chat description"),
    "permissions": ("can_restrict_members", "change chat permissions"),
    "pin": ("can_pin_messages", "manage pinned messages in the chat"),
    "invite_links": ("can_invite_users", "manage chat invite link"),
    "join_requests": ("can_invite_users", "manage chat join requests"),
    "create_topic": ("can_manage_topics", "create a topic"),
    "edit_topic": ("can_manage_topics", "edit the topic"),
    "close_topic": ("can_manage_topics", "close or open the topic"),
    "delete_topic": ("can_delete_messages", "delete the topic"),
}


def until(value: int, now: int) -> int:
    """A ban's or restriction's end as Telegram keeps it: 0 (forever) when under 30 s or over 366 days away."""
    if value <= 0 or value - now < FOREVER_BELOW or value - now > FOREVER_ABOVE:
        return 0
    return value


def current(chat: Chat, account: User, now: int) -> Member:
    """The account's membership now (``left`` if it never was one); a restriction or ban that ran out is lifted."""
    member = chat.members.get(account.id)
    if member is None:
        return Member(user=account, status=LEFT)
    if member.status in (RESTRICTED, KICKED) and member.until_date and member.until_date <= now:
        present = member.status == RESTRICTED and member.is_member
        member = Member(user=account, status=MEMBER if present else LEFT)
        chat.members[account.id] = member
    return member


def same(old: Member, new: Member) -> bool:
    """Telegram answers a change to the same status with success and changes nothing (titles aside)."""
    return (old.status, old.rights, old.permissions, old.until_date, old.is_member, old.is_anonymous) == (
        new.status,
        new.rights,
        new.permissions,
        new.until_date,
        new.is_member,
        new.is_anonymous,
    )


def can_edit(actor: Member, target: Member) -> bool:
    """Whether ``actor`` may change ``target``'s membership: never the owner; an administrator only if it promoted
    it (or ``actor`` owns the chat); anyone else yes."""
    if target.status == CREATOR:
        return False
    if target.status == ADMINISTRATOR:
        return actor.status == CREATOR or target.promoted_by == actor.user.id
    return True


def may_grant(actor: Member, rights: dict[str, bool]) -> bool:
    """An administrator grants only rights it holds itself; the owner grants any."""
    return actor.status == CREATOR or all(actor.rights.get(name, False) for name, on in rights.items() if on)


def require(chat: Chat, actor: Member, action: str) -> None:
    """Refuse with ``not enough rights to <action>`` unless ``actor`` may do ``action`` in ``chat``.

    Pins in a channel need ``can_edit_messages``; anyone may pin in a private chat; a forum's members may open topics
    when the chat's permissions let them.
    """
    right, words = RIGHTS[action]
    if chat.type == "private":
        return
    if action == "pin" and chat.type == "channel":
        right = "can_edit_messages"
    if actor.present and actor.can(right):
        return
    if action == "create_topic" and actor.present and not actor.is_admin:
        allowed = actor.permissions if actor.status == RESTRICTED else chat.permissions
        if allowed.get("can_manage_topics", False):
            return
    raise bad_request(errors.NOT_ENOUGH_RIGHTS_TO.format(action=words))


def check_change(chat: Chat, actor: Member, old: Member, new: Member) -> None:
    """A status change in a supergroup or channel (TDLib ``set_channel_participant_status``, then the server).

    The owner is checked first, then a change of oneself, then the actor's right, then the target's rank and
    what is granted. The caller has already answered an unchanged status with success.
    """
    if old.status == CREATOR:
        raise bad_request(errors.CANT_REMOVE_OWNER)
    is_self = old.user.id == actor.user.id
    promoting = new.status == ADMINISTRATOR or (new.status == MEMBER and old.status == ADMINISTRATOR)
    if promoting:
        if is_self:
            if new.status == ADMINISTRATOR:
                raise bad_request(errors.CANT_PROMOTE_SELF)
            return  # an administrator may step down
        if not actor.can("can_promote_members"):
            raise bad_request(errors.NOT_ENOUGH_RIGHTS)
        if not can_edit(actor, old):
            raise bad_request(errors.CHAT_ADMIN_REQUIRED)
        if not old.present:
            raise bad_request(errors.USER_NOT_PARTICIPANT)
        if not may_grant(actor, new.rights):
            raise bad_request(errors.RIGHT_FORBIDDEN)
        return
    if new.status == MEMBER and old.status == LEFT:
        raise bad_request(errors.BOTS_CANT_ADD)  # only the person can come back
    if is_self:
        raise bad_request(errors.CANT_RESTRICT_SELF)
    require(chat, actor, "restrict")
    if not can_edit(actor, old):
        raise bad_request(errors.USER_IS_ADMIN)


def check_group_kick(actor: Member, target: Member) -> None:
    """Removing someone from a basic group: the server wants an administrator above the target, and a member."""
    if not actor.can("can_restrict_members") or not can_edit(actor, target):
        raise bad_request(errors.CHAT_ADMIN_REQUIRED)
    if not target.present:
        raise bad_request(errors.USER_NOT_PARTICIPANT)


def admin_rights(chat: Chat, wanted: dict[str, bool]) -> dict[str, bool]:
    """The rights of this chat's type, each as asked (those that do not apply are dropped, as Telegram does)."""
    return {name: bool(wanted.get(name, False)) for name in full_rights(chat.type)}


def refuse_unknown(found: User | None, description: str) -> User:
    """The account a call names, or the refusal Telegram gives for an id it has never seen."""
    if found is None:
        raise TelegramError(400, description)
    return found
