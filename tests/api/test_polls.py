"""sendPoll and stopPoll over HTTP: the Poll Telegram writes, TDLib's and the server's refusals, timed closing on
the stand's clock, the updates a vote and a close send; sendChecklist / editMessageChecklist refused as Telegram
refuses them without a business connection."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Wire
from tgfake.app import create_app
from tgfake.clock import ManualClock
from tgfake.options import Options

OPTIONS = json.dumps(["Red", "Green", "Blue"])


async def send(wire: Wire, **params: Any) -> dict[str, Any]:
    return dict(await wire.ok("sendPoll", **{"chat_id": 4242, "question": "Colour?", "options": OPTIONS, **params}))


async def kinds(wire: Wire, allowed: list[str] | None = None) -> list[dict[str, Any]]:
    """The pending updates (confirmed as a polling bot confirms them)."""
    extra = {"allowed_updates": json.dumps(allowed)} if allowed is not None else {}
    got = list(await wire.ok("getUpdates", timeout=0, **extra))
    if got:
        await wire.ok("getUpdates", timeout=0, offset=got[-1]["update_id"] + 1)
    return got


async def test_a_regular_poll_is_written_as_telegram_writes_it(wire: Wire) -> None:
    msg = await send(wire)
    poll = msg["poll"]
    assert list(poll) == [
        "id",
        "question",
        "options",
        "total_voter_count",
        "is_closed",
        "is_anonymous",
        "allows_multiple_answers",
        "allows_revoting",
        "members_only",
        "type",
    ]
    assert poll["options"] == [
        {"persistent_id": "0", "text": "Red", "voter_count": 0},
        {"persistent_id": "1", "text": "Green", "voter_count": 0},
        {"persistent_id": "2", "text": "Blue", "voter_count": 0},
    ]
    assert (poll["is_anonymous"], poll["allows_revoting"], poll["type"]) == (True, True, "regular")
    assert "text" not in msg
    assert await wire.text() == "[1] bot: [poll 'Colour?'] [Red: 0] [Green: 0] [Blue: 0]\n"
    _, view = await wire.sim("GET", "/sim/chat/4242")
    assert view["messages"][0]["kind"] == "poll"
    assert view["messages"][0]["poll"]["question"] == "Colour?"


async def test_a_quiz_with_explanation_description_and_formatted_options(wire: Wire) -> None:
    options = json.dumps([{"text": "<b>Four</b>", "text_parse_mode": "HTML"}, "Five"])
    msg = await send(
        wire,
        type="quiz",
        question="<i>2+2</i>?",
        question_parse_mode="HTML",
        options=options,
        correct_option_id=0,
        explanation="Count <b>again</b>",
        explanation_parse_mode="HTML",
        description="A warm-up",
    )
    poll = msg["poll"]
    # Questions and options keep only custom emoji entities (TDLib's keep_only_custom_emoji).
    assert poll["question"] == "2+2?"
    assert "question_entities" not in poll
    assert poll["options"][0] == {"persistent_id": "0", "text": "Four", "voter_count": 0}
    assert (poll["correct_option_id"], poll["correct_option_ids"]) == (0, [0])
    assert poll["explanation"] == "Count again"
    assert poll["explanation_entities"] == [{"offset": 6, "length": 5, "type": "bold"}]
    assert poll["description"] == "A warm-up"
    assert (poll["allows_revoting"], list(poll)[-4:]) == (
        False,
        ["correct_option_ids", "explanation", "explanation_entities", "description"],
    )
    assert "[quiz '2+2?'] [Four: 0] [Five: 0]" in await wire.text()


async def test_several_correct_options_and_explicit_flags(wire: Wire) -> None:
    poll = (
        await send(
            wire,
            type="quiz",
            correct_option_ids="[0, 2]",
            allows_multiple_answers="true",
            allows_revoting="1",
            is_anonymous="false",
        )
    )["poll"]
    assert "correct_option_id" not in poll
    assert poll["correct_option_ids"] == [0, 2]
    assert (poll["allows_multiple_answers"], poll["allows_revoting"], poll["is_anonymous"]) == (True, True, False)


LONG = "x" * 301
BAD = "Bad Request: "


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"options": "[1"}, "Bad Request: can't parse options JSON object"),
        ({"options": ""}, "Bad Request: can't parse options JSON object"),
        ({"question": ""}, "Bad Request: text must be non-empty"),
        ({"options": '{"a": 1}'}, "Bad Request: expected an Array of String as options"),
        ({"options": "[1, 2]"}, "Bad Request: expected an option to be of type String"),
        ({"options": '[{"txt": "a"}]'}, 'Bad Request: can\'t find field "text"'),
        ({"options": "[]"}, "Bad Request: poll must have at least one answer option"),
        ({"options": json.dumps([str(i) for i in range(13)])}, "Bad Request: poll can't have more than 12 options"),
        ({"options": json.dumps(["a", "y" * 101])}, "Bad Request: poll options length must not exceed 100"),
        ({"options": json.dumps(["a", "  "])}, "Bad Request: text must be non-empty"),
        ({"question": LONG}, "Bad Request: poll question length must not exceed 300"),
        ({"question": "  "}, "Bad Request: text must be non-empty"),
        ({"question": "<b>x", "question_parse_mode": "HTML"}, None),
        ({"type": "survey"}, "Bad Request: unsupported poll type specified"),
        ({"type": "quiz"}, "Bad Request: correct quiz option list must be non-empty"),
        ({"type": "quiz", "correct_option_id": 3}, "Bad Request: wrong quiz correct_option_id"),
        ({"type": "quiz", "correct_option_id": "x"}, None),
        ({"type": "quiz", "correct_option_ids": "[1, 0]"}, "Bad Request: correct quiz option list must be increasing"),
        ({"type": "quiz", "correct_option_ids": "[0"}, f"{BAD}can't parse correct option identifiers JSON object"),
        ({"type": "quiz", "correct_option_ids": ""}, f"{BAD}can't parse correct option identifiers JSON object"),
        ({"type": "quiz", "correct_option_ids": "1"}, "Bad Request: expected an Array of correct option identifiers"),
        ({"type": "quiz", "correct_option_ids": '["0"]'}, f"{BAD}correct option identifier must be of type Number"),
        ({"type": "quiz", "correct_option_ids": "[0.5]"}, "Bad Request: invalid correct option identifier specified"),
        ({"members_only": "true"}, "Bad Request: poll voters can be restricted only in channel chats"),
        ({"country_codes": '["US"]'}, "Bad Request: poll voters can be restricted only in channel chats"),
        ({"country_codes": '["usa"]'}, "Bad Request: invalid country code specified"),
        ({"country_codes": json.dumps(["US"] * 13)}, "Bad Request: too many items specified"),
        ({"country_codes": "[1]"}, "Bad Request: expected an Array of String"),
        ({"media": "{"}, "Bad Request: can't parse InputPollMedia JSON object"),
        ({"media": '{"type": "sticker"}'}, "Bad Request: failed to parse InputPollMedia: invalid type specified"),
        ({"media": "[]"}, "Bad Request: failed to parse InputPollMedia: expected an Object"),
        (
            {"options": '[{"text": "a", "media": {"type": "audio"}}]'},
            "Bad Request: failed to parse poll option media: invalid type specified",
        ),
    ],
)
async def test_refusals(wire: Wire, params: dict[str, Any], description: str | None) -> None:
    base = {"chat_id": 4242, "question": "Colour?", "options": OPTIONS}
    if description is None:  # the parser's own words (unclosed tag) or a garbage id read as 0: just a 400 or a 200
        status, body = await wire.call("sendPoll", **{**base, **params})
        assert status in (200, 400), body
        return
    await wire.refused("sendPoll", 400, description, **{**base, **params})
    assert await wire.text() == ""


async def test_channels_take_anonymous_polls_only_and_may_restrict_voters(wire: Wire) -> None:
    _, made = await wire.sim("POST", "/sim/chats", {"type": "channel", "title": "News", "admins": [123]})
    channel = made["chat"]["id"]
    await wire.refused(
        "sendPoll",
        400,
        "Bad Request: BROADCAST_PUBLIC_VOTERS_FORBIDDEN",
        chat_id=channel,
        question="Q",
        options=OPTIONS,
        is_anonymous="false",
    )
    poll = (await send(wire, chat_id=channel, members_only="true", country_codes='["US","DE"]'))["poll"]
    assert (poll["members_only"], poll["country_codes"]) == (True, ["US", "DE"])


async def test_votes_go_to_the_bot_that_sent_the_poll(wire: Wire) -> None:
    await wire.say("hi")
    mid = (await send(wire, is_anonymous="false"))["message_id"]
    await kinds(wire)
    _, answer = await wire.sim("POST", "/sim/vote", {"message_id": mid, "options": [1]})
    got = await kinds(wire, ["poll", "poll_answer"])
    assert [next(k for k in u if k != "update_id") for u in got] == ["poll_answer", "poll"]
    assert got[0]["poll_answer"]["option_ids"] == [1]
    assert got[0]["poll_answer"]["option_persistent_ids"] == ["1"]
    assert got[1]["poll"]["total_voter_count"] == 1
    assert answer["update_id"] == got[0]["update_id"]
    assert await kinds(wire, ["poll"]) == []  # not subscribed to poll_answer any more
    await wire.sim("POST", "/sim/vote", {"message_id": mid, "options": []})  # retracted
    got = await kinds(wire)
    assert [next(k for k in u if k != "update_id") for u in got] == ["poll"]
    assert [o["voter_count"] for o in got[0]["poll"]["options"]] == [0, 0, 0]


async def test_open_period_closes_the_poll_on_the_clock(wire: Wire, clock: ManualClock) -> None:
    await wire.say("hi")
    msg = await send(wire, open_period=30)
    poll = msg["poll"]
    assert (poll["open_period"], poll["close_date"]) == (30, msg["date"] + 30)
    await kinds(wire)
    clock.advance(29)
    assert await kinds(wire) == []
    clock.advance(1)
    got = await kinds(wire)
    assert [u["poll"]["is_closed"] for u in got] == [True]
    assert "(closed)" in await wire.text()
    status, refused = await wire.sim("POST", "/sim/vote", {"message_id": msg["message_id"], "options": [0]})
    assert (status, refused["error"]) == (409, f"the poll of message {msg['message_id']} is closed")


async def test_close_date_and_the_clock_route(wire: Wire, clock: ManualClock) -> None:
    now = int(clock.now())
    msg = await send(wire, close_date=now + 100, open_period=0)
    assert (msg["poll"]["open_period"], msg["poll"]["close_date"]) == (100, now + 100)
    await kinds(wire)
    await wire.sim("POST", "/sim/clock", {"advance": 100})
    assert [u["poll"]["is_closed"] for u in await kinds(wire)] == [True]


async def test_is_closed_sends_a_closed_poll(wire: Wire) -> None:
    msg = await send(wire, is_closed="true")
    assert msg["poll"]["is_closed"] is True
    await wire.refused(
        "stopPoll", 400, "Bad Request: poll has already been closed", chat_id=4242, message_id=msg["message_id"]
    )


async def test_stop_poll_answers_the_poll_and_sets_the_keyboard(wire: Wire) -> None:
    keyboard = json.dumps({"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]})
    mid = (await send(wire, reply_markup=keyboard))["message_id"]
    await kinds(wire)
    closed = await wire.ok("stopPoll", chat_id=4242, message_id=mid)
    assert closed["is_closed"] is True
    assert next(iter(closed)) == "id"
    assert "message_id" not in closed
    assert [u["poll"] for u in await kinds(wire)] == [closed]
    assert "[Go]" not in await wire.text()  # no reply_markup: the keyboard goes
    mid2 = (await send(wire))["message_id"]
    await wire.ok("stopPoll", chat_id=4242, message_id=mid2, reply_markup=keyboard)
    assert "    [Go]" in await wire.text()


async def test_business_polls_need_a_connection(wire: Wire) -> None:
    bc = {"business_connection_id": "bc-1"}
    base = {"chat_id": 4242, "question": "Q", "options": OPTIONS}
    await wire.refused("sendPoll", 400, "Bad Request: business connection not found", **base, **bc)
    await wire.refused("stopPoll", 400, "Bad Request: business connection not found", chat_id=4242, message_id=1, **bc)
    assert await wire.text() == ""


async def test_a_deleted_timed_poll_closes_silently(wire: Wire, clock: ManualClock) -> None:
    mid = (await send(wire, open_period=10))["message_id"]
    await kinds(wire)
    await wire.ok("deleteMessage", chat_id=4242, message_id=mid)
    clock.advance(10)
    assert await kinds(wire) == []


async def test_stop_poll_refusals(wire: Wire) -> None:
    await wire.say("hi")
    await wire.sim("POST", "/sim/share", {"poll": {"question": "Mine", "options": ["a", "b"]}})
    await wire.refused("stopPoll", 400, "Bad Request: message with poll to stop not found", chat_id=4242, message_id=9)
    await wire.refused("stopPoll", 400, "Bad Request: message is not a poll", chat_id=4242, message_id=1)
    await wire.refused("stopPoll", 400, "Bad Request: poll can't be stopped", chat_id=4242, message_id=2)
    await wire.refused(
        "stopPoll",
        400,
        'Bad Request: Field "inline_keyboard" must be of type Array',
        chat_id=4242,
        message_id=2,
        reply_markup='{"inline_keyboard": 1}',
    )


CHECKLIST = json.dumps({"title": "Trip", "tasks": [{"id": 1, "text": "Pack"}]})


@pytest.mark.parametrize(
    ("checklist", "description"),
    [
        (CHECKLIST, "Bad Request: business connection not found"),
        ("", 'Bad Request: parameter "checklist" is required'),
        ("{", "Bad Request: can't parse InputChecklist JSON object"),
        ("[]", "Bad Request: can't parse InputChecklist: expected an Object"),
        ('{"tasks": []}', "Bad Request: can't parse InputChecklist: Can't find field \"title\""),
        ('{"title": "T"}', "Bad Request: can't parse InputChecklist: Can't find field \"tasks\""),
        ('{"title": "T", "tasks": 1}', 'Bad Request: can\'t parse InputChecklist: Field "tasks" must be of type Array'),
        (
            '{"title": "T", "tasks": [{"text": "a"}]}',
            "Bad Request: can't parse InputChecklist: Can't parse InputChecklistTask: Can't find field \"id\"",
        ),
        (
            '{"title": "T", "tasks": [1]}',
            "Bad Request: can't parse InputChecklist: Can't parse InputChecklistTask: expected an Object",
        ),
    ],
)
async def test_checklists_need_a_business_connection(wire: Wire, checklist: str, description: str) -> None:
    common = {"business_connection_id": "bc-1", "chat_id": 4242, "checklist": checklist}
    await wire.refused("sendChecklist", 400, description, **common)
    await wire.refused("editMessageChecklist", 400, description, message_id=1, **common)


_value = st.one_of(
    st.text(max_size=8),
    st.integers(-3, 4000000).map(str),
    st.sampled_from(["true", "false", "quiz", "regular", "[]", "[0]", "[1,0]", '["US"]', "{}", "null", "HTML"]),
)
_params = st.dictionaries(
    st.sampled_from(
        [
            "question",
            "options",
            "type",
            "is_anonymous",
            "allows_multiple_answers",
            "correct_option_id",
            "correct_option_ids",
            "explanation",
            "explanation_parse_mode",
            "question_parse_mode",
            "open_period",
            "close_date",
            "is_closed",
            "members_only",
            "country_codes",
            "media",
            "description",
        ]
    ),
    _value,
    max_size=6,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(params=_params)
async def test_any_poll_parameters_are_a_200_or_a_telegram_400(wire: Wire, params: dict[str, str]) -> None:
    base: dict[str, Any] = {"chat_id": 4242, "question": "Q", "options": OPTIONS}
    status, body = await wire.call("sendPoll", **{**base, **params})
    assert status in (200, 400), body
    if status == 400:
        assert body["description"].startswith("Bad Request: "), body
    else:
        assert body["result"]["poll"]["options"], body


async def test_on_the_wall_clock_a_held_get_updates_hears_the_close() -> None:
    """No call comes at the close date: the stand's timer closes the poll and wakes the bot's held long poll."""
    async with TestClient(TestServer(create_app(Options(poll_max=5.0)))) as client:
        wire = Wire(client)
        await wire.say("hi")
        mid = (await send(wire, open_period=1))["message_id"]
        await kinds(wire)
        got = await wire.ok("getUpdates", timeout=5)  # held until the poll closes, about a second later
        assert [u["poll"]["is_closed"] for u in got] == [True]
        assert f"[{mid}] bot: [poll 'Colour?' (closed)]" in await wire.text()
