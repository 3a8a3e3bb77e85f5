"""forwardMessage(s) and copyMessage(s) over HTTP: origins of each kind, copies, albums, and Telegram's refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, upload_parts
from tests.world.helpers import ALICE, BOB, BOT, add_bot, forget_updates, make_chat, pending, sim_ok


def png() -> bytes:
    return image_bytes("PNG", (3, 2))


async def upload(wire: Wire, method: str, field: str, data: bytes, **params: Any) -> dict[str, Any]:
    status, body = await upload_parts(wire, method, {field: data}, **params)
    assert status == 200, body
    return dict(body["result"])


async def test_forward_a_persons_message_names_them(wire: Wire) -> None:
    said = await wire.say("hello there")
    group = await make_chat(wire, members=[BOT])
    forget_updates(wire)
    msg = await wire.ok("forwardMessage", chat_id=group, from_chat_id=ALICE, message_id=said["message_id"])
    assert msg["text"] == "hello there"
    assert msg["from"]["id"] == BOT
    assert msg["forward_origin"]["type"] == "user"
    assert msg["forward_origin"]["sender_user"]["id"] == ALICE
    assert isinstance(msg["forward_origin"]["date"], int)
    assert "[forwarded from alice] hello there" in await wire.text(group)


async def test_a_person_who_hides_forwards_is_a_hidden_user(wire: Wire) -> None:
    await sim_ok(wire, "/sim/privacy", {"user_id": ALICE, "hide_forwards": True})
    said = await wire.say("secret")
    msg = await wire.ok("forwardMessage", chat_id=ALICE, from_chat_id=ALICE, message_id=said["message_id"])
    assert msg["forward_origin"] == {"type": "hidden_user", "sender_user_name": "Alice", "date": msg["date"]}


async def test_forward_a_channel_post_and_a_forward_of_a_forward(wire: Wire) -> None:
    channel = await make_chat(wire, type="channel", title="News", admins=[BOT])
    post = await wire.ok("sendMessage", chat_id=channel, text="breaking")
    first = await wire.ok("forwardMessage", chat_id=ALICE, from_chat_id=channel, message_id=post["message_id"])
    origin = first["forward_origin"]
    assert (origin["type"], origin["chat"]["id"], origin["message_id"]) == ("channel", channel, post["message_id"])
    again = await wire.ok("forwardMessage", chat_id=ALICE, from_chat_id=ALICE, message_id=first["message_id"])
    assert again["forward_origin"] == origin


async def test_forward_reaches_the_bots_that_see_it(wire: Wire) -> None:
    mod = await add_bot(wire, can_read_all_group_messages=True)
    group = await make_chat(wire, members=[BOT, mod])
    said = await wire.say("hi")
    forget_updates(wire, BOT, mod)
    await wire.ok("forwardMessage", chat_id=group, from_chat_id=ALICE, message_id=said["message_id"])
    assert await pending(wire, mod) == []  # bots never see other bots' messages
    channel = await make_chat(wire, type="channel", title="News", admins=[BOT, mod])
    forget_updates(wire, BOT, mod)
    await wire.ok("forwardMessage", chat_id=channel, from_chat_id=ALICE, message_id=said["message_id"])
    [update] = await pending(wire, mod)
    assert update["channel_post"]["forward_origin"]["sender_user"]["id"] == ALICE


async def test_protected_messages_are_not_forwarded_but_copied(wire: Wire) -> None:
    sent = await wire.ok("sendMessage", chat_id=ALICE, text="mine", protect_content="true")
    assert sent["has_protected_content"] is True
    await wire.refused(
        "forwardMessage",
        400,
        "Bad Request: the message can't be forwarded",
        chat_id=ALICE,
        from_chat_id=ALICE,
        message_id=sent["message_id"],
    )
    copied = await wire.ok("copyMessage", chat_id=ALICE, from_chat_id=ALICE, message_id=sent["message_id"])
    assert list(copied) == ["message_id"]


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"from_chat_id": ALICE, "message_id": 99}, "Bad Request: message to forward not found"),
        ({"from_chat_id": ALICE, "message_id": 0}, "Bad Request: message to forward not found"),
        ({"from_chat_id": -100777, "message_id": 1}, "Bad Request: chat not found"),
        ({"from_chat_id": "@nobody", "message_id": 1}, "Bad Request: chat not found"),
        ({"message_id": 1}, 'Bad Request: parameter "from_chat_id" is required'),
    ],
)
async def test_forward_refusals(wire: Wire, params: dict[str, Any], description: str) -> None:
    await wire.say("x")
    await wire.refused("forwardMessage", 400, description, chat_id=ALICE, **params)
    await wire.refused("copyMessage", 400, description.replace("forward", "copy"), chat_id=ALICE, **params)


async def test_service_messages_travel_neither_way(wire: Wire) -> None:
    group = await make_chat(wire, members=[BOT])
    await sim_ok(wire, f"/sim/chats/{group}/join", {"user": BOB})
    joined = max(wire.stand.world.chats[group].messages)
    await wire.refused(
        "forwardMessage",
        400,
        "Bad Request: the message can't be forwarded",
        chat_id=ALICE,
        from_chat_id=group,
        message_id=joined,
    )
    await wire.refused(
        "copyMessage",
        400,
        "Bad Request: the message can't be copied",
        chat_id=ALICE,
        from_chat_id=group,
        message_id=joined,
    )


async def test_a_persons_quiz_is_forwarded_but_not_copied(wire: Wire) -> None:
    poll = {"question": "2+2?", "options": ["3", "4"], "type": "quiz", "correct_option_id": 1}
    shared = await sim_ok(wire, "/sim/share", {"poll": poll})
    mid = shared["message_id"]
    fwd = await wire.ok("forwardMessage", chat_id=ALICE, from_chat_id=ALICE, message_id=mid)
    assert fwd["poll"]["question"] == "2+2?"
    await wire.refused(
        "copyMessage",
        400,
        "Bad Request: the message can't be copied",
        chat_id=ALICE,
        from_chat_id=ALICE,
        message_id=mid,
    )


async def test_copy_replaces_the_caption_and_keeps_the_file(wire: Wire) -> None:
    photo = await upload(wire, "sendPhoto", "photo", png(), chat_id=ALICE, caption="old")
    copied = await wire.ok(
        "copyMessage",
        chat_id=ALICE,
        from_chat_id=ALICE,
        message_id=photo["message_id"],
        caption="<b>new</b>",
        parse_mode="HTML",
        show_caption_above_media="true",
        reply_markup=json.dumps({"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]}),
    )
    stored = wire.stand.world.private[(BOT, ALICE)].messages[copied["message_id"]]
    assert stored.caption == "new"
    assert stored.entities == [{"offset": 0, "length": 3, "type": "bold"}]
    assert stored.caption_above
    assert stored.keyboard is not None
    assert stored.photo is not None
    assert stored.photo.file_id == photo["photo"][0]["file_id"]
    assert "forward_origin" not in stored.extra
    kept = await wire.ok("copyMessage", chat_id=ALICE, from_chat_id=ALICE, message_id=photo["message_id"])
    assert wire.stand.world.private[(BOT, ALICE)].messages[kept["message_id"]].caption == "old"
    text = await wire.text()
    assert "[forwarded" not in text
    assert "**new**" in text


async def test_copy_of_a_forward_has_no_origin_and_a_copy_replies(wire: Wire) -> None:
    said = await wire.say("hi")
    fwd = await wire.ok("forwardMessage", chat_id=ALICE, from_chat_id=ALICE, message_id=said["message_id"])
    copied = await wire.ok(
        "copyMessage",
        chat_id=ALICE,
        from_chat_id=ALICE,
        message_id=fwd["message_id"],
        reply_parameters=json.dumps({"message_id": said["message_id"]}),
    )
    stored = wire.stand.world.private[(BOT, ALICE)].messages[copied["message_id"]]
    assert "forward_origin" not in stored.extra
    assert stored.reply_to == said["message_id"]


async def test_forward_messages_skips_missing_and_returns_message_ids(wire: Wire) -> None:
    one = await wire.say("one")
    two = await wire.say("two")
    out = await wire.ok(
        "forwardMessages",
        chat_id=ALICE,
        from_chat_id=ALICE,
        message_ids=json.dumps([one["message_id"], 50, str(two["message_id"])]),
    )
    assert out == [{"message_id": 3}, {"message_id": 4}]
    assert "[3] bot: [forwarded from alice] one\n[4] bot: [forwarded from alice] two\n" in await wire.text()


@pytest.mark.parametrize(
    ("ids", "description"),
    [
        ("[]", "Bad Request: message identifiers are not specified"),
        (json.dumps(list(range(1, 102))), "Bad Request: too many message identifiers specified"),
        ("[true]", "Bad Request: message identifier must be a Number"),
        ("[1.5]", "Bad Request: can't parse message identifier as a Number"),
        ('["x"]', "Bad Request: can't parse message identifier as a Number"),
        ("[4294967296]", "Bad Request: can't parse message identifier as a Number"),
        ("[0]", "Bad Request: invalid message identifier specified"),
        ("[2, 1]", "Bad Request: message identifiers must be in a strictly increasing order"),
        ("[1, 1]", "Bad Request: message identifiers must be in a strictly increasing order"),
        ("[70, 80]", "Bad Request: there are no messages to forward"),
        ("{}", "Bad Request: expected an Array of message identifiers"),
    ],
)
async def test_forward_messages_refusals(wire: Wire, ids: str, description: str) -> None:
    await wire.say("one")
    await wire.say("two")
    for method in ("forwardMessages", "copyMessages"):
        await wire.refused(method, 400, description, chat_id=ALICE, from_chat_id=ALICE, message_ids=ids)


async def test_only_unforwardable_messages_are_refused_together(wire: Wire) -> None:
    sent = await wire.ok("sendMessage", chat_id=ALICE, text="p", protect_content="true")
    await wire.refused(
        "forwardMessages",
        400,
        "Bad Request: messages can't be forwarded",
        chat_id=ALICE,
        from_chat_id=ALICE,
        message_ids=json.dumps([sent["message_id"]]),
    )


async def test_an_album_travels_as_a_new_album(wire: Wire) -> None:
    media = [{"type": "photo", "media": "attach://a", "caption": "first"}, {"type": "photo", "media": "attach://b"}]
    _, body = await upload_parts(
        wire, "sendMediaGroup", {"a": png(), "b": png()}, chat_id=ALICE, media=json.dumps(media)
    )
    album = body["result"]
    ids = [m["message_id"] for m in album]
    out = await wire.ok(
        "copyMessages", chat_id=ALICE, from_chat_id=ALICE, message_ids=json.dumps(ids), remove_caption="true"
    )
    chat = wire.stand.world.private[(BOT, ALICE)]
    new = [chat.messages[m["message_id"]] for m in out]
    assert new[0].media_group_id
    assert new[0].media_group_id == new[1].media_group_id
    assert new[0].media_group_id != album[0]["media_group_id"]
    assert new[0].caption == ""
    one = await wire.ok("forwardMessages", chat_id=ALICE, from_chat_id=ALICE, message_ids=json.dumps(ids[:1]))
    assert chat.messages[one[0]["message_id"]].media_group_id == ""


async def test_a_forward_to_a_chat_the_bot_was_removed_from_is_forbidden(wire: Wire) -> None:
    said = await wire.say("x")
    group = await make_chat(wire, members=[BOT])
    await sim_ok(wire, f"/sim/chats/{group}/remove", {"user": BOT})
    await wire.refused(
        "forwardMessage",
        403,
        "Forbidden: bot was kicked from the supergroup chat",
        chat_id=group,
        from_chat_id=ALICE,
        message_id=said["message_id"],
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids=st.lists(st.one_of(st.integers(-3, 2**32), st.text(max_size=4), st.booleans(), st.none()), max_size=6))
async def test_any_id_list_is_answered_200_or_a_telegram_400(wire: Wire, ids: list[Any]) -> None:
    await wire.say("one")
    status, body = await wire.call("forwardMessages", chat_id=ALICE, from_chat_id=ALICE, message_ids=json.dumps(ids))
    assert status in (200, 400), body
    assert body["ok"] is (status == 200)
    if status == 400:
        assert body["description"].startswith("Bad Request: ")
    else:
        assert all(set(m) == {"message_id"} for m in body["result"])


async def test_a_forwarded_poll_is_the_same_poll_and_a_copied_one_is_new(wire: Wire) -> None:
    sent = await wire.ok("sendPoll", chat_id=ALICE, question="Tea?", options=json.dumps(["Yes", "No"]))
    group = await make_chat(wire, members=[BOT])
    fwd = await wire.ok("forwardMessage", chat_id=group, from_chat_id=ALICE, message_id=sent["message_id"])
    assert fwd["poll"]["id"] == sent["poll"]["id"]
    copied = await wire.ok("copyMessage", chat_id=group, from_chat_id=ALICE, message_id=sent["message_id"])
    await sim_ok(wire, "/sim/vote", {"chat_id": group, "message_id": fwd["message_id"], "options": [0]})
    views = {m["message_id"]: m for m in (await wire.sim("GET", f"/sim/chat/{group}"))[1]["messages"]}
    original = {m["message_id"]: m for m in (await wire.sim("GET", f"/sim/chat/{ALICE}"))[1]["messages"]}
    assert original[sent["message_id"]]["poll"]["options"][0]["voter_count"] == 1  # the vote shows on both
    assert views[fwd["message_id"]]["poll"]["options"][0]["voter_count"] == 1
    new = views[copied["message_id"]]["poll"]
    assert new["id"] != sent["poll"]["id"]
    assert [o["voter_count"] for o in new["options"]] == [0, 0]
