"""Keyboards as plain data: an inline keyboard's buttons, a reply keyboard (or its removal, or a forced reply), and
the keyboard a person has in a chat.

Parsing them from ``reply_markup`` is the Bot API's job (tgfake/botapi/keyboards.py); who sees which keyboard is a
rule of the world (tgfake/world/keyboards.py). Both stand on these objects, and so do the chats that keep them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The reply keyboard button kinds, in the order telegram-bot-api tries them.
KINDS = ("text", "request_contact", "request_location", "request_poll", "web_app", "request_users", "request_chat")


@dataclass(frozen=True, slots=True)
class Button:
    """One inline keyboard button; exactly one of the actions is set (the rest are None).

    Frozen: a parsed keyboard is cached by its JSON (tgfake/botapi/keyboards.py), so one button may sit in many
    messages.
    """

    text: str
    callback_data: str | None = None
    url: str | None = None
    web_app_url: str | None = None
    callback_game: bool = False  # launches the message's game (sendGame); a tap sends game_short_name
    pay: bool = False  # the pay button of an invoice
    switch_inline: tuple[str, Any] | None = None  # switch_inline_query(_current_chat/_chosen_chat) and its value
    style: str = ""  # primary, danger or success; "" for the app's own colours

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text}
        if self.style:
            out["style"] = self.style
        if self.callback_data is not None:
            out["callback_data"] = self.callback_data
        if self.url is not None:
            out["url"] = self.url
        if self.web_app_url is not None:
            out["web_app"] = {"url": self.web_app_url}
        if self.callback_game:
            out["callback_game"] = {}
        if self.pay:
            out["pay"] = True
        if self.switch_inline is not None:
            out[self.switch_inline[0]] = self.switch_inline[1]
        return out


Keyboard = list[list[Button]]


def keyboard_json(keyboard: Keyboard) -> dict[str, Any]:
    return {"inline_keyboard": [[b.json() for b in row] for row in keyboard]}


@dataclass(slots=True)
class ReplyButton:
    """One reply keyboard button: its label, its kind (one of :data:`KINDS`) and that kind's options."""

    text: str
    kind: str = "text"
    options: dict[str, Any] = field(default_factory=dict)  # request_id, poll type, web_app url...
    style: str = ""  # primary, danger or success (:func:`button_style`); "" for the app's own

    def json(self) -> dict[str, Any]:
        """The KeyboardButton object (Bot API field names)."""
        out: dict[str, Any] = {"text": self.text}
        if self.style:
            out["style"] = self.style
        if self.kind in ("request_contact", "request_location"):
            out[self.kind] = True
        elif self.kind != "text":
            out[self.kind] = dict(self.options)
        return out


@dataclass(slots=True)
class ReplyMarkup:
    """A markup other than an inline keyboard: ``keyboard`` (with its rows), ``remove`` or ``force_reply``."""

    kind: str
    rows: list[list[ReplyButton]] = field(default_factory=list)
    is_persistent: bool = False
    resize_keyboard: bool = False
    one_time_keyboard: bool = False
    selective: bool = False
    placeholder: str = ""

    def json(self) -> dict[str, Any]:
        """The markup as the bot sent it (ReplyKeyboardMarkup, ReplyKeyboardRemove or ForceReply fields)."""
        out: dict[str, Any]
        if self.kind == "keyboard":
            out = {"keyboard": [[b.json() for b in row] for row in self.rows]}
            for name in ("is_persistent", "resize_keyboard", "one_time_keyboard"):
                if getattr(self, name):
                    out[name] = True
        elif self.kind == "remove":
            out = {"remove_keyboard": True}
        else:
            out = {"force_reply": True}
        if self.placeholder:
            out["input_field_placeholder"] = self.placeholder
        if self.selective:
            out["selective"] = True
        return out

    def lines(self) -> list[str]:
        """The transcript lines under the message: ``    keyboard: [Boy] [Girl]`` per row, flags on the last."""
        if self.kind == "remove":
            return ["    keyboard removed" + (" (selective)" if self.selective else "")]
        if self.kind == "force_reply":
            extra = f" {self.placeholder!r}" if self.placeholder else ""
            return [f"    force reply{extra}" + (" (selective)" if self.selective else "")]
        flags = [
            name
            for name, on in (
                ("one-time", self.one_time_keyboard),
                ("persistent", self.is_persistent),
                ("selective", self.selective),
            )
            if on
        ]
        out = ["    keyboard: " + " ".join(f"[{b.text}]" for b in row) for row in self.rows]
        if flags:
            out[-1] += f" ({', '.join(flags)})"
        return out

    def find(self, label: str) -> ReplyButton | None:
        want = label.strip()
        for row in self.rows:
            for button in row:
                if button.text.strip() == want:
                    return button
        return None


@dataclass(slots=True)
class Shown:
    """The keyboard a person has in a chat: the markup, the message that sent it, hidden after a one-time press."""

    markup: ReplyMarkup
    message_id: int
    hidden: bool = False

    def json(self) -> dict[str, Any]:
        out = {"message_id": self.message_id, **self.markup.json()}
        if self.hidden:
            out["hidden"] = True
        return out
