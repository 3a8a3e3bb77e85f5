"""getChat, the chat's title, description, photo and permissions, and pins, through the wire."""

from __future__ import annotations

from aiogram.types import ChatFullInfo
from telegram import ChatFullInfo as PtbChatFullInfo

from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, upload
from tests.world.helpers import ALICE, BOT, MOD, MOD_TOKEN, add_bot, forget_updates, make_chat, messages, sim_ok


async def club(wire: Wire, **body: object) -> int:
    await add_bot(wire, can_read_all_group_messages=True)
    return await make_chat(wire, members=["bob", MOD], admins=[BOT], **body)


async def test_get_chat_is_a_chat_full_info_both_libraries_read(wire: Wire) -> None:
    cid = await club(wire, description="A quiet club", username="club", join_by_request=True)
    info = await wire.ok("getChat", chat_id=cid)
    assert (info["type"], info["title"], info["username"], info["description"]) == (
        "supergroup",
        "Club",
        "club",
        "A quiet club",
    )
    assert (info["join_by_request"], info["active_usernames"], info["max_reaction_count"]) == (True, ["club"], 11)
    assert info["permissions"]["can_send_messages"] is True
    assert info["permissions"]["can_send_media_messages"] is True
    assert info["accent_color_id"] == (-cid - 1_000_000_000_000) % 7
    parsed = ChatFullInfo.model_validate(info)
    assert (parsed.id, parsed.accepted_gift_types.unique_gifts) == (cid, False)
    assert PtbChatFullInfo.de_json(info, None).title == "Club"
    await wire.say("hello")
    private = await wire.ok("getChat", chat_id=ALICE)
    assert (private["type"], private["first_name"], private["username"]) == ("private", "Alice", "alice")
    assert private["accepted_gift_types"]["unlimited_gifts"] is True
    ChatFullInfo.model_validate(private)
    group = await wire.ok("getChat", chat_id=await make_chat(wire, type="group", admins=[BOT]))
    assert (group["type"], group["all_members_are_administrators"]) == ("group", False)
    ChatFullInfo.model_validate(group)


async def test_get_chat_refuses_unknown_chats_and_closed_ones_it_is_not_in(wire: Wire) -> None:
    await wire.refused("getChat", 400, "Bad Request: chat not found", chat_id=-1000000000777)
    await wire.refused("getChat", 400, "Bad Request: chat not found", chat_id=4343)  # bob never wrote to the bot
    cid = await make_chat(wire, members=["bob"])
    await wire.refused("getChat", 403, "Forbidden: bot is not a member of the supergroup chat", chat_id=cid)
    public = await make_chat(wire, username="open_club")
    assert (await wire.ok("getChat", chat_id=public))["username"] == "open_club"  # a public chat reads from outside
    for name in ("@open_club", "@Open_Club"):  # by its username, in any letter case (searchPublicChat)
        assert (await wire.ok("getChat", chat_id=name))["id"] == public
    await wire.refused("getChat", 400, "Bad Request: chat not found", chat_id="@closed_club")
    await wire.refused("getChat", 400, "Bad Request: chat not found", chat_id="open_club")  # no @: to_integer is 0


async def test_set_chat_title_posts_the_change_for_the_other_bots(wire: Wire) -> None:
    cid = await club(wire)
    forget_updates(wire, MOD)
    await wire.refused("setChatTitle", 400, "Bad Request: title must be non-empty", chat_id=cid, title=" \n ")
    words = "Bad Request: not enough rights to change chat title"
    await wire.refused("setChatTitle", 400, words, token=MOD_TOKEN, chat_id=cid, title="Mine")
    assert await wire.ok("setChatTitle", chat_id=cid, title="Book club") is True
    assert await wire.ok("setChatTitle", chat_id=cid, title="Book club") is True  # unchanged: nothing posted
    got = [u["message"] for u in wire.stand.bots[MOD].pending]
    assert [(m["from"]["id"], m["new_chat_title"]) for m in got] == [(BOT, "Book club")]
    assert (await wire.ok("getChat", chat_id=cid))["title"] == "Book club"
    await wire.say("hello")
    private = "Bad Request: can't change private chat title"
    await wire.refused("setChatTitle", 400, private, chat_id=ALICE, title="x")


async def describe(wire: Wire, token: str | None = None, **params: object) -> tuple[int, str]:
    status, body = await wire.call("setChatDescription", token=token, **params)
    return status, str(body.get("description", body.get("result")))


async def test_set_chat_description_refuses_no_change_and_cuts_long_texts(wire: Wire) -> None:
    cid = await club(wire, description="old")
    unchanged = "Bad Request: chat description is not modified"
    assert await describe(wire, chat_id=cid, description="old") == (400, unchanged)
    # td cuts a description to the server's 255 characters (strip_empty_characters) before sending it
    assert await describe(wire, chat_id=cid, description="d" * 256) == (200, "True")
    assert (await wire.ok("getChat", chat_id=cid))["description"] == "d" * 255
    words = "Bad Request: not enough rights to set chat description"
    assert await describe(wire, MOD_TOKEN, chat_id=cid, description="new") == (400, words)
    assert await wire.ok("setChatDescription", chat_id=cid, description="new") is True
    assert (await wire.ok("getChat", chat_id=cid))["description"] == "new"
    await wire.ok("setChatDescription", chat_id=cid)
    assert "description" not in await wire.ok("getChat", chat_id=cid)


async def test_chat_photo_is_uploaded_shown_and_deleted(wire: Wire) -> None:
    cid = await club(wire)
    await wire.refused("setChatPhoto", 400, "Bad Request: there is no photo in the request", chat_id=cid)
    uploaded = "Bad Request: photo must be uploaded as an InputFile"
    await wire.refused("setChatPhoto", 400, uploaded, chat_id=cid, photo="file_1")
    status, body = await upload(wire, "setChatPhoto", "photo", "x.txt", b"not an image", chat_id=cid)
    assert (status, body["description"]) == (400, "Bad Request: IMAGE_PROCESS_FAILED")
    status, body = await upload(wire, "setChatPhoto", "photo", "club.png", image_bytes("PNG", (64, 64)), chat_id=cid)
    assert (status, body["result"]) == (200, True)
    photo = (await wire.ok("getChat", chat_id=cid))["photo"]
    assert (await wire.ok("getFile", file_id=photo["big_file_id"]))["file_size"] > 0
    service = [m["service"] for m in await messages(wire, cid) if "service" in m][-1]
    assert service["new_chat_photo"][0]["width"] == 64
    assert await wire.ok("deleteChatPhoto", chat_id=cid) is True
    assert "photo" not in await wire.ok("getChat", chat_id=cid)
    await wire.refused("deleteChatPhoto", 400, "Bad Request: CHAT_NOT_MODIFIED", chat_id=cid)
    words = "Bad Request: not enough rights to change chat photo"
    await wire.refused("deleteChatPhoto", 400, words, token=MOD_TOKEN, chat_id=cid)


async def test_set_chat_permissions_changes_the_defaults_once(wire: Wire) -> None:
    cid = await club(wire)
    perms = '{"can_send_messages": true, "can_send_polls": false}'
    assert await wire.ok("setChatPermissions", chat_id=cid, permissions=perms) is True
    shown = (await wire.ok("getChat", chat_id=cid))["permissions"]
    assert (shown["can_send_messages"], shown["can_send_photos"], shown["can_invite_users"]) == (True, False, False)
    await wire.refused("setChatPermissions", 400, "Bad Request: CHAT_NOT_MODIFIED", chat_id=cid, permissions=perms)
    words = "Bad Request: not enough rights to change chat permissions"
    await wire.refused("setChatPermissions", 400, words, token=MOD_TOKEN, chat_id=cid, permissions="{}")
    channel = await make_chat(wire, type="channel", admins=[BOT])
    refused = "Bad Request: can't change channel chat permissions"
    await wire.refused("setChatPermissions", 400, refused, chat_id=channel, permissions=perms)


async def test_pins_post_a_service_message_and_show_in_get_chat(wire: Wire) -> None:
    cid = await club(wire)
    said = await sim_ok(wire, "/sim/message", {"text": "rules: be kind", "chat_id": cid})
    mid = said["message_id"]
    await wire.refused("pinChatMessage", 400, "Bad Request: message to pin not found", chat_id=cid, message_id=999)
    words = "Bad Request: not enough rights to manage pinned messages in the chat"
    await wire.refused("pinChatMessage", 400, words, token=MOD_TOKEN, chat_id=cid, message_id=mid)
    await wire.refused(
        "pinChatMessage", 400, "Bad Request: service messages can't be pinned", chat_id=cid, message_id=1
    )
    forget_updates(wire, MOD)
    assert await wire.ok("pinChatMessage", chat_id=cid, message_id=mid) is True
    pinned = wire.stand.bots[MOD].pending[0]["message"]["pinned_message"]
    assert (pinned["message_id"], pinned["text"]) == (mid, "rules: be kind")
    assert (await wire.ok("getChat", chat_id=cid))["pinned_message"]["message_id"] == mid
    assert await wire.ok("unpinChatMessage", chat_id=cid) is True
    assert "pinned_message" not in await wire.ok("getChat", chat_id=cid)
    await wire.refused("unpinChatMessage", 400, "Bad Request: message to unpin not found", chat_id=cid)
    await wire.ok("pinChatMessage", chat_id=cid, message_id=mid)
    assert await wire.ok("unpinAllChatMessages", chat_id=cid) is True
    assert wire.stand.world.chats[cid].pinned == []
    await wire.say("hi")
    assert await wire.ok("pinChatMessage", chat_id=ALICE, message_id=1) is True  # anyone may pin in a private chat
