"""What the chat management methods share: the chat a call manages, the user it names, names and permissions.

``managed_chat`` is telegram-bot-api's ``check_chat`` with its three access levels: reading a chat, reading its
members (which a basic group allows only to members), and writing. Unlike sends, a chat the stand has never seen
is ``chat not found`` rather than made on first use.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.common import chat_id
from tgfake.bounds import MAX_TITLE
from tgfake.chats import Chat
from tgfake.errors import bad_request
from tgfake.params import Params, loads
from tgfake.text import cleaning
from tgfake.text.cleaning import clean_input_string
from tgfake.world import rights, visibility
from tgfake.world.members import PERMISSIONS, Member
from tgfake.world.people import User

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

READ, READ_MEMBERS, WRITE = "read", "read_members", "write"
# What can_send_media_messages stands for.
MEDIA_KINDS: tuple[str, ...] = ("can_send_audios", "can_send_documents", "can_send_photos", "can_send_videos")
MEDIA_KINDS += ("can_send_video_notes", "can_send_voice_notes")
_LEADING_INT = re.compile(r"[+-]?\d+")


def managed_chat(ctx: BotCall, p: Params, access: str = WRITE, types: tuple[str, ...] = (), refusal: str = "") -> Chat:
    """The chat named by ``chat_id`` as this bot may use it, or Telegram's refusal; with ``types``, a chat of
    another type is refused with ``refusal`` (after the access check, as telegram-bot-api orders them)."""
    chat = ctx.chat(chat_id(p))
    if chat is None:
        raise bad_request(errors.CHAT_NOT_FOUND)
    if chat.type != "private":
        write = access == WRITE or (access == READ_MEMBERS and chat.type == "group")
        visibility.check_access(chat, ctx.bot, write=write)
    if types and chat.type not in types:
        raise bad_request(refusal)
    return chat


def lenient_int(text: str) -> int:
    """An integer as td::to_integer reads it: its leading digits, 0 for anything else."""
    m = _LEADING_INT.match(text)
    if m is None:
        return 0
    value = int(m.group())
    return value if -(2**63) <= value < 2**63 else 0


def int_arg(p: Params, name: str, low: int = -(2**31), high: int = 2**31 - 1) -> int:
    """An integer parameter clamped to its range, as telegram-bot-api's get_integer_arg does (absent: 0)."""
    return max(low, min(high, lenient_int(p.text(name))))


def user_arg(p: Params, name: str = "user_id") -> int:
    """``user_id``: a positive integer, else ``invalid user_id specified`` (before the chat is looked at)."""
    value = max(lenient_int(p.text(name)), 0)
    if not value:
        raise bad_request(f"Bad Request: invalid {name} specified")
    return value


def account(ctx: BotCall, user_id: int) -> User | None:
    """A person or bot the stand knows (the ones the bot could have met), else None."""
    bot = ctx.telegram.bots.get(user_id)
    return bot.user if bot is not None else ctx.world.users.get(user_id)


def bot_member(ctx: BotCall, chat: Chat) -> Member:
    """The calling bot's own membership of ``chat``."""
    return rights.current(chat, ctx.bot.user, ctx.unix_now())


def input_string(text: str) -> str:
    """A string parameter as TDLib takes it (clean_input_string): refused when it is not UTF-8."""
    cleaned = clean_input_string(text)
    if cleaned is None:
        raise bad_request(errors.STRINGS_NOT_UTF8)
    return cleaned


def clean_name(text: str, limit: int = MAX_TITLE) -> str:
    """A title or name as TDLib keeps it: clean_input_string, then clean_name (blanks collapsed and trimmed, cut to
    ``limit`` code points)."""
    return cleaning.clean_name(input_string(text), limit)


def parse_permissions(p: Params, *, allow_legacy: bool, independent: bool) -> tuple[dict[str, bool], bool]:
    """``permissions`` (a ChatPermissions JSON object) as telegram-bot-api reads it; returns it and whether it came
    from the legacy flat parameters that keep some of a restricted member's old permissions.

    Without ``use_independent_chat_permissions``, a media or other-message permission also grants sending
    messages (and ``can_send_other_messages`` every media kind), as Telegram's legacy rule has it.
    """
    perms = dict.fromkeys(PERMISSIONS, False)
    raw = p.get("permissions")
    if raw is None:
        if allow_legacy and any(
            name in p.values
            for name in (
                "can_send_messages",
                "can_send_media_messages",
                "can_send_other_messages",
                "can_add_web_page_previews",
            )
        ):
            return _legacy_permissions(p, independent)
        return perms, False
    try:
        obj = loads(raw)
    except ValueError:
        raise bad_request(errors.PERMISSIONS_BAD) from None
    if not isinstance(obj, dict):
        raise bad_request(errors.PERMISSIONS_NOT_OBJECT)

    def flag(name: str, default: bool = False) -> bool:
        if name not in obj:
            return default
        value = obj[name]
        if not isinstance(value, bool):
            raise bad_request(errors.PERMISSIONS_FIELD.format(name=name))
        return value

    for name in ("can_send_messages", "can_send_polls", "can_send_other_messages", "can_add_web_page_previews"):
        perms[name] = flag(name)
    for name in ("can_change_info", "can_invite_users", "can_pin_messages"):
        perms[name] = flag(name)
    perms["can_manage_topics"] = flag("can_manage_topics", perms["can_pin_messages"])
    kinds = MEDIA_KINDS
    if any(name in obj for name in kinds):
        for name in kinds:
            perms[name] = flag(name)
    else:
        media = flag("can_send_media_messages")
        for name in kinds:
            perms[name] = media
        if media and not independent:
            perms["can_send_messages"] = True
    perms["can_edit_tag"] = flag("can_edit_tag", perms["can_pin_messages"])
    perms["can_react_to_messages"] = flag("can_react_to_messages", perms["can_send_messages"])
    if (perms["can_send_other_messages"] or perms["can_add_web_page_previews"]) and not independent:
        for name in (*kinds, "can_send_messages"):
            perms[name] = True
    if perms["can_send_polls"] and not independent:
        perms["can_send_messages"] = True
    return perms, False


def _legacy_permissions(p: Params, independent: bool) -> tuple[dict[str, bool], bool]:
    """The pre-5.0 flat parameters of restrictChatMember (``can_send_media_messages`` and friends)."""
    perms = dict.fromkeys(PERMISSIONS, False)
    messages = p.flag("can_send_messages")
    media = p.flag("can_send_media_messages")
    other = p.flag("can_send_other_messages")
    previews = p.flag("can_add_web_page_previews")
    if (other or previews) and not independent:
        media = True
    if media and not independent:
        messages = True
    legacy = True
    if messages and media and other and previews:
        perms.update(dict.fromkeys(("can_send_polls", "can_change_info", "can_invite_users"), True))
        perms.update(dict.fromkeys(("can_pin_messages", "can_manage_topics"), True))
        legacy = False
    perms["can_send_messages"] = messages
    perms["can_send_other_messages"] = other
    perms["can_add_web_page_previews"] = previews
    perms.update(dict.fromkeys(MEDIA_KINDS, media))
    perms["can_edit_tag"] = perms["can_pin_messages"]
    perms["can_react_to_messages"] = messages
    return perms, legacy


def permissions_json(perms: dict[str, bool]) -> dict[str, Any]:
    """The Bot API ``ChatPermissions`` in telegram-bot-api's order, ``can_send_media_messages`` derived."""
    out: dict[str, Any] = {"can_send_messages": perms.get("can_send_messages", False)}
    out["can_send_media_messages"] = any(perms.get(name, False) for name in MEDIA_KINDS)
    for name in PERMISSIONS[1:]:
        out[name] = perms.get(name, False)
    return out
