"""Rich messages, rich drafts, text drafts and the Stop button, over HTTP with the clock moved, never slept."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Wire
from tgfake.clock import ManualClock

RICH = json.dumps({"markdown": "**Hello**"})


async def chat(wire: Wire, chat_id: int = 4242) -> dict[str, Any]:
    status, body = await wire.sim("GET", f"/sim/chat/{chat_id}")
    assert status == 200
    return dict(body)


async def drafts(wire: Wire, chat_id: int = 4242) -> list[dict[str, Any]]:
    return list((await chat(wire, chat_id))["drafts"])


async def stop(wire: Wire, **body: Any) -> tuple[int, Any]:
    return await wire.sim("POST", "/sim/draft/stop", body)


# --- sendRichMessage -------------------------------------------------------------------------------------------


async def test_rich_message_is_a_message_flagged_rich(wire: Wire) -> None:
    msg = await wire.ok("sendRichMessage", chat_id=4242, rich_message=json.dumps({"markdown": "# T", "html": "<h1>"}))
    assert msg["text"] == "# T"
    assert msg["from"]["username"] == "tgfake_bot"
    view = (await chat(wire))["messages"][0]
    assert (view["text"], view["rich"], "parse_mode" in view) == ("# T", True, False)
    assert await wire.text() == "[1] bot: # T\n"


async def test_rich_message_html_when_no_markdown_and_no_length_limit(wire: Wire) -> None:
    long_html = "<p>" + "x" * 5000 + "</p>"
    msg = await wire.ok("sendRichMessage", chat_id=4242, rich_message=json.dumps({"html": long_html}))
    assert msg["text"] == long_html


async def test_rich_message_in_a_json_body_with_a_keyboard_and_reply(wire: Wire) -> None:
    await wire.say("hi")
    body = {
        "chat_id": 4242,
        "rich_message": {"markdown": "*menu*"},
        "reply_markup": {"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]},
        "reply_parameters": {"message_id": 1},
    }
    resp = await wire.client.post(f"/bot{wire.token}/sendRichMessage", json=body)
    result = (await resp.json())["result"]
    assert result["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "go"
    assert result["reply_to_message"]["text"] == "hi"
    assert await wire.text() == "[1] alice: hi\n[2] bot: *menu*\n    [Go]\n"


@pytest.mark.parametrize(
    "rich",
    [None, "", "not json", "[]", '"md"', "{}", '{"markdown":""}', '{"html":""}', '{"markdown":5}', "null"],
)
async def test_rich_message_must_carry_markdown_or_html(wire: Wire, rich: str | None) -> None:
    params = {"chat_id": 4242} if rich is None else {"chat_id": 4242, "rich_message": rich}
    await wire.refused("sendRichMessage", 400, "Bad Request: can't parse rich_message JSON object", **params)
    assert (await chat(wire))["messages"] == []


async def test_rich_message_refusals_in_order(wire: Wire) -> None:
    await wire.refused("sendRichMessage", 400, "Bad Request: chat_id is empty", rich_message="bad")
    bad_kb = '{"inline_keyboard":[[{"text":"x","callback_data":"' + "d" * 65 + '"}]]}'
    await wire.refused(
        "sendRichMessage", 400, "Bad Request: BUTTON_DATA_INVALID", chat_id=4242, rich_message=RICH,
        reply_markup=bad_kb, reply_to_message_id=9,
    )  # fmt: skip
    await wire.refused(
        "sendRichMessage", 400, "Bad Request: message to be replied not found", chat_id=4242, rich_message=RICH,
        reply_to_message_id=9,
    )  # fmt: skip
    msg = await wire.ok(
        "sendRichMessage", chat_id=4242, rich_message=RICH, reply_to_message_id=9, allow_sending_without_reply="true"
    )
    assert msg["message_id"] == 1


# --- sendRichMessageDraft -------------------------------------------------------------------------------------------


async def test_rich_draft_revisions_are_counted_and_not_messages(wire: Wire, clock: ManualClock) -> None:
    assert await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=7, rich_message=RICH) is True
    clock.advance(1)
    rich = json.dumps({"markdown": "**Hello**, world", "html": "<b>ignored</b>"})
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=7, rich_message=rich, can_stop="true")
    view = await chat(wire)
    assert view["messages"] == []
    [draft] = view["drafts"]
    assert draft["draft_id"] == 7
    assert draft["kind"] == "rich"
    assert draft["markdown"] == "**Hello**, world"
    assert draft["revisions"] == 2
    assert draft["can_stop"] is True
    assert "keep_on_stop" not in draft
    assert await wire.text() == "draft 7 (rev 2): **Hello**, world\n    [Stop]\n"


async def test_html_only_draft_shows_empty_text_and_empty_object_is_accepted(wire: Wire) -> None:
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=-3, rich_message='{"html":"<b>x</b>"}')
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=4, rich_message="{}")
    assert [(d["draft_id"], d["markdown"]) for d in await drafts(wire)] == [(-3, ""), (4, "")]
    assert await wire.text() == "draft -3 (rev 1): \ndraft 4 (rev 1): \n"


@pytest.mark.parametrize("draft_id", [None, "", "0", "abc", "1.5", "99999999999999999999"])
async def test_draft_id_must_be_a_non_zero_integer(wire: Wire, draft_id: str | None) -> None:
    params: dict[str, Any] = {"chat_id": 4242, "rich_message": RICH}
    if draft_id is not None:
        params["draft_id"] = draft_id
    await wire.refused("sendRichMessageDraft", 400, "Bad Request: draft_id must be a non-zero integer", **params)


async def test_rich_draft_refusals_in_order(wire: Wire) -> None:
    await wire.refused("sendRichMessageDraft", 400, "Bad Request: chat_id is empty", draft_id=0, rich_message="x")
    await wire.refused(
        "sendRichMessageDraft", 400, "Bad Request: draft_id must be a non-zero integer", chat_id=1, rich_message="x"
    )
    for bad in (None, "not json", "[1]", '{"markdown":1}'):
        params: dict[str, Any] = {"chat_id": 1, "draft_id": 1}
        if bad is not None:
            params["rich_message"] = bad
        await wire.refused("sendRichMessageDraft", 400, "Bad Request: can't parse rich_message JSON object", **params)
    assert await drafts(wire, 1) == []


async def test_draft_expires_30_seconds_after_its_last_revision(wire: Wire, clock: ManualClock) -> None:
    await wire.say("question")
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH)
    clock.advance(20)
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH)  # renews the lifetime
    clock.advance(30 - 1e-3)
    assert [d["revisions"] for d in await drafts(wire)] == [2]
    clock.advance(1e-3)  # exactly 30 s after the last revision: gone
    assert await drafts(wire) == []
    assert await wire.text() == "[1] alice: question\n"
    # The id starts again at revision 1; what the bot sent is still in the history.
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH)
    assert [d["revisions"] for d in await drafts(wire)] == [1]
    status, history = await wire.sim("GET", "/sim/chat/4242/drafts/1")
    assert status == 200
    assert [r["revision"] for r in history["revisions"]] == [1, 2, 1]
    assert [r["at_unix"] - history["revisions"][0]["at_unix"] for r in history["revisions"]] == [0, 20, 50]


async def test_expiry_is_pruned_on_writes_too(wire: Wire, clock: ManualClock) -> None:
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH)
    clock.advance(31)
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=2, rich_message=RICH)
    assert list(wire.stand.chat(4242).drafts.live) == [2]  # type: ignore[union-attr]


# --- the Stop button ------------------------------------------------------------------------------------------------


async def test_stop_queues_an_update_and_removes_the_draft(wire: Wire, clock: ManualClock) -> None:
    await wire.ok("getUpdates", timeout=0, allowed_updates='["message","stopped_message_generation"]')
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=5, rich_message=RICH, can_stop="true")
    clock.advance(1)
    await wire.ok(
        "sendRichMessageDraft", chat_id=4242, draft_id=-7, rich_message=RICH, can_stop="true", message_thread_id=12
    )
    status, body = await stop(wire)
    assert status == 200
    updates = await wire.ok("getUpdates", timeout=0)
    assert updates == [
        {
            "update_id": body["update_id"],
            "stopped_message_generation": {
                "chat": {"id": 4242, "type": "private"},
                "message_thread_id": 12,
                "draft_id": -7,
            },
        }
    ]
    assert [d["draft_id"] for d in await drafts(wire)] == [5]
    status, body = await stop(wire, draft_id=5, chat_id=4242)
    assert status == 200
    updates = await wire.ok("getUpdates", timeout=0, offset=body["update_id"])
    assert updates[0]["stopped_message_generation"] == {"chat": {"id": 4242, "type": "private"}, "draft_id": 5}
    assert await drafts(wire) == []


async def test_stop_on_equal_times_picks_the_larger_id(wire: Wire) -> None:
    for draft_id in (3, 9, 4):
        await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=draft_id, rich_message=RICH, can_stop="true")
    await stop(wire)
    assert [d["draft_id"] for d in await drafts(wire)] == [3, 4]


async def test_keep_on_stop_keeps_the_draft_without_its_button(wire: Wire) -> None:
    await wire.ok(
        "sendRichMessageDraft", chat_id=4242, draft_id=2, rich_message=RICH, can_stop="true", keep_on_stop="true"
    )
    assert (await stop(wire, draft_id=2))[0] == 200
    [draft] = await drafts(wire)
    assert ("can_stop" in draft, draft["keep_on_stop"]) == (False, True)
    assert await wire.text() == "draft 2 (rev 1): **Hello**\n"
    assert await stop(wire, draft_id=2) == (404, {"error": "draft 2 in chat 4242 shows no Stop button"})
    assert await stop(wire) == (404, {"error": "chat 4242 has no draft with a Stop button"})
    assert len(await wire.ok("getUpdates", timeout=0)) == 1
    # A new can_stop revision shows the button again; the revision count goes on.
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=2, rich_message=RICH, can_stop="true")
    assert await wire.text() == "draft 2 (rev 2): **Hello**\n    [Stop]\n"


async def test_stop_errors(wire: Wire, clock: ManualClock) -> None:
    assert await stop(wire) == (404, {"error": "chat 4242 has no draft with a Stop button"})
    assert await stop(wire, draft_id=1) == (404, {"error": "draft 1 not found in chat 4242"})
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH)
    assert await stop(wire) == (404, {"error": "chat 4242 has no draft with a Stop button"})
    assert await stop(wire, draft_id=1) == (404, {"error": "draft 1 in chat 4242 shows no Stop button"})
    await wire.ok("sendRichMessageDraft", chat_id=77, draft_id=8, rich_message=RICH, can_stop="true")
    clock.advance(30)
    assert await stop(wire, chat_id=77, draft_id=8) == (404, {"error": "draft 8 not found in chat 77"})
    assert await stop(wire, chat_id=77) == (404, {"error": "chat 77 has no draft with a Stop button"})
    status, body = await wire.sim("POST", "/sim/draft/stop", None)
    assert (status, body) == (400, {"error": "invalid JSON body: EOF"})
    status, body = await wire.sim("POST", "/sim/draft/stop", {"draft_id": "x"})
    assert status == 400
    assert body["error"].startswith("invalid JSON body: draft_id")
    assert wire.stand.next_update_id == 1


async def test_stop_follows_the_subscription(wire: Wire) -> None:
    await wire.ok("getUpdates", timeout=0, allowed_updates='["message"]')
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH, can_stop="true")
    status, body = await stop(wire)
    assert (status, body) == (200, {"update_id": 1})
    assert await wire.ok("getUpdates", timeout=0) == []
    assert await drafts(wire) == []
    assert wire.stand.next_update_id == 2  # the dropped update used up its id


async def test_a_revision_after_a_stop_is_accepted(wire: Wire) -> None:
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH, can_stop="true")
    await stop(wire)
    assert await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH) is True
    assert [d["revisions"] for d in await drafts(wire)] == [1]


async def test_reset_forgets_drafts_and_their_history(wire: Wire) -> None:
    await wire.ok("sendRichMessageDraft", chat_id=4242, draft_id=1, rich_message=RICH)
    await wire.sim("POST", "/sim/reset")
    assert await drafts(wire) == []
    assert await wire.sim("GET", "/sim/chat/4242/drafts/1") == (404, {"error": "draft 1 not found in chat 4242"})


# --- sendMessageDraft -------------------------------------------------------------------------------------------


async def test_message_draft_streams_then_the_final_message(wire: Wire, clock: ManualClock) -> None:
    await wire.say("tell me")
    for text in ("", "Once", "Once upon", "Once upon a time"):
        assert await wire.ok("sendMessageDraft", chat_id=4242, draft_id=42, text=text) is True
        if text == "":
            assert await wire.text() == "[1] alice: tell me\ndraft 42 (rev 1): Thinking…\n"
        clock.advance(0.5)
    [draft] = await drafts(wire)
    assert (draft["kind"], draft["text"], draft["revisions"]) == ("text", "Once upon a time", 4)
    await wire.ok("sendMessage", chat_id=4242, text="Once upon a time.")
    status, history = await wire.sim("GET", "/sim/chat/4242/drafts/42")
    assert status == 200
    assert history["chat_id"] == 4242
    assert history["draft_id"] == 42
    # The final message replaced the draft in the chat (Telegram clients drop it); the timeline stays.
    assert history["live"] is False
    assert [r["text"] for r in history["revisions"]] == ["", "Once", "Once upon", "Once upon a time"]
    times = [r["at_unix"] for r in history["revisions"]]
    assert times == sorted(times)
    assert times[-1] - times[0] == 1.5
    assert all(r["kind"] == "text" for r in history["revisions"])
    assert await wire.text() == "[1] alice: tell me\n[2] bot: Once upon a time.\n"


async def test_a_message_in_another_thread_leaves_the_draft(wire: Wire) -> None:
    await wire.ok("sendMessageDraft", chat_id=4242, draft_id=7, text="part", message_thread_id=3)
    await wire.ok("sendMessage", chat_id=4242, text="elsewhere")
    assert [d["draft_id"] for d in await drafts(wire)] == [7]
    await wire.ok("sendMessage", chat_id=4242, text="done", message_thread_id=3)
    assert await drafts(wire) == []


async def test_message_draft_is_parsed_and_keeps_parse_mode_and_thread(wire: Wire) -> None:
    await wire.ok(
        "sendMessageDraft", chat_id=4242, draft_id=1, text="<b>hi</b>", parse_mode="HTML", message_thread_id=5
    )
    [draft] = await drafts(wire)
    assert (draft["text"], draft["parse_mode"], draft["message_thread_id"]) == ("hi", "HTML", 5)
    assert draft["entities"] == [{"offset": 0, "length": 2, "type": "bold"}]
    assert await wire.text() == "draft 1 (rev 1): **hi**\n"
    await wire.refused(
        "sendMessageDraft",
        400,
        'Bad Request: can\'t parse entities: Can\'t find end tag corresponding to start tag "b"',
        chat_id=4242,
        draft_id=1,
        text="<b>hi",
        parse_mode="HTML",
    )


async def test_message_draft_only_in_private_chats(wire: Wire) -> None:
    await wire.say("hi", chat_type="group")
    for cid in (-100000004242, -5):
        await wire.refused("sendMessageDraft", 400, "Bad Request: TEXTDRAFT_PEER_INVALID", chat_id=cid, draft_id=1)
    await wire.refused("sendMessageDraft", 400, "Bad Request: chat_id is empty", draft_id=1, text="x")
    await wire.refused(
        "sendMessageDraft", 400, "Bad Request: draft_id must be a non-zero integer", chat_id=4242, draft_id=0
    )


async def test_message_draft_text_limit_counts_what_is_shown(wire: Wire) -> None:
    assert await wire.ok("sendMessageDraft", chat_id=4242, draft_id=1, text="ж" * 4096)
    await wire.refused("sendMessageDraft", 400, "Bad Request: message is too long", chat_id=4242, draft_id=1,
                       text="ж" * 4097)  # fmt: skip
    bold = "<b>" + "ж" * 4096 + "</b>"
    assert await wire.ok("sendMessageDraft", chat_id=4242, draft_id=2, text=bold, parse_mode="HTML")
    escaped = "\\." * 4096
    assert await wire.ok("sendMessageDraft", chat_id=4242, draft_id=3, text=escaped, parse_mode="MarkdownV2")
    await wire.refused("sendMessageDraft", 400, "Bad Request: message is too long", chat_id=4242, draft_id=3,
                       text=escaped, parse_mode="")  # fmt: skip
    assert [d["revisions"] for d in await drafts(wire)] == [1, 1, 1]


async def test_message_draft_can_offer_stop(wire: Wire) -> None:
    await wire.ok("sendMessageDraft", chat_id=4242, draft_id=9, text="thinking hard", can_stop="true")
    assert await wire.text() == "draft 9 (rev 1): thinking hard\n    [Stop]\n"
    assert (await stop(wire))[0] == 200
    assert await drafts(wire) == []


async def test_history_errors(wire: Wire) -> None:
    assert await wire.sim("GET", "/sim/chat/4242/drafts/1") == (404, {"error": "draft 1 not found in chat 4242"})
    assert await wire.sim("GET", "/sim/chat/x/drafts/1") == (400, {"error": "chat id must be an integer"})
    assert await wire.sim("GET", "/sim/chat/1/drafts/y") == (400, {"error": "draft id must be an integer"})


async def test_outbox_keeps_every_revision(wire: Wire) -> None:
    for text in ("a", "ab"):
        await wire.ok("sendMessageDraft", chat_id=4242, draft_id=1, text=text)
    assert [c.params["text"] for c in wire.stand.calls("sendmessagedraft")] == ["a", "ab"]
