"""Poll media over HTTP: a poll's ``media``, a quiz's ``explanation_media`` and each option's ``media`` kept and
written back as Client.cpp's ``JsonPollMedia`` (the one field of the kind), with ``get_input_poll_media``'s
refusals, and python-telegram-bot reading them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from telegram import InputMediaDocument, InputMediaLocation, InputMediaPhoto, InputPollOption, Poll

from tests.clients import ptb_bot
from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, mp4_bytes, upload_parts

CHAT = 4242


async def poll(wire: Wire, files: dict[str, bytes], **params: Any) -> tuple[int, dict[str, Any]]:
    base = {"chat_id": CHAT, "question": "Which?", "options": json.dumps(["a", "b"])}
    return await upload_parts(wire, "sendPoll", files, **{**base, **params})


async def test_poll_explanation_and_option_media_are_kept(wire: Wire) -> None:
    options = [
        {"text": "here", "media": {"type": "location", "latitude": 51.5, "longitude": -0.1}},
        {"text": "there", "media": {"type": "venue", "latitude": 1, "longitude": 2, "title": "Pub", "address": "Rd"}},
        {"text": "this", "media": {"type": "photo", "media": "attach://o"}},
    ]
    status, body = await poll(
        wire,
        {"p": image_bytes("PNG", (5, 4)), "e": b"%PDF-1.4", "o": image_bytes("PNG")},
        options=json.dumps(options),
        type="quiz",
        correct_option_id=0,
        explanation="see",
        media=json.dumps({"type": "photo", "media": "attach://p"}),
        explanation_media=json.dumps({"type": "document", "media": "attach://e"}),
    )
    assert status == 200, body
    shown = body["result"]["poll"]
    assert list(shown["media"]) == ["photo"]
    assert (shown["media"]["photo"][0]["width"], shown["media"]["photo"][0]["height"]) == (5, 4)
    assert list(shown["explanation_media"]) == ["document"]
    assert shown["explanation_media"]["document"]["mime_type"] == "application/pdf"
    assert list(shown)[-1] == "media"
    assert list(shown).index("explanation_media") == list(shown).index("explanation_entities") + 1
    first, second, third = shown["options"]
    assert first["media"] == {"location": {"latitude": 51.5, "longitude": -0.1}}
    assert list(first) == ["persistent_id", "text", "media", "voter_count"]
    assert second["media"]["venue"]["title"] == "Pub"
    assert list(second["media"]) == ["venue"]
    assert list(third["media"]) == ["photo"]
    file_id = shown["media"]["photo"][0]["file_id"]
    got = await wire.ok("getFile", file_id=file_id)
    assert got["file_id"] == file_id


async def test_a_live_photo_and_an_animation_show_only_their_own_field(wire: Wire) -> None:
    options = [{"text": "a", "media": {"type": "animation", "media": "attach://g"}}, "b"]
    status, body = await poll(
        wire,
        {"v": mp4_bytes(), "s": image_bytes("PNG", (2, 3)), "g": image_bytes("GIF")},
        options=json.dumps(options),
        media=json.dumps({"type": "live_photo", "media": "attach://v", "photo": "attach://s"}),
    )
    assert status == 200, body
    shown = body["result"]["poll"]
    assert list(shown["media"]) == ["live_photo"]
    assert shown["media"]["live_photo"]["photo"][0]["width"] == 2
    assert list(shown["options"][0]["media"]) == ["animation"]
    assert "media" not in shown["options"][1]


@pytest.mark.parametrize(
    ("params", "description"),
    [
        (
            {"media": '{"type": "photo"}'},
            "Bad Request: failed to parse InputPollMedia: media not found",
        ),
        (
            {"media": '{"type": "live_photo", "media": "attach://p"}'},
            "Bad Request: failed to parse InputPollMedia: photo not found",
        ),
        (
            {"media": '{"type": "venue", "latitude": 1, "longitude": 2, "title": "x"}'},
            'Bad Request: failed to parse InputPollMedia: Can\'t find field "address"',
        ),
        (
            {"options": json.dumps([{"text": "a", "media": {"type": "sticker", "media": "attach://gone"}}])},
            "Bad Request: failed to parse poll option media: media not found",
        ),
        (
            {"options": json.dumps([{"text": "a", "media": {"type": "document", "media": "attach://p"}}])},
            "Bad Request: failed to parse poll option media: invalid type specified",
        ),
        (
            {"media": '{"type": "photo", "media": "no-such-file"}'},
            "Bad Request: wrong file identifier/HTTP URL specified",
        ),
    ],
)
async def test_poll_media_refusals(wire: Wire, params: dict[str, Any], description: str) -> None:
    status, body = await poll(wire, {"p": image_bytes("PNG")}, **params)
    assert (status, body.get("description")) == (400, description)
    assert await wire.text() == ""


async def test_python_telegram_bot_reads_poll_media(wire: Wire) -> None:
    async with ptb_bot(wire) as bot:
        message = await bot.send_poll(
            CHAT,
            question="question",
            options=[InputPollOption("one", media=InputMediaLocation(latitude=0, longitude=0)), InputPollOption("two")],
            type=Poll.QUIZ,
            correct_option_ids=[0],
            media=InputMediaPhoto(image_bytes("PNG")),
            explanation_media=InputMediaDocument(b"%PDF-1.4", filename="a.pdf"),
        )
    assert message.poll is not None
    assert message.poll.media is not None
    assert message.poll.media.photo
    assert message.poll.explanation_media is not None
    assert message.poll.explanation_media.document
    assert message.poll.options[0].media is not None
    assert message.poll.options[0].media.location
