"""One parser for ``reply_markup``: a send's (every kind) and an edit's (inline keyboards only), with every refusal
Telegram gives, in its order.

Telegram parses a markup in two steps, both ported here: telegram-bot-api (``get_reply_markup`` and
``get_keyboard_button`` in Client.cpp: JSON shapes, the first letter of td's message lower-cased) and td
(``get_keyboard_button`` in ReplyMarkup.cpp: empty labels skipped, request buttons and Mini Apps in private chats
only, 12 buttons a row and 300 in all, anything but an inline keyboard refused on edits and in channels). A
non-empty ``keyboard`` wins over ``inline_keyboard``, which wins over ``remove_keyboard``, then ``force_reply``.
Every send of a new message reads its markup through :func:`parse_send_markup`; edits, stopPoll, games, invoices
and inline results through :func:`parse_inline_keyboard`. The objects it builds are tgfake/markup.py's.
"""

from __future__ import annotations

import functools
from typing import Any

from tgfake import errors
from tgfake.errors import bad_request
from tgfake.markup import Button, Keyboard, ReplyButton, ReplyMarkup
from tgfake.params import loads
from tgfake.text.links import LinkError, check_link
from tgfake.webapp import url_problem

MAX_CALLBACK_DATA_BYTES = 64
MAX_ROW = 12  # buttons a row keeps (td drops the rest)
MAX_BUTTONS = 300  # buttons a keyboard keeps
_PRIVATE_ONLY = {
    "request_contact": "Phone number can be requested in private chats only",
    "request_location": "Location can be requested in private chats only",
    "request_poll": "Poll can be requested in private chats only",
    "web_app": "Web App buttons can be used in private chats only",
    "request_users": "Users can be requested in private chats only",
    "request_chat": "Chats can be requested in private chats only",
}


class MarkupError(Exception):
    """A td-style message (capitalised); :func:`refuse` words it as the Bot API answers it."""


def refuse(message: str) -> Exception:
    """``Bad Request: `` and td's message, its first letter lower-cased unless the word is an upper-case code."""
    if len(message) >= 2 and (message[1] == "_" or message[1].isupper()):
        return bad_request(f"{errors.BAD_REQUEST}: {message}")
    return bad_request(f"{errors.BAD_REQUEST}: {message[0].lower()}{message[1:]}")


Markup = Keyboard | ReplyMarkup | None
"""What a send's ``reply_markup`` gives: an inline keyboard, a reply keyboard / remove / force reply, or nothing."""


def parse_send_markup(raw: str | None, chat_type: str) -> Markup:
    """A send's ``reply_markup``: every kind; raises TelegramError as Telegram."""
    inline, other = parse_markup(raw, chat_type)
    return other if other is not None else inline


def parse_inline_keyboard(raw: str | None, chat_type: str) -> Keyboard | None:
    """An edit's ``reply_markup``: an inline keyboard or None; any other markup (or text that is no JSON object)
    is refused, as Telegram does."""
    inline, _ = parse_markup(raw, chat_type, edit=True)
    return inline


def parse_markup(raw: str | None, chat_type: str, *, edit: bool = False) -> tuple[Keyboard | None, ReplyMarkup | None]:
    """``reply_markup`` read as Telegram reads it: (inline keyboard, other markup), at most one of them set.

    Refusals are Telegram's, in its order: text that is not JSON, JSON that is not an object (Client.cpp's
    ``get_reply_markup``), the reply keyboard's shape and buttons, the inline keyboard's, then td's chat rules. A
    method reads its markup before it changes anything, as Client.cpp does.
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
                parsed.append(reply_button(item))
            except MarkupError as exc:
                raise refuse(f"Can't parse keyboard button: {exc}") from None
        out.append(parsed)
    return out


def reply_button(item: Any) -> ReplyButton:
    """One KeyboardButton as telegram-bot-api reads it (a string or an object with a text); MarkupError as td words
    it. savePreparedKeyboardButton reads its button with this too."""
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


def parse_inline_rows(markup: dict[str, Any], chat_type: str) -> Keyboard | None:
    """The ``inline_keyboard`` of a markup object, None when empty; raises TelegramError as Telegram refuses."""
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request(errors.KEYBOARD_NOT_ARRAY)
    keyboard: Keyboard = []
    for row in rows:
        keyboard.append([_button(item, chat_type) for item in row])
    return keyboard or None


def _button(item: Any, chat_type: str) -> Button:
    if not isinstance(item, dict):
        raise bad_request(errors.BUTTON_NOT_OBJECT)
    try:
        style = button_style(item)
    except MarkupError as exc:
        raise bad_request(errors.BUTTON_UNPARSED.format(problem=exc)) from None
    text = item.get("text")
    data = item.get("callback_data")
    data = data if isinstance(data, str) else ""
    url = item.get("url")
    url = url if isinstance(url, str) else ""
    web_app = item.get("web_app")
    web_app = web_app if isinstance(web_app, dict) else None
    has_data, has_url, has_app = data != "", url != "", web_app is not None
    game = isinstance(item.get("callback_game"), dict)
    pay = item.get("pay") is True
    switch = _switch_inline(item)
    login = _login_url(item) if "login_url" in item else None
    actions = has_data + has_url + has_app + game + pay + (switch is not None) + (login is not None)
    if actions == 0:
        raise bad_request(errors.TEXT_BUTTONS)
    if actions > 1:
        raise bad_request(errors.BUTTON_TYPE_INVALID)
    if len(data.encode()) > MAX_CALLBACK_DATA_BYTES:
        raise bad_request(errors.BUTTON_DATA_INVALID)
    link = None
    if has_url or login is not None:
        try:
            link = check_link(url or login or "")
        except LinkError as exc:
            raise bad_request(errors.BUTTON_PROBLEM.format(problem=exc)) from None
    web_app_url = None
    if web_app is not None:
        if chat_type != "private":
            raise bad_request(errors.BUTTON_TYPE_INVALID)
        web_app_url = str(web_app.get("url") or "")
        problem = url_problem(web_app_url)
        if problem is not None:
            raise bad_request(errors.BUTTON_PROBLEM.format(problem=problem))
    return Button(
        text=text if isinstance(text, str) else str(text or ""),
        callback_data=data if has_data else None,
        url=link,
        web_app_url=web_app_url,
        callback_game=game,
        pay=pay,
        switch_inline=switch,
        style=style,
    )


def _login_url(item: dict[str, Any]) -> str:
    """A login_url button's url. Telegram shows the button back as a url button (Client.cpp writes only ``url``);
    ``bot_username`` is checked for its characters, not resolved (Telegram answers ``bot "<name>" not found`` for
    a name no bot has)."""
    try:
        login = _object(item, "login_url")
        url = _string(login, "url", required=True)
        bot = _string(login, "bot_username").removeprefix("@")
        if "bot_username" in login and not (bot and all(c == "_" or (c.isascii() and c.isalnum()) for c in bot)):
            raise MarkupError("LoginUrl bot username is invalid")
        _bool(login, "request_write_access")
        _string(login, "forward_text")
    except MarkupError as exc:
        raise bad_request(errors.BUTTON_UNPARSED.format(problem=exc)) from None
    return url


SWITCH_INLINE = ("switch_inline_query", "switch_inline_query_current_chat")


def _switch_inline(item: dict[str, Any]) -> tuple[str, Any] | None:
    """A button that opens inline mode: the query to type (in a chosen chat, or this one) and its field."""
    for name in SWITCH_INLINE:
        if isinstance(item.get(name), str):
            return name, item[name]
    chosen = item.get("switch_inline_query_chosen_chat")
    return ("switch_inline_query_chosen_chat", chosen) if isinstance(chosen, dict) else None


def same_keyboard(a: Keyboard | None, b: Keyboard | None) -> bool:
    """Equality for "message is not modified": shape, and per button text, data, url and Mini App address."""
    return (a or []) == (b or [])
