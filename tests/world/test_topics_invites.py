"""Forum topics, invite links and join requests through the wire."""

from __future__ import annotations

from aiogram.types import ChatInviteLink, ForumTopic, Sticker

from tests.conftest import Wire
from tests.world.helpers import ALICE, BOB, BOT, MOD, MOD_TOKEN, add_bot, forget_updates, make_chat, sim_ok
from tgfake.world.people import user_id_for


async def forum(wire: Wire, **body: object) -> int:
    await add_bot(wire, can_read_all_group_messages=True)
    return await make_chat(wire, is_forum=True, members=["bob", MOD], admins=[BOT], **body)


async def test_a_bot_opens_edits_closes_and_deletes_a_topic(wire: Wire) -> None:
    cid = await forum(wire)
    forget_updates(wire, MOD)
    topic = await wire.ok("createForumTopic", chat_id=cid, name="Releases", icon_color=0xFFD67E)
    ForumTopic.model_validate(topic)
    thread = topic["message_thread_id"]
    assert (topic["name"], topic["icon_color"]) == ("Releases", 0xFFD67E)
    await wire.ok("editForumTopic", chat_id=cid, message_thread_id=thread, name="Changelog")
    await wire.refused(
        "editForumTopic",
        400,
        "Bad Request: TOPIC_NOT_MODIFIED",
        chat_id=cid,
        message_thread_id=thread,
        name="Changelog",
    )
    await wire.ok("closeForumTopic", chat_id=cid, message_thread_id=thread)
    await wire.refused("closeForumTopic", 400, "Bad Request: TOPIC_NOT_MODIFIED", chat_id=cid, message_thread_id=thread)
    await wire.ok("reopenForumTopic", chat_id=cid, message_thread_id=thread)
    got = [u["message"] for u in wire.stand.bots[MOD].pending]
    assert [(m.get("message_thread_id"), m.get("is_topic_message")) for m in got] == [(thread, True)] * 4
    assert [
        next(
            k
            for k in ("forum_topic_created", "forum_topic_edited", "forum_topic_closed", "forum_topic_reopened")
            if k in m
        )
        for m in got
    ] == [
        "forum_topic_created",
        "forum_topic_edited",
        "forum_topic_closed",
        "forum_topic_reopened",
    ]
    assert got[1]["forum_topic_edited"] == {"name": "Changelog"}
    await sim_ok(wire, "/sim/message", {"text": "v2 is out", "chat_id": cid, "message_thread_id": thread})
    assert await wire.ok("deleteForumTopic", chat_id=cid, message_thread_id=thread) is True
    assert thread not in wire.stand.world.chats[cid].topics
    await wire.refused("closeForumTopic", 400, "Bad Request: TOPIC_ID_INVALID", chat_id=cid, message_thread_id=thread)


async def test_topic_refusals(wire: Wire) -> None:
    cid = await forum(wire)
    plain = await make_chat(wire, members=[BOT], admins=[BOT])
    await wire.refused("createForumTopic", 400, "Bad Request: the chat is not a forum", chat_id=plain, name="x")
    await wire.refused("createForumTopic", 400, "Bad Request: name must be non-empty", chat_id=cid, name="  ")
    bad_color = "Bad Request: invalid icon color specified"
    await wire.refused("createForumTopic", 400, bad_color, chat_id=cid, name="x", icon_color=0x1000000)
    no_id = "Bad Request: invalid forum topic identifier specified"
    await wire.refused("closeForumTopic", 400, no_id, chat_id=cid)
    await wire.refused("editForumTopic", 400, no_id, chat_id=cid, message_thread_id=-5, name="x")
    await wire.refused(
        "editForumTopic", 400, "Bad Request: TOPIC_ID_INVALID", chat_id=cid, message_thread_id=77, name="y"
    )
    create = "Bad Request: not enough rights to create a topic"
    await wire.refused("createForumTopic", 400, create, token=MOD_TOKEN, chat_id=cid, name="mine")
    topic = await sim_ok(wire, f"/sim/chats/{cid}/topics", {"name": "Alice's"})
    edit = "Bad Request: not enough rights to edit the topic"
    thread = topic["message_thread_id"]
    await wire.refused("editForumTopic", 400, edit, token=MOD_TOKEN, chat_id=cid, message_thread_id=thread, name="z")
    close = "Bad Request: not enough rights to close or open the topic"
    await wire.refused("closeForumTopic", 400, close, token=MOD_TOKEN, chat_id=cid, message_thread_id=thread)
    delete = "Bad Request: not enough rights to delete the topic"
    await wire.refused("deleteForumTopic", 400, delete, token=MOD_TOKEN, chat_id=cid, message_thread_id=thread)


async def test_a_member_bot_may_open_topics_when_the_chat_allows_and_manage_its_own(wire: Wire) -> None:
    cid = await forum(wire)
    await wire.ok(
        "setChatPermissions", chat_id=cid, permissions='{"can_send_messages": true, "can_manage_topics": true}'
    )
    topic = await wire.ok("createForumTopic", token=MOD_TOKEN, chat_id=cid, name="Mod's corner")
    thread = topic["message_thread_id"]
    assert await wire.ok("closeForumTopic", token=MOD_TOKEN, chat_id=cid, message_thread_id=thread) is True
    assert await wire.ok("deleteForumTopic", token=MOD_TOKEN, chat_id=cid, message_thread_id=thread) is True


async def test_the_general_topic_is_renamed_closed_hidden_and_shown_again(wire: Wire) -> None:
    cid = await forum(wire)
    forget_updates(wire, MOD)
    await wire.ok("editGeneralForumTopic", chat_id=cid, name="Lobby")
    await wire.ok("closeGeneralForumTopic", chat_id=cid)
    await wire.ok("reopenGeneralForumTopic", chat_id=cid)
    await wire.ok("hideGeneralForumTopic", chat_id=cid)
    await wire.refused("hideGeneralForumTopic", 400, "Bad Request: TOPIC_NOT_MODIFIED", chat_id=cid)
    await wire.ok("reopenGeneralForumTopic", chat_id=cid)  # reopening shows it again
    general = wire.stand.world.chats[cid].general
    assert (general.name, general.closed, general.hidden) == ("Lobby", False, False)
    got = [u["message"] for u in wire.stand.bots[MOD].pending]
    assert all("message_thread_id" not in m for m in got)
    assert [next(k for k in m if k.startswith(("forum_topic", "general_forum"))) for m in got] == [
        "forum_topic_edited",
        "forum_topic_closed",
        "forum_topic_reopened",
        "general_forum_topic_hidden",
        "forum_topic_reopened",
        "general_forum_topic_unhidden",
    ]
    words = "Bad Request: not enough rights to edit the topic"
    await wire.refused("editGeneralForumTopic", 400, words, token=MOD_TOKEN, chat_id=cid, name="Mine")


async def test_topic_pins_are_unpinned_per_topic(wire: Wire) -> None:
    cid = await forum(wire)
    thread = (await wire.ok("createForumTopic", chat_id=cid, name="News"))["message_thread_id"]
    in_topic = await sim_ok(wire, "/sim/message", {"text": "news", "chat_id": cid, "message_thread_id": thread})
    in_general = await sim_ok(wire, "/sim/message", {"text": "hello", "chat_id": cid})
    await wire.ok("pinChatMessage", chat_id=cid, message_id=in_topic["message_id"])
    await wire.ok("pinChatMessage", chat_id=cid, message_id=in_general["message_id"])
    await wire.ok("unpinAllForumTopicMessages", chat_id=cid, message_thread_id=thread)
    assert wire.stand.world.chats[cid].pinned == [in_general["message_id"]]
    await wire.ok("unpinAllGeneralForumTopicMessages", chat_id=cid)
    assert wire.stand.world.chats[cid].pinned == []


async def test_icon_stickers_are_stickers(wire: Wire) -> None:
    stickers = await wire.ok("getForumTopicIconStickers")
    assert [Sticker.model_validate(s).type for s in stickers] == ["custom_emoji"] * 3
    cid = await forum(wire)
    emoji = stickers[0]["custom_emoji_id"]
    topic = await wire.ok("createForumTopic", chat_id=cid, name="Ideas", icon_custom_emoji_id=emoji)
    assert topic["icon_custom_emoji_id"] == emoji


async def test_invite_links_are_made_edited_and_revoked(wire: Wire) -> None:
    cid = await forum(wire)
    primary = await wire.ok("exportChatInviteLink", chat_id=cid)
    assert primary.startswith("https://t.me/+")
    assert len(primary) == len("https://t.me/+") + 16
    assert (await wire.ok("getChat", chat_id=cid))["invite_link"] == primary
    second = await wire.ok("exportChatInviteLink", chat_id=cid)
    assert second != primary
    link = await wire.ok("createChatInviteLink", chat_id=cid, name="Friends", member_limit=10, expire_date=1800000000)
    parsed = ChatInviteLink.model_validate(link)
    assert (parsed.name, parsed.member_limit, parsed.is_primary, parsed.creator.id) == ("Friends", 10, False, BOT)
    edited = await wire.ok(
        "editChatInviteLink", chat_id=cid, invite_link=link["invite_link"], creates_join_request="true"
    )
    assert (edited["creates_join_request"], "member_limit" in edited, "name" in edited) == (True, False, False)
    revoked = await wire.ok("revokeChatInviteLink", chat_id=cid, invite_link=second)
    assert (revoked["is_revoked"], revoked["is_primary"]) == (True, False)
    assert (await wire.ok("getChat", chat_id=cid))["invite_link"] not in (primary, second)
    paid = await wire.ok(
        "createChatSubscriptionInviteLink", chat_id=cid, subscription_period=2592000, subscription_price=5
    )
    assert (paid["subscription_period"], paid["subscription_price"]) == (2592000, 5)
    renamed = await wire.ok("editChatSubscriptionInviteLink", chat_id=cid, invite_link=paid["invite_link"], name="VIP")
    assert renamed["name"] == "VIP"


async def test_invite_link_refusals(wire: Wire) -> None:
    cid = await forum(wire)
    limit = "Bad Request: member limit can't be specified for links requiring administrator approval"
    await wire.refused("createChatInviteLink", 400, limit, chat_id=cid, member_limit=5, creates_join_request="true")
    await wire.refused("editChatInviteLink", 400, "Bad Request: invite link must be non-empty", chat_id=cid)
    unknown = "https://t.me/+AAAAAAAAAAAAAAAA"
    await wire.refused(
        "revokeChatInviteLink", 400, "Bad Request: INVITE_HASH_EXPIRED", chat_id=cid, invite_link=unknown
    )
    pricing = "Bad Request: invalid subscription pricing specified"
    await wire.refused("createChatSubscriptionInviteLink", 400, pricing, chat_id=cid, subscription_price=5)
    words = "Bad Request: not enough rights to manage chat invite link"
    await wire.refused("exportChatInviteLink", 400, words, token=MOD_TOKEN, chat_id=cid)
    await wire.say("hi", bot="tgfake_bot")  # the moderator called last: name the bot alice writes to
    private = "Bad Request: can't invite members to a private chat"
    await wire.refused("exportChatInviteLink", 400, private, chat_id=ALICE)


async def test_join_requests_are_approved_and_declined(wire: Wire) -> None:
    cid = await forum(wire, join_by_request=True)
    wire.stand.bots[BOT].set_allowed_updates(["message", "chat_member", "chat_join_request"])
    await sim_ok(wire, f"/sim/chats/{cid}/join-request", {"user": "dave", "bio": "hi"})
    await sim_ok(wire, f"/sim/chats/{cid}/join-request", {"user": "eve"})
    request = next(u["chat_join_request"] for u in wire.stand.bots[BOT].pending if "chat_join_request" in u)
    dave = request["from"]["id"]
    forget_updates(wire)
    assert await wire.ok("approveChatJoinRequest", chat_id=cid, user_id=dave) is True
    update = wire.stand.bots[BOT].pending[0]["chat_member"]
    assert (update["new_chat_member"]["status"], update["via_join_request"], update["from"]["id"]) == (
        "member",
        True,
        dave,
    )
    assert "new_chat_members" in wire.stand.bots[BOT].pending[1]["message"]
    eve = next(uid for uid in wire.stand.world.chats[cid].join_requests)
    assert await wire.ok("declineChatJoinRequest", chat_id=cid, user_id=eve) is True
    assert (await wire.ok("getChatMember", chat_id=cid, user_id=eve))["status"] == "left"
    missing = "Bad Request: HIDE_REQUESTER_MISSING"
    await wire.refused("approveChatJoinRequest", 400, missing, chat_id=cid, user_id=eve)
    words = "Bad Request: not enough rights to manage chat join requests"
    await wire.refused("declineChatJoinRequest", 400, words, token=MOD_TOKEN, chat_id=cid, user_id=BOB)
    await wire.refused("approveChatJoinRequest", 400, "Bad Request: invalid user_id specified", chat_id=cid)


async def test_people_join_by_a_bots_invite_link_until_it_expires_or_fills(wire: Wire) -> None:
    cid = await forum(wire)
    wire.stand.bots[BOT].set_allowed_updates(["message", "chat_member", "chat_join_request"])
    now = wire.stand.unix_now()
    link = await wire.ok("createChatInviteLink", chat_id=cid, member_limit=1, expire_date=now + 45)
    forget_updates(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/join", {"user": "dave", "invite_link": link["invite_link"]})
    update = wire.stand.bots[BOT].pending[0]["chat_member"]
    assert (update["new_chat_member"]["status"], update["from"]["username"]) == ("member", "dave")
    assert update["invite_link"] == link  # the bot's own link, unmasked
    assert "via_join_request" not in update
    full = f"invite link {link['invite_link']} has reached its member limit of 1"
    assert await wire.sim("POST", f"/sim/chats/{cid}/join", {"user": "eve", "invite_link": link["invite_link"]}) == (
        409, {"error": full}
    )  # fmt: skip
    open_link = await wire.ok("createChatInviteLink", chat_id=cid, expire_date=now + 45)
    await sim_ok(wire, "/sim/clock", {"advance": 45})
    expired = f"invite link {open_link['invite_link']} expired at {now + 45}"
    assert await wire.sim(
        "POST", f"/sim/chats/{cid}/join", {"user": "eve", "invite_link": open_link["invite_link"]}
    ) == (409, {"error": expired})  # fmt: skip
    unknown = "https://t.me/+AAAAAAAAAAAAAAAA"
    assert await wire.sim("POST", f"/sim/chats/{cid}/join", {"user": "eve", "invite_link": unknown}) == (
        404, {"error": f"chat {cid} has no invite link {unknown}"}
    )  # fmt: skip
    revoked = await wire.ok("revokeChatInviteLink", chat_id=cid, invite_link=link["invite_link"])
    assert await wire.sim("POST", f"/sim/chats/{cid}/join", {"user": "eve", "invite_link": revoked["invite_link"]}) == (
        409, {"error": f"invite link {revoked['invite_link']} is revoked"}
    )  # fmt: skip
    assert (await wire.ok("getChatMember", chat_id=cid, user_id=user_id_for("eve")))["status"] == "left"


async def test_a_link_that_creates_join_requests_sends_a_request_naming_it(wire: Wire) -> None:
    cid = await forum(wire)
    wire.stand.bots[BOT].set_allowed_updates(["message", "chat_member", "chat_join_request"])
    link = await wire.ok("createChatInviteLink", chat_id=cid, name="Apply", creates_join_request="true")
    ask = f"this link asks for approval: POST /sim/chats/{cid}/join-request with it"
    assert await wire.sim("POST", f"/sim/chats/{cid}/join", {"user": "dave", "invite_link": link["invite_link"]}) == (
        409, {"error": ask}
    )  # fmt: skip
    forget_updates(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/join-request", {"user": "dave", "invite_link": link["invite_link"]})
    request = wire.stand.bots[BOT].pending[0]["chat_join_request"]
    assert request["invite_link"] == link
    listed = await wire.ok("editChatInviteLink", chat_id=cid, invite_link=link["invite_link"], name="Apply")
    assert listed["pending_join_request_count"] == 1
    forget_updates(wire)
    assert await wire.ok("approveChatJoinRequest", chat_id=cid, user_id=user_id_for("dave")) is True
    update = wire.stand.bots[BOT].pending[0]["chat_member"]
    assert (update["new_chat_member"]["status"], update["invite_link"]["invite_link"]) == (
        "member", link["invite_link"]
    )  # fmt: skip
    plain = await wire.ok("createChatInviteLink", chat_id=cid)
    direct = f"this link lets people in without approval: POST /sim/chats/{cid}/join with it"
    assert await wire.sim(
        "POST", f"/sim/chats/{cid}/join-request", {"user": "eve", "invite_link": plain["invite_link"]}
    ) == (409, {"error": direct})  # fmt: skip


async def test_approving_a_member_who_asked_nothing_is_user_already_participant(wire: Wire) -> None:
    cid = await forum(wire, join_by_request=True)
    await sim_ok(wire, f"/sim/chats/{cid}/join-request", {"user": "dave"})
    participant = "Bad Request: USER_ALREADY_PARTICIPANT"
    await wire.refused("approveChatJoinRequest", 400, participant, chat_id=cid, user_id=ALICE)
    missing = "Bad Request: HIDE_REQUESTER_MISSING"
    await wire.refused("declineChatJoinRequest", 400, missing, chat_id=cid, user_id=ALICE)
    await wire.refused("approveChatJoinRequest", 400, missing, chat_id=cid, user_id=987654)
    dave = next(iter(wire.stand.world.chats[cid].join_requests))
    assert await wire.ok("approveChatJoinRequest", chat_id=cid, user_id=dave) is True
