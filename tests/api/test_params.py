"""Addressing, parameter decoding and the envelope: how any Bot API request is read and answered."""

from __future__ import annotations

import gzip
import io
import json

import pytest
from aiohttp import FormData

from tests.conftest import Wire, WireFactory

KEYBOARD = {"inline_keyboard": [[{"text": "Ping", "callback_data": "ping"}]]}


# --- addressing -----------------------------------------------------------------------------------------------
async def test_get_me_answers_get_and_post_alike(wire: Wire) -> None:
    got = await wire.client.get("/bot1:a/getMe")
    posted = await wire.client.post("/bot1:a/getMe")
    assert got.status == posted.status == 200
    assert (
        await got.json()
        == await posted.json()
        == {
            "ok": True,
            "result": {
                "can_join_groups": True,
                "can_read_all_group_messages": False,
                "first_name": "tgfake",
                "id": 1,
                "is_bot": True,
                "supports_inline_queries": False,
                "username": "tgfake_bot",
            },
        }
    )


@pytest.mark.parametrize("path", ["/x.html", "/bot1", "/bot1/", "/foo/getMe", "/sim/nothing", "/v1/models", "/botx"])
async def test_paths_naming_no_method_get_the_404_envelope_unrecorded(wire: Wire, path: str) -> None:
    resp = await wire.client.post(path)
    assert resp.status == 404
    assert await resp.text() == '{"ok":false,"error_code":404,"description":"Not Found"}'
    assert await wire.outbox() == []


async def test_method_names_are_case_insensitive_and_recorded_as_spelled(wire: Wire) -> None:
    result = await wire.ok("SENDmessage", chat_id=4242, text="hi")
    assert result["text"] == "hi"
    assert [c["method"] for c in await wire.outbox()] == ["SENDmessage"]
    assert [c["method"] for c in await wire.outbox("sendMessage")] == ["SENDmessage"]


async def test_a_trailing_slash_after_the_method_is_dropped(wire: Wire) -> None:
    resp = await wire.client.get("/bot1/getMe/")
    assert resp.status == 200
    assert [c["method"] for c in await wire.outbox()] == ["getMe"]


async def test_everything_after_the_token_is_the_method(wire: Wire) -> None:
    resp = await wire.client.post("/bot1/sendMessage/x", data={"chat_id": "4242", "text": "hi"})
    assert resp.status == 404
    assert await resp.json() == {"ok": False, "error_code": 404, "description": "Not Found: method not found"}
    [call] = await wire.outbox()
    assert (call["method"], call["status"]) == ("sendMessage/x", 404)


async def test_unknown_method_is_404_and_recorded(wire: Wire) -> None:
    await wire.refused("noSuchMethod", 404, "Not Found: method not found", chat_id=4242)
    [call] = await wire.outbox()
    assert call["response"] == {"ok": False, "error_code": 404, "description": "Not Found: method not found"}


async def test_an_empty_token_is_accepted_without_a_fixed_token(wire: Wire) -> None:
    resp = await wire.client.get("/bot/getMe")
    assert resp.status == 200


async def test_a_fixed_token_refuses_others_with_401_recorded(make_wire: WireFactory) -> None:
    async with make_wire(token="1:secret") as wire:
        assert (await wire.call("getMe", token="1:secret"))[0] == 200
        await wire.refused("getMe", 401, "Unauthorized", token="1:other")
        await wire.refused("sendMessage", 401, "Unauthorized", token="", chat_id=4242, text="x")
        calls = await wire.outbox()
        assert [(c["method"], c["status"]) for c in calls] == [("getMe", 200), ("getMe", 401), ("sendMessage", 401)]
        assert calls[2]["response"] == {"ok": False, "error_code": 401, "description": "Unauthorized"}
        assert wire.stand.chat(4242) is None


async def test_the_first_token_claims_the_first_bot_and_others_are_bots_of_their_own(
    wire: Wire, make_wire: WireFactory
) -> None:
    await wire.call("getMe", token="1:first")
    await wire.call("noSuchMethod", token="2:second")
    assert wire.stand.signing_token == "2:second"  # the latest caller, refused or not
    assert (await wire.call("getMe", token="2:second"))[1]["result"]["id"] == 2
    assert (await wire.call("getMe", token="TEST"))[1]["result"]["id"] == 1  # no bot id: the stand's first bot
    assert wire.stand.signing_token == "1:first"
    await wire.refused("getMe", 401, "Unauthorized", token="2:forged")
    async with make_wire(token="1:fixed") as fixed:
        await fixed.call("getMe", token="1:intruder")
        assert fixed.stand.signing_token == "1:fixed"


# --- parameter decoding ---------------------------------------------------------------------------------------
async def test_query_string_parameters_are_read(wire: Wire) -> None:
    resp = await wire.client.get("/bot1/sendMessage", params={"chat_id": "4242", "text": "from the query"})
    assert (await resp.json())["result"]["text"] == "from the query"


async def test_only_the_first_value_of_a_repeated_parameter_counts(wire: Wire) -> None:
    resp = await wire.client.get("/bot1/sendMessage?chat_id=4242&text=first&text=second")
    assert (await resp.json())["result"]["text"] == "first"
    [call] = await wire.outbox()
    assert call["params"] == {"chat_id": "4242", "text": "first"}


async def test_urlencoded_body_with_nested_json_as_text(wire: Wire) -> None:
    result = await wire.ok("sendMessage", chat_id=4242, text="hi", reply_markup=json.dumps(KEYBOARD))
    assert result["reply_markup"] == KEYBOARD


async def test_json_body_nested_values_become_their_json_text(wire: Wire) -> None:
    status, body = await wire.call_json(
        "sendMessage", {"chat_id": 4242, "text": "hi", "reply_markup": KEYBOARD, "disable_notification": True}
    )
    assert status == 200, body
    assert body["result"]["reply_markup"] == KEYBOARD
    [call] = await wire.outbox()
    assert call["params"] == {
        "chat_id": "4242",
        "text": "hi",
        "reply_markup": json.dumps(KEYBOARD, separators=(",", ":")),
        "disable_notification": "true",
    }


@pytest.mark.parametrize("body", ["[1,2]", "null", '"text"', "{not json", '{"chat_id":'])
async def test_a_json_body_that_is_no_object_is_ignored_leaving_the_query(wire: Wire, body: str) -> None:
    resp = await wire.client.post(
        "/bot1/sendMessage?chat_id=4242", data=body, headers={"Content-Type": "application/json"}
    )
    assert resp.status == 400
    assert (await resp.json())["description"] == "Bad Request: message text is empty"


async def test_multipart_fields_and_uploads_are_read_and_uploads_summarised(wire: Wire) -> None:
    form = FormData()
    form.add_field("chat_id", "4242")
    form.add_field("text", "привет")
    form.add_field("thumbnail", b"abc", filename="t.bin", content_type="application/octet-stream")
    form.add_field("media", "attach://pic")
    form.add_field("pic", b"12345", filename="p.png", content_type="image/png")
    resp = await wire.client.post("/bot1/sendMessage", data=form)
    assert resp.status == 200, await resp.text()
    assert (await resp.json())["result"]["text"] == "привет"
    [call] = await wire.outbox()
    assert call["params"] == {
        "chat_id": "4242",
        "text": "привет",
        "thumbnail": "t.bin (3 bytes)",
        "media": "p.png (5 bytes)",
        "pic": "p.png (5 bytes)",
    }


async def test_a_body_of_another_content_type_is_ignored(wire: Wire) -> None:
    resp = await wire.client.post(
        "/bot1/sendMessage?chat_id=4242", data="text=hi", headers={"Content-Type": "text/plain"}
    )
    assert (resp.status, (await resp.json())["description"]) == (400, "Bad Request: message text is empty")


@pytest.mark.parametrize("value", ["True", "1", "yes", "TRUE", " true", "true\n", "YES"])
async def test_booleans_are_read_as_client_cpp_reads_them(wire: Wire, value: str) -> None:
    """Client.cpp's to_bool: lower-cased and trimmed, true, yes and 1 are true (telebot sends Python's ``True``)."""
    await wire.say("/start")
    sent = await wire.ok(
        "sendMessage", chat_id=4242, text="x", reply_to_message_id=99, allow_sending_without_reply=value
    )
    assert "reply_to_message" not in sent


@pytest.mark.parametrize("value", ["false", "0", "2", "-1", "on", "y", "", "truee"])
async def test_anything_else_is_false(wire: Wire, value: str) -> None:
    await wire.say("/start")
    await wire.refused(
        "sendMessage",
        400,
        "Bad Request: message to be replied not found",
        chat_id=4242,
        text="x",
        reply_to_message_id=99,
        allow_sending_without_reply=value,
    )


async def test_the_boolean_true_is_honoured(wire: Wire) -> None:
    result = await wire.ok(
        "sendMessage", chat_id=4242, text="x", reply_to_message_id=99, allow_sending_without_reply="true"
    )
    assert "reply_to_message" not in result


async def test_an_empty_chat_id_is_empty(wire: Wire) -> None:
    await wire.refused("sendMessage", 400, "Bad Request: chat_id is empty", chat_id="", text="x")


async def test_chat_id_missing_is_empty(wire: Wire) -> None:
    await wire.refused("sendMessage", 400, "Bad Request: chat_id is empty", text="x")


@pytest.mark.parametrize(
    "value", ["0", "-0", "@channel", "@", "abc", "0x10", "+4242", " 4242", "99999999999999999999", "1099511627776"]
)
async def test_a_chat_id_naming_no_chat_is_not_found(wire: Wire, value: str) -> None:
    """Client.cpp reads a chat id with ``td::to_integer`` (no sign but ``-``, no blanks, 64-bit wrap-around): what
    is not empty but names no chat is ``chat not found``, as is a private chat past the 2^40 ids a bot may write
    to before td knows the user."""
    await wire.refused("sendMessage", 400, "Bad Request: chat not found", chat_id=value, text="x")


@pytest.mark.parametrize(("value", "chat"), [("4242", 4242), ("4242.0", 4242), ("42 42", 42), ("-100123", -100123)])
async def test_a_chat_id_is_its_leading_digits(wire: Wire, value: str, chat: int) -> None:
    result = await wire.ok("sendMessage", chat_id=value, text="x")
    assert result["chat"]["id"] == chat


# --- the envelope ---------------------------------------------------------------------------------------------
async def test_the_envelope_is_compact_utf8_json(wire: Wire) -> None:
    resp = await wire.client.post("/bot1/sendMessage", data={"chat_id": "4242", "text": "héllo, мир"})
    assert resp.content_type == "application/json"
    raw = await resp.text()
    assert raw.startswith('{"ok":true,"result":{"message_id":1,"from":{"id":7000000001,"is_bot":true,')
    assert '"text":"héllo, мир"' in raw
    assert ", " not in raw.replace("héllo, мир", "")
    assert ": " not in raw
    assert "Retry-After" not in resp.headers


async def test_an_error_has_no_parameters_and_no_retry_after_header(wire: Wire) -> None:
    resp = await wire.client.post("/bot1/sendMessage", data={"text": "x"})
    assert resp.status == 400
    assert await resp.text() == '{"ok":false,"error_code":400,"description":"Bad Request: chat_id is empty"}'
    assert "Retry-After" not in resp.headers


async def test_retry_after_appears_in_parameters_and_header_only_when_set(wire: Wire) -> None:
    await wire.sim("POST", "/sim/fault", {"method": "sendMessage", "code": 429, "retry_after": 7, "times": 1})
    resp = await wire.client.post("/bot1/sendMessage", data={"chat_id": "4242", "text": "x"})
    assert resp.status == 429
    assert resp.headers["Retry-After"] == "7"
    assert await resp.text() == (
        '{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 7","parameters":{"retry_after":7}}'
    )
    await wire.sim("POST", "/sim/fault", {"method": "sendMessage", "code": 429, "times": 1})
    resp = await wire.client.post("/bot1/sendMessage", data={"chat_id": "4242", "text": "x"})
    assert resp.status == 429
    assert "Retry-After" not in resp.headers
    assert await resp.json() == {"ok": False, "error_code": 429, "description": "Too Many Requests"}


# --- independence ---------------------------------------------------------------------------------------------
async def test_two_stands_in_one_process_are_independent(make_wire: WireFactory) -> None:
    async with make_wire() as one, make_wire(bot_username="other_bot") as two:
        await one.say("hello")
        await one.ok("sendMessage", chat_id=4242, text="only here")
        await one.sim("POST", "/sim/fault", {"method": "*", "code": 502})
        assert (await two.ok("getMe"))["username"] == "other_bot"
        assert await two.ok("getUpdates", timeout=0) == []
        assert await two.text() == ""
        assert [c["method"] for c in await two.outbox()] == ["getMe", "getUpdates"]
        await one.refused("getMe", 502, "Bad Gateway")
        assert await one.text() == "[1] alice: hello\n[2] bot: only here\n"


# --- big and broken bodies ------------------------------------------------------------------------------------
async def test_a_large_json_body_is_read_whole(wire: Wire) -> None:
    body = json.dumps({"chat_id": 4242, "text": "big", "padding": "p" * 3_000_000}).encode()
    resp = await wire.client.post(
        "/bot1/sendMessage", data=io.BytesIO(body), headers={"Content-Type": "application/json"}
    )
    answer = await resp.json()
    assert resp.status == 200, answer
    assert answer["result"]["text"] == "big"


async def test_a_json_body_over_4_mb_is_refused_as_td_refuses_too_many_parameters(wire: Wire) -> None:
    body = json.dumps({"text": "huge", "padding": "p" * (4 << 20)}).encode()
    resp = await wire.client.post(
        "/bot1/sendMessage?chat_id=4242", data=io.BytesIO(body), headers={"Content-Type": "application/json"}
    )
    assert (resp.status, await resp.json()) == (
        413,
        {"ok": False, "error_code": 413, "description": "Request Entity Too Large: too many parameters"},
    )
    assert await wire.outbox() == []


EMPTY = "Bad Request: message text is empty"
NOT_UTF8 = "Bad Request: strings must be encoded in UTF-8"


@pytest.mark.parametrize(
    ("ctype", "raw"),
    [
        ("multipart/form-data", b"no boundary"),
        ("multipart/form-data; boundary=xx", b"--xx\r\nbroken header\r\n\r\nvalue\r\n--xx--\r\n"),
        ("multipart/form-data; boundary=xx", b"--xx\r\nContent-Disposition: form-data; name=text\r\n\r\ncut"),
        ("application/json", b"\xff\xfe{"),
        ("application/json", b'["text","x"]'),
    ],
)
async def test_a_body_that_cannot_be_read_leaves_the_query(wire: Wire, ctype: str, raw: bytes) -> None:
    resp = await wire.client.post("/bot1/sendMessage?chat_id=4242", data=raw, headers={"Content-Type": ctype})
    assert (resp.status, (await resp.json())["description"]) == (400, EMPTY)


@pytest.mark.parametrize(
    ("raw", "status", "outcome"),
    [
        (b'{"chat_id":4242,"text":"read"', 200, "read"),  # the object never closes
        (b'{"chat_id":4242,"text":"read",,,', 200, "read"),
        (b'{"chat_id":4242,"text":"read" "x":1}', 200, "read"),
        (b'{"chat_id":4242,"text":"cut', 400, EMPTY),
        (b'{"chat_id":4242,"x":NaN,"text":"late"}', 400, EMPTY),
        (b'{"chat_id":4242,"x":1e400,"text":"late"}', 400, EMPTY),
        (b'{"chat_id":4242,"x":[' + b"[" * 100 + b"]" * 101 + b',"text":"late"}', 400, EMPTY),
        (b'{"chat_id":4242,"x":[' + b"[" * 98 + b"]" * 99 + b',"text":"deep enough"}', 200, "deep enough"),
    ],
)
async def test_a_malformed_json_body_keeps_what_td_read_before_the_mistake(
    wire: Wire, raw: bytes, status: int, outcome: str
) -> None:
    resp = await wire.client.post("/bot1/sendMessage", data=raw, headers={"Content-Type": "application/json"})
    body = await resp.json()
    assert resp.status == status, body
    assert (body["result"]["text"] if status == 200 else body["description"]) == outcome


def _multipart_with_text(raw_text: bytes) -> tuple[bytes, str]:
    body = (
        b"--xx\r\nContent-Disposition: form-data; name=chat_id\r\n\r\n4242\r\n"
        b"--xx\r\nContent-Disposition: form-data; name=text\r\n\r\n" + raw_text + b"\r\n--xx--\r\n"
    )
    return body, "multipart/form-data; boundary=xx"


@pytest.mark.parametrize(
    ("how", "path", "raw", "ctype"),
    [
        ("query", "/bot1/sendMessage?chat_id=4242&text=a%FFb", b"", "text/plain"),
        ("query, a lone surrogate's bytes", "/bot1/sendMessage?chat_id=4242&text=%ED%A0%80", b"", "text/plain"),
        ("urlencoded", "/bot1/sendMessage", b"chat_id=4242&text=a%FF%FEb", "application/x-www-form-urlencoded"),
        ("json, a raw byte", "/bot1/sendMessage", b'{"chat_id":4242,"text":"a\xffb"}', "application/json"),
        ("json, a lone surrogate", "/bot1/sendMessage", b'{"chat_id":4242,"text":"a\\ud800b"}', "application/json"),
        ("multipart", "/bot1/sendMessage", *_multipart_with_text(b"a\xc3b")),
    ],
)
async def test_text_that_is_not_utf8_is_refused_as_td_refuses_it(
    wire: Wire, how: str, path: str, raw: bytes, ctype: str
) -> None:
    resp = await wire.client.post(path, data=raw, headers={"Content-Type": ctype})
    assert (resp.status, await resp.json()) == (400, {"ok": False, "error_code": 400, "description": NOT_UTF8}), how
    [call] = await wire.outbox()
    assert call["params"]["text"].startswith("a\ufffd") or call["params"]["text"] == "\ufffd" * 3, how
    assert await wire.text() == ""


@pytest.mark.parametrize(
    "markup",
    [
        '{"inline_keyboard":[[{"text":"\\udc00","callback_data":"x"}]]}',  # escaped in any transport
        '{"inline_keyboard":[[{"text":"ok","callback_data":"\\ud800"}]]}',
    ],
)
async def test_a_lone_surrogate_inside_nested_json_is_refused_too(wire: Wire, markup: str) -> None:
    await wire.refused("sendMessage", 400, NOT_UTF8, chat_id=4242, text="x", reply_markup=markup)
    as_json = {"chat_id": 4242, "text": "x", "reply_markup": json.loads(markup)}
    status, body = await wire.call_json("sendMessage", as_json)
    assert (status, body["description"]) == (400, NOT_UTF8)
    assert await wire.text() == ""
    assert len(await wire.outbox()) == 2  # recorded, and the outbox still encodes


async def test_a_surrogate_pair_escape_is_one_character(wire: Wire) -> None:
    raw = b'{"chat_id":4242,"text":"\\ud83d\\ude00"}'
    resp = await wire.client.post("/bot1/sendMessage", data=raw, headers={"Content-Type": "application/json"})
    assert (await resp.json())["result"]["text"] == "😀"


async def test_a_refused_huge_value_is_recorded_cut_with_its_length(wire: Wire) -> None:
    await wire.refused("sendMessage", 400, "Bad Request: text is too long", chat_id=4242, text="я" * 100_000)
    [call] = await wire.outbox()
    text = call["params"]["text"]
    assert text == "я" * (1 << 15) + "… [cut: 100000 characters]"
    ok = "ж" * (1 << 15)  # the longest value recorded whole
    await wire.call("sendMessage", chat_id=4242, text=ok)
    assert (await wire.outbox())[1]["params"]["text"] == ok


DEEP = "[" * 100_000


@pytest.mark.parametrize(
    ("method", "params", "status", "description"),
    [
        ("sendMessage", {"reply_markup": DEEP}, 400, "Bad Request: can't parse reply keyboard markup JSON object"),
        ("sendMessage", {"reply_parameters": DEEP}, 400, "Bad Request: can't parse reply parameters JSON object"),
        ("getUpdates", {"allowed_updates": DEEP}, 400, "Bad Request: can't parse allowed_updates JSON array"),
        ("setMyCommands", {"commands": DEEP}, 400, "Bad Request: can't parse commands JSON object"),
    ],
)
async def test_json_nested_too_deeply_is_a_client_mistake(
    wire: Wire, method: str, params: dict[str, str], status: int, description: str | None
) -> None:
    got, body = await wire.call(method, chat_id=4242, text="x", timeout=0, **params)
    assert (got, body.get("description")) == (status, description)


@pytest.mark.parametrize("depth", [101, 500, 100_000])
async def test_a_json_body_nested_too_deeply_ends_the_reading_there(wire: Wire, depth: int) -> None:
    raw = '{"text":"body","a":' + "[" * depth + "]" * depth + ',"reply_markup":"never read"}'
    resp = await wire.client.post(
        "/bot1/sendMessage?chat_id=4242", data=raw, headers={"Content-Type": "application/json"}
    )
    body = await resp.json()
    assert (resp.status, body["result"]["text"]) == (200, "body")
    [call] = await wire.outbox()
    assert call["params"] == {"chat_id": "4242", "text": "body"}


@pytest.mark.parametrize("ctype", ["application/json", "application/x-www-form-urlencoded"])
async def test_a_body_whose_gzip_is_broken_is_refused_in_tds_words(wire: Wire, ctype: str) -> None:
    resp = await wire.client.post(
        "/bot1/sendMessage?chat_id=4242", data=b"not gzip", headers={"Content-Type": ctype, "Content-Encoding": "gzip"}
    )
    assert (resp.status, await resp.json()) == (
        400,
        {"ok": False, "error_code": 400, "description": "Bad Request: zlib error -3"},
    )
    assert resp.headers["Connection"] == "close"  # the rest of such a body cannot be skipped
    assert await wire.outbox() == []
    assert (await wire.call("getMe"))[0] == 200  # a new connection is served


async def test_a_gzipped_body_is_read(wire: Wire) -> None:
    body = gzip.compress(b'{"chat_id":4242,"text":"zipped"}')
    resp = await wire.client.post(
        "/bot1/sendMessage", data=body, headers={"Content-Type": "application/json", "Content-Encoding": "gzip"}
    )
    assert (await resp.json())["result"]["text"] == "zipped"
