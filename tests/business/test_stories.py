"""Stories on a business account through the bot's connection (``can_manage_stories``)."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.conftest import Wire

ALICE, CAROL = 4242, 4444
PHOTO = '{"type":"photo","photo":"attach://pic"}'


async def connect(wire: Wire, user: str = "alice", **rights: bool) -> str:
    status, got = await wire.sim("POST", "/sim/business/connect", {"user": user, "rights": rights})
    assert status == 200, got
    return str(got["connection"]["id"])


async def upload(wire: Wire, method: str, **fields: Any) -> tuple[int, dict[str, Any]]:
    form = aiohttp.FormData()
    for name, value in fields.items():
        form.add_field(name, str(value))
    form.add_field("pic", b"\xff\xd8 story", filename="s.jpg")
    resp = await wire.client.post(f"/bot{wire.token}/{method}", data=form)
    return resp.status, await resp.json()


async def stories(wire: Wire, user: str = "alice") -> list[dict[str, Any]]:
    status, got = await wire.sim("GET", f"/sim/business/account?user={user}")
    assert status == 200
    return list(got["stories"])


async def test_a_story_is_posted_edited_and_deleted_within_the_right(wire: Wire) -> None:
    bc = await connect(wire, can_reply=True)
    status, got = await upload(wire, "postStory", business_connection_id=bc, content=PHOTO, active_period=86400)
    assert (status, got["description"]) == (400, "Bad Request: BOT_ACCESS_FORBIDDEN")
    bc = await connect(wire, can_manage_stories=True)
    status, got = await upload(wire, "postStory", business_connection_id=bc, content=PHOTO, active_period=3600)
    assert (status, got["description"]) == (400, "Bad Request: STORY_PERIOD_INVALID")
    status, got = await upload(
        wire,
        "postStory",
        business_connection_id=bc,
        content=PHOTO,
        active_period=86400,
        caption="<b>New</b> roses",
        parse_mode="HTML",
    )
    assert status == 200, got
    story = got["result"]
    assert story == {"chat": {"id": ALICE, "type": "private", "first_name": "Alice", "username": "alice"}, "id": 1}
    [kept] = await stories(wire)
    assert (kept["caption"], kept["content"]["type"], kept["active_period"]) == ("New roses", "photo", 86400)
    status, got = await upload(
        wire, "editStory", business_connection_id=bc, story_id=1, content=PHOTO, caption="Tulips"
    )
    assert (status, got["result"]["id"]) == (200, 1)
    assert (await stories(wire))[0]["caption"] == "Tulips"
    status, got = await upload(wire, "editStory", business_connection_id=bc, story_id=7, content=PHOTO)
    assert (status, got["description"]) == (400, "Bad Request: STORY_ID_INVALID")
    assert await wire.ok("deleteStory", business_connection_id=bc, story_id=1)
    await wire.refused("deleteStory", 400, "Bad Request: STORY_ID_INVALID", business_connection_id=bc, story_id=1)
    assert await stories(wire) == []


async def test_a_story_is_reposted_from_another_account_the_bot_manages(wire: Wire) -> None:
    source = await connect(wire, "carol", can_manage_stories=True)
    target = await connect(wire, "alice", can_manage_stories=True)
    status, got = await upload(wire, "postStory", business_connection_id=source, content=PHOTO, active_period=21600)
    assert status == 200, got
    reposted = await wire.ok(
        "repostStory", business_connection_id=target, from_chat_id=CAROL, story_id=1, active_period=86400
    )
    assert (reposted["chat"]["id"], reposted["id"]) == (ALICE, 1)
    assert [s["content"]["type"] for s in await stories(wire)] == ["photo"]
    await wire.refused(
        "repostStory",
        400,
        "Bad Request: chat not found",
        business_connection_id=target,
        from_chat_id=999,
        story_id=1,
        active_period=86400,
    )
    await wire.refused(
        "repostStory",
        400,
        "Bad Request: STORY_ID_INVALID",
        business_connection_id=target,
        from_chat_id=CAROL,
        story_id=5,
        active_period=86400,
    )
