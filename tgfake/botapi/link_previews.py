"""A text message's ``link_preview_options``: what the bot asked for, as the sent message shows it back.

Ported from Client.cpp's ``get_link_preview_options`` (the object, or the legacy ``disable_web_page_preview``) and
TDLib's ``MessageText`` (MessageContent.cpp): the preview is of the options' ``url``, else of the text's first link
(``get_first_url``: a ``url`` entity that is not a bare domain or a ``tg:``/``ton:``/``ftp:`` link, or a
``text_link``). The stand fetches no page, so every such link counts as having a preview: the message names its
url, ``prefer_*_media`` only with a url (large wins), ``show_above_text``; ``is_disabled`` only when the text has
a link to disable. A message with no link and no wish shows no options, as Telegram's do.
"""

from __future__ import annotations

from typing import Any

from tgfake.botapi import fields
from tgfake.botapi.fields import FieldError, decode_param, optional_bool, optional_string
from tgfake.errors import bad_request
from tgfake.params import Params
from tgfake.text.api import FormattedText

OBJECT_EXPECTED = "Bad Request: object expected as link preview options"
_NOT_PREVIEWED = ("ton:", "tg:", "ftp:", "tonsite:")


def requested(p: Params) -> dict[str, Any] | None:
    """The options as the bot sent them (checked now, before the chat), or None for the defaults."""
    value = decode_param(p, "link_preview_options", "link preview options")
    if value is None:
        return {"is_disabled": True} if p.flag("disable_web_page_preview") else None
    if not isinstance(value, dict):
        raise bad_request(OBJECT_EXPECTED)
    try:
        out: dict[str, Any] = {"url": optional_string(value, "url")}
        for name in ("is_disabled", "prefer_small_media", "prefer_large_media", "show_above_text"):
            out[name] = optional_bool(value, name)
    except FieldError as exc:
        raise fields.refuse(exc.message) from None
    return out


def first_url(text: FormattedText) -> str:
    """TDLib's ``get_first_url``: the first link of the text a preview could be made of, or ``""``."""
    units = text.text.encode("utf-16-le")
    for entity in text.entities:
        if entity.type == "text_link":
            url = entity.url
        elif entity.type == "url" and entity.length > 4:
            url = units[entity.offset * 2 : entity.end * 2].decode("utf-16-le")
            if "/" not in url and "?" not in url and "#" not in url:
                continue  # a plain domain
        else:
            continue
        if not url[:8].lower().startswith(_NOT_PREVIEWED):
            return url
    return ""


def shown(options: dict[str, Any] | None, text: FormattedText) -> dict[str, Any] | None:
    """The message's ``link_preview_options`` (JsonLinkPreviewOptions' keys and order), or None."""
    wish = options or {}
    url = str(wish.get("url") or "")
    link = url or first_url(text)
    disabled = bool(wish.get("is_disabled")) and bool(link)
    out: dict[str, Any] = {}
    if disabled:
        out["is_disabled"] = True
        if url:
            out["url"] = url
    elif link:
        out["url"] = link
        if wish.get("prefer_large_media"):
            out["prefer_large_media"] = True
        elif wish.get("prefer_small_media"):
            out["prefer_small_media"] = True
    if wish.get("show_above_text") and link:
        out["show_above_text"] = True
    return out or None
