"""Chat members: Telegram's statuses, an administrator's rights and a restricted member's permissions.

The field lists are the Bot API's (``ChatMemberAdministrator``, ``ChatMemberRestricted``, ``ChatPermissions``),
in its order; the JSON of each status carries exactly the fields the Bot API gives it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tgfake.world.people import User

CREATOR, ADMINISTRATOR, MEMBER, RESTRICTED, LEFT, KICKED = (
    "creator",
    "administrator",
    "member",
    "restricted",
    "left",
    "kicked",
)
STATUSES = (CREATOR, ADMINISTRATOR, MEMBER, RESTRICTED, LEFT, KICKED)

ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_send_welcome_messages",
)
# Rights the Bot API shows only where they apply: channels post and edit, groups pin and manage topics.
CHANNEL_RIGHTS = ("can_post_messages", "can_edit_messages")
GROUP_RIGHTS = ("can_pin_messages", "can_manage_topics", "can_manage_tags")
ALL_ADMIN_RIGHTS = (*ADMIN_RIGHTS, *CHANNEL_RIGHTS, *GROUP_RIGHTS)

PERMISSIONS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_react_to_messages",
    "can_edit_tag",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
)
MEDIA_PERMISSIONS = (
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
)


def full_rights(chat_type: str) -> dict[str, bool]:
    """Every right an owner has in a chat of this type (what a creator can grant)."""
    names = ADMIN_RIGHTS + (CHANNEL_RIGHTS if chat_type == "channel" else GROUP_RIGHTS)
    rights = dict.fromkeys(names, True)
    if chat_type != "supergroup":
        rights.pop("can_manage_topics", None)
    return rights


def default_permissions() -> dict[str, bool]:
    """A new group's permissions: everyone may send everything, only admins change the chat."""
    perms = dict.fromkeys(PERMISSIONS, True)
    for name in ("can_edit_tag", "can_change_info", "can_invite_users", "can_pin_messages", "can_manage_topics"):
        perms[name] = False
    return perms


@dataclass(slots=True)
class Member:
    """One account's membership of one chat; ``rights`` for administrators, ``permissions`` for restricted ones."""

    user: User
    status: str = MEMBER
    rights: dict[str, bool] = field(default_factory=dict)
    permissions: dict[str, bool] = field(default_factory=dict)
    until_date: int = 0
    custom_title: str = ""
    is_anonymous: bool = False
    is_member: bool = True  # a restricted member may be outside the chat
    promoted_by: int = 0  # who made this administrator: only they (or the owner) may edit them
    tag: str = ""  # a regular member's tag (setChatMemberTag); an administrator's is its custom_title

    @property
    def present(self) -> bool:
        """In the chat: owner, administrator, member, or restricted while a member."""
        return self.status in (CREATOR, ADMINISTRATOR, MEMBER) or (self.status == RESTRICTED and self.is_member)

    @property
    def is_admin(self) -> bool:
        return self.status in (CREATOR, ADMINISTRATOR)

    def can(self, right: str) -> bool:
        """An owner can do everything; an administrator what its rights say."""
        return self.status == CREATOR or (self.status == ADMINISTRATOR and self.rights.get(right, False))

    def copy(self) -> Member:
        return Member(
            user=self.user,
            status=self.status,
            rights=dict(self.rights),
            permissions=dict(self.permissions),
            until_date=self.until_date,
            custom_title=self.custom_title,
            is_anonymous=self.is_anonymous,
            is_member=self.is_member,
            promoted_by=self.promoted_by,
            tag=self.tag,
        )

    def json(self, chat_type: str, viewer_id: int = 0) -> dict[str, Any]:
        """The Bot API ``ChatMember`` of this status; ``can_be_edited`` is true for the bot that promoted it."""
        out: dict[str, Any] = {"user": self.user.json(), "status": self.status}
        if self.status == CREATOR:
            out["is_anonymous"] = self.is_anonymous
            if self.custom_title:
                out["custom_title"] = self.custom_title
        elif self.status == ADMINISTRATOR:
            out["can_be_edited"] = bool(viewer_id) and self.promoted_by == viewer_id
            out["is_anonymous"] = self.is_anonymous
            names = ADMIN_RIGHTS + (CHANNEL_RIGHTS if chat_type == "channel" else GROUP_RIGHTS)
            for name in names:
                if name == "can_manage_topics" and chat_type != "supergroup":
                    continue
                out[name] = self.rights.get(name, False)
            if self.custom_title:
                out["custom_title"] = self.custom_title
        elif self.status == RESTRICTED:
            if self.tag:
                out["tag"] = self.tag  # before the rest, as Client.cpp's JsonChatMember writes it
            out["is_member"] = self.is_member
            for name in PERMISSIONS:
                out[name] = self.permissions.get(name, False)
            out["until_date"] = self.until_date
        elif self.status == MEMBER and self.tag:
            out["tag"] = self.tag
        elif self.status == KICKED:
            out["until_date"] = self.until_date
        return out
