"""What a message carries besides text: one model for every kind, and the JSON Telegram writes for each.

A :class:`Media` is a kind (``photo``, ``video``, ``location``, ``poll``...), the file it shows (None for the
kinds without one) and the fields Telegram writes for that kind. The bot's sends and the person's (a shared
location, a contact, a poll they made, ``users_shared`` from a reply button...) are the same model, so a poll is
one object whoever made it. The Bot API object, the sim view and the transcript label are all derived from it
here, so a new kind is one table row, not a new message field. The key order of each object follows
telegram-bot-api's ``Json<Kind>`` writers.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

FILE_KINDS = ("photo", "document", "video", "audio", "voice", "animation", "sticker", "video_note")
"""The kinds that carry a file (a file id is re-sent only as its own kind, or as any kind of DOCUMENT_KINDS)."""
DOCUMENT_KINDS = frozenset(FILE_KINDS) - {"photo"}
"""TDLib's document file type class: a file id of one is accepted by the send of any other (``FileManager``'s
``is_document_file_type``), and the message shows the file as what it is; a photo's id is of another class."""
CAPTIONED = frozenset({"photo", "document", "video", "audio", "voice", "animation", "paid_media", "live_photo"})
"""The kinds a caption may go with (stickers, video notes, locations... have none)."""
SPOILERED = frozenset({"photo", "live_photo", "video", "animation"})
"""The kinds TDLib can hide under a spoiler (``has_spoiler`` of its photo, video and animation contents)."""


@dataclass(slots=True)
class StoredFile:
    """A file (the bot's upload or the person's), kept with its bytes so tests can read it back."""

    file_id: str
    unique_id: str
    name: str
    mime_type: str
    data: bytes
    width: int = 0
    height: int = 0
    kind: str = "document"  # one of content.FILE_KINDS: a file id is re-sent only as its own kind
    meta: dict[str, Any] = field(default_factory=dict)  # duration, emoji...: what the file shows for its kind
    sizes: tuple[StoredFile, ...] = ()  # a photo's smaller sizes, drawn from it, smallest first (tgfake/filestore.py)
    thumbnail: StoredFile | None = None  # the thumbnail drawn for a video, document, sticker... (Telegram's)
    of: str = ""  # a drawn size of a photo: that photo's file id (a send of this id sends the whole photo)

    @property
    def size(self) -> int:
        return len(self.data)

    def __deepcopy__(self, memo: dict[int, Any]) -> StoredFile:
        """A file is shared, never duplicated: a forwarded or copied message shows the same file id."""
        return self


# Each file kind's fields, in Telegram's order; file_name and mime_type come from the file itself.
_FILE_FIELDS: dict[str, tuple[str, ...]] = {
    "document": ("file_name", "mime_type"),
    "video": ("duration", "width", "height", "file_name", "mime_type", "start_timestamp"),
    "animation": ("file_name", "mime_type", "duration", "width", "height"),
    "audio": ("duration", "file_name", "mime_type", "title", "performer"),
    "voice": ("duration", "mime_type"),
    "video_note": ("duration", "length"),
    "sticker": ("width", "height", "emoji", "set_name", "is_animated", "is_video", "type"),
}
_OPTIONAL = frozenset({"file_name", "mime_type", "title", "performer", "emoji", "set_name", "start_timestamp"})


@dataclass(slots=True)
class Media:
    """A message's content other than text: its kind, its file if it has one, and that kind's fields."""

    kind: str
    file: StoredFile | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    spoiler: bool = False  # sent with has_spoiler: shown as has_media_spoiler

    @property
    def captioned(self) -> bool:
        return self.kind in CAPTIONED


def _file_object(kind: str, f: StoredFile, fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    own = {"file_name": f.name, "mime_type": f.mime_type}
    for key in _FILE_FIELDS[kind]:
        value = own[key] if key in own else fields.get(key)
        if key in own and key in fields:
            value = fields[key]  # a voice note's audio/ogg, for one
        if value is None or (key in _OPTIONAL and not value):
            continue
        out[key] = value
    if f.thumbnail is not None:  # json_store_thumbnail: written under both names, before the file's ids
        out["thumbnail"] = out["thumb"] = photo_size(f.thumbnail)
    out["file_id"] = f.file_id
    out["file_unique_id"] = f.unique_id
    out["file_size"] = f.size
    return out


def photo_size(f: StoredFile) -> dict[str, Any]:
    """One PhotoSize (Client.cpp's JsonPhotoSize and JsonThumbnail: the file's ids and size, then its dimensions)."""
    return {"file_id": f.file_id, "file_unique_id": f.unique_id, "file_size": f.size, "width": f.width,
            "height": f.height}  # fmt: skip


def photo_sizes(f: StoredFile) -> list[dict[str, Any]]:
    """A photo's PhotoSize array: the sizes drawn from it, smallest first, then the photo itself (tgfake/filestore.py
    ``draw_sizes``)."""
    return [photo_size(size) for size in (*f.sizes, f)]


def live_photo_json(photo: StoredFile, video: StoredFile) -> dict[str, Any]:
    """JsonLivePhoto: the still's sizes, then the motion part's duration, size, type and file."""
    out: dict[str, Any] = {"photo": photo_sizes(photo)}
    out |= {key: video.meta.get(key, 0) for key in ("duration", "width", "height")}
    mime = video.meta.get("mime_type") or video.mime_type  # a video's type as describe() read it
    if mime:
        out["mime_type"] = mime
    return out | {"file_id": video.file_id, "file_unique_id": video.unique_id, "file_size": video.size}


def media_json(media: Media) -> dict[str, Any]:
    """The Message fields this content adds, as Telegram writes them (an animation is also a ``document``)."""
    f = media.file
    if media.kind == "photo" and f is not None:
        return {"photo": photo_sizes(f)}
    if media.kind == "live_photo" and f is not None:
        return {"live_photo": live_photo_json(f, media.fields["video"]), "photo": photo_sizes(f)}
    if f is not None:
        out = {media.kind: _file_object(media.kind, f, {**f.meta, **media.fields})}
        if media.kind == "animation":
            out["document"] = _file_object("document", f, {})
        return out
    if media.kind == "venue":
        return {"location": media.fields["location"], "venue": dict(media.fields)}
    if media.kind == "poll":
        return {"poll": copy.deepcopy(media.fields)}  # a vote changes the poll later, not updates already queued
    if media.kind == "paid_media":  # the bot's own view: every item unlocked (Client.cpp's JsonPaidMediaInfo)
        paid = media.fields
        return {"paid_media": {"star_count": paid["star_count"], "paid_media": copy.deepcopy(paid["paid_media"])}}
    return {media.kind: dict(media.fields)}


def media_view(media: Media) -> dict[str, Any]:
    """The sim view of the content: the file's ids (the unique one tells a re-sent file from a new upload), name,
    type and size with the kind's fields, or the fields."""
    if media.kind == "paid_media":
        return paid_media_view(media.fields)
    out: dict[str, Any] = {}
    f = media.file
    if f is not None:
        out = {"file_id": f.file_id, "file_unique_id": f.unique_id, "name": f.name}
        out |= {"mime_type": f.mime_type, "size": f.size}
        if f.width:
            out["width"] = f.width
        if f.height:
            out["height"] = f.height
    out.update(f.meta if f is not None else {})
    out.update(media.fields)
    if media.spoiler:
        out["has_spoiler"] = True
    if media.kind == "live_photo":
        video = media.fields["video"]
        out["video"] = {"file_id": video.file_id, "name": video.name, "mime_type": video.mime_type, "size": video.size}
    return out


def paid_preview(item: dict[str, Any]) -> dict[str, Any]:
    """What a person who has not paid sees of one paid item: its ``preview`` size and duration (JsonPaidMedia)."""
    kind = item["type"]
    shown = item[kind]
    if kind == "photo":
        shown = shown[-1]
    elif kind == "live_photo":
        shown = {**shown["photo"][-1], "duration": shown.get("duration", 0)}
    out: dict[str, Any] = {"type": "preview"}
    for key in ("width", "height", "duration"):
        if shown.get(key):
            out[key] = shown[key]
    return out


def paid_media_view(fields: dict[str, Any]) -> dict[str, Any]:
    """The sim view of paid media: the price, the locked previews, and who bought it (tgfake/world/paid_media.py)."""
    previews = [paid_preview(item) for item in fields["paid_media"]]
    return {"star_count": fields["star_count"], "paid_media": previews, "purchased_by": list(fields["purchased_by"])}


def _seconds(fields: dict[str, Any]) -> str:
    return f" {fields['duration']}s" if fields.get("duration") else ""


def media_label(media: Media) -> str:
    """The transcript's bracketed body: ``[video clip.mp4 3s]``, ``[poll 'Q?'] [A: 1] [B: 0]``, ``[dice 🎲 4]``."""
    kind, f = media.kind, media.file
    d = {**f.meta, **media.fields} if f is not None else media.fields
    if f is not None:
        if kind == "photo":
            return f"[photo {f.name} {f.width}x{f.height}]"
        if kind == "live_photo":
            return f"[live photo {f.name} {f.width}x{f.height}{_seconds(media.fields['video'].meta)}]"
        if kind == "sticker":
            return f"[sticker {d.get('emoji') or f.name}]"
        if kind in ("voice", "video_note"):
            return f"[{kind}{_seconds(d)}]"
        return f"[{kind} {f.name}{_seconds(d)}]"
    if kind == "location":
        live = f" live {d['live_period']}s" if d.get("live_period") else ""
        return f"[location {d['latitude']}, {d['longitude']}{live}]"
    if kind == "venue":
        return f"[venue {d['title']}, {d['address']}]"
    if kind == "contact":
        return f"[contact {' '.join(filter(None, (d['first_name'], d.get('last_name'))))} {d['phone_number']}]"
    if kind == "dice":
        return f"[dice {d['emoji']} {d['value']}]"
    if kind == "poll":
        return poll_label(d)
    if kind == "invoice":
        return f"[invoice {d['title']!r}: {d['total_amount']} {d['currency']}] {d['description']}"
    if kind == "game":
        return f"[game {d['title']!r}]"
    if kind == "paid_media":
        return f"[paid media {d['star_count']}⭐: {', '.join(m['type'] for m in d['paid_media'])}]"
    if kind == "users_shared":
        return f"[shared users {', '.join(account_name(u) for u in d['users'])} for request {d['request_id']}]"
    if kind == "chat_shared":
        return f"[shared chat {account_name(d)} ({d['chat_id']}) for request {d['request_id']}]"
    if kind == "web_app_data":
        return f"[web app data from {d['button_text']!r}: {d['data']}]"
    if kind == "passport_data":
        return f"[passport data: {', '.join(e['type'] for e in d['data'])}]"
    return f"[{kind}]"


def poll_label(poll: dict[str, Any]) -> str:
    """``[poll 'Tea?'] [Yes: 2] [No: 0]``: the question, then each option with its votes; ``(closed)`` once closed."""
    word = "quiz" if poll["type"] == "quiz" else "poll"
    closed = " (closed)" if poll["is_closed"] else ""
    options = " ".join(f"[{o['text']}: {o['voter_count']}]" for o in poll["options"])
    return f"[{word} {poll['question']!r}{closed}] {options}"


def account_name(obj: dict[str, Any]) -> str:
    """How a shared user, a chat or a forward's origin is named: username, first name, title, or the id."""
    return str(obj.get("username") or obj.get("first_name") or obj.get("title") or obj.get("user_id") or "")
