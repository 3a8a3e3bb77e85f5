"""link_preview_options on sendMessage and editMessageText: what the sent message shows back, and the refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Wire

GITHUB = "https://github.com/python-telegram-bot/python-telegram-bot"
SITE = "https://python-telegram-bot.org/"


async def sent(wire: Wire, text: str, **params: Any) -> Any:
    return (await wire.ok("sendMessage", chat_id=4242, text=text, **params)).get("link_preview_options")


@pytest.mark.parametrize(
    ("text", "wish", "shown"),
    [
        (GITHUB, None, {"url": GITHUB}),
        (f"see {GITHUB} and {SITE}", None, {"url": GITHUB}),
        (GITHUB, {"show_above_text": True}, {"url": GITHUB, "show_above_text": True}),
        (GITHUB, {"url": SITE, "prefer_large_media": True}, {"url": SITE, "prefer_large_media": True}),
        (GITHUB, {"prefer_small_media": True, "prefer_large_media": True}, {"url": GITHUB, "prefer_large_media": True}),
        (GITHUB, {"is_disabled": True}, {"is_disabled": True}),
        ("no link here", {"url": SITE}, {"url": SITE}),
        ("no link here", None, None),
        ("no link here", {"is_disabled": True, "show_above_text": True}, None),
        ("a bare example.com domain", None, None),
        ("tg://resolve?domain=x", None, None),
    ],
)
async def test_the_message_shows_the_options_of_its_preview(
    wire: Wire, text: str, wish: dict[str, Any] | None, shown: dict[str, Any] | None
) -> None:
    extra = {"link_preview_options": json.dumps(wish)} if wish is not None else {}
    assert await sent(wire, text, **extra) == shown


async def test_a_text_link_is_previewed_and_the_legacy_flag_disables(wire: Wire) -> None:
    assert await sent(wire, f'<a href="{SITE}">site</a>', parse_mode="HTML") == {"url": SITE}
    assert await sent(wire, GITHUB, disable_web_page_preview="true") == {"is_disabled": True}
    assert await sent(wire, "no link", disable_web_page_preview="true") is None
    options = json.dumps({"show_above_text": True})
    assert await sent(wire, GITHUB, link_preview_options=options, disable_web_page_preview="true") == {
        "url": GITHUB,
        "show_above_text": True,
    }


async def test_an_edit_replaces_the_options(wire: Wire) -> None:
    first = await wire.ok("sendMessage", chat_id=4242, text="https://telegram.org")
    options = json.dumps({"url": SITE, "show_above_text": True})
    edited = await wire.ok(
        "editMessageText", chat_id=4242, message_id=first["message_id"], text=GITHUB, link_preview_options=options
    )
    assert edited["link_preview_options"] == {"url": SITE, "show_above_text": True}
    assert list(edited).index("link_preview_options") == list(edited).index("entities") + 1
    plain = await wire.ok("editMessageText", chat_id=4242, message_id=first["message_id"], text="no link now")
    assert "link_preview_options" not in plain


@pytest.mark.parametrize(
    ("raw", "description"),
    [
        ("{", "Bad Request: can't parse link preview options JSON object"),
        ("[]", "Bad Request: object expected as link preview options"),
        ('{"is_disabled": "yes"}', 'Bad Request: field "is_disabled" must be of type Boolean'),
        ('{"url": {}}', 'Bad Request: field "url" must be of type String'),
    ],
)
async def test_bad_options_are_refused(wire: Wire, raw: str, description: str) -> None:
    await wire.refused("sendMessage", 400, description, chat_id=4242, text=GITHUB, link_preview_options=raw)
    first = await wire.ok("sendMessage", chat_id=4242, text="x")
    edit = {"chat_id": 4242, "message_id": first["message_id"], "text": "y", "link_preview_options": raw}
    await wire.refused("editMessageText", 400, description, **edit)
