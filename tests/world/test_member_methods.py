"""getChatMember, bans, restrictions, promotions and titles through the wire: each refusal's status and words."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Wire
from tests.world.helpers import ALICE, BOB, BOT, CAROL, MOD, MOD_TOKEN, add_bot, kinds, make_chat, sim_ok, status_of
from tgfake.clock import ManualClock


async def club(wire: Wire, **body: Any) -> int:
    """A supergroup owned by alice with bob and carol in it and the default bot as its administrator."""
    await add_bot(wire)
    return await make_chat(wire, members=["bob", "carol", MOD], admins=[BOT], **body)


async def test_get_chat_member_answers_each_status_and_refuses_strangers(wire: Wire) -> None:
    cid = await club(wire)
    await sim_ok(wire, "/sim/message", {"text": "hi", "user_id": 4646, "username": "eve"})  # eve talks to the bot
    assert (await status_of(wire, cid, ALICE))["status"] == "creator"
    assert (await status_of(wire, cid, BOB))["status"] == "member"
    assert (await status_of(wire, cid, 4646))["status"] == "left"  # known to the bot, never in the club
    me = await status_of(wire, cid, BOT)
    assert (me["status"], me["can_be_edited"], me["can_restrict_members"]) == ("administrator", False, True)
    await wire.refused("getChatMember", 400, "Bad Request: member not found", chat_id=cid, user_id=987654)
    await wire.refused("getChatMember", 400, "Bad Request: invalid user_id specified", chat_id=cid, user_id="x")
    await wire.refused("getChatMember", 400, "Bad Request: chat not found", chat_id=-1009, user_id=BOB)
    assert await wire.ok("getChatMemberCount", chat_id=cid) == 5


async def test_private_chats_have_two_members_and_no_administrators(wire: Wire) -> None:
    await wire.say("hello")
    assert (await status_of(wire, ALICE, ALICE))["status"] == "member"
    assert (await status_of(wire, ALICE, BOT))["status"] == "member"
    await wire.refused("getChatMember", 400, "Bad Request: member not found", chat_id=ALICE, user_id=BOB)
    assert await wire.ok("getChatMemberCount", chat_id=ALICE) == 2
    await wire.refused(
        "getChatAdministrators", 400, "Bad Request: there are no administrators in the private chat", chat_id=ALICE
    )
    await wire.refused(
        "banChatMember", 400, "Bad Request: can't ban members in private chats", chat_id=ALICE, user_id=1
    )
    await wire.refused("leaveChat", 400, "Bad Request: can't leave private chats", chat_id=ALICE)


async def test_administrators_list_the_owner_first_and_other_bots_only_when_asked(wire: Wire) -> None:
    await add_bot(wire)
    cid = await make_chat(wire, members=["bob"], admins=[BOT, MOD, "carol"])
    admins = await wire.ok("getChatAdministrators", chat_id=cid)
    assert [(a["user"]["id"], a["status"]) for a in admins] == [
        (ALICE, "creator"),
        (BOT, "administrator"),
        (CAROL, "administrator"),
    ]
    with_bots = await wire.ok("getChatAdministrators", chat_id=cid, return_bots="true")
    assert [a["user"]["id"] for a in with_bots] == [ALICE, BOT, MOD, CAROL]


async def test_ban_removes_a_member_until_a_date_and_tells_the_admin_bots(wire: Wire, clock: ManualClock) -> None:
    cid = await club(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/promote", {"user": MOD})
    wire.stand.bots[MOD].set_allowed_updates(["message", "chat_member"])
    wire.stand.bots[MOD].pending.clear()
    now = int(clock.now())
    assert await wire.ok("banChatMember", chat_id=cid, user_id=BOB, until_date=now + 86400) is True
    bob = await status_of(wire, cid, BOB)
    assert (bob["status"], bob["until_date"]) == ("kicked", now + 86400)
    assert await kinds(wire, MOD) == ["chat_member", "message"]
    update = wire.stand.bots[MOD].pending[0]["chat_member"]
    assert (update["from"]["id"], update["new_chat_member"]["status"]) == (BOT, "kicked")
    assert wire.stand.bots[MOD].pending[1]["message"]["left_chat_member"]["id"] == BOB
    await wire.ok("banChatMember", chat_id=cid, user_id=CAROL, until_date=now + 10)  # under 30 s: forever
    assert (await status_of(wire, cid, CAROL))["until_date"] == 0
    clock.advance(86401)
    assert (await status_of(wire, cid, BOB))["status"] == "left"  # the ban ran out


@pytest.mark.parametrize(
    ("user_id", "description"),
    [
        (ALICE, "Bad Request: can't remove chat owner"),
        (BOT, "Bad Request: can't restrict self"),
        (CAROL, "Bad Request: user is an administrator of the chat"),
        (987654, "Bad Request: PARTICIPANT_ID_INVALID"),
    ],
)
async def test_ban_refusals_in_a_supergroup(wire: Wire, user_id: int, description: str) -> None:
    cid = await club(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/promote", {"user": "carol"})  # promoted by alice, not by the bot
    await wire.refused("banChatMember", 400, description, chat_id=cid, user_id=user_id)


async def test_a_bot_without_the_right_or_outside_the_chat_cannot_ban(wire: Wire) -> None:
    cid = await club(wire)
    words = "Bad Request: not enough rights to restrict/unrestrict chat member"
    await wire.refused("banChatMember", 400, words, token=MOD_TOKEN, chat_id=cid, user_id=BOB)
    await sim_ok(wire, f"/sim/chats/{cid}/remove", {"user": MOD})
    outside = "Forbidden: bot was kicked from the supergroup chat"
    await wire.refused("banChatMember", 403, outside, token=MOD_TOKEN, chat_id=cid, user_id=BOB)


async def test_basic_groups_only_remove_and_want_an_administrator(wire: Wire) -> None:
    await add_bot(wire)
    cid = await make_chat(wire, type="group", members=["bob", MOD], admins=[BOT])
    required = "Bad Request: CHAT_ADMIN_REQUIRED"
    await wire.refused("banChatMember", 400, required, token=MOD_TOKEN, chat_id=cid, user_id=BOB)
    await wire.refused("banChatMember", 400, required, chat_id=cid, user_id=ALICE)
    assert await wire.ok("banChatMember", chat_id=cid, user_id=BOB) is True
    assert (await status_of(wire, cid, BOB))["status"] == "left"  # a basic group keeps no ban list
    await wire.refused("banChatMember", 400, "Bad Request: USER_NOT_PARTICIPANT", chat_id=cid, user_id=BOB)
    only = "Bad Request: method is available for supergroup and channel chats only"
    await wire.refused("unbanChatMember", 400, only, chat_id=cid, user_id=BOB)
    await wire.refused("promoteChatMember", 400, only, chat_id=cid, user_id=BOB)
    only_super = "Bad Request: method is available only for supergroups"
    await wire.refused("restrictChatMember", 400, only_super, chat_id=cid, user_id=BOB)


async def test_unban_leaves_the_person_free_to_join_and_only_if_banned_spares_members(wire: Wire) -> None:
    cid = await club(wire)
    assert await wire.ok("unbanChatMember", chat_id=cid, user_id=BOB, only_if_banned="true") is True
    assert (await status_of(wire, cid, BOB))["status"] == "member"
    await wire.ok("banChatMember", chat_id=cid, user_id=BOB)
    await wire.ok("unbanChatMember", chat_id=cid, user_id=BOB, only_if_banned="true")
    assert (await status_of(wire, cid, BOB))["status"] == "left"
    await sim_ok(wire, f"/sim/chats/{cid}/join", {"user": "bob"})
    await wire.ok("unbanChatMember", chat_id=cid, user_id=CAROL)  # without only_if_banned: removed too
    assert (await status_of(wire, cid, CAROL))["status"] == "left"
    assert (await status_of(wire, cid, BOB))["status"] == "member"


async def test_restrict_sets_permissions_until_a_date_and_all_true_lifts_it(wire: Wire, clock: ManualClock) -> None:
    cid = await club(wire)
    until = int(clock.now()) + 3600
    perms = '{"can_send_messages": true}'
    await wire.ok("restrictChatMember", chat_id=cid, user_id=BOB, permissions=perms, until_date=until)
    bob = await status_of(wire, cid, BOB)
    assert (bob["status"], bob["is_member"], bob["until_date"]) == ("restricted", True, until)
    assert (bob["can_send_messages"], bob["can_send_photos"], bob["can_react_to_messages"]) == (True, False, True)
    everything = (
        '{"can_send_messages":true,"can_send_audios":true,"can_send_documents":true,"can_send_photos":true,'
        '"can_send_videos":true,"can_send_video_notes":true,"can_send_voice_notes":true,"can_send_polls":true,'
        '"can_send_other_messages":true,"can_add_web_page_previews":true,"can_react_to_messages":true,'
        '"can_edit_tag":true,"can_change_info":true,"can_invite_users":true,"can_pin_messages":true,'
        '"can_manage_topics":true}'
    )
    await wire.ok("restrictChatMember", chat_id=cid, user_id=BOB, permissions=everything)
    assert (await status_of(wire, cid, BOB))["status"] == "member"
    await wire.ok("restrictChatMember", chat_id=cid, user_id=CAROL, permissions="{}", until_date=until)
    clock.advance(3601)
    assert (await status_of(wire, cid, CAROL))["status"] == "member"  # the restriction ran out


async def test_legacy_restrictions_and_the_media_rule(wire: Wire) -> None:
    cid = await club(wire)
    await wire.ok("restrictChatMember", chat_id=cid, user_id=BOB, permissions='{"can_send_other_messages": true}')
    bob = await status_of(wire, cid, BOB)
    assert (bob["can_send_messages"], bob["can_send_photos"], bob["can_send_polls"]) == (True, True, False)
    independent = {"use_independent_chat_permissions": "true"}
    await wire.ok(
        "restrictChatMember", chat_id=cid, user_id=CAROL, permissions='{"can_send_photos": true}', **independent
    )
    carol = await status_of(wire, cid, CAROL)
    assert (carol["can_send_messages"], carol["can_send_photos"]) == (False, True)
    await wire.ok("restrictChatMember", chat_id=cid, user_id=CAROL, can_send_messages="true")
    assert (await status_of(wire, cid, CAROL))["can_send_documents"] is False


@pytest.mark.parametrize(
    ("permissions", "description"),
    [
        ("{", "Bad Request: can't parse permissions JSON object"),
        ("[]", "Bad Request: object expected as permissions"),
        (
            '{"can_send_polls": "yes"}',
            'Bad Request: can\'t parse chat permissions: Field "can_send_polls" must be of type Boolean',
        ),
    ],
)
async def test_permissions_that_do_not_parse_are_refused_before_the_chat(
    permissions: str, description: str, wire: Wire
) -> None:
    await wire.refused("restrictChatMember", 400, description, chat_id=-1009, user_id=BOB, permissions=permissions)
    await wire.refused("setChatPermissions", 400, description, chat_id=-1009, permissions=permissions)


@pytest.mark.parametrize(
    ("user_id", "description"),
    [
        (ALICE, "Bad Request: can't remove chat owner"),
        (BOT, "Bad Request: can't restrict self"),
        (987654, "Bad Request: member not found"),
        (CAROL, "Bad Request: user is an administrator of the chat"),
    ],
)
async def test_restrict_refusals(wire: Wire, user_id: int, description: str) -> None:
    cid = await club(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/promote", {"user": "carol"})
    await wire.refused("restrictChatMember", 400, description, chat_id=cid, user_id=user_id, permissions="{}")


async def test_promote_grants_rights_the_bot_holds_and_all_false_demotes(wire: Wire) -> None:
    cid = await club(wire)
    await wire.ok("promoteChatMember", chat_id=cid, user_id=BOB, can_delete_messages="true", can_pin_messages="true")
    bob = await status_of(wire, cid, BOB)
    assert (bob["status"], bob["can_be_edited"], bob["can_delete_messages"], bob["can_restrict_members"]) == (
        "administrator",
        True,
        True,
        False,
    )
    await wire.ok("setChatAdministratorCustomTitle", chat_id=cid, user_id=BOB, custom_title="Keeper")
    assert (await status_of(wire, cid, BOB))["custom_title"] == "Keeper"
    await wire.ok("promoteChatMember", chat_id=cid, user_id=BOB)
    assert (await status_of(wire, cid, BOB))["status"] == "member"
    assert await wire.ok("promoteChatMember", chat_id=cid, user_id=CAROL) is True  # already a member: no change


async def test_promote_refusals(wire: Wire) -> None:
    cid = await club(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/promote", {"user": "carol"})
    right = {"can_delete_messages": "true"}
    await wire.refused("promoteChatMember", 400, "Bad Request: can't remove chat owner", chat_id=cid, user_id=ALICE)
    await wire.refused("promoteChatMember", 400, "Bad Request: can't promote self", chat_id=cid, user_id=BOT, **right)
    await wire.refused("promoteChatMember", 400, "Bad Request: CHAT_ADMIN_REQUIRED", chat_id=cid, user_id=CAROL)
    await wire.refused(
        "promoteChatMember", 400, "Bad Request: not enough rights", token=MOD_TOKEN, chat_id=cid, user_id=BOB, **right
    )
    await wire.refused("promoteChatMember", 400, "Bad Request: PARTICIPANT_ID_INVALID", chat_id=cid, user_id=987654)
    await sim_ok(wire, "/sim/message", {"text": "hi", "user_id": 4646, "username": "eve"})
    await wire.refused(
        "promoteChatMember", 400, "Bad Request: USER_NOT_PARTICIPANT", chat_id=cid, user_id=4646, **right
    )
    await wire.refused(
        "promoteChatMember", 400, "Bad Request: bots can't add new chat members", chat_id=cid, user_id=4646
    )
    # an administrator the bot made with only some rights grants only those
    await wire.ok("promoteChatMember", chat_id=cid, user_id=MOD, can_promote_members="true")
    await wire.refused(
        "promoteChatMember", 400, "Bad Request: RIGHT_FORBIDDEN", token=MOD_TOKEN, chat_id=cid, user_id=BOB, **right
    )
    await wire.ok("promoteChatMember", token=MOD_TOKEN, chat_id=cid, user_id=BOB, can_promote_members="true")


async def test_custom_title_refusals(wire: Wire) -> None:
    cid = await club(wire)
    await sim_ok(wire, f"/sim/chats/{cid}/promote", {"user": "carol"})
    await wire.ok("promoteChatMember", chat_id=cid, user_id=BOB, can_invite_users="true")
    call = "setChatAdministratorCustomTitle"
    await wire.refused(call, 400, "Bad Request: only the owner can edit their custom title", chat_id=cid, user_id=ALICE)
    await wire.refused(call, 400, "Bad Request: user is not an administrator", chat_id=cid, user_id=MOD)
    rights = "Bad Request: not enough rights to change custom title of the user"
    await wire.refused(call, 400, rights, chat_id=cid, user_id=CAROL)
    await wire.refused(call, 400, "Bad Request: CUSTOM_TITLE_INVALID", chat_id=cid, user_id=BOB, custom_title="x" * 17)
    await wire.say("hello")
    only = "Bad Request: method is available only for groups and supergroups"
    await wire.refused(call, 400, only, chat_id=ALICE, user_id=ALICE)


async def test_sender_chats_are_banned_in_supergroups_only(wire: Wire) -> None:
    cid = await club(wire)
    gid = await make_chat(wire, type="group", admins=[BOT])
    await wire.refused("banChatSenderChat", 400, "Bad Request: sender_chat_id is empty", chat_id=cid)
    invalid = "Bad Request: sender_chat_id is not a valid Integer"
    await wire.refused("banChatSenderChat", 400, invalid, chat_id=cid, sender_chat_id="chan")
    await wire.refused(
        "banChatSenderChat", 400, "Bad Request: can't ban chats in basic groups", chat_id=gid, sender_chat_id=-1001
    )
    assert await wire.ok("banChatSenderChat", chat_id=cid, sender_chat_id=-1001234) is True
    assert wire.stand.world.chats[cid].banned_senders == {-1001234: 0}
    assert await wire.ok("unbanChatSenderChat", chat_id=cid, sender_chat_id=-1001234) is True
    assert await wire.ok("unbanChatSenderChat", chat_id=gid, sender_chat_id=-1001234) is True
    rights = "Bad Request: not enough rights to restrict/unrestrict chat member"
    await wire.refused("banChatSenderChat", 400, rights, token=MOD_TOKEN, chat_id=cid, sender_chat_id=-1001234)


async def test_leave_chat_tells_the_bot_and_it_can_no_longer_write(wire: Wire) -> None:
    cid = await club(wire)
    wire.stand.bots[BOT].pending.clear()
    assert await wire.ok("leaveChat", chat_id=cid) is True
    update = wire.stand.bots[BOT].pending[0]["my_chat_member"]
    assert (update["old_chat_member"]["status"], update["new_chat_member"]["status"]) == ("administrator", "left")
    await wire.refused(
        "sendMessage", 403, "Forbidden: bot is not a member of the supergroup chat", chat_id=cid, text="x"
    )
    await wire.refused("leaveChat", 403, "Forbidden: bot is not a member of the supergroup chat", chat_id=cid)
    texts = [m["service"] for m in (await wire.sim("GET", f"/sim/chat/{cid}"))[1]["messages"] if "service" in m]
    assert texts[-1] == {
        "left_chat_member": {"id": BOT, "is_bot": True, "first_name": "tgfake", "username": "tgfake_bot"}
    }
