"""Inline keyboards: parsing ``reply_markup`` and every refusal Telegram gives, in its order."""

from __future__ import annotations

from typing import Any

from tgfake import errors
from tgfake.chats import Button, Keyboard
from tgfake.errors import bad_request
from tgfake.params import loads
from tgfake.webapp import url_problem

MAX_CALLBACK_DATA_BYTES = 64


def parse_inline_keyboard(raw: str | None, chat_type: str) -> Keyboard | None:
    """The inline keyboard of ``reply_markup``, None when there is none; raises TelegramError as Telegram refuses.

    Reply keyboards, ``remove_keyboard`` and ``force_reply`` are accepted and dropped; a markup that is not a
    JSON object is ignored.
    """
    if not raw:
        return None
    try:
        markup = loads(raw)
    except ValueError:
        return None
    if not isinstance(markup, dict) or "inline_keyboard" not in markup:
        return None
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
    text = item.get("text")
    data = item.get("callback_data")
    url = item.get("url")
    web_app = item.get("web_app")
    actions = sum(
        (
            isinstance(data, str) and data != "",
            isinstance(url, str) and url != "",
            isinstance(web_app, dict),
            isinstance(item.get("callback_game"), dict),
            item.get("pay") is True,
        )
    )
    if actions == 0:
        raise bad_request(errors.TEXT_BUTTONS)
    if actions > 1:
        raise bad_request(errors.BUTTON_TYPE_INVALID)
    if isinstance(data, str) and len(data.encode()) > MAX_CALLBACK_DATA_BYTES:
        raise bad_request(errors.BUTTON_DATA_INVALID)
    web_app_url = None
    if isinstance(web_app, dict):
        if chat_type != "private":
            raise bad_request(errors.BUTTON_TYPE_INVALID)
        web_app_url = str(web_app.get("url") or "")
        problem = url_problem(web_app_url)
        if problem is not None:
            raise bad_request(errors.BUTTON_WEB_APP_URL.format(problem=problem))
    return Button(
        text=text if isinstance(text, str) else str(text or ""),
        callback_data=data if isinstance(data, str) and data else None,
        url=url if isinstance(url, str) and url else None,
        web_app_url=web_app_url,
        callback_game=isinstance(item.get("callback_game"), dict),
        pay=item.get("pay") is True,
    )


def same_keyboard(a: Keyboard | None, b: Keyboard | None) -> bool:
    """Equality for "message is not modified": shape, and per button text, data, url and Mini App address."""
    return (a or []) == (b or [])
