"""Every send takes every kind of ``reply_markup``, through the one parser (tgfake/botapi/keyboards.py).

telegram-bot-api reads a send's markup with ``get_reply_markup`` in ``do_send_message``, the path of every send
of a new message, so an inline keyboard, a reply keyboard, ``remove_keyboard`` and ``force_reply`` are all taken
(td then refuses anything but an inline keyboard only for an anonymous channel post). Edits, stopPoll and inline
results take inline keyboards only. The sends are those the Bot API documents with the four-kind union; the list
below is checked against the schema, so a new send method cannot be left out.
"""

from __future__ import annotations

import io
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import FormData

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, mp4_bytes, wav_bytes

ALICE = 4242
UNION = "InlineKeyboardMarkup or ReplyKeyboardMarkup or ReplyKeyboardRemove or ForceReply"
SCHEMA = Path(__file__).resolve().parents[2] / "tgfake" / "botapi" / "schema.json"

INLINE = {"inline_keyboard": [[{"text": "Again", "callback_data": "again"}]]}
KEYBOARD = {"keyboard": [[{"text": "🎰 Try it!"}]]}
REMOVE = {"remove_keyboard": True}
FORCE = {"force_reply": True, "input_field_placeholder": "Your bet"}
KINDS = {"inline": INLINE, "keyboard": KEYBOARD, "remove": REMOVE, "force_reply": FORCE}


async def form(wire: Wire, method: str, files: dict[str, tuple[str, bytes]], **params: Any) -> tuple[int, Any]:
    """A multipart send: each file a part of its field name, the rest as fields."""
    body = FormData()
    for key, value in params.items():
        body.add_field(key, str(value))
    for field, (name, data) in files.items():
        body.add_field(field, io.BytesIO(data), filename=name, content_type="application/octet-stream")
    resp = await wire.client.post(f"/bot{wire.token}/{method}", data=body)
    return resp.status, await resp.json()


Send = Callable[[Wire, str], Awaitable[tuple[int, Any]]]


def plain(method: str, **params: Any) -> Send:
    async def send(wire: Wire, markup: str) -> tuple[int, Any]:
        return await wire.call(method, chat_id=ALICE, reply_markup=markup, **params)

    return send


def upload(method: str, files: dict[str, tuple[str, bytes]], **params: Any) -> Send:
    async def send(wire: Wire, markup: str) -> tuple[int, Any]:
        return await form(wire, method, files, chat_id=ALICE, reply_markup=markup, **params)

    return send


async def _copy(wire: Wire, markup: str) -> tuple[int, Any]:
    original = await wire.ok("sendMessage", chat_id=ALICE, text="to copy")
    return await wire.call(
        "copyMessage", chat_id=ALICE, from_chat_id=ALICE, message_id=original["message_id"], reply_markup=markup
    )


SENDS: dict[str, Send] = {
    "sendMessage": plain("sendMessage", text="Spin?"),
    "sendPhoto": upload("sendPhoto", {"photo": ("p.png", image_bytes("PNG"))}),
    "sendAudio": upload("sendAudio", {"audio": ("a.wav", wav_bytes(1))}),
    "sendDocument": upload("sendDocument", {"document": ("d.txt", b"rules")}),
    "sendVideo": upload("sendVideo", {"video": ("v.mp4", mp4_bytes())}),
    "sendAnimation": upload("sendAnimation", {"animation": ("a.gif", image_bytes("GIF"))}),
    "sendVoice": upload("sendVoice", {"voice": ("v.ogg", b"OggS\x00" + b"\x00" * 40)}, duration=1),
    "sendVideoNote": upload("sendVideoNote", {"video_note": ("n.mp4", mp4_bytes())}, length=240),
    "sendSticker": upload("sendSticker", {"sticker": ("s.webp", image_bytes("WEBP", (512, 256)))}, emoji="🎰"),
    "sendLivePhoto": upload(
        "sendLivePhoto", {"photo": ("p.png", image_bytes("PNG")), "live_photo": ("l.mp4", mp4_bytes())}
    ),
    "sendPaidMedia": upload(
        "sendPaidMedia",
        {"pic": ("p.png", image_bytes("PNG"))},
        star_count=5,
        media=json.dumps([{"type": "photo", "media": "attach://pic"}]),
    ),
    "sendLocation": plain("sendLocation", latitude=51.5, longitude=-0.12),
    "sendVenue": plain("sendVenue", latitude=51.5, longitude=-0.12, title="Casino", address="1 Strand"),
    "sendContact": plain("sendContact", phone_number="+15551234", first_name="Dealer"),
    "sendDice": plain("sendDice", emoji="🎰"),
    "sendPoll": plain("sendPoll", question="Lucky?", options=json.dumps(["Yes", "No"])),
    "sendRichMessage": plain("sendRichMessage", rich_message=json.dumps({"markdown": "**Spin**"})),
    "copyMessage": _copy,
}


def test_every_send_the_bot_api_documents_with_every_markup_is_here() -> None:
    """The table above is every method whose ``reply_markup`` is the four-kind union, and nothing else."""
    methods = json.loads(SCHEMA.read_text(encoding="utf-8"))["methods"]
    union = {
        name
        for name, method in methods.items()
        if any(p["name"] == "reply_markup" and p["type"] == UNION for p in method["params"])
    }
    assert union == set(SENDS)


async def _chat(wire: Wire) -> dict[str, Any]:
    status, view = await wire.sim("GET", f"/sim/chat/{ALICE}")
    assert status == 200, view
    return dict(view)


@pytest.mark.parametrize("method", sorted(SENDS))
@pytest.mark.parametrize("kind", sorted(KINDS))
async def test_every_send_takes_every_kind_of_markup(wire: Wire, method: str, kind: str) -> None:
    await wire.say("/start")  # alice has written to the bot: the chat exists
    if kind == "remove":  # something to remove: a keyboard sent before
        await wire.ok("sendMessage", chat_id=ALICE, text="pick", reply_markup=json.dumps(KEYBOARD))
    status, body = await SENDS[method](wire, json.dumps(KINDS[kind]))
    assert status == 200, body
    sent = body["result"]
    view = await _chat(wire)
    mine = next(m for m in view["messages"] if m["message_id"] == sent["message_id"])
    is_message = "chat" in sent  # copyMessage answers a MessageId
    if kind == "inline":
        assert mine["keyboard"] == INLINE["inline_keyboard"]
        assert not is_message or sent["reply_markup"] == INLINE
        assert "reply_keyboard" not in mine
        return
    assert "reply_markup" not in sent  # Message.reply_markup is only ever an inline keyboard
    assert "keyboard" not in mine
    assert mine["reply_keyboard"] == KINDS[kind]
    if kind == "keyboard":
        assert view["reply_keyboard"] == {"message_id": sent["message_id"], **KEYBOARD}
    elif kind == "remove":
        assert "reply_keyboard" not in view
    else:
        assert "reply_keyboard" not in view  # a force reply leaves no keyboard (none was shown)


@pytest.mark.parametrize("method", ["sendDice", "sendLocation", "sendVenue", "sendContact"])
async def test_a_reply_keyboard_is_pressed_after_any_send(wire: Wire, method: str) -> None:
    """The slot machine's turn: the keyboard sent with the die is the one the person presses."""
    status, body = await SENDS[method](wire, json.dumps(KEYBOARD))
    assert status == 200, body
    status, pressed = await wire.sim("POST", "/sim/reply-button", {"label": "🎰 Try it!"})
    assert status == 200, pressed
    [update] = await wire.ok("getUpdates", timeout=0)
    assert update["message"]["text"] == "🎰 Try it!"


@pytest.mark.parametrize("method", ["sendDice", "sendLocation", "sendContact"])
async def test_a_channel_post_still_takes_inline_keyboards_only(wire: Wire, method: str) -> None:
    """td's one refusal for a send: an anonymous channel post carries an inline keyboard or nothing."""
    await wire.ok("getMe")
    status, made = await wire.sim("POST", "/sim/chats", {"type": "channel", "title": "Casino", "admins": [123]})
    assert status == 200, made
    channel = made["chat"]["id"]
    params: dict[str, Any] = {"sendDice": {}, "sendLocation": {"latitude": 1, "longitude": 2}}.get(
        method, {"phone_number": "+1555", "first_name": "D"}
    )
    await wire.refused(
        method,
        400,
        "Bad Request: inline keyboard expected",
        chat_id=channel,
        reply_markup=json.dumps(KEYBOARD),
        **params,
    )


@pytest.mark.parametrize("markup", [KEYBOARD, REMOVE, FORCE])
async def test_edits_take_inline_keyboards_only(wire: Wire, markup: dict[str, Any]) -> None:
    sent = await wire.ok("sendLocation", chat_id=ALICE, latitude=1, longitude=2, live_period=60)
    for method, params in (
        ("editMessageReplyMarkup", {}),
        ("editMessageLiveLocation", {"latitude": 3, "longitude": 4}),
    ):
        await wire.refused(
            method,
            400,
            "Bad Request: inline keyboard expected",
            chat_id=ALICE,
            message_id=sent["message_id"],
            reply_markup=json.dumps(markup),
            **params,
        )


async def test_a_checklist_reads_its_markup_before_the_business_connection(wire: Wire) -> None:
    """sendChecklist is a send: its markup is parsed (any kind) after the checklist, before the connection."""
    checklist = json.dumps({"title": "Bets", "tasks": [{"id": 1, "text": "red"}]})
    common = {"business_connection_id": "bc-1", "chat_id": ALICE, "checklist": checklist}
    for markup in KINDS.values():
        await wire.refused(
            "sendChecklist",
            400,
            "Bad Request: business connection not found",
            **common,
            reply_markup=json.dumps(markup),
        )
    await wire.refused(
        "sendChecklist",
        400,
        'Bad Request: field "keyboard" must be an Array of Arrays',
        **common,
        reply_markup='{"keyboard":["A"]}',
    )
