"""Formatting through the wire: every text-carrying method parses, refuses in Telegram's words, stores entities."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes

CANT = "Bad Request: can't parse entities: "


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"text": "Hello!", "parse_mode": "MarkdownV2"},
         CANT + "Character '!' is reserved and must be escaped with the preceding '\\'"),
        ({"text": "🙂 *bold", "parse_mode": "markdownv2"}, CANT + "Can't find end of Bold entity at byte offset 5"),
        ({"text": "a_b", "parse_mode": "Markdown"}, CANT + "Can't find end of the entity starting at byte offset 1"),
        ({"text": "<abc>x</abc>", "parse_mode": "HTML"}, CANT + 'Unsupported start tag "abc" at byte offset 0'),
        ({"text": "🏟 🏟&lt;<i>a</em   >", "parse_mode": "HTML"},
         CANT + 'Unmatched end tag at byte offset 17, expected "</i>", found "</em>"'),
        ({"text": "<b>x", "parse_mode": "html"}, CANT + 'Can\'t find end tag corresponding to start tag "b"'),
        ({"text": "<b> </b>", "parse_mode": "HTML"}, "Bad Request: text must be non-empty"),
        ({"text": "x", "parse_mode": "BBCode"}, "Bad Request: unsupported parse_mode"),
        ({"text": "x" * 32769}, "Bad Request: text is too long"),
        ({"text": "<b>" + "я" * 4097 + "</b>", "parse_mode": "HTML"}, "Bad Request: message is too long"),
        ({"text": "hi", "entities": '[{"type":"bold","offset":0}]'},
         'Bad Request: can\'t parse MessageEntity: Can\'t find field "length"'),
        ({"text": "hi", "entities": '[{"type":"bold","offset":"x","length":1}]'},
         'Bad Request: can\'t parse MessageEntity: Field "offset" must be a valid Number'),
        ({"text": "hi", "entities": '[{"type":"blink","offset":0,"length":1}]'},
         "Bad Request: can't parse MessageEntity: Unsupported type specified"),
        ({"text": "hi", "entities": "[1]"}, "Bad Request: can't parse MessageEntity: expected an Object"),
        ({"text": "hi", "entities": '[{"type":"bold","offset":5,"length":1}]'},
         "Bad Request: entity begins after the end of the text at UTF-16 offset 5"),
        ({"text": "hi", "entities": '[{"type":"bold","offset":1,"length":4}]'},
         "Bad Request: entity beginning at UTF-16 offset 1 ends after the end of the text at UTF-16 offset 5"),
        ({"text": "🙂", "entities": '[{"type":"bold","offset":1,"length":1}]'},
         "Bad Request: entity begins in a middle of a UTF-16 symbol at byte offset 4"),
        ({"text": "hi", "entities": '[{"type":"bold","offset":-1,"length":1}]'},
         "Bad Request: receive an entity with incorrect offset -1"),
        ({"text": "hi", "entities": '[{"type":"text_link","offset":0,"length":2,"url":"nodot"}]'},
         "Bad Request: entity URL 'nodot' is invalid: Wrong HTTP URL"),
        ({"text": "hi", "entities": '[{"type":"custom_emoji","offset":0,"length":2,"custom_emoji_id":"0"}]'},
         "Bad Request: invalid custom emoji identifier specified"),
        ({"text": "hi", "entities": '[{"type":"date_time","offset":0,"length":2,"unix_time":1,'
                                    '"date_time_format":"x"}]'},
         "Bad Request: can't parse MessageEntity: Invalid date-time format specified"),
    ],
)  # fmt: skip
async def test_send_message_formatting_refusals(wire: Wire, params: dict[str, Any], description: str) -> None:
    await wire.refused("sendMessage", 400, description, chat_id=4242, **params)
    assert await wire.text() == ""  # nothing stored


async def test_explicit_entities_are_normalised_and_detected_ones_added(wire: Wire) -> None:
    entities = [
        {"type": "bold", "offset": 0, "length": 11},
        {"type": "italic", "offset": 6, "length": 5},
        {"type": "url", "offset": 0, "length": 2},  # dropped: the server finds links itself
        {"type": "text_mention", "offset": 12, "length": 5, "user": {"id": 4242}},
        {"type": "custom_emoji", "offset": 18, "length": 2, "custom_emoji_id": 5368324170671202286},
        {"type": "pre", "offset": 21, "length": 3, "language": "py"},
        {"type": "date_time", "offset": 25, "length": 3, "unix_time": 1700000000, "date_time_format": "wDT"},
    ]
    await wire.say("hi")
    msg = await wire.ok(
        "sendMessage", chat_id=4242, text="Hello world alice 🙂 x=1 now see t.me/x\r\n", entities=json.dumps(entities)
    )
    assert msg["text"] == "Hello world alice 🙂 x=1 now see t.me/x"
    assert msg["entities"] == [
        {"offset": 0, "length": 6, "type": "bold"},
        {"offset": 6, "length": 5, "type": "bold"},
        {"offset": 6, "length": 5, "type": "italic"},
        {"offset": 12, "length": 5, "type": "text_mention",
         "user": {"id": 4242, "is_bot": False, "first_name": "Alice", "username": "alice"}},
        {"offset": 18, "length": 2, "type": "custom_emoji", "custom_emoji_id": "5368324170671202286"},
        {"offset": 21, "length": 3, "type": "pre", "language": "py"},
        {"offset": 25, "length": 3, "type": "date_time", "unix_time": 1700000000, "date_time_format": "wDT"},
        {"offset": 33, "length": 6, "type": "url"},
    ]  # fmt: skip
    assert await wire.text() == (
        "[1] alice: hi\n"
        "[2] bot: **Hello ****_world_** [alice](tg://user?id=4242) 🙂 ```py\n    x=1\n    ``` "
        "[now](tg://time?unix=1700000000) see t.me/x\n"
    )


async def test_edit_message_text_parses_and_compares_entities(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="<b>hi</b>", parse_mode="HTML")
    # the same text without the bold is a change
    edited = await wire.ok("editMessageText", chat_id=4242, message_id=1, text="hi")
    assert "entities" not in edited
    await wire.refused(
        "editMessageText", 400, CANT + "Can't find end of Italic entity at byte offset 0",
        chat_id=4242, message_id=1, text="_hi", parse_mode="MarkdownV2",
    )  # fmt: skip
    again = await wire.ok("editMessageText", chat_id=4242, message_id=1, text="_hi_", parse_mode="MarkdownV2")
    assert again["entities"] == [{"offset": 0, "length": 2, "type": "italic"}]
    status, body = await wire.call("editMessageText", chat_id=4242, message_id=1, text="<i>hi</i>", parse_mode="HTML")
    assert (status, body["description"].split(":")[1]) == (400, " message is not modified")


async def upload(wire: Wire, **fields: str) -> tuple[int, dict[str, Any]]:
    from aiohttp import FormData

    form = FormData()
    for key, value in fields.items():
        form.add_field(key, value)
    form.add_field("photo", image_bytes("PNG"), filename="p.png", content_type="image/png")
    resp = await wire.client.post(f"/bot{wire.token}/sendPhoto", data=form)
    return resp.status, await resp.json()


async def test_captions_parse_and_may_be_empty(wire: Wire) -> None:
    status, body = await upload(wire, chat_id="4242", caption="<i>cat</i> #cute", parse_mode="HTML")
    assert status == 200, body
    assert body["result"]["caption"] == "cat #cute"
    assert body["result"]["caption_entities"] == [
        {"offset": 0, "length": 3, "type": "italic"},
        {"offset": 4, "length": 5, "type": "hashtag"},
    ]
    status, body = await upload(wire, chat_id="4242", caption="<b></b>", parse_mode="HTML")
    assert (status, "caption" in body["result"]) == (200, False)
    status, body = await upload(wire, chat_id="4242", caption="<u>x", parse_mode="HTML")
    assert (status, body["description"]) == (400, CANT + 'Can\'t find end tag corresponding to start tag "u"')
    status, body = await upload(wire, chat_id="4242", caption="<b>" + "x" * 1025 + "</b>", parse_mode="HTML")
    assert (status, body["description"]) == (400, "Bad Request: message caption is too long")


async def test_person_text_gets_the_detected_entities(wire: Wire) -> None:
    await wire.say("ping @someone about #release at https://example.com/x, or mail ops@example.com /status")
    [update] = await wire.ok("getUpdates")
    assert [(e["type"], e["offset"], e["length"]) for e in update["message"]["entities"]] == [
        ("mention", 5, 8), ("hashtag", 20, 8), ("url", 32, 21), ("email", 63, 15), ("bot_command", 79, 7)
    ]  # fmt: skip


async def test_an_international_number_is_a_phone_number_and_other_writings_are_not(wire: Wire) -> None:
    text = "*call* +12125550123.\n+1 212 555 0123, 12125550123, +123456, x+12125550123, +12125550123a, 🙂+4915112345678"
    msg = await wire.ok("sendMessage", chat_id=4242, text=text, parse_mode="Markdown")
    assert [(e["type"], e["offset"], e["length"]) for e in msg["entities"]] == [
        ("bold", 0, 4), ("phone_number", 5, 12), ("phone_number", 90, 14)
    ]  # fmt: skip  # offsets in UTF-16: the emoji before the last number is two units
    await wire.say("ring +442071838750 please")
    [update] = await wire.ok("getUpdates")
    assert update["message"]["entities"] == [{"type": "phone_number", "offset": 5, "length": 13}]


async def test_a_quote_must_be_in_the_replied_message(wire: Wire) -> None:
    await wire.say("the quick brown fox")
    params = {"message_id": 1, "quote": "<b>brown</b>", "quote_parse_mode": "HTML"}
    msg = await wire.ok("sendMessage", chat_id=4242, text="yes", reply_parameters=json.dumps(params))
    assert msg["quote"] == {
        "text": "brown",
        "entities": [{"offset": 0, "length": 5, "type": "bold"}],
        "position": 10,
        "is_manual": True,
    }
    bad = {"message_id": 1, "quote": "purple"}
    await wire.refused(
        "sendMessage", 400, "Bad Request: QUOTE_TEXT_INVALID", chat_id=4242, text="x", reply_parameters=json.dumps(bad)
    )
    broken = {"message_id": 1, "quote": "<b>brown", "quote_parse_mode": "HTML"}
    await wire.refused(
        "sendMessage", 400, CANT + 'Can\'t find end tag corresponding to start tag "b"',
        chat_id=4242, text="x", reply_parameters=json.dumps(broken),
    )  # fmt: skip
