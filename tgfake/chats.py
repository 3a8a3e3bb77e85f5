"""Chats and the messages in them: plain objects, their Bot API JSON and their sim views and transcript."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tgfake.bounds import CHANNEL_ID_BASE
from tgfake.content import Media, StoredFile, media_json, media_label, media_view
from tgfake.drafts import Drafts
from tgfake.extras import ORIGIN, legacy_forward_fields, origin_name, reaction_counts, reaction_label
from tgfake.markup import Button, Keyboard, ReplyMarkup, Shown, keyboard_json
from tgfake.text import to_transcript
from tgfake.world.members import Member
from tgfake.world.people import User

TYPING_WINDOW = 5.0  # seconds a sendChatAction shows "typing" (shown while strictly less than this)


@dataclass(slots=True)
class StoredMessage:
    """A message as the stand keeps it; deleted ones stay, flagged, so transcripts can show history."""

    message_id: int
    date: int
    sender: User | None = None
    text: str = ""
    entities: list[dict[str, Any]] = field(default_factory=list)
    caption: str = ""
    media: Media | None = None  # photo, video, location, poll...: one model for every kind (tgfake/content.py)
    media_group_id: str = ""  # an album's items share it
    reply_to: int | None = None
    quote: dict[str, Any] | None = None  # the part of the replied message quoted (Bot API TextQuote)
    keyboard: Keyboard | None = None
    parse_mode: str = ""
    edit_date: int | None = None
    deleted: bool = False
    rich: bool = False
    thread_id: int = 0  # the forum topic (its creating message's id), 0 outside topics
    service: dict[str, Any] | None = None  # new_chat_members, left_chat_member, ... as Bot API JSON
    reply_markup: ReplyMarkup | None = None  # a reply keyboard, remove or force reply (never in the Bot API JSON)
    extra: dict[str, Any] = field(default_factory=dict)  # forward_origin, quote: Bot API fields (tgfake/extras.py)
    reactions: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # person id -> their ReactionTypes
    protected: bool = False  # sent with protect_content: not forwardable (bots may still copy it)
    caption_above: bool = False  # show_caption_above_media
    link_preview: dict[str, Any] | None = None  # a text's link_preview_options (tgfake/botapi/link_previews.py)
    via_bot: User | None = None  # sent through an inline bot (a chosen inline result, a Mini App's answer)
    sender_chat: Chat | None = None  # sent on behalf of a chat outside a channel (``sender`` is td's stand-in)
    signature: str = ""  # author_signature: an anonymous administrator's custom title
    inline_message_id: str = ""  # such a message with an inline keyboard: the bot edits it by this id

    @property
    def from_bot(self) -> bool:
        """Sent by a bot (the stand-in bots of messages on behalf of chats are not authors)."""
        return self.sender is not None and self.sender.is_bot and self.sender_chat is None

    @property
    def is_media(self) -> bool:
        return self.media is not None

    @property
    def kind(self) -> str:
        """``text``, a service message's ``service``, or the media kind (``photo``, ``poll``...)."""
        if self.service:
            return "service"
        return self.media.kind if self.media is not None else "text"

    def file_of(self, kind: str) -> StoredFile | None:
        """The file when the message is of this kind."""
        return self.media.file if self.media is not None and self.media.kind == kind else None

    @property
    def photo(self) -> StoredFile | None:
        return self.file_of("photo")

    @property
    def document(self) -> StoredFile | None:
        return self.file_of("document")


@dataclass(slots=True)
class CallbackAnswer:
    id: str
    text: str
    show_alert: bool
    url: str = ""  # a game or t.me/<bot>?start= link the person's client opens

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id}
        if self.text:
            out["text"] = self.text
        if self.show_alert:
            out["show_alert"] = True
        if self.url:
            out["url"] = self.url
        return out


@dataclass(slots=True)
class Topic:
    """A forum topic: its thread id is the id of the service message that created it."""

    message_thread_id: int
    name: str
    icon_color: int = 0x6FB9F0
    icon_custom_emoji_id: str = ""
    closed: bool = False
    hidden: bool = False

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message_thread_id": self.message_thread_id, "name": self.name}
        out["icon_color"] = self.icon_color
        if self.icon_custom_emoji_id:
            out["icon_custom_emoji_id"] = self.icon_custom_emoji_id
        return out


@dataclass(slots=True)
class JoinRequest:
    """A person asking to join a chat that approves members; admin bots decide."""

    user: User
    date: int
    bio: str = ""
    invite_link: dict[str, Any] | None = None


@dataclass(slots=True)
class InviteLink:
    """An invite link an administrator made (``https://t.me/+…``); the primary one is ``exportChatInviteLink``'s."""

    invite_link: str
    creator: User
    name: str = ""
    expire_date: int = 0
    member_limit: int = 0
    creates_join_request: bool = False
    is_primary: bool = False
    is_revoked: bool = False
    subscription_period: int = 0
    subscription_price: int = 0
    joined: int = 0  # people who joined by it (its member_limit counts them); not in the Bot API object

    def json(self, pending: int = 0) -> dict[str, Any]:
        """The Bot API ``ChatInviteLink``, fields in telegram-bot-api's order."""
        out: dict[str, Any] = {"invite_link": self.invite_link}
        if self.name:
            out["name"] = self.name
        out["creator"] = self.creator.json()
        if self.expire_date:
            out["expire_date"] = self.expire_date
        if self.member_limit:
            out["member_limit"] = self.member_limit
        if pending:
            out["pending_join_request_count"] = pending
        if self.subscription_period:
            out["subscription_period"] = self.subscription_period
            out["subscription_price"] = self.subscription_price
        out["creates_join_request"] = self.creates_join_request
        out["is_primary"] = self.is_primary
        out["is_revoked"] = self.is_revoked
        return out


def type_for_id(chat_id: int) -> str:
    """The type of a chat nobody has described yet: positive ids are private chats, ``-100…`` ids supergroups or
    channels (taken as supergroups), other negative ids groups."""
    if chat_id > 0:
        return "private"
    return "supergroup" if chat_id < CHANNEL_ID_BASE else "group"


@dataclass(slots=True)
class Chat:
    """One conversation; message ids are per chat from 1, shared by everyone in it.

    A private chat is between one person (``user``) and one bot (``bot_id``): each bot has its own private chat
    with a person, under the person's id, as on Telegram. Groups, supergroups and channels have ``members``.
    """

    id: int
    type: str
    title: str = ""
    user: User | None = None
    bot_id: int = 0
    username: str = ""
    is_forum: bool = False
    description: str = ""
    members: dict[int, Member] = field(default_factory=dict)
    permissions: dict[str, bool] = field(default_factory=dict)
    blocked: bool = False  # private: the person blocked the bot
    migrated_to: int = 0  # a group that became a supergroup
    linked_chat_id: int = 0  # a channel's discussion supergroup, or the channel a supergroup discusses
    pinned: list[int] = field(default_factory=list)  # pinned message ids, newest last
    topics: dict[int, Topic] = field(default_factory=dict)
    join_requests: dict[int, JoinRequest] = field(default_factory=dict)
    join_by_request: bool = False
    next_message_id: int = 1
    messages: dict[int, StoredMessage] = field(default_factory=dict)
    typing_at: float | None = None
    callbacks: list[CallbackAnswer] = field(default_factory=list)
    drafts: Drafts = field(default_factory=Drafts)
    photo: StoredFile | None = None  # setChatPhoto's upload
    sticker_set_name: str = ""  # a supergroup's sticker set (setChatStickerSet)
    invite_links: dict[str, InviteLink] = field(default_factory=dict)  # by link, the primary one included
    banned_senders: dict[int, int] = field(default_factory=dict)  # banChatSenderChat: sender chat id -> until_date
    general: Topic = field(default_factory=lambda: Topic(message_thread_id=1, name="General"))  # a forum's General
    reply_keyboards: dict[int, Shown | None] = field(default_factory=dict)  # person id (0: everyone) -> keyboard
    direct_messages_of: int = 0  # a channel's direct messages chat (a supergroup): the channel's id

    def add(self, message: StoredMessage) -> StoredMessage:
        self.messages[message.message_id] = message
        return message

    def mint_message_id(self) -> int:
        mid = self.next_message_id
        self.next_message_id += 1
        return mid

    def live(self, message_id: int) -> StoredMessage | None:
        """The message unless it is missing or deleted."""
        msg = self.messages.get(message_id)
        return msg if msg is not None and not msg.deleted else None

    def typing(self, now: float) -> bool:
        return self.typing_at is not None and now - self.typing_at < TYPING_WINDOW

    def link_json(self, link: InviteLink) -> dict[str, Any]:
        """The Bot API ChatInviteLink, with the join requests pending by it."""
        via = [(r.invite_link or {}).get("invite_link") for r in self.join_requests.values()]
        return link.json(via.count(link.invite_link))

    def json(self) -> dict[str, Any]:
        """The Bot API Chat object: private chats carry the person's names once known, groups their title."""
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.title:
            out["title"] = self.title
        if self.username:
            out["username"] = self.username
        if self.type == "private" and self.user is not None:
            out["first_name"] = self.user.first_name
            if self.user.last_name:
                out["last_name"] = self.user.last_name
            if self.user.username:
                out["username"] = self.user.username
        if self.is_forum:
            out["is_forum"] = True
        if self.direct_messages_of:
            out["is_direct_messages"] = True
        return out

    def members_view(self) -> list[dict[str, Any]]:
        """Who is in the chat, as the sim shows it (the chat view, the world routes' answers): each account's
        names apart, as a Telegram ``User`` has them (``last_name`` and ``username`` only when set)."""
        out = []
        for m in self.members.values():
            user = m.user
            item: dict[str, Any] = {"user_id": user.id, "first_name": user.first_name}
            if user.last_name:
                item["last_name"] = user.last_name
            if user.username:
                item["username"] = user.username
            out.append(item | {"is_bot": user.is_bot, "status": m.status})
        return out

    def member(self, user_id: int) -> Member | None:
        return self.members.get(user_id)

    def present(self, user_id: int) -> bool:
        """In the chat now (owner, administrator, member, or a restricted member)."""
        m = self.members.get(user_id)
        return m is not None and m.present

    def find_button(self, label: str) -> tuple[StoredMessage, Button] | None:
        """The newest live message showing a button with this label (a leading ``✓ `` ignored on both sides)."""
        for msg in reversed(self.messages.values()):
            button = button_in(msg, label) if not msg.deleted else None
            if button is not None:
                return msg, button
        return None

    def newest_with_keyboard(self) -> StoredMessage | None:
        for msg in reversed(self.messages.values()):
            if not msg.deleted and msg.keyboard:
                return msg
        return None


def strip_check(label: str) -> str:
    return label.removeprefix("✓ ")


def button_in(msg: StoredMessage, label: str) -> Button | None:
    """The button of this message whose label matches (trimmed, a leading ``✓ `` ignored on both sides)."""
    want = strip_check(label.strip())
    for row in msg.keyboard or []:
        for button in row:
            if strip_check(button.text.strip()) == want:
                return button
    return None


BUSINESS_FIELDS = ("business_connection_id", "sender_business_bot")
"""A business message's fields, which telegram-bot-api writes before all others (JsonMessage)."""


def message_json(chat: Chat, msg: StoredMessage, *, quote: bool = True) -> dict[str, Any]:
    """The Bot API Message object, fields in Telegram's order; ``quote`` adds ``reply_to_message`` one level deep."""
    out: dict[str, Any] = {k: copy.deepcopy(msg.extra[k]) for k in BUSINESS_FIELDS if k in msg.extra}
    out["message_id"] = msg.message_id
    if msg.thread_id:
        out["message_thread_id"] = msg.thread_id
    if chat.type == "channel":
        out["sender_chat"] = chat.json()  # a channel post is signed by the channel, not by its author
    elif msg.sender is not None:
        out["from"] = msg.sender.json()
        if msg.signature:
            out["author_signature"] = msg.signature
        if msg.sender_chat is not None:
            out["sender_chat"] = msg.sender_chat.json()
    out["chat"] = chat.json()
    out["date"] = msg.date
    if msg.edit_date is not None:
        out["edit_date"] = msg.edit_date
    if msg.thread_id and chat.is_forum:
        out["is_topic_message"] = True
    if msg.service:
        out.update(msg.service)
    else:
        if msg.extra:
            out.update(copy.deepcopy(msg.extra))
            origin = out.get("forward_origin")
            if origin is not None:
                out.update(legacy_forward_fields(origin))
        if not msg.is_media:
            out["text"] = msg.text
    if msg.caption:
        out["caption"] = msg.caption
    if msg.media_group_id:
        out["media_group_id"] = msg.media_group_id
    if msg.media is not None:
        out.update(media_json(msg.media))
    if msg.entities:
        out["caption_entities" if msg.is_media else "entities"] = msg.entities
    if msg.link_preview is not None and not msg.is_media and not msg.service:
        out["link_preview_options"] = dict(msg.link_preview)
    if msg.caption_above and msg.caption:
        out["show_caption_above_media"] = True
    if msg.media is not None and msg.media.spoiler:
        out["has_media_spoiler"] = True
    if quote and msg.reply_to is not None:
        target = chat.messages.get(msg.reply_to)
        if target is not None:
            out["reply_to_message"] = message_json(chat, target, quote=False)
        if msg.quote is not None:
            out["quote"] = msg.quote
    if msg.keyboard:
        out["reply_markup"] = keyboard_json(msg.keyboard)
    if msg.protected:
        out["has_protected_content"] = True
    if msg.via_bot is not None:
        out["via_bot"] = msg.via_bot.json()
    return out


def origin_of(chat: Chat, msg: StoredMessage, *, hidden: bool = False) -> dict[str, Any]:
    """The ``forward_origin`` a forward of ``msg`` carries, the bot's forward and the person's alike.

    A forward of a forward keeps the first origin; a person who hides forwards (or ``hidden``: the sim says this
    author does) is a ``hidden_user`` named only; a message without a sender is its anonymous chat's.
    """
    kept = msg.extra.get(ORIGIN)
    if kept is not None:
        return dict(kept)
    if chat.type == "channel":
        return {"type": "channel", "chat": chat.json(), "message_id": msg.message_id, "date": msg.date}
    sender = msg.sender
    if sender is None:
        return {"type": "chat", "sender_chat": chat.json(), "date": msg.date}
    if hidden or (sender.hides_forwards and not sender.is_bot):
        return {"type": "hidden_user", "sender_user_name": sender.full_name, "date": msg.date}
    return {"type": "user", "sender_user": sender.json(), "date": msg.date}


def comment_thread(chat: Chat, reply_to: int | None) -> int:
    """The comment thread a reply outside a forum joins: its target's, or the channel post's automatic forward it
    answers (a discussion group's threads, whose ``message_thread_id`` is that forward's id); 0 for none."""
    if chat.is_forum or reply_to is None:
        return 0
    target = chat.messages.get(reply_to)
    if target is None:
        return 0
    if target.thread_id:
        return target.thread_id
    return target.message_id if target.extra.get("is_automatic_forward") else 0


def message_view(msg: StoredMessage) -> dict[str, Any]:
    """A message as ``GET /sim/chat/{id}`` shows it (deleted ones included, flagged)."""
    out: dict[str, Any] = {"message_id": msg.message_id, "from": "bot" if msg.from_bot else "user"}
    if msg.sender is not None and msg.sender.username:
        out["username"] = msg.sender.username
    if msg.sender_chat is not None:
        out["sender_chat"] = {"id": msg.sender_chat.id, "title": msg.sender_chat.title}
    if msg.thread_id:
        out["message_thread_id"] = msg.thread_id
    if msg.service:
        out["service"] = msg.service
    out["text"] = msg.text
    if msg.caption:
        out["caption"] = msg.caption
    if msg.entities:
        out["caption_entities" if msg.is_media else "entities"] = msg.entities
    if msg.media is not None:
        out["kind"] = msg.media.kind
        out[msg.media.kind] = media_view(msg.media)
    if msg.media_group_id:
        out["media_group_id"] = msg.media_group_id
    if msg.parse_mode:
        out["parse_mode"] = msg.parse_mode
    if msg.reply_to is not None:
        out["reply_to_message_id"] = msg.reply_to
    out["edited"] = msg.edit_date is not None
    out["deleted"] = msg.deleted
    out["rich"] = msg.rich
    if msg.keyboard:
        out["keyboard"] = [[b.json() for b in row] for row in msg.keyboard]
    if msg.reply_markup is not None:
        out["reply_keyboard"] = msg.reply_markup.json()
    if msg.extra:
        out["content"] = msg.extra
    if "forward_origin" in msg.extra:
        out["forwarded_from"] = origin_name(msg.extra["forward_origin"])
    if msg.reactions:
        out["reactions"] = reaction_counts(msg.reactions)
    if msg.via_bot is not None:
        out["via_bot"] = msg.via_bot.username
    if msg.inline_message_id:
        out["inline_message_id"] = msg.inline_message_id
    return out


def indent_lines(text: str) -> str:
    """Continuation lines of a transcript entry are indented by four spaces."""
    return text.replace("\n", "\n    ")


def message_lines(msg: StoredMessage, who: str, album: str = "") -> list[str]:
    """The transcript lines of one live message: ``[id] who: body`` and one line per keyboard row.

    Formatting shows in the notation of :func:`tgfake.text.to_transcript`; plain text is shown as it is. A service
    message reads ``[id] * what happened`` (``* bob joined``); ``who`` names the sender. ``album``
    (``[album 3: photo, photo, video]``) stands for the whole album on its first item's line.
    """
    if msg.service:
        return [f"[{msg.message_id}] * {service_text(msg.service, who)}"]
    shown = to_transcript(msg.caption if msg.is_media else msg.text, msg.entities)
    if msg.media is not None:
        body = album if album else media_label(msg.media)
        if shown:
            body += " " + shown
    else:
        body = shown
    if "forward_origin" in msg.extra:
        body = f"[forwarded from {origin_name(msg.extra['forward_origin'])}] {body}"
    if msg.via_bot is not None:
        who = f"{who} via @{msg.via_bot.username}"
    lines = [f"[{msg.message_id}] {who}: {indent_lines(body)}"]
    for row in msg.keyboard or []:
        lines.append("    " + " ".join(f"[{b.text}]" for b in row))
    if msg.reply_markup is not None:
        lines.extend(msg.reply_markup.lines())
    if msg.reactions:
        lines.append(
            "    reactions: "
            + " ".join(f"{reaction_label(r['type'])} {r['total_count']}" for r in reaction_counts(msg.reactions))
        )
    return lines


def transcript_lines(chat: Chat, who: Callable[[StoredMessage], str]) -> list[str]:
    """Every live message's lines; an album is one line, on its first item (its other items are in the JSON)."""
    lines: list[str] = []
    albums: dict[str, list[StoredMessage]] = {}
    for msg in chat.messages.values():
        if not msg.deleted and msg.media_group_id:
            albums.setdefault(msg.media_group_id, []).append(msg)
    for msg in chat.messages.values():
        if msg.deleted:
            continue
        album = ""
        if msg.media_group_id:
            items = albums[msg.media_group_id]
            if items[0] is not msg:
                continue
            album = f"[album {len(items)}: {', '.join(m.kind for m in items)}]"
        lines.extend(message_lines(msg, who(msg), album))
    return lines


def _name(user: dict[str, Any]) -> str:
    return str(user.get("username") or user.get("first_name") or user.get("id"))


def service_text(service: dict[str, Any], who: str) -> str:
    """One readable line for a service message (the transcript's ``*`` lines)."""
    if "new_chat_members" in service:
        names = ", ".join(_name(u) for u in service["new_chat_members"])
        return f"{names} joined" if names == who else f"{who} added {names}"
    if "left_chat_member" in service:
        name = _name(service["left_chat_member"])
        return f"{name} left" if name == who else f"{who} removed {name}"
    if "new_chat_title" in service:
        return f"{who} changed the title to {service['new_chat_title']!r}"
    if "forum_topic_created" in service:
        return f"{who} created the topic {service['forum_topic_created']['name']!r}"
    if "forum_topic_edited" in service:
        return f"{who} edited the topic"
    if "forum_topic_closed" in service:
        return f"{who} closed the topic"
    if "forum_topic_reopened" in service:
        return f"{who} reopened the topic"
    if "pinned_message" in service:
        return f"{who} pinned message {service['pinned_message']['message_id']}"
    for key, verb in (("successful_payment", "paid"), ("refunded_payment", "was refunded")):
        if key in service:
            return f"{who} {verb} {service[key]['total_amount']} {service[key]['currency']}"
    if "boost_added" in service:
        count = service["boost_added"]["boost_count"]
        return f"{who} boosted the group" + (f" {count} times" if count > 1 else "")
    for key, verb in (("suggested_post_approved", "approved"), ("suggested_post_declined", "declined")):
        if key in service:
            comment = service[key].get("comment")
            return f"{who} {verb} the suggested post" + (f": {comment!r}" if comment else "")
    if "managed_bot_created" in service:
        return f"{who} created @{service['managed_bot_created']['bot']['username']}"
    if "migrate_to_chat_id" in service:
        return f"the group became the supergroup {service['migrate_to_chat_id']}"
    if "migrate_from_chat_id" in service:
        return f"the supergroup was created from the group {service['migrate_from_chat_id']}"
    for key, label in (
        ("group_chat_created", "created the group"),
        ("supergroup_chat_created", "created the supergroup"),
        ("channel_chat_created", "created the channel"),
        ("new_chat_photo", "changed the photo"),
        ("delete_chat_photo", "removed the photo"),
    ):
        if key in service:
            return f"{who} {label}"
    return f"{who}: {', '.join(service)}"
