"""Reply keyboards, ReplyKeyboardRemove and ForceReply: parsing ``reply_markup`` as Telegram does, and who sees them.

Telegram parses a markup in two steps, both ported here: telegram-bot-api (``get_reply_markup`` and
``get_keyboard_button`` in Client.cpp: JSON shapes, the first letter of td's message lower-cased) and td
(``get_keyboard_button`` in ReplyMarkup.cpp: empty labels skipped, request buttons and Mini Apps in private chats
only, 12 buttons a row and 300 in all, anything but an inline keyboard refused on edits and in channels). A
non-empty ``keyboard`` wins over ``inline_keyboard``, which wins over ``remove_keyboard``, then ``force_reply``.

The person's current keyboard is kept per chat and per person (:class:`Shown`): a keyboard replaces the one before
it, ``remove_keyboard`` takes it away, ``one_time_keyboard`` hides it after a press, ``selective`` limits a group's
markup to the people the message mentions and the author of the message it replies to.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.chats import Button, Keyboard
from tgfake.errors import bad_request
from tgfake.params import loads
from tgfake.webapp import url_problem

if TYPE_CHECKING:
    from tgfake.chats import Chat, StoredMessage

MAX_ROW = 12  # buttons a row keeps (td drops the rest)
MAX_BUTTONS = 300  # buttons a keyboard keeps

# The button kinds, in the order telegram-bot-api tries them.
KINDS = ("text", "request_contact", "request_location", "request_poll", "web_app", "request_users", "request_chat")
_PRIVATE_ONLY = {
    "request_contact": "Phone number can be requested in private chats only",
    "request_location": "Location can be requested in private chats only",
    "request_poll": "Poll can be requested in private chats only",
    "web_app": "Web App buttons can be used in private chats only",
    "request_users": "Users can be requested in private chats only",
    "request_chat": "Chats can be requested in private chats only",
}
EVERYONE = 0  # the key of a group's markup that is not selective


class MarkupError(Exception):
    """A td-style message (capitalised); :func:`refuse` words it as the Bot API answers it."""


def refuse(message: str) -> Exception:
    """``Bad Request: `` and td's message, its first letter lower-cased unless the word is an upper-case code."""
    if len(message) >= 2 and (message[1] == "_" or message[1].isupper()):
        return bad_request(f"{errors.BAD_REQUEST}: {message}")
    return bad_request(f"{errors.BAD_REQUEST}: {message[0].lower()}{message[1:]}")


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


def parse_markup(raw: str | None, chat_type: str, *, edit: bool = False) -> tuple[Keyboard | None, ReplyMarkup | None]:
    """``reply_markup`` read as Telegram reads it: (inline keyboard, other markup), at most one of them set.

    Refusals are Telegram's, in its order: text that is not JSON, JSON that is not an object, the reply keyboard's
    shape and buttons, the inline keyboard's, then td's chat rules. A method reads its markup before it changes
    anything, as Client.cpp does.
    """
    if not raw:
        return None, None
    inline_only, frozen = _inline_only(raw, chat_type, edit)
    if not inline_only:
        return _parse_markup(raw, chat_type, edit)
    return (None if frozen is None else [list(row) for row in frozen]), None


@functools.lru_cache(maxsize=256)
def _inline_only(raw: str, chat_type: str, edit: bool) -> tuple[bool, tuple[tuple[Button, ...], ...] | None]:
    """A markup that parses to an inline keyboard (or to nothing), kept by its JSON: a bot sends the same few
    keyboards again and again, and parsing one (JSON, every button's checks, its links) was a sixth of a
    sendMessage. (False, None) for a reply keyboard, remove or force reply, which are parsed each time (their
    objects are not frozen). Refusals raise and are not kept. Buttons are frozen; each use gets its own lists.
    """
    inline, other = _parse_markup(raw, chat_type, edit)
    if other is not None:
        return False, None
    return True, None if inline is None else tuple(tuple(row) for row in inline)


def _parse_markup(raw: str, chat_type: str, edit: bool) -> tuple[Keyboard | None, ReplyMarkup | None]:
    from tgfake.botapi.keyboards import parse_inline_rows  # that module imports this one

    try:
        markup = loads(raw)
    except ValueError:
        raise bad_request(errors.MARKUP_NOT_JSON) from None
    if not isinstance(markup, dict):
        raise bad_request(errors.MARKUP_NOT_OBJECT)
    rows = _reply_rows(markup) if "keyboard" in markup else []
    inline = parse_inline_rows(markup, chat_type) if "inline_keyboard" in markup else None
    other = _choose(markup, rows, chat_type)
    if other is None:
        return inline, None
    if edit or chat_type == "channel":
        raise refuse("Inline keyboard expected")  # edits and anonymous channel posts take inline keyboards only
    return None, other


def _reply_rows(markup: dict[str, Any]) -> list[list[ReplyButton]]:
    """telegram-bot-api's pass: every row an array, every button a string or an object with a text."""
    rows = markup["keyboard"]
    if not isinstance(rows, list):
        raise refuse('Field "keyboard" must be of type Array')
    out: list[list[ReplyButton]] = []
    for row in rows:
        if not isinstance(row, list):
            raise refuse('Field "keyboard" must be an Array of Arrays')
        parsed = []
        for item in row:
            try:
                parsed.append(_reply_button(item))
            except MarkupError as exc:
                raise refuse(f"Can't parse keyboard button: {exc}") from None
        out.append(parsed)
    return out


def _reply_button(item: Any) -> ReplyButton:
    if isinstance(item, str):
        return ReplyButton(text=item)
    if not isinstance(item, dict):
        raise MarkupError("KeyboardButton must be a String or an Object")
    text = _string(item, "text", required=True)
    style = button_style(item)  # read before the button's kind, as Client.cpp does
    button = _reply_kind(item, text)
    button.style = style
    return button


def _reply_kind(item: dict[str, Any], text: str) -> ReplyButton:
    for name in ("request_phone_number", "request_contact"):
        if _bool(item, name):
            return ReplyButton(text=text, kind="request_contact")
    if _bool(item, "request_location"):
        return ReplyButton(text=text, kind="request_location")
    if "request_poll" in item:
        obj = _object(item, "request_poll")
        options = {"type": obj["type"]} if isinstance(obj.get("type"), str) else {}
        return ReplyButton(text=text, kind="request_poll", options=options)
    if "web_app" in item:
        obj = _object(item, "web_app")
        return ReplyButton(text=text, kind="web_app", options={"url": _string(obj, "url", required=True)})
    for name in ("request_users", "request_user"):
        if name in item:
            obj = _object(item, name)
            options = {"request_id": _int(obj, "request_id")}
            for flag in ("user_is_bot", "user_is_premium", "request_name", "request_username", "request_photo"):
                if flag in obj:
                    options[flag] = _bool(obj, flag)
            if "max_quantity" in obj:
                options["max_quantity"] = _int(obj, "max_quantity")
            return ReplyButton(text=text, kind="request_users", options=options)
    if "request_chat" in item:
        obj = _object(item, "request_chat")
        options = {"request_id": _int(obj, "request_id")}
        for flag in (
            "chat_is_channel",
            "chat_is_forum",
            "chat_has_username",
            "chat_is_created",
            "bot_is_member",
            "request_title",
            "request_username",
            "request_photo",
        ):
            if flag in obj:
                options[flag] = _bool(obj, flag)
        for rights in ("user_administrator_rights", "bot_administrator_rights"):
            if isinstance(obj.get(rights), dict):
                options[rights] = obj[rights]
        return ReplyButton(text=text, kind="request_chat", options=options)
    return ReplyButton(text=text)


BUTTON_STYLES = frozenset({"primary", "danger", "success"})
"""The colours a button may ask for (Client.cpp's ``get_button_style``; aiogram's ``link`` is not one of them)."""


def button_style(item: dict[str, Any]) -> str:
    """A button's ``style`` as Client.cpp reads it: any case, ``default`` or empty for none, written back lower-case."""
    style = _string(item, "style").encode().lower().decode()  # td::to_lower_inplace: ASCII letters only
    if style in ("", "default"):
        return ""
    if style not in BUTTON_STYLES:
        raise MarkupError("invalid button style specified")
    return style


def _string(obj: dict[str, Any], name: str, *, required: bool = False) -> str:
    value = obj.get(name)
    if value is None and name not in obj:
        if required:
            raise MarkupError(f'Can\'t find field "{name}"')
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise MarkupError(f'Field "{name}" must be of type String')


def _bool(obj: dict[str, Any], name: str) -> bool:
    if name not in obj:
        return False
    value = obj[name]
    if not isinstance(value, bool):
        raise MarkupError(f'Field "{name}" must be of type Boolean')
    return value


def _object(obj: dict[str, Any], name: str) -> dict[str, Any]:
    value = obj[name]
    if not isinstance(value, dict):
        raise MarkupError(f'Field "{name}" must be of type Object')
    return value


def _int(obj: dict[str, Any], name: str) -> int:
    if name not in obj:
        raise MarkupError(f'Can\'t find field "{name}"')
    value = obj[name]
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise MarkupError(f'Field "{name}" must be a Number')
    try:
        number = int(value)
    except ValueError:
        raise MarkupError(f'Field "{name}" must be a valid Number') from None
    if not -(2**31) <= number < 2**31:
        raise MarkupError(f'Field "{name}" must be a valid Number')
    return number


def _flag(markup: dict[str, Any], name: str) -> bool:
    try:
        return _bool(markup, name)
    except MarkupError as exc:
        raise refuse(str(exc)) from None


def _choose(markup: dict[str, Any], rows: list[list[ReplyButton]], chat_type: str) -> ReplyMarkup | None:
    """td's pass over the parsed markup: which kind it is, its flags, and the chat rules for its buttons."""
    selective = _flag(markup, "personal_keyboard") or _flag(markup, "selective")
    placeholder = markup.get("input_field_placeholder")
    placeholder = placeholder if isinstance(placeholder, str) else ""
    kept: list[list[ReplyButton]] = []
    total = 0
    for row in rows:
        out_row: list[ReplyButton] = []
        for button in row:
            if not button.text:
                continue  # td skips a button without a label
            if total >= MAX_BUTTONS or len(out_row) >= MAX_ROW:
                break
            _check_button(button, chat_type)
            out_row.append(button)
            total += 1
        if out_row:
            kept.append(out_row)
    if kept:
        return ReplyMarkup(
            kind="keyboard",
            rows=kept,
            is_persistent=_flag(markup, "is_persistent"),
            resize_keyboard=_flag(markup, "resize_keyboard"),
            one_time_keyboard=_flag(markup, "one_time_keyboard"),
            selective=selective and chat_type != "private",
            placeholder=placeholder,
        )
    if rows or markup.get("inline_keyboard"):
        return None  # a keyboard whose buttons all had no label is no markup; an inline keyboard wins
    if _flag(markup, "hide_keyboard") or _flag(markup, "remove_keyboard"):
        return ReplyMarkup(kind="remove", selective=selective and chat_type != "private")
    if _flag(markup, "force_reply") or _flag(markup, "force_reply_keyboard"):
        return ReplyMarkup(kind="force_reply", selective=selective and chat_type != "private", placeholder=placeholder)
    return None


def _check_button(button: ReplyButton, chat_type: str) -> None:
    if button.kind == "text":
        return
    if chat_type != "private":
        raise refuse(_PRIVATE_ONLY[button.kind])
    if button.kind == "request_poll" and button.options.get("type") not in (None, "quiz", "regular"):
        button.options.pop("type")  # any other type lets the person choose, as telegram-bot-api reads it
    if button.kind == "web_app":
        problem = url_problem(str(button.options["url"]))
        if problem is not None:
            raise refuse(f"Keyboard button {problem}")


# --- who has which keyboard ---------------------------------------------------------------------------------------
def _targets(chat: Chat, msg: StoredMessage) -> list[int]:
    """The people a selective markup is for: those the message mentions by username, and the replied-to author."""
    names = {m.lower() for m in re.findall(r"(?<![A-Za-z0-9_])@([A-Za-z0-9_]{3,32})", msg.text or msg.caption)}
    out = [m.user.id for m in chat.members.values() if m.user.username and m.user.username.lower() in names]
    if msg.reply_to is not None:
        target = chat.messages.get(msg.reply_to)
        if target is not None and target.sender is not None and not target.sender.is_bot:
            out.append(target.sender.id)
    return out


def apply(chat: Chat, msg: StoredMessage, markup: ReplyMarkup) -> None:
    """The bot's message with ``markup`` arrived: update the keyboards of the people it is for.

    A private chat has one person (key :data:`EVERYONE`); a group's markup that is not selective is for everyone
    (and clears the personal ones), a selective one only for its targets. ForceReply leaves the keyboard as it is.
    """
    if markup.kind == "force_reply":
        return
    shown = Shown(markup, msg.message_id) if markup.kind == "keyboard" else None
    if not markup.selective:
        chat.reply_keyboards.clear()
        if shown is not None:
            chat.reply_keyboards[EVERYONE] = shown
        return
    for uid in _targets(chat, msg):
        chat.reply_keyboards[uid] = shown


def current(chat: Chat, user_id: int) -> Shown | None:
    """The keyboard this person sees in the chat (a personal one first), None when they have none."""
    if chat.type != "private" and user_id in chat.reply_keyboards:
        return chat.reply_keyboards[user_id]
    return chat.reply_keyboards.get(EVERYONE)


def pressed(chat: Chat, user_id: int, shown: Shown) -> None:
    """After a press a one-time keyboard hides (for that person only, in a group)."""
    if not shown.markup.one_time_keyboard:
        return
    hidden = Shown(shown.markup, shown.message_id, hidden=True)
    chat.reply_keyboards[EVERYONE if chat.type == "private" else user_id] = hidden


def view(chat: Chat) -> dict[str, Any]:
    """The chat view's keyboard fields: ``reply_keyboard`` (the private chat's, or everyone's in a group) and, in
    groups, ``personal_keyboards`` by person id (null: a selective remove took theirs away)."""
    out: dict[str, Any] = {}
    everyone = chat.reply_keyboards.get(EVERYONE)
    if everyone is not None:
        out["reply_keyboard"] = everyone.json()
    personal = {str(uid): (s.json() if s is not None else None) for uid, s in chat.reply_keyboards.items() if uid}
    if personal:
        out["personal_keyboards"] = personal
    return out
