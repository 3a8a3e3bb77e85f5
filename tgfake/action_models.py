"""Request bodies of the person's actions beyond text and files (``/sim/reply-button`` and friends)."""

from __future__ import annotations

from pydantic import Field

from tgfake.models import Ref, SenderFields, SimBody


class PollIn(SimBody):
    """A poll the person creates (a request_poll button, or ``POST /sim/poll``)."""

    question: str = ""
    options: list[str] = Field(default_factory=list)
    type: str = ""  # regular or quiz; a request_poll button may force one
    is_anonymous: bool = True
    allows_multiple_answers: bool = False
    correct_option_id: int = -1


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
    chat: int = 0
    poll: PollIn | None = None
    data: str = ""
