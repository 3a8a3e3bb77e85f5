"""The one dialog every library's bot plays against the stand, and the checks on what the bot did.

The bots (``bots/*.py``, ``node/*.js``) hard-code the same words: they are unmodified programs, so they
cannot import these constants; a bot that says something else fails here with the transcript.
"""

from __future__ import annotations

import io
import urllib.request
from typing import Any

from PIL import Image

from tgfake.testing import Call, ChatMessage, StandClient

START_REPLY = "Choose:"
BUTTON = "Tap me"
TAP_ANSWER = "Tapped"
EDITED = "You tapped it."
PHOTO_CAPTION = "Your photo back"
FORMATTED = "<b>bold</b> and <i>italic</i>"
# What Telegram makes of FORMATTED with parse_mode HTML (offsets and lengths in UTF-16 units).
FORMATTED_TEXT = "bold and italic"
FORMATTED_ENTITIES = [
    {"type": "bold", "offset": 0, "length": 4},
    {"type": "italic", "offset": 9, "length": 6},
]


def photo_png() -> bytes:
    """A small PNG with a size no library would make up (so the bot's copy is recognisably this photo)."""
    buf = io.BytesIO()
    Image.new("RGB", (7, 5), (200, 30, 60)).save(buf, format="PNG")
    return buf.getvalue()


def file_bytes(client: StandClient, file_id: str) -> bytes:
    """The stored bytes of a file (``GET /sim/file/{file_id}``)."""
    with urllib.request.urlopen(f"{client.url}/sim/file/{file_id}", timeout=10) as resp:
        data: bytes = resp.read()
    return data


def bot_messages(client: StandClient) -> list[ChatMessage]:
    return [m for m in client.messages() if m.from_bot and not m.deleted]


def assert_formatted(call: Call, message: ChatMessage) -> None:
    """The bot asked for HTML with the markup on the wire; the chat shows entities once the stand parses them.

    The one place to tighten when the stand models parse_mode: then the entities are required.
    """
    assert (call.params.get("parse_mode"), call.params.get("text")) == ("HTML", FORMATTED), call.line()
    view: dict[str, Any] = dict(message.raw)
    assert view.get("parse_mode") == "HTML", view
    if "entities" in view:
        assert (message.text, view["entities"]) == (FORMATTED_TEXT, FORMATTED_ENTITIES), view
    else:
        assert message.text == FORMATTED, view


def play(client: StandClient) -> None:
    """/start → inline keyboard; tap → answered and edited; a photo → a photo back; "fmt" → an HTML reply."""
    client.send("/start")
    menu = client.expect_reply(START_REPLY)
    assert menu.keyboard == ((BUTTON,),), menu

    tap = client.tap(BUTTON)
    client.wait_call("answerCallbackQuery")
    answers = client.chat()["callbacks"]
    assert [(a["id"], a.get("text")) for a in answers] == [(tap.callback_query_id, TAP_ANSWER)]

    def edited() -> ChatMessage | None:
        m = next(m for m in bot_messages(client) if m.message_id == menu.message_id)
        return m if m.edited and m.text == EDITED else None

    after_edit = client.wait_until(edited, what=f"message {menu.message_id} edited to {EDITED!r}")
    assert after_edit.keyboard == (), after_edit

    png = photo_png()
    sent = client.send_photo(png, name="red.png")
    back = client.expect_reply(PHOTO_CAPTION)
    photo = dict(back.raw).get("photo") or {}
    assert (photo.get("width"), photo.get("height")) == (7, 5), back.raw
    assert photo["file_id"] != sent.file_id  # uploaded, not re-sent by id: the library's multipart went through
    assert file_bytes(client, photo["file_id"]) == png

    client.send("fmt")
    reply = client.expect_reply(containing="bold")
    call = client.outbox("sendMessage")[-1]
    assert_formatted(call, reply)

    refused = [c.line() for c in client.outbox() if not c.ok]
    assert refused == [], refused
