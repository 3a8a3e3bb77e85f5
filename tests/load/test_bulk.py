"""``POST /sim/world/bulk`` and the testing client's ``build_world``: thousands of people and groups at once, the
bot in every group, nothing announced; bad bodies refused with words that name the problem."""

from __future__ import annotations

import pytest

from tests.conftest import Wire
from tgfake.testing import StandClient


async def test_ten_thousand_people_and_a_thousand_groups_are_built_at_once(wire: Wire) -> None:
    """The build's time is reported (``ms``; about 40 ms here), never asserted: a test on a busy machine is no
    measurement (docs/benchmarks.md)."""
    status, body = await wire.sim("POST", "/sim/world/bulk", {"people": 10_000, "groups": 1_000, "members": 20})
    assert status == 200, body
    assert body["ms"] > 0
    assert len(body["people"]) == len(set(body["people"])) == 10_000
    assert len(body["groups"]) == 1_000
    people = set(body["people"])
    for group in body["groups"]:
        assert len(group["members"]) == len(set(group["members"])) == 20
        assert set(group["members"]) <= people
    stand = wire.stand
    bot = stand.default_bot
    assert bot.pending == []  # nothing announced
    chat = stand.world.chats[body["groups"][0]["id"]]
    assert chat.type == "supergroup"
    assert chat.members[bot.id].status == "administrator"
    assert chat.members[body["groups"][0]["members"][0]].status == "creator"


async def test_a_bulk_person_writes_in_a_bulk_group_and_the_bot_hears_it(wire: Wire) -> None:
    _, body = await wire.sim("POST", "/sim/world/bulk", {"people": 30, "groups": 2, "members": 5, "seed": 7})
    group = body["groups"][1]
    sent = await wire.say("hello all", user_id=group["members"][2], chat_id=group["id"])
    assert sent["update_id"] > 0
    _, got = await wire.call("getUpdates")
    message = got["result"][-1]["message"]
    assert (message["chat"]["id"], message["from"]["id"], message["text"]) == (
        group["id"],
        group["members"][2],
        "hello all",
    )


async def test_the_same_seed_draws_the_same_groups(make_wire: object) -> None:
    drawn = []
    for _ in range(2):
        async with make_wire() as wire:  # type: ignore[operator]
            _, body = await wire.sim("POST", "/sim/world/bulk", {"people": 50, "groups": 3, "members": 4, "seed": 3})
            drawn.append(body["groups"])
    assert drawn[0] == drawn[1]


async def test_a_member_bot_is_in_privacy_mode_and_basic_groups_have_basic_ids(wire: Wire) -> None:
    body = {"people": 10, "groups": 1, "members": 3, "chat_type": "group", "bot_admin": False}
    _, got = await wire.sim("POST", "/sim/world/bulk", body)
    chat = wire.stand.world.chats[got["groups"][0]["id"]]
    assert chat.type == "group"
    assert -(10**12) < chat.id < 0
    assert chat.members[wire.stand.default_bot.id].status == "member"
    await wire.say("no command here", user_id=got["groups"][0]["members"][1], chat_id=chat.id)
    assert wire.stand.default_bot.pending == []  # privacy mode: a plain text in a group is not the bot's


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"people": 5, "groups": 1, "members": 6}, 400, "groups of 6 members need that many people; the world has 5"),
        (
            {"people": 5, "groups": 1, "members": 2, "chat_type": "channel"},
            400,
            "chat_type must be group or supergroup",
        ),
        ({"people": 20_001}, 400, "people"),
        ({"people": 10, "groups": 1000, "members": 300}, 400, "1000 groups of 300 members is over 200,000 memberships"),
        ({"people": "10"}, 400, "people"),
        ({"people": 10, "bot": "@nobody_bot"}, 404, "nobody_bot"),
    ],
)
async def test_bad_bodies_are_refused_with_words_that_name_the_problem(
    wire: Wire, body: dict[str, object], status: int, words: str
) -> None:
    got_status, got = await wire.sim("POST", "/sim/world/bulk", body)
    assert got_status == status, got
    assert words in got["error"]
    assert len(wire.stand.world.users) <= 1  # nothing built


def test_the_testing_client_builds_a_world(origin: str) -> None:
    built = StandClient(origin).build_world(40, 4, members=6)
    assert len(built.people) == 40
    assert [len(m) for m in built.groups.values()] == [6, 6, 6, 6]
    assert all(set(m) <= set(built.people) for m in built.groups.values())
