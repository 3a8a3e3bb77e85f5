"""A bot's settings as Telegram keeps them: names, descriptions, command lists by scope and language, rights.

Commands are stored per (scope, language); what a person sees in a chat is the first non-empty list in
Telegram's resolution order (the Bot API's "Determining list of commands"): for each scope, from the narrowest
to ``default``, the person's language first and then the list without a language. Setting an empty list is
deleting it (TDLib drops empty lists the same way).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# A scope as a key: ("default", 0, 0), ("chat", chat_id, 0), ("chat_member", chat_id, user_id), ...
Scope = tuple[str, int, int]
DEFAULT_SCOPE: Scope = ("default", 0, 0)
CHAT_SCOPES = ("chat", "chat_administrators", "chat_member")
SCOPE_TYPES = ("default", "all_private_chats", "all_group_chats", "all_chat_administrators", *CHAT_SCOPES)

# ChatAdministratorRights in Client.cpp's order; which ones a layout shows and which a chat kind drops.
RIGHTS = (
    "can_manage_chat",
    "can_change_info",
    "can_post_messages",
    "can_edit_messages",
    "can_delete_messages",
    "can_invite_users",
    "can_restrict_members",
    "can_pin_messages",
    "can_manage_topics",
    "can_promote_members",
    "can_manage_video_chats",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_manage_direct_messages",
    "can_manage_tags",
    "is_anonymous",
)
CHANNEL_ONLY = frozenset({"can_post_messages", "can_edit_messages", "can_manage_direct_messages"})
GROUP_ONLY = frozenset({"can_pin_messages", "can_manage_topics", "can_manage_tags", "is_anonymous"})
# What the JSON of the rights leaves out per layout (json_store_administrator_rights).
HIDDEN_IN_CHANNELS = frozenset({"can_pin_messages", "can_manage_topics", "can_manage_tags"})


def rights_json(rights: dict[str, bool] | None, for_channels: bool) -> dict[str, bool]:
    """The rights as getMyDefaultAdministratorRights shows them: all false when never set."""
    hidden = HIDDEN_IN_CHANNELS if for_channels else CHANNEL_ONLY
    have = rights or {}
    return {name: bool(have.get(name)) for name in RIGHTS if name not in hidden}


def stored_rights(rights: dict[str, bool], for_channels: bool) -> dict[str, bool]:
    """What Telegram keeps: rights that do not apply to the chat kind are dropped (TDLib's AdministratorRights)."""
    dropped = GROUP_ONLY if for_channels else CHANNEL_ONLY
    return {name: value for name, value in rights.items() if name not in dropped}


@dataclass(slots=True)
class BotSettings:
    """Everything setMy* changes; a stand reset forgets it, as it forgets the conversation."""

    names: dict[str, str] = field(default_factory=dict)  # language code ("" = default) -> name
    descriptions: dict[str, str] = field(default_factory=dict)
    short_descriptions: dict[str, str] = field(default_factory=dict)
    commands: dict[tuple[Scope, str], list[dict[str, Any]]] = field(default_factory=dict)
    group_rights: dict[str, bool] | None = None
    channel_rights: dict[str, bool] | None = None
    profile_photo: dict[str, Any] | None = None

    def set_commands(self, scope: Scope, language: str, commands: list[dict[str, Any]]) -> None:
        if commands:
            self.commands[(scope, language)] = commands
        else:
            self.commands.pop((scope, language), None)

    def get_commands(self, scope: Scope, language: str) -> list[dict[str, Any]]:
        return [dict(c) for c in self.commands.get((scope, language), [])]

    def commands_seen(
        self, chat_type: str, chat_id: int, user_id: int, *, is_admin: bool, language: str
    ) -> list[dict[str, Any]]:
        """The command menu a person sees in a chat: the first list set in Telegram's resolution order."""
        if chat_type == "channel":
            return []
        if chat_type == "private":
            scopes: list[Scope] = [("chat", chat_id, 0), ("all_private_chats", 0, 0)]
        else:
            scopes = [("chat_member", chat_id, user_id)]
            if is_admin:
                scopes.append(("chat_administrators", chat_id, 0))
            scopes.append(("chat", chat_id, 0))
            if is_admin:
                scopes.append(("all_chat_administrators", 0, 0))
            scopes.append(("all_group_chats", 0, 0))
        scopes.append(DEFAULT_SCOPE)
        languages = [language, ""] if language else [""]
        for scope in scopes:
            for lang in languages:
                found = self.commands.get((scope, lang))
                if found:
                    return [dict(c) for c in found]
        return []

    @staticmethod
    def localized(values: dict[str, str], language: str) -> str:
        """What a person with ``language`` reads: their language's text, else the default one."""
        return values.get(language) or values.get("", "")
