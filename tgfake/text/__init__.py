"""Formatted text as Telegram builds it: parse_mode parsers, explicit entities, normalisation, detection.

One entry point, :func:`format_text`, does for a text (or caption, quote, draft) what the Bot API server and
TDLib do before a message exists, and refuses with their words. The pieces live in submodules: ``html``,
``markdown_v2``, ``markdown`` (the parsers), ``entities`` (the model and ``fix_formatted_text``), ``detect``
(``find_entities``), ``links`` (URL checks) and ``render`` (HTML and the transcript notation).
"""

from __future__ import annotations

from tgfake.text.api import FormattedText, format_text, parse_entities_json, plain_entities
from tgfake.text.entities import Entity, utf16_len
from tgfake.text.render import to_html, to_transcript

__all__ = [
    "Entity",
    "FormattedText",
    "format_text",
    "parse_entities_json",
    "plain_entities",
    "to_html",
    "to_transcript",
    "utf16_len",
]
