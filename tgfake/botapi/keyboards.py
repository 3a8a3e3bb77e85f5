"""Inline keyboards: parsing ``reply_markup`` and every refusal Telegram gives, in its order."""

from __future__ import annotations

from typing import Any

from tgfake import errors
from tgfake.chats import Button, Keyboard
from tgfake.errors import bad_request
from tgfake.reply_keyboards import MarkupError, ReplyMarkup, _bool, _object, _string, button_style, parse_markup
from tgfake.text.links import LinkError, check_link
from tgfake.webapp import url_problem

MAX_CALLBACK_DATA_BYTES = 64


Markup = Keyboard | ReplyMarkup | None
"""What a send's ``reply_markup`` gives: an inline keyboard, a reply keyboard / remove / force reply, or nothing."""


def parse_send_markup(raw: str | None, chat_type: str) -> Markup:
    """A send's ``reply_markup``: every kind (tgfake/botapi/reply_keyboards.py); raises TelegramError as Telegram."""
    inline, other = parse_markup(raw, chat_type)
    return other if other is not None else inline


def parse_inline_keyboard(raw: str | None, chat_type: str) -> Keyboard | None:
    """An edit's ``reply_markup``: an inline keyboard or None; any other markup (or text that is no JSON object)
    is refused, as Telegram does."""
    inline, _ = parse_markup(raw, chat_type, edit=True)
    return inline


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
