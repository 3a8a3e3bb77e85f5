"""deleteMessage(s) under the bot's rights; the bot's reactions and a moderator's removal of reactions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Wire
from tests.world.helpers import ALICE, BOB, BOT, add_bot, forget_updates, make_chat, pending, sim_ok
from tgfake.clock import ManualClock


async def test_delete_messages_skips_missing_and_deletes_the_rest(wire: Wire) -> None:
    one = await wire.say("one")
    two = await wire.ok("sendMessage", chat_id=ALICE, text="two")
    assert await wire.ok("deleteMessages", chat_id=ALICE, message_ids=json.dumps([one["message_id"], 40, 2])) is True
    assert two["message_id"] == 2
    assert await wire.text() == ""
    # every id missing (or deleted already) is still a success, as TDLib deletes nothing
    assert await wire.ok("deleteMessages", chat_id=ALICE, message_ids="[1, 2, 3]") is True


async def test_delete_messages_is_all_or_nothing(wire: Wire) -> None:
    group = await make_chat(wire, members=[BOT])
    theirs = await wire.say("hi", chat_id=group)
    mine = await wire.ok("sendMessage", chat_id=group, text="mine")
    await wire.refused(
        "deleteMessages",
        400,
        "Bad Request: message can't be deleted",
        chat_id=group,
        message_ids=json.dumps([theirs["message_id"], mine["message_id"]]),
    )
    assert "mine" in await wire.text(group)
    await wire.refused(
        "deleteMessage", 400, "Bad Request: message can't be deleted", chat_id=group, message_id=theirs["message_id"]
    )
    assert await wire.ok("deleteMessage", chat_id=group, message_id=mine["message_id"]) is True


async def test_an_admin_with_can_delete_messages_deletes_anything_younger_than_two_days(
    wire: Wire, clock: ManualClock
) -> None:
    group = await make_chat(wire, admins=[BOT])
    old = await wire.say("old", chat_id=group)
    clock.advance(2 * 86400)
    new = await wire.say("new", chat_id=group)
    await wire.refused(
        "deleteMessages",
        400,
        "Bad Request: message can't be deleted",
        chat_id=group,
        message_ids=json.dumps([old["message_id"], new["message_id"]]),
    )
    assert await wire.ok("deleteMessages", chat_id=group, message_ids=json.dumps([new["message_id"]])) is True


async def test_a_die_in_a_private_chat_waits_a_day(wire: Wire, clock: ManualClock) -> None:
    die = await wire.ok("sendDice", chat_id=ALICE)
    await wire.refused(
        "deleteMessage",
        400,
        "Bad Request: message can't be deleted for everyone",
        chat_id=ALICE,
        message_id=die["message_id"],
    )
    clock.advance(86400)
    assert await wire.ok("deleteMessage", chat_id=ALICE, message_id=die["message_id"]) is True


async def test_a_basic_group_member_deletes_only_its_own(wire: Wire) -> None:
    group = await make_chat(wire, type="group", members=[BOT])
    theirs = await wire.say("hi", chat_id=group)
    await wire.refused(
        "deleteMessages",
        400,
        "Bad Request: message can't be deleted for everyone",
        chat_id=group,
        message_ids=json.dumps([theirs["message_id"]]),
    )


@pytest.mark.parametrize(
    ("params", "status", "description"),
    [
        ({"chat_id": ALICE}, 400, "Bad Request: message identifiers are not specified"),
        ({"chat_id": ALICE, "message_ids": "[1"}, 400, "Bad Request: can't parse message_ids JSON object"),
        ({"message_ids": "[1]"}, 400, "Bad Request: chat_id is empty"),
        ({"chat_id": 777, "message_ids": "[1]"}, 400, "Bad Request: chat not found"),
        ({"chat_id": ALICE, "message_ids": "[-1]"}, 400, "Bad Request: invalid message identifier specified"),
    ],
)
async def test_delete_messages_refusals(wire: Wire, params: dict[str, Any], status: int, description: str) -> None:
    await wire.say("x")
    await wire.refused("deleteMessages", status, description, **params)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids=st.lists(st.one_of(st.integers(-2, 2**31), st.text(max_size=3), st.floats(), st.booleans()), max_size=8))
async def test_any_delete_id_list_is_200_or_a_telegram_400(wire: Wire, ids: list[Any]) -> None:
    await wire.say("x")
    status, body = await wire.call("deleteMessages", chat_id=ALICE, message_ids=json.dumps(ids))
    assert status in (200, 400), body
    assert body["ok"] is (status == 200)
    assert status == 200 or body["description"].startswith("Bad Request: ")


def emoji(*values: str) -> str:
    return json.dumps([{"type": "emoji", "emoji": e} for e in values])


async def test_the_bot_reacts_and_the_person_sees_it(wire: Wire) -> None:
    said = await wire.say("great news")
    assert await wire.ok("setMessageReaction", chat_id=ALICE, message_id=said["message_id"], reaction=emoji("🔥"))
    assert await wire.text() == "[1] alice: great news\n    reactions: 🔥 1\n"
    _, view = await wire.sim("GET", f"/sim/chat/{ALICE}")
    assert view["messages"][0]["reactions"] == [{"type": {"type": "emoji", "emoji": "🔥"}, "total_count": 1}]
    assert await wire.ok("setMessageReaction", chat_id=ALICE, message_id=said["message_id"], is_big="true")
    assert await wire.text() == "[1] alice: great news\n"


async def test_an_admin_bot_hears_of_another_bots_reaction(wire: Wire) -> None:
    mod = await add_bot(wire)
    group = await make_chat(wire, admins=[BOT, mod])
    said = await wire.say("hi", chat_id=group)
    forget_updates(wire, BOT, mod)
    await wire.ok("getUpdates", timeout=0, allowed_updates='["message_reaction"]')
    await wire.call("getUpdates", token="555:mod", timeout=0, allowed_updates='["message_reaction"]')
    await wire.ok("setMessageReaction", chat_id=group, message_id=said["message_id"], reaction=emoji("👍"))
    [update] = await pending(wire, mod)
    assert update["message_reaction"]["user"]["id"] == BOT
    assert update["message_reaction"]["new_reaction"] == [{"type": "emoji", "emoji": "👍"}]
    assert await pending(wire, BOT) == []


PARSE = "Bad Request: can't parse ReactionType:"


@pytest.mark.parametrize(
    ("reaction", "description"),
    [
        ("[", "Bad Request: can't parse reaction types JSON object"),
        ("{}", "Bad Request: expected an Array of ReactionType"),
        ("[1]", "Bad Request: can't parse ReactionType: expected an Object"),
        ("[{}]", "Bad Request: can't parse ReactionType: Can't find field \"type\""),
        ('[{"type": "paid"}]', "Bad Request: can't parse ReactionType: invalid reaction type specified"),
        ('[{"type": "emoji"}]', "Bad Request: can't parse ReactionType: Can't find field \"emoji\""),
        ('[{"type": "custom_emoji"}]', "Bad Request: can't parse ReactionType: Can't find field \"custom_emoji_id\""),
        ('[{"type": "emoji", "emoji": ""}]', "Bad Request: invalid reaction type specified"),
        (emoji("🦆"), "Bad Request: REACTION_INVALID"),
        ('[{"type": "custom_emoji", "custom_emoji_id": "5"}]', "Bad Request: REACTION_INVALID"),
        # TDLib's JsonObject: a String field takes a Number's text, a Long field only a String of plain digits
        ('[{"type": "emoji", "emoji": 5}]', "Bad Request: REACTION_INVALID"),
        ('[{"type": 5}]', f"{PARSE} invalid reaction type specified"),
        ('[{"type": "emoji", "emoji": true}]', f'{PARSE} Field "emoji" must be of type String'),
        (
            '[{"type": "custom_emoji", "custom_emoji_id": "+5"}]',
            f'{PARSE} Field "custom_emoji_id" must be a valid Number',
        ),
        ('[{"type": "custom_emoji", "custom_emoji_id": []}]', f'{PARSE} Field "custom_emoji_id" must be a Number'),
        (emoji("👍", "🔥"), "Bad Request: REACTIONS_TOO_MANY"),
    ],
)
async def test_reaction_refusals(wire: Wire, reaction: str, description: str) -> None:
    said = await wire.say("x")
    await wire.refused(
        "setMessageReaction", 400, description, chat_id=ALICE, message_id=said["message_id"], reaction=reaction
    )


async def test_reacting_to_a_missing_message(wire: Wire) -> None:
    await wire.say("x")
    await wire.refused(
        "setMessageReaction",
        400,
        "Bad Request: message to react not found",
        chat_id=ALICE,
        message_id=9,
        reaction=emoji("👍"),
    )


async def test_a_moderator_removes_a_persons_reactions(wire: Wire) -> None:
    group = await make_chat(wire, admins=[BOT], members=["bob"])
    one = await wire.say("one", chat_id=group)
    two = await wire.say("two", chat_id=group)
    for msg in (one, two):
        await sim_ok(
            wire, "/sim/react", {"chat_id": group, "user_id": BOB, "message_id": msg["message_id"], "emoji": ["👍"]}
        )
    await wire.ok("deleteMessageReaction", chat_id=group, message_id=one["message_id"], user_id=BOB)
    chat = wire.stand.world.chats[group]
    assert chat.messages[one["message_id"]].reactions == {}
    assert BOB in chat.messages[two["message_id"]].reactions
    await wire.ok("deleteAllMessageReactions", chat_id=group, user_id=BOB)
    assert chat.messages[two["message_id"]].reactions == {}


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"user_id": "x"}, "Bad Request: invalid user_id specified"),
        ({}, "Bad Request: sender_chat_id is empty"),
        ({"actor_chat_id": "-1x"}, "Bad Request: sender_chat_id is not a valid Integer"),
        ({"user_id": 99999}, "Bad Request: reaction sender not found"),
    ],
)
async def test_reaction_removal_refusals(wire: Wire, params: dict[str, Any], description: str) -> None:
    group = await make_chat(wire, admins=[BOT])
    said = await wire.say("x", chat_id=group)
    await wire.refused(
        "deleteMessageReaction", 400, description, chat_id=group, message_id=said["message_id"], **params
    )


async def test_reaction_removal_needs_can_delete_messages(wire: Wire) -> None:
    group = await make_chat(wire, members=[BOT])
    said = await wire.say("x", chat_id=group)
    await wire.refused(
        "deleteMessageReaction",
        400,
        "Bad Request: message to delete reactions not found",
        chat_id=group,
        message_id=99,
        user_id=ALICE,
    )
    await wire.refused(
        "deleteMessageReaction",
        400,
        "Bad Request: CHAT_ADMIN_REQUIRED",
        chat_id=group,
        message_id=said["message_id"],
        user_id=ALICE,
    )
    await wire.refused(
        "deleteAllMessageReactions", 400, "Bad Request: CHAT_ADMIN_REQUIRED", chat_id=group, user_id=ALICE
    )
