"""What the testing client reads and writes: people, chats, calls, messages as the chat view shows them."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tgfake.harness import DEFAULT_BOT_TOKEN as DEFAULT_BOT_TOKEN
from tgfake.harness import DEFAULT_READY_TIMEOUT as DEFAULT_READY_TIMEOUT
from tgfake.harness import SimAPIError as SimAPIError
from tgfake.text import to_html
from tgfake.world.people import user_id_for

DEFAULT_GROUP_ID = -100000004242
"""The group the stand puts alice in when she writes with ``chat_type`` group (``-100000000000 - 4242``)."""

DEFAULT_TIMEOUT = 10.0
"""How long a wait for the bot lasts unless told otherwise: generous, since a green run never waits it out."""

QUIET_PERIOD = 0.5
"""How long ``expect_no_reply`` watches for a message that should not come."""

POLL_GRACE = 1.0
"""How long ``expect_no_reply`` first waits for the bot to poll again (it has then taken the update)."""

SETTLE = 2.0
"""How long a reply with the wrong text must stay unchanged (the bot making no call) before a wait fails."""

SERVICE = "service"
"""The kind of a service message (``* bob joined``, pins, removals): not a message a person reads as a reply."""


# ----------------------------------------------------------------------------------------------------------
# People and chats


@dataclass(frozen=True, slots=True)
class Person:
    """Someone who writes to the bot; ``username`` doubles as the name in transcripts."""

    user_id: int
    username: str
    first_name: str = ""


def person(who: str | int | Person) -> Person:
    """Resolve ``"alice"``, ``"bob"``, a user id or a :class:`Person` to a :class:`Person`.

    alice is the stand's default user (4242). Other names get a stable id, so a feature file can name
    anyone and still be deterministic.
    """
    if isinstance(who, Person):
        return who
    if isinstance(who, int):
        return Person(who, "alice" if who == 4242 else "")
    name = who.strip().lstrip("@").lower()
    if not name:
        raise ValueError("a person needs a name")
    uid = user_id_for(name)
    return Person(uid, name, name[:1].upper() + name[1:])


ChatRef = int | str | None
"""A chat: its id, ``"private"`` (the person's own chat), ``"group"`` (the default group), or None."""


# ----------------------------------------------------------------------------------------------------------
# What the sim API returns


@dataclass(frozen=True, slots=True)
class Call:
    """One Bot API call the bot made, as the outbox recorded it."""

    seq: int
    method: str
    params: dict[str, str]
    status: int
    response: Any
    at: str = ""
    bot_id: int = 0  # which bot made it (the stand's bots each have their own token)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Call:
        params = raw.get("params") or {}
        return cls(
            seq=int(raw.get("seq", 0)),
            method=str(raw.get("method", "")),
            params={str(k): str(v) for k, v in params.items()},
            status=int(raw.get("status", 0)),
            response=raw.get("response"),
            at=str(raw.get("at", "")),
            bot_id=int(raw.get("bot_id") or 0),
        )

    @property
    def ok(self) -> bool:
        return self.status == 200

    def line(self) -> str:
        """One line for failure reports."""
        shown = ", ".join(f"{k}={_clip(v)}" for k, v in self.params.items())
        return f"#{self.seq} {self.method} -> {self.status}  {shown}"


def _clip(v: str, n: int = 60) -> str:
    v = v.replace("\n", "\\n")
    return v if len(v) <= n else v[: n - 1] + "…"


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """A message as the stand's chat view shows it (``GET /sim/chat/{id}``)."""

    message_id: int
    from_bot: bool
    text: str
    caption: str = ""
    username: str = ""
    edited: bool = False
    deleted: bool = False
    keyboard: tuple[tuple[str, ...], ...] = ()
    entities: tuple[Mapping[str, Any], ...] = ()
    kind: str = "text"  # or photo, video, sticker, poll, location, service...: what the message carries
    forwarded_from: str = ""  # a forward's origin as the transcript names it ("alice", a channel's title)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def content(self) -> Mapping[str, Any] | None:
        """What a non-text message carries, as the chat view shows its kind (a poll, a location, a photo's file...)."""
        value = self.raw.get(self.kind) if self.kind not in ("text", SERVICE) else None
        return value if isinstance(value, Mapping) else None

    @property
    def service(self) -> Mapping[str, Any] | None:
        """A service message's event as the chat view shows it (``{"left_chat_member": {...}}``), else None."""
        value = self.raw.get(SERVICE)
        return value if isinstance(value, Mapping) else None

    @property
    def readable(self) -> bool:
        """A message a person reads (text, media, a poll, an invoice...), not a service line such as a join."""
        return self.kind != SERVICE

    @property
    def poll(self) -> Mapping[str, Any] | None:
        """The poll (the Bot API ``Poll``: question, options with ``voter_count``, ``is_closed``...), else None."""
        return self.content if self.kind == "poll" else None

    def poll_option(self, label: str) -> int:
        """The index of the poll's option with this text (what :meth:`StandClient.vote` takes)."""
        labels = [str(o.get("text")) for o in (self.poll or {}).get("options") or []]
        if self.poll is None:
            raise AssertionError(f"message {self.message_id} is not a poll")
        if label not in labels:
            raise AssertionError(f"the poll of message {self.message_id} has no option {label!r}: {labels}")
        return labels.index(label)

    @property
    def reactions(self) -> dict[str, int]:
        """Who reacted how, counted: ``{"👍": 2}`` (the bot's own reaction included)."""
        out: dict[str, int] = {}
        for item in self.raw.get("reactions") or []:
            kind = item.get("type") or {}
            out[str(kind.get("emoji") or kind.get("custom_emoji_id") or "")] = int(item.get("total_count", 0))
        return out

    @property
    def reply_keyboard(self) -> tuple[tuple[str, ...], ...]:
        """The labels of the reply keyboard this message sent (``ReplyKeyboardMarkup``), rows of labels."""
        markup = self.raw.get("reply_keyboard") or {}
        return tuple(tuple(str(b.get("text", "")) for b in row) for row in markup.get("keyboard") or [])

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> ChatMessage:
        rows: list[tuple[str, ...]] = []
        for row in raw.get("keyboard") or []:
            rows.append(tuple(str(b.get("text", "")) if isinstance(b, Mapping) else str(b) for b in row))
        return cls(
            message_id=int(raw.get("message_id", 0)),
            from_bot=raw.get("from") == "bot",
            text=str(raw.get("text") or ""),
            caption=str(raw.get("caption") or ""),
            username=str(raw.get("username") or ""),
            edited=bool(raw.get("edited")),
            deleted=bool(raw.get("deleted")),
            keyboard=tuple(rows),
            entities=tuple(raw.get("entities") or raw.get("caption_entities") or ()),
            kind=str(raw.get("kind") or (SERVICE if raw.get(SERVICE) else "text")),
            forwarded_from=str(raw.get("forwarded_from") or ""),
            raw=raw,
        )

    @property
    def body(self) -> str:
        """The text, or the caption of a photo or document."""
        return self.text or self.caption

    @property
    def html(self) -> str:
        """The body with its formatting as Telegram's HTML (``<b>Hi</b>``); detected links and mentions stay plain."""
        return to_html(self.body, self.entities)

    def keyboard_text(self) -> str:
        """The keyboard as the text transcript draws it: ``[A] [B]`` per row, rows joined by newlines."""
        return "\n".join(" ".join(f"[{label}]" for label in row) for row in self.keyboard)


@dataclass(frozen=True, slots=True)
class Sent:
    """What ``send``, ``send_file`` (and ``send_photo``...), ``send_album`` and ``tap`` return: the minted ids."""

    chat_id: int
    update_id: int
    message_id: int = 0
    callback_query_id: str = ""
    file_id: str = ""  # send_file / send_photo / send_document: the file's id, for getFile
    media_group_id: str = ""  # send_album: the album every item belongs to


@dataclass(frozen=True, slots=True)
class AlbumItem:
    """One file of ``send_album``: its kind (``photo``, ``video``, ``document``, ``audio``), bytes and fields.

    ``fields`` are the kind's own (``duration``, ``width``, ``height`` of a video; ``performer``, ``title``).
    """

    kind: str
    data: bytes
    name: str = ""
    caption: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        out = {"type": self.kind, "name": self.name, "data": base64.b64encode(self.data).decode(), **self.fields}
        if self.caption:
            out["caption"] = self.caption
        return out
