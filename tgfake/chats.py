"""Chats and the messages in them: plain objects, their Bot API JSON and their sim views and transcript."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tgfake.drafts import Drafts
from tgfake.text import to_transcript

TYPING_WINDOW = 5.0  # seconds a sendChatAction shows "typing" (shown while strictly less than this)


@dataclass(slots=True)
class Button:
    """One inline keyboard button; exactly one of the actions is set (the rest are None)."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    web_app_url: str | None = None

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text}
        if self.callback_data is not None:
            out["callback_data"] = self.callback_data
        if self.url is not None:
            out["url"] = self.url
        if self.web_app_url is not None:
            out["web_app"] = {"url": self.web_app_url}
        return out


Keyboard = list[list[Button]]


def keyboard_json(keyboard: Keyboard) -> dict[str, Any]:
    return {"inline_keyboard": [[b.json() for b in row] for row in keyboard]}


@dataclass(slots=True)
class Person:
    """The human side of a chat: the sender of injected messages and taps."""

    id: int
    first_name: str
    username: str = ""

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.username:
            out["username"] = self.username
        return out


@dataclass(slots=True)
class StoredFile:
    """A photo or document (the bot's upload or the person's), kept with its bytes so tests can read it back."""

    file_id: str
    unique_id: str
    name: str
    mime_type: str
    data: bytes
    width: int = 0
    height: int = 0
    kind: str = "document"  # photo or document: a file id is re-sent only as its own kind

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(slots=True)
class StoredMessage:
    """A message as the stand keeps it; deleted ones stay, flagged, so transcripts can show history."""

    message_id: int
    date: int
    from_bot: bool
    sender: Person | None = None
    text: str = ""
    entities: list[dict[str, Any]] = field(default_factory=list)
    caption: str = ""
    photo: StoredFile | None = None
    document: StoredFile | None = None
    reply_to: int | None = None
    quote: dict[str, Any] | None = None  # the part of the replied message quoted (Bot API TextQuote)
    keyboard: Keyboard | None = None
    parse_mode: str = ""
    edit_date: int | None = None
    deleted: bool = False
    rich: bool = False

    @property
    def is_media(self) -> bool:
        return self.photo is not None or self.document is not None


@dataclass(slots=True)
class CallbackAnswer:
    id: str
    text: str
    show_alert: bool

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id}
        if self.text:
            out["text"] = self.text
        if self.show_alert:
            out["show_alert"] = True
        return out


def type_for_id(chat_id: int) -> str:
    """The type of a chat nobody has described yet: positive ids are private chats, negative ones groups."""
    return "private" if chat_id > 0 else "group"


@dataclass(slots=True)
class Chat:
    """One conversation; message ids are per chat from 1, shared by the bot's and the person's messages."""

    id: int
    type: str
    title: str = ""
    user: Person | None = None
    next_message_id: int = 1
    messages: dict[int, StoredMessage] = field(default_factory=dict)
    typing_at: float | None = None
    callbacks: list[CallbackAnswer] = field(default_factory=list)
    drafts: Drafts = field(default_factory=Drafts)

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

    def json(self) -> dict[str, Any]:
        """The Bot API Chat object: private chats carry the person's names once known, groups their title."""
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.title:
            out["title"] = self.title
        if self.type == "private" and self.user is not None:
            out["first_name"] = self.user.first_name
            if self.user.username:
                out["username"] = self.user.username
        return out

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


def message_json(chat: Chat, msg: StoredMessage, bot_user: dict[str, Any], *, quote: bool = True) -> dict[str, Any]:
    """The Bot API Message object, fields in Telegram's order; ``quote`` adds ``reply_to_message`` one level deep."""
    out: dict[str, Any] = {"message_id": msg.message_id}
    if msg.from_bot:
        out["from"] = bot_user
    elif msg.sender is not None:
        out["from"] = msg.sender.json()
    out["chat"] = chat.json()
    out["date"] = msg.date
    if msg.edit_date is not None:
        out["edit_date"] = msg.edit_date
    if not msg.is_media:
        out["text"] = msg.text
    if msg.caption:
        out["caption"] = msg.caption
    if msg.photo is not None:
        p = msg.photo
        out["photo"] = [
            {
                "file_id": p.file_id,
                "file_unique_id": p.unique_id,
                "width": p.width,
                "height": p.height,
                "file_size": p.size,
            }
        ]
    if msg.document is not None:
        d = msg.document
        doc: dict[str, Any] = {"file_id": d.file_id, "file_unique_id": d.unique_id}
        if d.name:
            doc["file_name"] = d.name
        if d.mime_type:
            doc["mime_type"] = d.mime_type
        doc["file_size"] = d.size
        out["document"] = doc
    if msg.entities:
        out["caption_entities" if msg.is_media else "entities"] = msg.entities
    if quote and msg.reply_to is not None:
        target = chat.messages.get(msg.reply_to)
        if target is not None:
            out["reply_to_message"] = message_json(chat, target, bot_user, quote=False)
        if msg.quote is not None:
            out["quote"] = msg.quote
    if msg.keyboard:
        out["reply_markup"] = keyboard_json(msg.keyboard)
    return out


def file_view(f: StoredFile) -> dict[str, Any]:
    out: dict[str, Any] = {"file_id": f.file_id, "name": f.name, "mime_type": f.mime_type, "size": f.size}
    if f.width:
        out["width"] = f.width
    if f.height:
        out["height"] = f.height
    return out


def message_view(msg: StoredMessage) -> dict[str, Any]:
    """A message as ``GET /sim/chat/{id}`` shows it (deleted ones included, flagged)."""
    out: dict[str, Any] = {"message_id": msg.message_id, "from": "bot" if msg.from_bot else "user"}
    if not msg.from_bot and msg.sender is not None and msg.sender.username:
        out["username"] = msg.sender.username
    out["text"] = msg.text
    if msg.caption:
        out["caption"] = msg.caption
    if msg.entities:
        out["caption_entities" if msg.is_media else "entities"] = msg.entities
    if msg.photo is not None:
        out["photo"] = file_view(msg.photo)
    if msg.document is not None:
        out["document"] = file_view(msg.document)
    if msg.parse_mode:
        out["parse_mode"] = msg.parse_mode
    if msg.reply_to is not None:
        out["reply_to_message_id"] = msg.reply_to
    out["edited"] = msg.edit_date is not None
    out["deleted"] = msg.deleted
    out["rich"] = msg.rich
    if msg.keyboard:
        out["keyboard"] = [[b.json() for b in row] for row in msg.keyboard]
    return out


def indent_lines(text: str) -> str:
    """Continuation lines of a transcript entry are indented by four spaces."""
    return text.replace("\n", "\n    ")


def message_lines(msg: StoredMessage) -> list[str]:
    """The transcript lines of one live message: ``[id] who: body`` and one line per keyboard row.

    Formatting shows in the notation of :func:`tgfake.text.to_transcript`; plain text is shown as it is.
    """
    who = "bot" if msg.from_bot else (msg.sender.username if msg.sender and msg.sender.username else "user")
    shown = to_transcript(msg.caption if msg.is_media else msg.text, msg.entities)
    if msg.photo is not None:
        body = f"[photo {msg.photo.name} {msg.photo.width}x{msg.photo.height}]"
        if shown:
            body += " " + shown
    elif msg.document is not None:
        body = f"[document {msg.document.name}]"
        if shown:
            body += " " + shown
    else:
        body = shown
    lines = [f"[{msg.message_id}] {who}: {indent_lines(body)}"]
    for row in msg.keyboard or []:
        lines.append("    " + " ".join(f"[{b.text}]" for b in row))
    return lines
