"""A bot put in a chat as an administrator: Telegram's "add admin" is one membership change (one ``my_chat_member``
from ``left``), and a channel has bots only as administrators (chatmemberbot.py of python-telegram-bot counts them)."""

from __future__ import annotations

from tests.conftest import Wire
from tests.world.test_world import kinds, new_group, sim_ok, updates


def change(update: dict[str, object]) -> tuple[object, object]:
    member = update["my_chat_member"]
    assert isinstance(member, dict)
    return member["old_chat_member"]["status"], member["new_chat_member"]["status"]


async def test_an_administrator_bot_joins_a_group_in_one_change(wire: Wire) -> None:
    cid = await new_group(wire, admins=["@tgfake_bot"])
    batch = await updates(wire)
    assert kinds(batch) == ["my_chat_member", "message"]
    assert change(batch[0]) == ("left", "administrator")
    assert batch[1]["message"]["new_chat_members"][0]["username"] == "tgfake_bot"
    assert "[2] * alice added tgfake_bot" in await wire.text(cid)


async def test_a_channel_has_bots_only_as_administrators(wire: Wire) -> None:
    news = await new_group(wire, type="channel", admins=["@tgfake_bot"])
    [update] = await updates(wire)
    assert change(update) == ("left", "administrator")
    other = await new_group(wire, type="channel", title="Other")
    status, answer = await wire.sim("POST", f"/sim/chats/{other}/add", {"user": "@tgfake_bot"})
    assert (status, answer) == (
        400,
        {"error": "a bot is in a channel only as its administrator: promote @tgfake_bot instead"},
    )
    assert await updates(wire) == []
    await sim_ok(wire, f"/sim/chats/{other}/promote", {"user": "@tgfake_bot", "rights": {"can_post_messages": True}})
    [update] = await updates(wire)
    assert change(update) == ("left", "administrator")
    assert update["my_chat_member"]["new_chat_member"]["can_post_messages"] is True
    await wire.ok("sendMessage", chat_id=other, text="first post")
    await sim_ok(wire, f"/sim/chats/{news}/leave", {"user": "@tgfake_bot"})
    assert change((await updates(wire))[0]) == ("administrator", "left")


async def test_a_person_is_still_added_before_being_promoted(wire: Wire) -> None:
    cid = await new_group(wire)
    status, answer = await wire.sim("POST", f"/sim/chats/{cid}/promote", {"user": "bob"})
    assert (status, answer) == (409, {"error": f"bob is not in chat {cid}: add them first"})
