"""Request bodies of the simulation API, validated with pydantic so a bad field is named in the 400 answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from tgfake import bounds

MAX_TEXT = 4096
"""Code points in a person's text message, Telegram's cap on a message's text."""
MAX_WAIT = 60.0
"""Seconds any sim request may be held waiting for the bot (``/sim/wait``, ``/sim/inline``, ``/sim/pay``...)."""


def _chat_id(value: int) -> int:
    if value and not bounds.chat_kind(value):
        raise PydanticCustomError("chat_id", "{value} is no Telegram chat id", {"value": value})
    return value


def _longest(limit: int, count: Callable[[str], int]) -> AfterValidator:
    """A check that ``count(text)`` (how Telegram counts this kind of text) is at most ``limit``."""

    def check(text: str) -> str:
        if count(text) > limit:
            raise PydanticCustomError(
                "string_too_long", "String should have at most {max_length} characters", {"max_length": limit}
            )
        return text

    return AfterValidator(check)


def _name(text: str) -> str:
    """A username (``@`` optional) by td's rule, or a person's or bot's id in digits, or empty."""
    if text.isdigit():
        if not 0 < int(text) <= bounds.MAX_USER_ID:
            raise PydanticCustomError("user_id", "user id {value} is out of range", {"value": text})
    elif text and not bounds.is_valid_username(text.removeprefix("@")):
        raise PydanticCustomError("username", "{value} is not a Telegram username", {"value": text})
    return text


def _topic_color(value: int) -> int:
    if value and value not in bounds.TOPIC_COLORS:
        colors = ", ".join(map(str, bounds.TOPIC_COLORS))
        raise PydanticCustomError("enum", "Input should be 0 or one of {colors}", {"colors": colors})
    return value


UserId = Annotated[int, Field(ge=0, lt=bounds.MAX_USER_ID + 1)]
"""A person's id: positive, at most 52 bits (0 picks the default person)."""
ChatId = Annotated[int, Field(ge=bounds.MIN_CHAT_ID, lt=bounds.MAX_USER_ID + 1), AfterValidator(_chat_id)]
"""In Telegram's ranges: a person's id (their private chat), a group's or a supergroup's (0 picks the default)."""
MessageId = Annotated[int, Field(ge=0, lt=bounds.MAX_MESSAGE_ID + 1)]
"""Message ids are positive 32-bit integers in every chat (0: none given)."""
Count = Annotated[int, Field(ge=-(1 << 31), lt=1 << 31)]
Int64 = Annotated[int, Field(ge=-(1 << 63), lt=1 << 63)]
"""What the Bot API's own 64-bit integers hold (``draft_id``)."""
Date = Annotated[int, Field(ge=0, le=bounds.MAX_DATE)]
"""A Unix time in td's int32 (0: none, forever)."""
WaitSeconds = Annotated[float, Field(ge=0, le=MAX_WAIT, allow_inf_nan=False)]
"""How long a sim request may hold: 0..60 seconds, a finite number."""
Title = Annotated[
    str, Field(json_schema_extra={"maxLength": bounds.MAX_TITLE}), _longest(bounds.MAX_TITLE, bounds.title_length)
]
"""A chat title or a topic name: at most 128 code points once cleaned as td cleans a name."""
CustomTitle = Annotated[
    str,
    Field(json_schema_extra={"maxLength": bounds.MAX_CUSTOM_TITLE}),
    _longest(bounds.MAX_CUSTOM_TITLE, bounds.custom_title_length),
]
"""An administrator's custom title: at most 16 code points once cleaned."""
NAME_PATTERN = rf"^(@?{bounds.USERNAME_PATTERN}|[0-9]{{1,16}})?$"
Name = Annotated[str, Field(max_length=bounds.MAX_USERNAME + 1, pattern=NAME_PATTERN), AfterValidator(_name)]
"""A username by Telegram's rule (``@`` optional), or an id in digits."""
Username = Annotated[
    str,
    Field(max_length=bounds.MAX_USERNAME + 1, pattern=rf"^(@?{bounds.USERNAME_PATTERN})?$"),
    AfterValidator(_name),
]
"""A public username by Telegram's rule (``@`` optional), or none."""
Ref = Annotated[int, Field(ge=1, lt=bounds.MAX_USER_ID + 1)] | Name
"""A person or a bot, by id or by name (``alice``, ``@helper_bot``: a bot's username, only for a bot that exists)."""
BotRef = Annotated[int, Field(ge=0, lt=bounds.MAX_USER_ID + 1)] | Name
"""A bot by id or username (0 or ``""``: the stand's default bot)."""
ChatType = Annotated[
    Literal["", "private", "group", "supergroup", "channel"],
    BeforeValidator(lambda v: v.strip().lower() if isinstance(v, str) else v),
]
"""A chat's type in any letter case, spaces around it ignored (`` SuperGroup `` is a supergroup)."""
TopicColor = Annotated[int, Field(json_schema_extra={"enum": [0, *bounds.TOPIC_COLORS]}), AfterValidator(_topic_color)]
"""0 picks the next of Telegram's six topic colours; else one of them."""


class SimBody(BaseModel):
    """Unknown fields are ignored (as the reference stand's decoder does); known ones are typed strictly."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)


class SenderFields(SimBody):
    """Who writes where: the person and chat fields shared by everything the person sends.

    ``bot`` names the bot (id or username) whose private chat this is, or which a new group gets; none: the
    stand's default bot.
    """

    bot: BotRef = ""
    user_id: UserId = 0
    username: str = ""
    first_name: str = ""
    last_name: str = ""
    chat_type: ChatType = ""
    chat_id: ChatId = 0
    chat_title: Title = ""
    reply_to_message_id: MessageId = 0
    message_thread_id: MessageId = 0
    mention: bool = False
    sender_chat_id: ChatId = 0


class MessageIn(SenderFields):
    """``POST /sim/message``: the person sends a text message; ``quote`` (a part of the replied-to message's text)
    quotes it, as ``reply_parameters.quote`` does."""

    text: str = ""
    quote: str = ""


class CallbackIn(SimBody):
    """``POST /sim/callback``: the person taps an inline button, by label or by data."""

    label: str = ""
    data: str = ""
    message_id: MessageId = 0
    bot: BotRef = ""
    chat_id: ChatId = 0
    user_id: UserId = 0
    username: str = ""
    first_name: str = ""


class ClockIn(SimBody):
    """``POST /sim/clock``: move this session's clock by ``advance`` seconds, or ``set`` it to a Unix time."""

    advance: float | None = None
    set: float | None = None


class SessionIn(SimBody):
    """``POST /sim/sessions``: an optional name for the new session (else the next free number)."""

    id: str = ""


class FaultIn(SimBody):
    """``POST /sim/fault``: schedule (or with ``clear``, remove) one fault."""

    method: str = ""
    code: Count = 0
    description: str = ""
    retry_after: Annotated[int, Field(ge=0, lt=1 << 31)] = 0
    times: Count = 0
    contains: str = ""
    clear: bool = False


class LaunchIn(SimBody):
    """``POST /sim/webapp/launch``: who opens what; no ``url`` opens the menu button of ``chat_id`` (0: the bot's)."""

    url: str = ""
    bot: BotRef = ""
    chat_id: ChatId = 0
    user_id: UserId = 0
    username: str = ""
    first_name: str = ""
    start_param: str = ""
    color_scheme: str = ""
    platform: str = ""
    version: str = ""


class FilePartIn(SimBody):
    """One file of ``POST /sim/file`` in a JSON body: its name and its bytes as base64, or the ``file_id`` of a file
    the stand holds (sent again as it is, as a client re-sends a saved sticker or a file it has)."""

    name: str = ""
    data: str = ""
    file_id: str = ""


Duration = Annotated[int, Field(ge=0, le=24 * 60 * 60)]
"""Seconds a client states for a clip (Client.cpp's ``MAX_DURATION``: one day)."""
Side = Annotated[int, Field(ge=0, le=10000)]
"""Pixels a client states for a video's width, height or a video note's side (Client.cpp's ``MAX_LENGTH``)."""


class MediaFieldsIn(SimBody):
    """What a client sends with a file besides its bytes: the caption and the kind's own fields.

    A field the kind has no use for is refused (a document has no ``duration``); what the bytes tell (a photo's
    and a sticker's size, a clip's duration, an audio file's tags) is read from them when the field is left out.
    ``caption_entities`` is the formatting the person's client sends (bold, a text link...), MessageEntity objects
    checked as the Bot API checks them; the entities Telegram detects (commands, links) are added either way.
    """

    caption: str = ""
    caption_entities: list[dict[str, Any]] | None = None
    duration: Duration = 0
    width: Side = 0
    height: Side = 0
    length: Side = 0
    performer: str = ""
    title: str = ""
    emoji: str = ""


class FileIn(SenderFields, MediaFieldsIn):
    """``POST /sim/file``: the person sends one file of one kind, with the sender fields of ``MessageIn``."""

    photo: FilePartIn | None = None
    document: FilePartIn | None = None
    video: FilePartIn | None = None
    audio: FilePartIn | None = None
    voice: FilePartIn | None = None
    animation: FilePartIn | None = None
    sticker: FilePartIn | None = None
    video_note: FilePartIn | None = None


class AlbumItemIn(MediaFieldsIn):
    """One item of ``POST /sim/album``: its kind (``photo``, ``video``, ``document``, ``audio``), name and bytes, or
    the ``file_id`` of a file of that kind the stand holds."""

    type: str = ""
    name: str = ""
    data: str = ""
    file_id: str = ""


class AlbumIn(SenderFields):
    """``POST /sim/album``: 2-10 files sent together, each its own message with one ``media_group_id``."""

    items: list[AlbumItemIn] = []


class BotIn(SimBody):
    """``POST /sim/bots``: a bot as BotFather makes it; no ``id``/``token`` picks the next free id and makes one."""

    id: Annotated[int, Field(ge=0, lt=bounds.MAX_USER_ID + 1)] = 0
    token: str = ""
    first_name: str = ""
    username: Username = ""
    can_join_groups: bool = True
    can_read_all_group_messages: bool = False
    supports_inline_queries: bool = False
    inline_feedback: Annotated[int, Field(ge=0, le=100)] | bool = 0
    """BotFather's inline feedback: the percentage of chosen results sent as ``chosen_inline_result`` (true: 100)."""
    default: bool = False
    """Pin this bot as "the bot" for every sim action, launch and view that names none (docs/world.md#bots)."""


class ChatIn(SimBody):
    """``POST /sim/chats``: a group, supergroup (``is_forum`` for a forum) or channel, with who is in it."""

    type: str = "supergroup"
    title: Title = ""
    id: ChatId = 0
    username: Username = ""
    is_forum: bool = False
    description: str = ""
    creator: Ref = 4242
    members: list[Ref] = []
    admins: list[Ref] = []
    join_by_request: bool = False
    linked_chat_id: ChatId = 0


class MemberIn(SimBody):
    """The membership routes under ``/sim/chats/{id}/``: who, by whom, and with which rights or permissions."""

    user: Ref = ""
    by: Ref = ""
    rights: dict[str, bool] = {}
    permissions: dict[str, bool] = {}
    until_date: Date = 0
    custom_title: CustomTitle = ""
    bio: str = ""
    ban: bool = True
    invite_link: str = ""  # join / join-request: the link (an administrator's, https://t.me/+...) the person opened


class TopicIn(SimBody):
    """``POST /sim/chats/{id}/topics``: a person opens a forum topic."""

    name: Title = ""
    by: Ref = ""
    icon_color: TopicColor = 0
    icon_custom_emoji_id: str = ""


class BlockIn(SimBody):
    """``POST /sim/block`` and ``/sim/unblock``: a person and a bot (none: the default bot)."""

    user: Ref = 4242
    bot: BotRef = ""


class ProfileAudioIn(FilePartIn):
    """A profile audio: the file, and the title and performer shown (else read from its tags)."""

    duration: Duration = 0
    performer: str = ""
    title: str = ""


class ProfileIn(SimBody):
    """``POST /sim/profile``: a person's profile photos and audios, newest first; a list left out is kept.
    ``language_code`` is their app's language (an IETF tag such as ``ru`` or ``pt-br``; ``""`` none), which every
    User of them then carries, as Telegram sends it to bots; left out, it is kept."""

    user: Ref = 4242
    photos: list[FilePartIn] | None = None
    audios: list[ProfileAudioIn] | None = None
    language_code: Annotated[str, Field(pattern=r"^([a-z]{2,3}(-[a-z0-9]{1,8})*)?$")] | None = None
    personal_chat: int | None = Field(
        None, description="the id of a channel the stand has, shown on the profile (getUserPersonalChatMessages); 0 "
        "removes it; left out, it is kept"
    )  # fmt: skip


class GameIn(SimBody):
    """``POST /sim/bots/{bot}/games``: a game the bot's owner made with BotFather's ``/newgame`` (sendGame then shows
    it): its short name, title and description, a photo (a PNG, JPEG or GIF; BotFather asks for 640×360) and an
    optional animation (a GIF or an MP4). A short name made again replaces that game."""

    short_name: Annotated[str, Field(pattern=r"^[A-Za-z0-9_]{1,64}$")]
    title: Annotated[str, Field(min_length=1, max_length=64)]
    description: Annotated[str, Field(min_length=1, max_length=255)]
    photo: FilePartIn
    animation: FilePartIn | None = None


class InlineIn(SenderFields):
    """``POST /sim/inline``: the person types ``@bot query`` in a chat (the sender fields name the chat); a
    ``latitude`` and ``longitude`` share the person's location, as a bot asking for it gets it."""

    query: str = ""
    offset: str = ""
    latitude: float | None = None
    longitude: float | None = None


class InlinePickIn(SimBody):
    """``POST /sim/inline/choose`` and ``/sim/inline/more``: the person's newest inline query (to ``bot``, by
    ``user_id``) unless ``inline_query_id`` names one; ``result_id`` is the result picked."""

    inline_query_id: str = ""
    result_id: str = ""
    bot: BotRef = ""
    user_id: UserId = 0


class InlineModeIn(SimBody):
    """``POST /sim/bots/{bot}/inline``: BotFather's ``/setinline`` (on or off) and ``/setinlinefeedback``."""

    enabled: bool = True
    feedback: Annotated[int, Field(ge=0, le=100)] | bool = 0
