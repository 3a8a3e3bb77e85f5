"""Request bodies of the person's actions beyond text and files (``/sim/reply-button`` and friends)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from tgfake.models import BotRef, ChatId, Count, MessageId, Ref, SenderFields, SimBody, UserId


class PollIn(SimBody):
    """A poll the person creates (a request_poll button, or ``POST /sim/share``)."""

    question: str = ""
    options: list[str] = Field(default_factory=list)
    type: str = ""  # regular or quiz; a request_poll button may force one
    is_anonymous: bool = True
    allows_multiple_answers: bool = False
    correct_option_id: Count = -1


class ReplyButtonIn(SenderFields):
    """``POST /sim/reply-button``: the person presses a button of their reply keyboard, by label.

    What the button shares comes with it: ``latitude``/``longitude`` (request_location), ``phone_number``
    (request_contact, else one made from the id), ``users`` (request_users), ``chat`` (request_chat), ``poll``
    (request_poll), ``data`` (web_app: what the Mini App passes to ``Telegram.WebApp.sendData``).
    """

    label: str = ""
    latitude: float | None = None
    longitude: float | None = None
    phone_number: str = ""
    users: list[Ref] = Field(default_factory=list)
    chat: ChatId = 0
    poll: PollIn | None = None
    data: str = ""


class ShareIn(SenderFields):
    """``POST /sim/share``: the person sends exactly one of a location (``live_period`` for a live one), a venue,
    a contact, a dice throw or a poll, as the Bot API objects (a poll as :class:`PollIn`)."""

    location: dict[str, Any] | None = None
    venue: dict[str, Any] | None = None
    contact: dict[str, Any] | None = None
    dice: dict[str, Any] | None = None
    poll: PollIn | None = None


class TargetIn(SimBody):
    """A person acting on one message: who, where (their private chat with ``bot`` unless ``chat_id``), which."""

    bot: BotRef = ""
    user_id: UserId = 0
    username: str = ""
    first_name: str = ""
    chat_id: ChatId = 0
    message_id: MessageId = 0


class VoteIn(TargetIn):
    """``POST /sim/vote``: the person votes in the poll of ``message_id``; no ``options`` retracts the vote."""

    options: list[int] = Field(default_factory=list)


class EditIn(TargetIn):
    """``POST /sim/edit``: the person edits their message: its text, or a media message's caption."""

    text: str = ""


class ReactIn(TargetIn):
    """``POST /sim/react``: the person's reactions on a message (emoji, or ``custom_emoji_id``s); none clears them."""

    emoji: list[str] = Field(default_factory=list)
    custom_emoji: list[str] = Field(default_factory=list)
    big: bool = False


class ForwardIn(SenderFields):
    """``POST /sim/forward``: the person forwards into the chat (sender fields) either a stored message
    (``from_chat_id`` + ``message_id``) or, with ``text``, one from outside the stand described by ``origin``:
    ``{"type":"user","user":"bob"}``, ``{"type":"hidden_user","name":"Ann"}``, ``{"type":"chat","chat_id":-100…}``
    or ``{"type":"channel","chat_id":-100…,"message_id":7}``. ``hidden``: the stored message's author hides their
    account in forwards (a ``hidden_user`` origin)."""

    from_chat_id: ChatId = 0
    message_id: MessageId = 0
    text: str = ""
    origin: dict[str, Any] | None = None
    hidden: bool = False


class PrivacyIn(SimBody):
    """``POST /sim/privacy``: the person's privacy settings; ``hide_forwards``: forwards of their messages show
    only their name (a ``hidden_user`` origin), as "Forwarded messages: Nobody" does."""

    user_id: UserId = 0
    username: str = ""
    first_name: str = ""
    hide_forwards: bool = False


class PassportElementIn(SimBody):
    """One Telegram Passport element the person shares: its ``type``, then what that type carries, in the clear
    (the stand encrypts it): ``data`` (the fields of personal details, an identity document or an address),
    ``phone_number``, ``email``, and files as base64 (``files``, ``front_side``, ``reverse_side``, ``selfie``,
    ``translation``)."""

    type: str = ""
    data: dict[str, Any] | None = None
    phone_number: str = ""
    email: str = ""
    files: list[str] = Field(default_factory=list)
    front_side: str = ""
    reverse_side: str = ""
    selfie: str = ""
    translation: list[str] = Field(default_factory=list)


class PassportIn(SenderFields):
    """``POST /sim/passport``: the person shares Telegram Passport data with the bot that asked: its ``public_key``
    (PEM, the one the bot's request carries) and ``nonce``, and the ``elements``."""

    public_key: str = ""
    nonce: str = ""
    elements: list[PassportElementIn] = Field(default_factory=list)
