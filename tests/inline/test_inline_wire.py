"""Inline mode through the wire: inline queries, answerInlineQuery's checks, picking a result, inline messages."""

from __future__ import annotations

import base64
import json
import struct
from typing import Any

import aiohttp
import pytest

from tests.conftest import Wire
from tgfake.clock import ManualClock

TOKEN = "777:inline"
WRAP = "Bad Request: can't parse inline query result: "
URL = "https://x.org/"
BUTTON = "Bad Request: can't parse inline query results button: "


async def inline_bot(wire: Wire, **flags: Any) -> None:
    body = {"token": TOKEN, "username": "finder_bot", "supports_inline_queries": True, **flags}
    status, got = await wire.sim("POST", "/sim/bots", body)
    assert status == 200, got
    wire.token = TOKEN


async def ask(wire: Wire, query: str = "cats", **fields: Any) -> dict[str, Any]:
    status, body = await wire.sim("POST", "/sim/inline", {"bot": "finder_bot", "query": query, **fields})
    assert status == 200, body
    updates = await wire.ok("getUpdates", offset=-1)
    return dict(updates[-1]["inline_query"])


def article(rid: str, text: str = "hello", **more: Any) -> dict[str, Any]:
    return {"type": "article", "id": rid, "title": f"T{rid}", "input_message_content": {"message_text": text}, **more}


async def answer(wire: Wire, query: dict[str, Any], results: list[Any], **params: Any) -> Any:
    return await wire.ok("answerInlineQuery", inline_query_id=query["id"], results=json.dumps(results), **params)


async def test_the_inline_query_update_names_the_person_the_query_and_the_chat_type(wire: Wire) -> None:
    await inline_bot(wire)
    query = await ask(wire, "cats", offset="", latitude=52.5, longitude=13.4)
    assert query == {
        "id": query["id"],
        "from": {"id": 4242, "is_bot": False, "first_name": "Alice", "username": "alice"},
        "location": {"latitude": 52.5, "longitude": 13.4},
        "chat_type": "private",
        "query": "cats",
        "offset": "",
    }
    assert list(query) == ["id", "from", "location", "chat_type", "query", "offset"]
    group = await ask(wire, "dogs", chat_id=-1005, chat_type="supergroup")
    assert group["chat_type"] == "supergroup"


async def test_a_bot_without_inline_mode_gets_no_query(wire: Wire) -> None:
    status, body = await wire.sim("POST", "/sim/inline", {"query": "cats"})
    assert status == 400
    assert "inline mode off" in body["error"]
    assert "POST /sim/bots/" in body["error"]


async def test_an_unsubscribed_bot_does_not_get_inline_queries(wire: Wire) -> None:
    await inline_bot(wire)
    await wire.ok("getUpdates", allowed_updates=json.dumps(["message"]), timeout=0)
    status, _ = await wire.sim("POST", "/sim/inline", {"bot": "finder_bot", "query": "x"})
    assert status == 200
    assert await wire.ok("getUpdates", timeout=0) == []


async def test_the_answer_is_shown_to_the_person_and_a_pick_sends_it_via_the_bot(wire: Wire) -> None:
    await inline_bot(wire, inline_feedback=True)
    query = await ask(wire)
    markup = {"inline_keyboard": [[{"text": "Like", "callback_data": "like"}]]}
    results = [
        article("a1", "<b>Cats</b> rule", reply_markup=markup)
        | {"input_message_content": {"message_text": "<b>Cats</b> rule", "parse_mode": "HTML"}},
        article("a2", "plain"),
    ]
    assert await answer(wire, query, results, cache_time=0, next_offset="2") is True
    status, shown = await wire.sim("GET", "/sim/inline?bot=finder_bot")
    assert status == 200
    assert shown["answered"] is True
    assert shown["next_offset"] == "2"
    assert shown["cache_time"] == 0
    assert [r["id"] for r in shown["results"]] == ["a1", "a2"]
    status, picked = await wire.sim("POST", "/sim/inline/choose", {"result_id": "a1"})
    assert status == 200, picked
    inline_id = picked["inline_message_id"]
    updates = await wire.ok("getUpdates", offset=-2)
    message = updates[0]["message"]
    assert message["text"] == "Cats rule"
    assert message["entities"] == [{"offset": 0, "length": 4, "type": "bold"}]
    assert message["via_bot"]["username"] == "finder_bot"
    assert message["from"]["id"] == 4242
    assert message["reply_markup"] == markup
    assert list(message)[-2:] == ["reply_markup", "via_bot"]
    assert updates[1]["chosen_inline_result"] == {
        "result_id": "a1",
        "from": updates[1]["chosen_inline_result"]["from"],
        "inline_message_id": inline_id,
        "query": "cats",
    }
    assert list(updates[1]["chosen_inline_result"]) == ["from", "inline_message_id", "query", "result_id"]
    transcript = await wire.client.get("/sim/chat/4242", params={"format": "text", "bot": "finder_bot"})
    assert await transcript.text() == "[1] alice via @finder_bot: **Cats** rule\n    [Like]\n"


async def test_inline_feedback_off_sends_no_chosen_result(wire: Wire) -> None:
    await inline_bot(wire)
    query = await ask(wire)
    await answer(wire, query, [article("a")])
    status, picked = await wire.sim("POST", "/sim/inline/choose", {"result_id": "a"})
    assert status == 200
    assert "update_id" not in picked
    assert "inline_message_id" not in picked
    updates = await wire.ok("getUpdates", offset=-1)
    assert "message" in updates[-1]


async def test_paging_asks_again_with_the_next_offset(wire: Wire) -> None:
    await inline_bot(wire)
    first = await ask(wire, "cats")
    await answer(wire, first, [article("1")], next_offset="10")
    status, page = await wire.sim("POST", "/sim/inline/more", {})
    assert status == 200, page
    second = (await wire.ok("getUpdates", offset=-1))[-1]["inline_query"]
    assert (second["query"], second["offset"], second["id"] != first["id"]) == ("cats", "10", True)
    await answer(wire, second, [article("2")])
    status, body = await wire.sim("POST", "/sim/inline/more", {})
    assert status == 409
    assert "no next page" in body["error"]


async def test_a_query_takes_one_answer_within_its_lifetime(wire: Wire, clock: ManualClock) -> None:
    await inline_bot(wire)
    query = await ask(wire)
    await answer(wire, query, [article("a")])
    too_old = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    await wire.refused("answerInlineQuery", 400, too_old, inline_query_id=query["id"], results="[]")
    late = await ask(wire, "later")
    clock.advance(31)
    await wire.refused("answerInlineQuery", 400, too_old, inline_query_id=late["id"], results="[]")
    await wire.refused("answerInlineQuery", 400, too_old, inline_query_id="12345", results="[]")
    await wire.refused("answerInlineQuery", 400, too_old)


@pytest.mark.parametrize(
    ("results", "description"),
    [
        ("[", "Bad Request: can't parse JSON encoded inline query results: Unexpected string end"),
        ("[" * 5000, "Bad Request: can't parse JSON encoded inline query results: Too big object depth"),
        (
            "[1 2]",
            "Bad Request: can't parse JSON encoded inline query results: Unexpected symbol while parsing JSON Array",
        ),
        ("yes", "Bad Request: can't parse JSON encoded inline query results: Unexpected symbol 'y'"),
        ("{}", "Bad Request: expected an Array of inline query results"),
        (json.dumps([article(str(i)) for i in range(51)]), "Bad Request: too many inline query results specified"),
        ("[1]", WRAP + "Inline query result must be an object"),
        ('[{"id": "1"}]', WRAP + 'Can\'t find field "type"'),
        ('[{"type": "article"}]', WRAP + 'Can\'t find field "id"'),
        (
            '[{"type": "article", "id": "1", "title": "t"}]',
            WRAP + 'Can\'t find field "message_text"',
        ),
        (
            '[{"type": "article", "id": "1", "title": "t", "input_message_content": {}}]',
            WRAP + "Input message content is not specified",
        ),
        (
            '[{"type": "article", "id": "1", "input_message_content": {"message_text": "x"}}]',
            WRAP + 'Can\'t find field "title"',
        ),
        (
            '[{"type": "article", "id": "1", "title": "t", "input_message_content": 5}]',
            WRAP + 'Field "input_message_content" must be of type Object',
        ),
        (
            '[{"type": "cartoon", "id": "1"}]',
            WRAP + 'type "cartoon" is unsupported for the inline query result',
        ),
        (
            '[{"type": "photo", "id": "1"}]',
            WRAP + 'Can\'t find field "photo_file_id"',
        ),
        (
            '[{"type": "document", "id": "1", "title": "d", "document_url": "https://x.org/a.pdf"}]',
            WRAP + 'Can\'t find field "mime_type"',
        ),
        (
            json.dumps(
                [
                    {
                        "type": "document",
                        "id": "1",
                        "title": "d",
                        "document_url": URL + "a.pdf",
                        "mime_type": "text/plain",
                    }
                ]
            ),
            "Bad Request: unallowed document MIME type",
        ),
        (
            json.dumps(
                [{"type": "video", "id": "1", "title": "v", "video_url": URL + "a.avi", "mime_type": "video/avi"}]
            ),
            "Bad Request: unallowed video MIME type",
        ),
        ('[{"type": "sticker", "id": "1", "sticker_file_id": "a.b"}]', "Bad Request: wrong sticker_file_id specified"),
        (
            '[{"type": "photo", "id": "1", "photo_file_id": "nonsense"}]',
            "Bad Request: wrong file identifier/HTTP URL specified",
        ),
        (
            '[{"type": "contact", "id": "1", "phone_number": " ", "first_name": "A"}]',
            'Bad Request: field "phone_number" must contain a valid phone number',
        ),
        (
            '[{"type": "contact", "id": "1", "phone_number": "+1", "first_name": " "}]',
            'Bad Request: field "first_name" must be non-empty',
        ),
        (
            '[{"type": "location", "id": "1", "title": "x", "latitude": 91, "longitude": 0}]',
            "Bad Request: invalid location specified",
        ),
        (
            '[{"type": "location", "id": "1", "title": "x", "latitude": "1", "longitude": 0}]',
            WRAP + 'Field "latitude" must be of type Number',
        ),
        (
            json.dumps(
                [
                    article("1", "*x", parse_mode="Markdown")
                    | {"input_message_content": {"message_text": "*x", "parse_mode": "MarkdownV2"}}
                ]
            ),
            WRAP + "Can't parse entities: Can't find end of Bold entity at byte offset 0",
        ),
        (
            json.dumps([article("1", reply_markup={"inline_keyboard": [[{"text": "plain"}]]})]),
            WRAP + "Can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        ),
        (json.dumps([article("1"), article("1")]), "Bad Request: RESULT_ID_DUPLICATE"),
        (json.dumps([article("x" * 65)]), "Bad Request: RESULT_ID_INVALID"),
        (json.dumps([article("")]), "Bad Request: RESULT_ID_INVALID"),
    ],
)
async def test_results_are_refused_in_telegrams_words(wire: Wire, results: str, description: str) -> None:
    await inline_bot(wire)
    query = await ask(wire)
    await wire.refused("answerInlineQuery", 400, description, inline_query_id=query["id"], results=results)
    assert await answer(wire, query, [article("ok")]) is True  # a refused answer leaves the query open


@pytest.mark.parametrize(
    ("button", "description"),
    [
        ("{", "Bad Request: can't parse inline query results button JSON object"),
        ("[]", BUTTON + "InlineQueryResultsButton must be an Object"),
        (
            '{"text": "Go"}',
            BUTTON + "InlineQueryResultsButton must have exactly one optional field",
        ),
        ('{"start_parameter": "x"}', BUTTON + 'Can\'t find field "text"'),
        ('{"text": "Go", "start_parameter": ""}', "Bad Request: can't use empty start_parameter"),
        ('{"text": "Go", "start_parameter": "' + "a" * 65 + '"}', "Bad Request: too long start_parameter specified"),
        ('{"text": "Go", "start_parameter": "a b"}', "Bad Request: unallowed characters in start_parameter are used"),
        (
            '{"text": "Go", "web_app": {"url": "http://example.com"}}',
            "Bad Request: inline query button Web App URL 'http://example.com' is invalid: "
            "Only HTTPS links are allowed",
        ),
    ],
)
async def test_the_button_is_checked_as_telegram_checks_it(wire: Wire, button: str, description: str) -> None:
    await inline_bot(wire)
    query = await ask(wire)
    await wire.refused("answerInlineQuery", 400, description, inline_query_id=query["id"], results="[]", button=button)


async def test_next_offset_is_at_most_64_bytes(wire: Wire) -> None:
    await inline_bot(wire)
    query = await ask(wire)
    await wire.refused(
        "answerInlineQuery",
        400,
        "Bad Request: NEXT_OFFSET_INVALID",
        inline_query_id=query["id"],
        results="[]",
        next_offset="é" * 33,
    )
    button = '{"text": "Set up", "start_parameter": "setup"}'
    assert await answer(wire, query, [], next_offset="o" * 64, button=button) is True
    _, shown = await wire.sim("GET", f"/sim/inline?inline_query_id={query['id']}")
    assert shown["button"] == {"text": "Set up", "start_parameter": "setup"}


async def test_every_content_kind_is_sent_as_its_message(wire: Wire) -> None:
    await inline_bot(wire)
    query = await ask(wire)
    results = [
        {
            "type": "photo",
            "id": "p",
            "photo_url": "https://x.org/cat.jpg",
            "thumbnail_url": "https://x.org/t.jpg",
            "photo_width": 640,
            "photo_height": 480,
            "caption": "<i>cat</i>",
            "parse_mode": "HTML",
        },
        {"type": "location", "id": "l", "title": "Here", "latitude": 52.5, "longitude": 13.4},
        {"type": "venue", "id": "v", "title": "Cafe", "address": "Main St 1", "latitude": 1.5, "longitude": 2.5},
        {"type": "contact", "id": "c", "phone_number": "+100", "first_name": "Bob"},
        article("t", "x") | {"input_message_content": {"latitude": 3.0, "longitude": 4.0}},
        {"type": "gif", "id": "g", "gif_url": "https://x.org/a.gif", "thumbnail_url": "https://x.org/t.jpg"},
    ]
    await answer(wire, query, results)
    got: dict[str, dict[str, Any]] = {}
    for rid in ("p", "l", "v", "c", "t", "g"):
        status, body = await wire.sim("POST", "/sim/inline/choose", {"result_id": rid})
        assert status == 200, body
        got[rid] = (await wire.ok("getUpdates", offset=-1))[-1]["message"]
    assert got["p"]["photo"][0]["width"] == 640
    assert got["p"]["caption"] == "cat"
    assert got["p"]["caption_entities"] == [{"offset": 0, "length": 3, "type": "italic"}]
    assert got["l"]["location"] == {"latitude": 52.5, "longitude": 13.4}
    assert got["v"]["venue"]["title"] == "Cafe"
    assert got["v"]["location"] == {"latitude": 1.5, "longitude": 2.5}
    assert got["c"]["contact"] == {"phone_number": "+100", "first_name": "Bob"}
    assert got["t"]["location"] == {"latitude": 3.0, "longitude": 4.0}
    assert "text" not in got["t"]
    assert got["g"]["animation"]["mime_type"] == "image/gif"
    assert all(m["via_bot"]["username"] == "finder_bot" for m in got.values())


async def test_a_file_id_result_resends_that_file(wire: Wire) -> None:
    await inline_bot(wire)
    await wire.say("hi", bot="finder_bot")
    form = aiohttp.FormData({"chat_id": "4242"})
    form.add_field("document", b"%PDF-1.4 data", filename="a.pdf")
    sent = await wire.client.post(f"/bot{TOKEN}/sendDocument", data=form)
    doc = (await sent.json())["result"]["document"]
    query = await ask(wire)
    await answer(wire, query, [{"type": "document", "id": "d", "title": "D", "document_file_id": doc["file_id"]}])
    await wire.sim("POST", "/sim/inline/choose", {"result_id": "d"})
    message = (await wire.ok("getUpdates", offset=-1))[-1]["message"]
    assert message["document"]["file_id"] == doc["file_id"]
    await wire.refused(
        "answerInlineQuery",
        400,
        "Bad Request: type of file mismatch",
        inline_query_id=(await ask(wire, "photos"))["id"],
        results=json.dumps([{"type": "photo", "id": "p", "photo_file_id": doc["file_id"]}]),
    )


async def test_inline_messages_are_edited_by_their_id_and_taps_carry_it(wire: Wire) -> None:
    await inline_bot(wire, inline_feedback=100)
    query = await ask(wire, chat_id=-1009, chat_type="supergroup")
    markup = {"inline_keyboard": [[{"text": "Vote", "callback_data": "v"}]]}
    await answer(wire, query, [article("a", "poll time", reply_markup=markup)])
    _, picked = await wire.sim("POST", "/sim/inline/choose", {"result_id": "a"})
    inline_id = picked["inline_message_id"]
    status, tap = await wire.sim("POST", "/sim/callback", {"chat_id": -1009, "label": "Vote", "bot": "finder_bot"})
    assert status == 200, tap
    callback = (await wire.ok("getUpdates", offset=-1))[-1]["callback_query"]
    assert callback["inline_message_id"] == inline_id
    assert "message" not in callback
    assert list(callback) == ["id", "from", "inline_message_id", "chat_instance", "data"]
    new_markup = json.dumps({"inline_keyboard": [[{"text": "Voted", "callback_data": "v"}]]})
    assert await wire.ok("editMessageText", inline_message_id=inline_id, text="closed", reply_markup=new_markup) is True
    assert await wire.ok("editMessageReplyMarkup", inline_message_id=inline_id) is True
    view = wire.stand.view(-1009).json()
    assert view["messages"][-1]["text"] == "closed"
    assert "keyboard" not in view["messages"][-1]
    await wire.refused("editMessageText", 400, "Bad Request: message identifier is not specified", text="x")
    await wire.refused(
        "editMessageText",
        400,
        "Bad Request: invalid inline message identifier specified",
        inline_message_id="not base64!",
        text="x",
    )
    await wire.refused(
        "editMessageText",
        400,
        "Bad Request: invalid inline message identifier specified",
        inline_message_id="AAAA",
        text="x",
    )
    unknown = base64.urlsafe_b64encode(struct.pack("<iqiq", 2, 1, 99, 99)).decode().rstrip("=")  # well formed, nobody's
    await wire.refused("editMessageText", 400, "Bad Request: MESSAGE_ID_INVALID", inline_message_id=unknown, text="x")


async def test_picking_needs_an_answered_query_and_a_known_result(wire: Wire) -> None:
    await inline_bot(wire)
    status, body = await wire.sim("POST", "/sim/inline/choose", {"result_id": "a"})
    assert status == 404
    assert "no inline query" in body["error"]
    query = await ask(wire)
    status, body = await wire.sim("POST", "/sim/inline/choose", {"result_id": "a"})
    assert status == 409
    assert "not answered" in body["error"]
    await answer(wire, query, [article("a")])
    status, body = await wire.sim("POST", "/sim/inline/choose", {"result_id": "zz"})
    assert status == 404
    assert "results: a" in body["error"]


async def test_the_results_view_waits_for_the_answer(wire: Wire) -> None:
    import asyncio

    await inline_bot(wire)
    query = await ask(wire)
    held = asyncio.create_task(wire.sim("GET", "/sim/inline?timeout=5"))
    await wire.stand.wait_calls("getUpdates", 1, 1.0)
    assert not held.done()
    await answer(wire, query, [article("a")])
    status, shown = await held
    assert status == 200
    assert shown["answered"] is True


async def launch(wire: Wire, **fields: Any) -> str:
    status, body = await wire.sim("POST", "/sim/webapp/launch", {"url": "https://app.example/", **fields})
    assert status == 200, body
    query_id = next(v for k, v in (p.split("=", 1) for p in body["init_data"].split("&")) if k == "query_id")
    return str(query_id)


async def test_answer_web_app_query_posts_the_result_via_the_bot_once(wire: Wire) -> None:
    await inline_bot(wire)
    await wire.say("hi", bot="finder_bot")
    query_id = await launch(wire, bot="finder_bot")
    result = json.dumps(article("w", "from the app"))
    assert await wire.ok("answerWebAppQuery", web_app_query_id=query_id, result=result) == {}
    message = (await wire.ok("getUpdates", offset=-1))[-1]["message"]
    assert message["text"] == "from the app"
    assert message["via_bot"]["username"] == "finder_bot"
    assert message["from"]["id"] == 4242
    too_old = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    await wire.refused("answerWebAppQuery", 400, too_old, web_app_query_id=query_id, result=result)
    await wire.refused("answerWebAppQuery", 400, too_old, web_app_query_id="nope", result=result)
    with_keyboard = json.dumps(article("k", "tap", reply_markup={"inline_keyboard": [[{"text": "Ok", "url": URL}]]}))
    sent = await wire.ok(
        "answerWebAppQuery", web_app_query_id=await launch(wire, bot="finder_bot"), result=with_keyboard
    )
    assert list(sent) == ["inline_message_id"]


@pytest.mark.parametrize(
    ("result", "description"),
    [
        (None, "Bad Request: result isn't specified"),
        ("{", "Bad Request: can't parse JSON encoded web view query results Unexpected string end"),
        ('{"type": "article"}', 'Bad Request: can\'t find field "id"'),
        ("[]", "Bad Request: inline query result must be an object"),
    ],
)
async def test_answer_web_app_query_refuses_a_bad_result_unwrapped(
    wire: Wire, result: str | None, description: str
) -> None:
    await inline_bot(wire)
    params = {"web_app_query_id": "x"} | ({"result": result} if result is not None else {})
    await wire.refused("answerWebAppQuery", 400, description, **params)


async def test_save_prepared_inline_message_expires_a_day_later(wire: Wire, clock: ManualClock) -> None:
    await inline_bot(wire)
    await wire.say("hi", bot="finder_bot")
    result = json.dumps(article("p", "share me"))
    saved = await wire.ok("savePreparedInlineMessage", user_id=4242, result=result, allow_user_chats="true")
    assert list(saved) == ["id", "expiration_date"]
    assert saved["expiration_date"] == int(clock.now()) + 86400
    await wire.refused(
        "savePreparedInlineMessage",
        400,
        "Bad Request: at least one chat type must be allowed",
        user_id=4242,
        result=result,
    )
    await wire.refused(
        "savePreparedInlineMessage",
        400,
        "Bad Request: user not found",
        user_id=999,
        result=result,
        allow_user_chats="true",
    )
    await wire.refused("savePreparedInlineMessage", 400, "Bad Request: invalid user_id specified", result=result)


async def test_save_prepared_keyboard_button_keeps_request_buttons_only(wire: Wire) -> None:
    await inline_bot(wire)
    await wire.say("hi", bot="finder_bot")
    button = json.dumps({"text": "Pick", "request_users": {"request_id": 1}})
    saved = await wire.ok("savePreparedKeyboardButton", user_id=4242, button=button)
    assert list(saved) == ["id"]
    await wire.refused(
        "savePreparedKeyboardButton", 400, "Bad Request: BUTTON_TYPE_INVALID", user_id=4242, button='{"text": "x"}'
    )
    await wire.refused(
        "savePreparedKeyboardButton",
        400,
        "Bad Request: can't parse keyboard button JSON object",
        user_id=4242,
        button="{",
    )
    await wire.refused(
        "savePreparedKeyboardButton",
        400,
        "Bad Request: can't parse keyboard button: KeyboardButton must be a String or an Object",
        user_id=4242,
        button="[]",
    )


async def test_switch_inline_buttons_are_kept_and_open_inline_mode(wire: Wire) -> None:
    await inline_bot(wire)
    await wire.say("hi", bot="finder_bot")
    markup = {
        "inline_keyboard": [
            [{"text": "Share", "switch_inline_query": "cats"}],
            [{"text": "Here", "switch_inline_query_current_chat": ""}],
            [{"text": "Pick", "switch_inline_query_chosen_chat": {"query": "q", "allow_user_chats": True}}],
        ]
    }
    sent = await wire.ok("sendMessage", chat_id=4242, text="try me", reply_markup=json.dumps(markup))
    assert sent["reply_markup"] == markup
    status, body = await wire.sim("POST", "/sim/callback", {"label": "Share", "bot": "finder_bot"})
    assert status == 400
    assert body["error"] == "[Share] switches to inline mode: POST /sim/inline with query 'cats'"


async def test_an_invoice_and_a_game_result_send_their_content(wire: Wire) -> None:
    await inline_bot(wire)
    query = await ask(wire)
    invoice = {
        "title": "Mug",
        "description": "A mug",
        "payload": "mug-1",
        "currency": "XTR",
        "prices": [{"label": "Mug", "amount": 5}, {"label": "Tax", "amount": 2}],
    }
    await answer(wire, query, [article("i") | {"input_message_content": invoice},
                               {"type": "game", "id": "g", "game_short_name": "snake"}])  # fmt: skip
    await wire.sim("POST", "/sim/inline/choose", {"result_id": "i"})
    sent = (await wire.ok("getUpdates", offset=-1))[-1]["message"]
    assert sent["invoice"] == {
        "title": "Mug", "description": "A mug", "start_parameter": "", "currency": "XTR", "total_amount": 7
    }  # fmt: skip
    await wire.sim("POST", "/sim/inline/choose", {"result_id": "g"})
    assert (await wire.ok("getUpdates", offset=-1))[-1]["message"]["game"]["title"] == "snake"
    bad = [article("i") | {"input_message_content": {**invoice, "prices": [{"label": "", "amount": 1}]}}]
    await wire.refused(
        "answerInlineQuery", 400, WRAP + "Can't parse labeled price: LabeledPrice label must be non-empty",
        inline_query_id=(await ask(wire, "bad invoice"))["id"], results=json.dumps(bad),
    )  # fmt: skip


async def test_an_answer_is_served_from_cache_for_cache_time_seconds(wire: Wire, clock: ManualClock) -> None:
    await inline_bot(wire)
    query = await ask(wire, "cats")
    await answer(wire, query, [article("a")], cache_time=60)

    async def typed(text: str, **who: Any) -> dict[str, Any]:
        status, asked = await wire.sim("POST", "/sim/inline", {"bot": "finder_bot", "query": text, **who})
        assert status == 200, asked
        _, shown = await wire.sim("GET", f"/sim/inline?inline_query_id={asked['inline_query_id']}")
        return dict(shown)

    def asked_of_the_bot() -> list[str]:
        return [u["inline_query"]["query"] for u in wire.stand.bots[777].pending if "inline_query" in u]

    again = await typed("cats ")  # the cache keys the trimmed text
    assert again["cached"] is True
    assert [r["id"] for r in again["results"]] == ["a"]
    assert (await typed("cats", user_id=4343, username="bob"))["cached"] is True  # not personal: shared
    assert asked_of_the_bot() == ["cats"]
    clock.advance(61)
    assert "cached" not in await typed("cats")
    assert asked_of_the_bot() == ["cats", "cats"]
