"""The person's files: one of every kind, an album of them, and the photos and audios on their profile.

A file the person sends is checked as a client's upload is (empty, too big, a photo that is no image, a field
the kind has no use for), read as a bot's upload is read (:func:`tgfake.media.describe`: image sizes by
Pillow, durations and tags by mutagen, the rest as stated), kept in the one file store and posted as a
:class:`~tgfake.content.Media` message, so the bot gets the JSON the bot's own sends get and may getFile it.
Every check runs before anything is stored: a refusal stores no file and sends no message. Plain state, no aiohttp.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from tgfake.content import CAPTIONED, FILE_KINDS, Media, StoredFile
from tgfake.errors import SimError, TelegramError
from tgfake.filestore import PERSON_MAX_DOCUMENT, PERSON_MAX_PHOTO, default_name, draw_sizes, mint
from tgfake.media import (
    MAX_CAPTION_LENGTH,
    MAX_PHOTO_RATIO,
    MAX_PHOTO_SIDES,
    PROFILE_PHOTO_BOXES,
    describe,
    image_size,
    photo_dimensions_valid,
    picture_size,
)
from tgfake.models import MediaFieldsIn
from tgfake.text import FormattedText, format_text
from tgfake.world.games import Game
from tgfake.world.person import inject, person_chat

if TYPE_CHECKING:
    from tgfake.chats import Chat
    from tgfake.models import AlbumIn, FileIn, FilePartIn, GameIn, ProfileAudioIn, SenderFields
    from tgfake.world.telegram import Telegram

STATED = ("duration", "width", "height", "length", "performer", "title", "emoji")
"""The fields a client may state with a file (``MediaFieldsIn``)."""
KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "photo": (),
    "document": (),
    "video": ("duration", "width", "height"),
    "animation": ("duration", "width", "height"),
    "audio": ("duration", "performer", "title"),
    "voice": ("duration",),
    "video_note": ("duration", "length"),
    "sticker": ("emoji",),
}
"""Which stated fields each kind takes (a photo's and a sticker's size are read from the image, never stated)."""

ALBUM_KINDS = ("photo", "video", "document", "audio")
MIN_ALBUM, MAX_ALBUM = 2, 10
ALONE = ("document", "audio")
"""The kinds an album holds only among themselves (photos and videos mix)."""

_STICKER_MAGIC = (b"\x1f\x8b", b"\x1a\x45\xdf\xa3")  # a .tgs (gzipped Lottie) and a WEBM video sticker


def article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


@dataclass(frozen=True, slots=True)
class CheckedFile:
    """A file that passed every check, not stored yet: what :func:`store` keeps and posts."""

    kind: str
    name: str
    data: bytes
    size: tuple[int, int]
    meta: dict[str, Any]
    caption: str
    formatted: FormattedText | None = None  # the caption with the entities the client sent (None: none sent)
    known: StoredFile | None = None  # a file the stand holds, sent again by its id (kept as it is, no new id)


def resent(stand: Telegram, kind: str, file_id: str) -> StoredFile:
    """The file a person sends again by ``file_id``: one the stand holds, of the kind it is sent as."""
    known = stand.world.files.get(file_id.strip())
    if known is not None and known.of:  # one size of a photo: the photo itself
        known = stand.world.files.get(known.of, known)
    if known is None:
        raise SimError(404, f"no file {file_id!r} in the stand (a file id comes from a sent file's message)")
    if known.kind == "thumbnail":
        raise SimError(400, f"{file_id} is a thumbnail Telegram drew: it is never sent on its own")
    if known.kind != kind:
        raise SimError(400, f"{file_id} is {article(known.kind)}: it is sent again only as {article(known.kind)}")
    return known


def check_resent(kind: str, known: StoredFile, fields: MediaFieldsIn, *, mention: bool = False) -> CheckedFile:
    """A file sent again by its id: only its caption is the person's; what the file is (size, duration...) is kept."""
    formatted = _caption(kind, fields, mention)
    stated = [key for key in STATED if getattr(fields, key)]
    if stated:
        raise SimError(400, f"{stated[0]} is the file's own: a file sent by file_id keeps what it was sent with")
    return CheckedFile(kind, known.name, known.data, (known.width, known.height), known.meta, fields.caption,
                       formatted, known)  # fmt: skip


def _caption(kind: str, fields: MediaFieldsIn, mention: bool) -> FormattedText | None:
    """The caption's checks, the same for a new file and one sent again."""
    if kind not in CAPTIONED and (fields.caption or mention):
        raise SimError(400, f"{article(kind)} has no caption" + (" to mention the bot in" if mention else ""))
    if len(fields.caption) > MAX_CAPTION_LENGTH:
        raise SimError(400, f"caption is longer than {MAX_CAPTION_LENGTH} characters")
    return _formatted(fields, mention)


def check_file(kind: str, name: str, data: bytes, fields: MediaFieldsIn, *, mention: bool = False) -> CheckedFile:
    """One file as a client sends it, or a SimError 400 naming the problem; ``mention`` prefixes its caption."""
    if not data:
        raise SimError(400, f"{kind} is empty")
    limit = PERSON_MAX_PHOTO if kind == "photo" else PERSON_MAX_DOCUMENT
    if len(data) > limit:
        raise SimError(400, f"{kind} is larger than {limit >> 20} MiB")
    formatted = _caption(kind, fields, mention)
    stated = {key: getattr(fields, key) for key in STATED if getattr(fields, key)}
    for key in stated:
        if key not in KIND_FIELDS[kind]:
            raise SimError(400, f"{article(kind)} has no {key}")
    if kind == "photo" and image_size(data) is None:
        raise SimError(400, "photo is not a PNG, JPEG or GIF image")
    width, height = (image_size(data) or (1, 1)) if kind == "photo" else (1, 1)
    if not photo_dimensions_valid(width, height):
        rule = f"width and height add up to at most {MAX_PHOTO_SIDES}, the longer at most {MAX_PHOTO_RATIO} times"
        raise SimError(400, f"photo is {width}×{height}: Telegram takes a photo whose {rule} the shorter")
    if kind == "sticker" and picture_size(data) is None and not data.startswith(_STICKER_MAGIC):
        raise SimError(400, "sticker is not a WEBP or PNG image, a .tgs animation or a WEBM video")
    try:
        size, meta = describe(kind, stated, data)
    except TelegramError as exc:  # describe's own image check; the ones above come first
        raise SimError(400, exc.description) from None
    name = PurePosixPath(name.replace("\\", "/")).name or default_name(kind, data)
    return CheckedFile(kind, name, data, size, meta, fields.caption, formatted)


def _formatted(fields: MediaFieldsIn, mention: bool) -> FormattedText | None:
    """The caption with the client's ``caption_entities``, checked (and merged with the detected ones) as the Bot
    API checks a bot's; its refusal in the Bot API's words without the ``Bad Request:`` prefix."""
    if fields.caption_entities is None:
        return None
    if mention:
        raise SimError(400, "caption_entities and mention don't go together: write the @username in the caption")
    try:
        return format_text(fields.caption, "", json.dumps(fields.caption_entities), allow_empty=True)
    except TelegramError as exc:
        raise SimError(400, "caption_entities: " + exc.description.removeprefix("Bad Request: ")) from None


def _entities(stand: Telegram, checked: CheckedFile) -> tuple[str, list[dict[str, Any]] | None]:
    """The caption and its entities as the message keeps them (a text_mention names the person the stand knows)."""
    if checked.formatted is None:
        return checked.caption, None

    def user(uid: int) -> dict[str, Any]:
        known = stand.world.users.get(uid)
        return known.json() if known is not None else {"id": uid, "is_bot": False, "first_name": ""}

    return checked.formatted.text, checked.formatted.entities_json(user)


def store(stand: Telegram, checked: CheckedFile) -> Media:
    """Keep the file in the one store (the next ``file_N``) as a message's content; a file sent again is the same."""
    if checked.known is not None:
        return Media(checked.kind, checked.known)
    return Media(checked.kind, mint(stand, checked.kind, checked.name, checked.data, *checked.size, checked.meta))


def target(stand: Telegram, body: SenderFields) -> Chat:
    """The chat the person writes in, resolved (and refused: blocked, not a member) before anything is stored."""
    person = stand.person(body.user_id, body.username, body.first_name, name_from_username=True)
    return person_chat(stand, body, person, stand.find_bot(body.bot))


def send_file(stand: Telegram, body: FileIn, kind: str, name: str, data: bytes, file_id: str = "") -> dict[str, object]:
    """The person sends one file (new bytes, or a file the stand holds by its ``file_id``); answers
    ``{"message_id", "update_id", "file_id"}``."""
    if file_id:
        checked = check_resent(kind, resent(stand, kind, file_id), body, mention=body.mention)
    else:
        checked = check_file(kind, name, data, body, mention=body.mention)
    target(stand, body)
    media = store(stand, checked)
    caption, entities = _entities(stand, checked)
    message_id, update_id = inject(stand, body, caption, media=media, entities=entities)
    assert media.file is not None
    return {"message_id": message_id, "update_id": update_id, "file_id": media.file.file_id}


def check_album(kinds: list[str]) -> None:
    """Telegram's album rules: 2-10 items; photos and videos mix, documents and audio only with their own kind."""
    if not MIN_ALBUM <= len(kinds) <= MAX_ALBUM:
        raise SimError(400, f"an album has {MIN_ALBUM} to {MAX_ALBUM} items, not {len(kinds)}")
    for i, kind in enumerate(kinds):
        if kind not in ALBUM_KINDS:
            what = article(kind) if kind in FILE_KINDS else f"type {kind!r}"
            raise SimError(400, f"items[{i}]: {what} can't be in an album (photo, video, document or audio)")
    for kind in ALONE:
        if kind in kinds and any(k != kind for k in kinds):
            other = next(k for k in kinds if k != kind)
            raise SimError(400, f"{article(kind)} can't be in an album with {article(other)}: {kind}s go only together")


def send_album(stand: Telegram, body: AlbumIn, files: list[tuple[str, bytes]]) -> dict[str, object]:
    """The person sends an album: each item its own message, one ``media_group_id``, delivered in order.

    ``files`` are the items' names and bytes (decoded by the route; an item with a ``file_id`` is that file again).
    Answers ``{"media_group_id", "messages"}``.
    """
    check_album([item.type for item in body.items])
    checked: list[CheckedFile] = []
    for i, (item, (name, data)) in enumerate(zip(body.items, files, strict=True)):
        first = body.mention and i == 0
        checked.append(_checked(f"items[{i}]", item.type, name, data, item, mention=first, stand=stand,
                                file_id=item.file_id))  # fmt: skip
    chat = target(stand, body)
    group = f"{abs(chat.id)}{chat.next_message_id:08d}"
    sent: list[dict[str, object]] = []
    for i, one in enumerate(checked):
        media = store(stand, one)
        assert media.file is not None
        item_body = body if i == 0 else body.model_copy(update={"mention": False})
        caption, entities = _entities(stand, one)
        message_id, update_id = inject(stand, item_body, caption, media=media, media_group_id=group, entities=entities)
        sent.append({"message_id": message_id, "update_id": update_id, "file_id": media.file.file_id})
    return {"media_group_id": group, "messages": sent}


# --- the profile ---------------------------------------------------------------------------------------------------
def set_profile(
    stand: Telegram,
    user_id: int,
    photos: list[tuple[FilePartIn, bytes]] | None,
    audios: list[tuple[ProfileAudioIn, bytes]] | None,
) -> dict[str, object]:
    """Replace the lists given (None keeps one); every file is checked before any is stored."""
    new_photos = [
        _checked(f"photos[{i}]", "photo", part.name, data, MediaFieldsIn(), stand=stand, file_id=part.file_id)
        for i, (part, data) in enumerate(photos or [])
    ]
    new_audios = [
        _checked(
            f"audios[{i}]",
            "audio",
            part.name,
            data,
            MediaFieldsIn(duration=part.duration, performer=part.performer, title=part.title),
            stand=stand,
            file_id=part.file_id,
        )
        for i, (part, data) in enumerate(audios or [])
    ]
    profiles = stand.world.profiles
    if photos is not None:
        profiles.photos[user_id] = [_profile_photo(stand, c) for c in new_photos]
    if audios is not None:
        profiles.audios[user_id] = [_file(store(stand, c)) for c in new_audios]
    return {
        "user_id": user_id,
        "photos": [f.file_id for f in profiles.photos.get(user_id, [])],
        "audios": [f.file_id for f in profiles.audios.get(user_id, [])],
    }


def _checked(
    where: str,
    kind: str,
    name: str,
    data: bytes,
    fields: MediaFieldsIn,
    *,
    mention: bool = False,
    stand: Telegram | None = None,
    file_id: str = "",
) -> CheckedFile:
    """:func:`check_file` (or :func:`check_resent` for a ``file_id``), its refusal naming which file of the request
    it is about."""
    try:
        if file_id and stand is not None:
            return check_resent(kind, resent(stand, kind, file_id), fields, mention=mention)
        return check_file(kind, name, data, fields, mention=mention)
    except SimError as exc:
        raise SimError(exc.status, f"{where}: {exc.message}") from None


def set_personal_chat(stand: Telegram, user_id: int, chat_id: int) -> int:
    """The channel on the person's profile (0: none); any other chat is a 400 naming it."""
    if chat_id == 0:
        stand.world.profiles.personal_chats.pop(user_id, None)
        return 0
    chat = stand.world.chats.get(chat_id)
    if chat is None or chat.type != "channel":
        raise SimError(400, f"personal_chat: {chat_id} is no channel of the stand (POST /sim/chats makes one)")
    stand.world.profiles.personal_chats[user_id] = chat_id
    return chat_id


def _profile_photo(stand: Telegram, checked: CheckedFile) -> StoredFile:
    """A profile photo in a profile photo's sizes (160, 320 and 640 px); one the stand holds is kept as it is."""
    if checked.known is not None:
        return checked.known
    return draw_sizes(stand, checked.name, checked.data, *checked.size, boxes=PROFILE_PHOTO_BOXES)


def _file(media: Media) -> StoredFile:
    assert media.file is not None
    return media.file


# --- BotFather's games ------------------------------------------------------------------------------------------------
def make_game(stand: Telegram, bot_id: int, body: GameIn, photo: bytes, animation: bytes | None) -> dict[str, object]:
    """A game for the bot (``body.short_name``): its photo (and animation) checked as a client's files are, kept in
    the one file store with their sizes and thumbnail; answers ``{"bot_id", "short_name", "game"}``."""
    photo_part = _checked("photo", "photo", body.photo.name, photo, MediaFieldsIn(), stand=stand,
                          file_id=body.photo.file_id)  # fmt: skip
    moving = None
    if body.animation is not None:
        moving = _checked("animation", "animation", body.animation.name, animation or b"", MediaFieldsIn(),
                          stand=stand, file_id=body.animation.file_id)  # fmt: skip
    game = Game(body.title, body.description, _file(store(stand, photo_part)))
    if moving is not None:
        game.animation = _file(store(stand, moving))
    stand.world.games.catalogue[(bot_id, body.short_name)] = game
    return {"bot_id": bot_id, "short_name": body.short_name, "game": game.json()}
