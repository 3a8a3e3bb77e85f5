"""The simulation API: the person's actions, the views, state, reset, server-held waits, and its errors."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

import pytest

from tests.conftest import Wire
from tgfake.clock import ManualClock

KB = json.dumps(
    {"inline_keyboard": [[{"text": "Ping", "callback_data": "ping"}, {"text": "✓ Dark", "callback_data": "dark"}]]}
)


async def updates(wire: Wire) -> list[dict[str, Any]]:
    return list(await wire.ok("getUpdates", timeout=0))


async def sim_error(wire: Wire, verb: str, path: str, body: Any, status: int, error: str) -> None:
    assert await wire.sim(verb, path, body) == (status, {"error": error})


# --- POST /sim/message ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("body", [{"text": ""}, {"text": " \n\t"}, {}, {"user_id": 5}])
async def test_blank_text_is_refused(wire: Wire, body: dict[str, Any]) -> None:
    await sim_error(wire, "POST", "/sim/message", body, 400, "text is empty")
    assert wire.stand.next_update_id == 1


async def test_text_is_stored_verbatim(wire: Wire) -> None:
    await wire.say("  hi  ")
    assert (await updates(wire))[0]["message"]["text"] == "  hi  "


@pytest.mark.parametrize(
    ("fields", "sender"),
    [
        ({}, {"id": 4242, "is_bot": False, "first_name": "Alice", "username": "alice"}),
        ({"user_id": 7}, {"id": 7, "is_bot": False, "first_name": "Alice"}),
        ({"user_id": 7, "username": "ёжик"}, {"id": 7, "is_bot": False, "first_name": "Ёжик", "username": "ёжик"}),
        (
            {"username": "bob", "first_name": "Robert"},
            {"id": 4242, "is_bot": False, "first_name": "Robert", "username": "bob"},
        ),
    ],
)
async def test_the_senders_identity(wire: Wire, fields: dict[str, Any], sender: dict[str, Any]) -> None:
    await wire.say("hi", **fields)
    msg = (await updates(wire))[0]["message"]
    assert msg["from"] == sender
    expected_chat = {"id": sender["id"], "type": "private", "first_name": sender["first_name"]}
    if "username" in sender:
        expected_chat["username"] = sender["username"]
    assert msg["chat"] == expected_chat


async def test_a_private_chat_shows_its_latest_sender(wire: Wire) -> None:
    await wire.say("one")
    await wire.say("two", username="carol")
    msgs = [u["message"] for u in await updates(wire)]
    assert msgs[1]["chat"] == {"id": 4242, "type": "private", "first_name": "Carol", "username": "carol"}
    assert (await wire.ok("sendMessage", chat_id=4242, text="x"))["chat"]["username"] == "carol"


async def test_group_defaults_and_the_title_set_once(wire: Wire) -> None:
    await wire.say("a", chat_type="group", user_id=7)
    await wire.say("b", chat_type="private", user_id=7, chat_id=-100000000007, chat_title="Later")
    await wire.say("c", chat_type="supergroup", chat_id=-300, chat_title="Club")
    await wire.say("d", chat_type="channel", chat_id=-400)
    chats = [(u.get("message") or u["channel_post"])["chat"] for u in await updates(wire)]
    assert chats == [
        {"id": -100000000007, "type": "group", "title": "Fake group"},
        {"id": -100000000007, "type": "group", "title": "Fake group"},
        {"id": -300, "type": "supergroup", "title": "Club"},
        {"id": -400, "type": "channel", "title": "Fake group"},
    ]


async def test_a_group_created_by_the_bot_gets_a_title_from_the_first_message(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=-5, text="hello group")
    await wire.say("hi", chat_id=-5, chat_type="group", chat_title="Team")
    assert (await updates(wire))[0]["message"]["chat"] == {"id": -5, "type": "group", "title": "Team"}


async def test_a_person_may_quote_even_a_deleted_message_and_unknown_ids_are_ignored(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="bot said")
    await wire.ok("deleteMessage", chat_id=4242, message_id=1)
    await wire.say("re", reply_to_message_id=1)
    await wire.say("re?", reply_to_message_id=99)
    first, second = (u["message"] for u in await updates(wire))
    assert first["reply_to_message"]["text"] == "bot said"
    assert "reply_to_message" not in second


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        ("", "invalid JSON body: EOF"),
        ("   ", "invalid JSON body: EOF"),
        ("{", "invalid JSON body: Invalid JSON: EOF while parsing an object"),
        ('{"text":"a","user_id":"7"}', "invalid JSON body: user_id: Input should be a valid integer"),
        ('{"text":"a","mention":"yes"}', "invalid JSON body: mention: Input should be a valid boolean"),
        ('{"text":5}', "invalid JSON body: text: Input should be a valid string"),
        ('"hi"', "invalid JSON body: Input should be an object"),
    ],
)
async def test_a_bad_message_body_is_a_400_naming_the_problem(wire: Wire, raw: str, error: str) -> None:
    resp = await wire.client.post("/sim/message", data=raw)
    assert resp.status == 400
    assert (await resp.json())["error"].startswith(error)


async def test_sim_bodies_need_no_content_type_and_ignore_unknown_fields(wire: Wire) -> None:
    resp = await wire.client.post("/sim/message", data=b'{"text":"hi","mood":"good"}')
    assert resp.status == 200
    assert resp.content_type == "application/json"
    assert await resp.text() == '{"message_id":1,"update_id":1}\n'


# --- POST /sim/callback ---------------------------------------------------------------------------------------
async def test_a_tap_by_label_as_delivered(wire: Wire, clock: ManualClock) -> None:
    await wire.say("hi", username="bob")
    await wire.ok("sendMessage", chat_id=4242, text="pick", reply_markup=KB)
    await wire.ok("getUpdates", offset=2)
    status, body = await wire.sim("POST", "/sim/callback", {"label": " Ping ", "username": "bob"})
    assert (status, body) == (200, {"callback_query_id": "cbq-1", "update_id": 2})
    [update] = await updates(wire)
    assert update == {
        "update_id": 2,
        "callback_query": {
            "id": "cbq-1",
            "from": {"id": 4242, "is_bot": False, "first_name": "Bob", "username": "bob"},
            "message": {
                "message_id": 2,
                "from": {"id": 123, "is_bot": True, "first_name": "tgfake", "username": "tgfake_bot"},
                "chat": {"id": 4242, "type": "private", "first_name": "Bob", "username": "bob"},
                "date": 1_700_000_000,
                "text": "pick",
                "reply_markup": json.loads(KB),
            },
            "chat_instance": "4242",
            "data": "ping",
        },
    }


@pytest.mark.parametrize("label", ["Dark", "✓ Dark", "  ✓ Dark"])
async def test_a_leading_check_mark_is_ignored_on_both_sides(wire: Wire, label: str) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="pick", reply_markup=KB)
    await wire.sim("POST", "/sim/callback", {"label": label})
    assert (await updates(wire))[0]["callback_query"]["data"] == "dark"


async def test_the_newest_live_message_showing_the_label_wins(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="old", reply_markup=KB)
    await wire.ok("sendMessage", chat_id=4242, text="new", reply_markup=KB)
    await wire.ok("sendMessage", chat_id=4242, text="plain")
    await wire.sim("POST", "/sim/callback", {"label": "Ping"})
    await wire.ok("deleteMessage", chat_id=4242, message_id=2)
    await wire.sim("POST", "/sim/callback", {"label": "Ping"})
    taps = [u["callback_query"]["message"]["text"] for u in await updates(wire)]
    assert taps == ["new", "old"]


async def test_a_label_can_reach_past_the_newest_keyboard(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="first", reply_markup=KB)
    other = json.dumps({"inline_keyboard": [[{"text": "Other", "callback_data": "o"}]]})
    await wire.ok("sendMessage", chat_id=4242, text="second", reply_markup=other)
    await wire.sim("POST", "/sim/callback", {"label": "Ping"})
    assert (await updates(wire))[0]["callback_query"]["message"]["text"] == "first"


async def test_explicit_data_and_message_id(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="first", reply_markup=KB)
    await wire.ok("sendMessage", chat_id=4242, text="second", reply_markup=KB)
    await wire.sim("POST", "/sim/callback", {"data": "anything"})
    await wire.sim("POST", "/sim/callback", {"label": "Ping", "message_id": 1})
    await wire.sim(
        "POST", "/sim/callback", {"data": "x", "label": "Nope", "message_id": 1, "user_id": 9, "chat_id": 4242}
    )
    taps = [u["callback_query"] for u in await updates(wire)]
    assert [(t["message"]["message_id"], t["data"]) for t in taps] == [(2, "anything"), (1, "ping"), (1, "x")]
    assert taps[2]["from"] == {"id": 9, "is_bot": False, "first_name": "Alice"}


async def test_a_url_button_tapped_by_label_sends_no_callback(wire: Wire) -> None:
    kb = json.dumps({"inline_keyboard": [[{"text": "Site", "url": "https://example.com"}]]})
    await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=kb)
    status, body = await wire.sim("POST", "/sim/callback", {"label": "Site"})
    assert (status, body["error"]) == (
        400,
        "[Site] is a url button: it opens https://example.com/, Telegram sends no callback",
    )
    assert await updates(wire) == []


async def test_a_tap_in_a_group(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=-100, text="x", reply_markup=KB)
    status, _ = await wire.sim("POST", "/sim/callback", {"label": "Ping", "chat_id": -100})
    assert status == 200
    tap = (await updates(wire))[0]["callback_query"]
    assert (tap["chat_instance"], tap["message"]["chat"]) == ("-100", {"id": -100, "type": "group"})


async def test_callback_errors(wire: Wire) -> None:
    await sim_error(wire, "POST", "/sim/callback", {}, 400, "data or label is required")
    await sim_error(wire, "POST", "/sim/callback", {"label": "Ping"}, 404, "chat 4242 has no messages")
    await sim_error(wire, "POST", "/sim/callback", {"data": "x", "chat_id": -7}, 404, "chat -7 has no messages")
    await wire.ok("sendChatAction", chat_id=4242, action="typing")
    await sim_error(wire, "POST", "/sim/callback", {"label": "Ping"}, 404, "chat 4242 has no messages")
    await wire.ok("sendMessage", chat_id=4242, text="plain")
    await sim_error(
        wire, "POST", "/sim/callback", {"label": "Ping"}, 404, "chat 4242 has no message with an inline keyboard"
    )
    await sim_error(
        wire, "POST", "/sim/callback", {"data": "x"}, 404, "chat 4242 has no message with an inline keyboard"
    )
    await sim_error(
        wire, "POST", "/sim/callback", {"label": "Ping", "message_id": 5}, 404, "message 5 not found in chat 4242"
    )
    await wire.ok("sendMessage", chat_id=4242, text="kb", reply_markup=KB)
    await sim_error(wire, "POST", "/sim/callback", {"label": " Nope "}, 404, 'message 2 has no button "Nope"')
    await sim_error(
        wire,
        "POST",
        "/sim/callback",
        {"label": 'say "hi"', "message_id": 1},
        404,
        'message 1 has no button "say \\"hi\\""',
    )
    await sim_error(
        wire, "POST", "/sim/callback", {"label": 5}, 400, "invalid JSON body: label: Input should be a valid string"
    )
    assert wire.stand.next_update_id == 1
    assert await wire.sim("POST", "/sim/callback", {"label": "Ping"}) == (
        200,
        {"callback_query_id": "cbq-1", "update_id": 1},
    )


async def test_taps_follow_the_subscription(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="kb", reply_markup=KB)
    await wire.ok("getUpdates", timeout=0, allowed_updates='["message"]')
    assert (await wire.sim("POST", "/sim/callback", {"label": "Ping"}))[1]["update_id"] == 1
    assert await updates(wire) == []


# --- views ----------------------------------------------------------------------------------------------------
async def test_the_chat_view(wire: Wire) -> None:
    await wire.say("hi")
    await wire.ok(
        "sendMessage", chat_id=4242, text="<b>pick</b>", parse_mode="HTML", reply_markup=KB, reply_to_message_id=1
    )
    await wire.ok("editMessageText", chat_id=4242, message_id=2, text="picked")
    await wire.say("bye")
    await wire.ok("deleteMessage", chat_id=4242, message_id=3)
    resp = await wire.client.get("/sim/chat/4242")
    assert resp.content_type == "application/json"
    assert (await resp.text()).endswith("}\n")
    assert await resp.json() == {
        "bot": "tgfake_bot",
        "chat_id": 4242,
        "type": "private",
        "typing": False,
        "messages": [
            {
                "message_id": 1,
                "from": "user",
                "username": "alice",
                "text": "hi",
                "edited": False,
                "deleted": False,
                "rich": False,
            },
            {
                "message_id": 2,
                "from": "bot",
                "username": "tgfake_bot",
                "text": "picked",
                "reply_to_message_id": 1,
                "edited": True,
                "deleted": False,
                "rich": False,
            },
            {
                "message_id": 3,
                "from": "user",
                "username": "alice",
                "text": "bye",
                "edited": False,
                "deleted": True,
                "rich": False,
            },
        ],
        "drafts": [],
        "callbacks": [],
        "menu_button": {"type": "commands"},
    }


async def test_an_unknown_chat_is_an_empty_view_typed_by_its_sign(wire: Wire) -> None:
    for cid, kind in ((5, "private"), (-5, "group")):
        status, view = await wire.sim("GET", f"/sim/chat/{cid}")
        menu = {"type": "commands"}
        empty = {"messages": [], "drafts": [], "callbacks": [], "menu_button": menu}
        who: dict[str, object] = {"bot": "tgfake_bot"} if kind == "private" else {"members": []}
        assert (status, view) == (200, {"chat_id": cid, "type": kind, "typing": False, **empty, **who})
    resp = await wire.client.get("/sim/chat/5", params={"format": "text"})
    assert (resp.status, await resp.text()) == (200, "")


async def test_a_group_view_has_its_title(wire: Wire) -> None:
    await wire.say("hi", chat_type="group")
    _, view = await wire.sim("GET", "/sim/chat/-100000004242")
    assert (view["type"], view["title"]) == ("group", "Fake group")


@pytest.mark.parametrize("cid", ["abc", "1.5", "4242x", "99999999999999999999999", "%204242", "4_242", "٤٢"])
async def test_a_chat_id_must_be_an_integer(wire: Wire, cid: str) -> None:
    await sim_error(wire, "GET", f"/sim/chat/{cid}", None, 400, "chat id must be an integer")


async def test_the_text_transcript(wire: Wire) -> None:
    await wire.say("line one\nline two")
    await wire.say("from nobody", user_id=5, chat_id=4242)
    await wire.ok(
        "sendMessage",
        chat_id=4242,
        text="multi\nline",
        reply_markup=json.dumps(
            {
                "inline_keyboard": [
                    [{"text": "A", "callback_data": "a"}, {"text": "B", "url": "https://b.org"}],
                    [{"text": "C", "callback_data": "c"}],
                ]
            }
        ),
    )
    await wire.ok("sendMessage", chat_id=4242, text="gone")
    await wire.ok("deleteMessage", chat_id=4242, message_id=4)
    await wire.ok("sendChatAction", chat_id=4242, action="typing")
    resp = await wire.client.get("/sim/chat/4242", params={"format": "text"})
    assert resp.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert await resp.text() == (
        "[1] alice: line one\n    line two\n"
        "[2] user: from nobody\n"
        "[3] bot: multi\n    line\n"
        "    [A] [B]\n"
        "    [C]\n"
        "typing…\n"
    )


async def test_the_chat_list(wire: Wire) -> None:
    await wire.say("hi")
    await wire.say("hi", user_id=5, chat_id=5)
    await wire.say("hi", chat_type="group")
    await wire.ok("sendMessage", chat_id=-7, text="x")
    await wire.ok("sendMessage", chat_id=8, text="x")
    await wire.ok("deleteMessage", chat_id=4242, message_id=1)
    assert await wire.sim("GET", "/sim/chats") == (
        200,
        {
            "chats": [
                {"chat_id": -100000004242, "type": "group", "title": "Fake group", "messages": 1},
                {"chat_id": -7, "type": "group", "messages": 1},
                {"chat_id": 5, "type": "private", "title": "@", "messages": 1},
                {"chat_id": 8, "type": "private", "messages": 1},
                {"chat_id": 4242, "type": "private", "title": "@alice", "messages": 1},
            ]
        },
    )


async def test_the_state(wire: Wire) -> None:
    await wire.say("hi")
    await wire.ok("setMyCommands", commands='[{"command":"start","description":"Go"}]')
    await wire.sim("POST", "/sim/fault", {"method": "getFile", "code": 404})
    resp = await wire.client.get("/sim/state")
    assert await resp.text() == (
        '{"allowed_updates":null,"bot":{"can_join_groups":true,"can_read_all_group_messages":false,'
        '"first_name":"tgfake","id":123,"is_bot":true,"supports_inline_queries":false,'
        '"username":"tgfake_bot"},"bots":[{"can_join_groups":true,"can_read_all_group_messages":false,'
        '"first_name":"tgfake","id":123,"is_bot":true,"supports_inline_queries":false,"username":"tgfake_bot"}],'
        '"calls":1,"commands":[{"command":"start","description":"Go"}],'
        '"faults":[{"method":"getfile","code":404}],"held_polls":0,"menu_button":{"type":"commands"},'
        '"next_update_id":2,"pending_updates":1}\n'
    )


# --- reset ----------------------------------------------------------------------------------------------------
async def test_reset_forgets_the_conversation_and_keeps_ids_subscription_and_token(wire: Wire) -> None:
    await wire.ok("getUpdates", timeout=0, allowed_updates='["message","callback_query"]')
    await wire.say("hi")
    await wire.ok("sendMessage", chat_id=4242, text="kb", reply_markup=KB)
    await wire.sim("POST", "/sim/callback", {"label": "Ping"})
    await wire.ok("setMyCommands", commands="[]")
    await wire.sim("POST", "/sim/fault", {"code": 500, "method": "getFile"})
    await wire.ok("sendChatAction", chat_id=4242, action="typing")
    assert (await wire.call("getMe", token="5:tok"))[0] == 200  # a second bot
    await wire.ok("getMe")  # the first bot calls last: "the bot", and a reset keeps it so
    assert await wire.sim("POST", "/sim/reset", {"ignored": True}) == (200, {"ok": True})
    _, state = await wire.sim("GET", "/sim/state")
    assert (state["calls"], state["commands"], state["faults"], state["pending_updates"]) == (0, [], [], 0)
    assert (state["next_update_id"], state["allowed_updates"]) == (3, ["message", "callback_query"])
    assert wire.stand.signing_token == "123:abc"
    assert [b["id"] for b in state["bots"]] == [123, 5]
    assert await wire.sim("GET", "/sim/chats") == (200, {"chats": []})
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["typing"] is False
    assert await wire.say("again") == {"message_id": 1, "update_id": 3}


# --- GET /sim/wait --------------------------------------------------------------------------------------------
async def test_wait_answers_at_once_when_the_calls_are_there(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="a")
    await wire.ok("getMe")
    status, body = await wire.sim("GET", "/sim/wait?method=SENDMESSAGE&timeout=0")
    assert status == 200
    assert body["count"] == 1
    assert [c["method"] for c in body["calls"]] == ["sendMessage"]
    status, body = await wire.sim("GET", "/sim/wait?count=2&timeout=0")
    assert (status, body["count"]) == (200, 2)


async def test_wait_holds_until_the_bot_calls(wire: Wire, monkeypatch: pytest.MonkeyPatch) -> None:
    held = asyncio.Event()
    original = wire.stand.calls_signal.wait

    async def spy(timeout: float) -> None:
        held.set()
        await original(timeout)

    monkeypatch.setattr(wire.stand.calls_signal, "wait", spy)
    await wire.ok("sendMessage", chat_id=4242, text="before")
    waiter = asyncio.create_task(wire.sim("GET", "/sim/wait?method=sendMessage&since=1&timeout=30"))
    await held.wait()
    await wire.ok("getMe")
    assert not waiter.done()
    await wire.ok("sendMessage", chat_id=4242, text="after")
    status, body = await asyncio.wait_for(waiter, 10)
    assert status == 200
    assert [c["params"]["text"] for c in body["calls"]] == ["after"]


async def test_wait_counts_refused_calls(wire: Wire) -> None:
    await wire.refused("sendMessage", 400, "Bad Request: chat_id is empty", text="x")
    status, body = await wire.sim("GET", "/sim/wait?method=sendMessage&timeout=0")
    assert (status, body["calls"][0]["status"]) == (200, 400)


async def test_wait_times_out_with_408(wire: Wire) -> None:
    await wire.ok("sendMessage", chat_id=4242, text="one")
    assert await wire.sim("GET", "/sim/wait?method=sendMessage&count=2&timeout=0.05") == (
        408,
        {"error": "timed out after 0.05s waiting for 2 sendMessage calls (saw 1)"},
    )
    assert await wire.sim("GET", "/sim/wait?timeout=0s&since=1") == (
        408,
        {"error": "timed out after 0s waiting for 1 calls (saw 0)"},
    )


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("timeout=x", "timeout must be a number of seconds"),
        ("timeout=-1", "timeout must be between 0 and 60 seconds"),
        ("timeout=61", "timeout must be between 0 and 60 seconds"),
        ("timeout=nan", "timeout must be between 0 and 60 seconds"),
        ("count=x", "count must be an integer"),
        ("since=1.5", "since must be an integer"),
        ("since=1_0", "since must be an integer"),
        ("count=%202", "count must be an integer"),
    ],
)
async def test_wait_parameters_are_checked(wire: Wire, query: str, error: str) -> None:
    await sim_error(wire, "GET", f"/sim/wait?{query}", None, 400, error)


# --- routing --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("verb", "path"),
    [
        ("GET", "/sim/message"),
        ("PUT", "/sim/callback"),
        ("GET", "/sim/reset"),
        ("DELETE", "/sim/reset"),
        ("PUT", "/sim/fault"),
        ("GET", "/sim/fault"),
        ("POST", "/sim/outbox"),
        ("DELETE", "/sim/chats"),
        ("POST", "/sim/state"),
        ("POST", "/sim/wait"),
        ("POST", "/sim/chat/4242"),
    ],
)
async def test_a_wrong_http_method_on_a_sim_path_gets_the_bot_api_404(wire: Wire, verb: str, path: str) -> None:
    resp = await wire.client.request(verb, path, json={"text": "x"})
    assert resp.status == 404
    assert await resp.text() == '{"ok":false,"error_code":404,"description":"Not Found"}'
    assert await wire.outbox() == []
    assert wire.stand.next_update_id == 1


# --- body size ------------------------------------------------------------------------------------------------
async def test_a_sim_body_under_1_mb_is_read_whole(wire: Wire) -> None:
    text = "y" * 4096
    body = {"text": text, "padding": "p" * 1_000_000}  # unknown fields are read and ignored
    resp = await wire.client.post("/sim/message", data=io.BytesIO(json.dumps(body).encode()))
    assert (resp.status, await resp.json()) == (200, {"message_id": 1, "update_id": 1})
    assert (await updates(wire))[0]["message"]["text"] == text


async def test_a_sim_body_over_1_mb_is_refused(wire: Wire) -> None:
    resp = await wire.client.post("/sim/message", data=io.BytesIO(json.dumps({"text": "y" * (1 << 20)}).encode()))
    assert (resp.status, await resp.json()) == (413, {"error": "request body is larger than 1 MB"})


async def test_a_sim_body_nested_too_deeply_is_a_400(wire: Wire) -> None:
    resp = await wire.client.post("/sim/message", data='{"text":' + "[" * 100_000)
    assert resp.status == 400
    assert (await resp.json())["error"].startswith("invalid JSON body: ")


# --- hostile bodies: ids, lengths, encodings --------------------------------------------------------------------
TOO_BIG = "Input should be less than 4503599627370496"  # 2**52: Telegram ids have at most 52 significant bits
INT32 = "Input should be less than 2147483648"
BELOW_CHATS = "Input should be greater than or equal to -1997852516351"  # td's last supergroup or channel id


@pytest.mark.parametrize(
    ("route", "body", "error"),
    [
        ("/sim/message", {"text": "a", "user_id": 2**52}, f"user_id: {TOO_BIG}"),
        ("/sim/message", {"text": "a", "user_id": 2**64}, f"user_id: {TOO_BIG}"),
        ("/sim/message", {"text": "a", "chat_id": 2**63}, f"chat_id: {TOO_BIG}"),
        ("/sim/message", {"text": "a", "chat_id": -(2**70)}, f"chat_id: {BELOW_CHATS}"),
        ("/sim/message", {"text": "a", "reply_to_message_id": 2**31}, f"reply_to_message_id: {INT32}"),
        ("/sim/message", {"text": "a", "user_id": -7}, "user_id: Input should be greater than or equal to 0"),
        ("/sim/callback", {"data": "x", "message_id": 10**30}, f"message_id: {INT32}"),
        ("/sim/callback", {"data": "x", "user_id": 2**53}, f"user_id: {TOO_BIG}"),
        ("/sim/callback", {"data": "x", "chat_id": 2**64}, f"chat_id: {TOO_BIG}"),
        ("/sim/webapp/launch", {"user_id": 2**64}, f"user_id: {TOO_BIG}"),
        ("/sim/draft/stop", {"draft_id": 2**63}, "draft_id: Input should be less than 9223372036854775808"),
        ("/sim/draft/stop", {"chat_id": 2**63}, f"chat_id: {TOO_BIG}"),
        ("/sim/fault", {"method": "x", "retry_after": 2**40}, f"retry_after: {INT32}"),
        ("/sim/fault", {"method": "x", "times": 2**64}, f"times: {INT32}"),
        ("/sim/file", {"document": {"name": "a", "data": "YQ=="}, "chat_id": 2**64}, f"chat_id: {TOO_BIG}"),
    ],
)  # fmt: skip
async def test_ids_that_no_telegram_client_can_hold_are_refused(
    wire: Wire, route: str, body: dict[str, Any], error: str
) -> None:
    await sim_error(wire, "POST", route, body, 400, f"invalid JSON body: {error}")
    assert (await wire.sim("GET", "/sim/chats"))[1] == {"chats": []}


async def test_the_largest_ids_telegram_has_are_accepted_and_viewable(wire: Wire) -> None:
    user = 2**52 - 1
    await wire.say("hi", user_id=user)
    assert (await updates(wire))[0]["message"]["from"]["id"] == user
    assert (await wire.ok("sendMessage", chat_id=user, text="ok"))["chat"]["id"] == user
    assert await wire.text(user) == "[1] user: hi\n[2] bot: ok\n"


async def test_a_private_chat_with_a_negative_id_is_refused(wire: Wire) -> None:
    error = "a private chat's chat_id is the person's user_id: it must be positive"
    await sim_error(wire, "POST", "/sim/message", {"text": "a", "chat_type": "private", "chat_id": -5}, 400, error)
    assert (await wire.sim("GET", "/sim/chats"))[1] == {"chats": []}


async def test_a_negative_chat_id_without_a_type_is_a_group(wire: Wire) -> None:
    await wire.say("hi", chat_id=-5)
    assert (await updates(wire))[0]["message"]["chat"] == {"id": -5, "type": "group", "title": "Fake group"}


async def test_a_persons_text_is_capped_at_4096_code_points(wire: Wire) -> None:
    await wire.say("я" * 4096)
    await sim_error(wire, "POST", "/sim/message", {"text": "я" * 4097}, 400, "text is longer than 4096 characters")
    assert [len(u["message"]["text"]) for u in await updates(wire)] == [4096]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"text":"a\xffb"}',
        b'{"text":"a\xed\xa0\x80b"}',  # a surrogate's UTF-8 bytes
        b'{"text":"a\\ud800b"}',
        b'{"text":"a\\udc00"}',
        b'{"text":"hi","first_name":"\\ud800\\u0041"}',
    ],
)
async def test_sim_text_that_is_not_utf8_is_refused_in_telegrams_words(wire: Wire, raw: bytes) -> None:
    resp = await wire.client.post("/sim/message", data=raw)
    assert (resp.status, await resp.json()) == (400, {"error": "invalid JSON body: strings must be encoded in UTF-8"})
    assert (await wire.sim("GET", "/sim/chats"))[1] == {"chats": []}


async def test_a_surrogate_pair_in_a_sim_body_is_one_character(wire: Wire) -> None:
    resp = await wire.client.post("/sim/message", data=b'{"text":"\\ud83d\\ude00"}')
    assert resp.status == 200
    assert (await updates(wire))[0]["message"]["text"] == "😀"


async def test_a_sim_body_nested_deeply_is_a_400_not_a_crash(wire: Wire) -> None:
    for route in ("/sim/message", "/sim/callback", "/sim/fault", "/sim/file", "/sim/webapp/launch"):
        resp = await wire.client.post(route, data='{"text":' + "[" * 5000 + "]" * 5000 + "}")
        assert resp.status == 400, route
        assert (await resp.json())["error"].startswith("invalid JSON body: "), route


@pytest.mark.parametrize("route", ["/sim/message", "/sim/file", "/sim/fault"])
async def test_a_sim_body_whose_gzip_is_broken_is_a_400(wire: Wire, route: str) -> None:
    resp = await wire.client.post(route, data=b"not gzip", headers={"Content-Encoding": "gzip"})
    assert (resp.status, await resp.json()) == (400, {"error": "request body can't be read: zlib error -3"})
    assert resp.headers["Connection"] == "close"
