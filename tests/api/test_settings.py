"""Bot settings through the wire: commands by scope and language, names, descriptions, rights, photo, logOut, close.

Descriptions are the real server's (Client.cpp) and TDLib's (BotCommand.cpp, BotCommandScope.cpp, misc.cpp).
"""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp import FormData

from tests.conftest import Wire

START = [{"command": "start", "description": "Start"}]
HELP = [{"command": "help", "description": "Help"}]
RU = [{"command": "start", "description": "Старт"}]


def cmds(items: list[dict[str, str]]) -> str:
    return json.dumps(items)


def scope(kind: str, **more: object) -> str:
    return json.dumps({"type": kind, **more})


async def supergroup(wire: Wire, admins: list[str] | None = None) -> int:
    status, body = await wire.sim(
        "POST", "/sim/chats", {"title": "G", "members": ["bob", "tgfake_bot"], "admins": admins or []}
    )
    assert status == 200, body
    return int(body["chat_id"])


# --- commands: storage per scope and language -----------------------------------------------------------------------
async def test_commands_are_kept_per_scope_and_language_without_fallback(wire: Wire) -> None:
    resp = await wire.client.get("/bot1/getMyCommands")
    assert await resp.text() == '{"ok":true,"result":[]}'
    assert await wire.ok("setMyCommands", commands=cmds(START), scope=scope("default")) is True
    await wire.ok("setMyCommands", commands=cmds(RU), language_code="ru")
    await wire.ok("setMyCommands", commands=cmds(HELP), scope=scope("all_private_chats"))
    assert await wire.ok("getMyCommands") == START
    assert await wire.ok("getMyCommands", language_code="ru") == RU
    assert await wire.ok("getMyCommands", scope=scope("all_private_chats")) == HELP
    assert await wire.ok("getMyCommands", scope=scope("all_private_chats"), language_code="ru") == []
    assert (await wire.sim("GET", "/sim/state"))[1]["commands"] == START
    assert await wire.ok("deleteMyCommands", language_code="ru") is True
    assert await wire.ok("getMyCommands", language_code="ru") == []
    await wire.ok("setMyCommands", commands="[]")
    assert await wire.ok("getMyCommands") == []


async def test_commands_are_trimmed_and_lose_one_leading_slash(wire: Wire) -> None:
    await wire.ok("setMyCommands", commands=cmds([{"command": " /go ", "description": " Go on "}]))
    assert await wire.ok("getMyCommands") == [{"command": "go", "description": "Go on"}]


async def test_missing_commands_set_the_empty_list(wire: Wire) -> None:
    await wire.ok("setMyCommands", commands=cmds(START))
    assert await wire.ok("setMyCommands") is True
    assert await wire.ok("getMyCommands") == []


@pytest.mark.parametrize(
    ("commands", "description"),
    [
        ("nope", "Bad Request: can't parse commands JSON object"),
        ("null", "Bad Request: expected an Array of BotCommand"),
        ('{"command":"start"}', "Bad Request: expected an Array of BotCommand"),
        ("[1]", "Bad Request: can't parse BotCommand: expected an Object"),
        ("[null]", "Bad Request: can't parse BotCommand: expected an Object"),
        ('[{"command":"x"}]', "Bad Request: can't parse BotCommand: Can't find field \"description\""),
        ('[{"description":"x"}]', "Bad Request: can't parse BotCommand: Can't find field \"command\""),
        (
            '[{"command":null,"description":"x"}]',
            'Bad Request: can\'t parse BotCommand: Field "command" must be of type String',
        ),
        ('[{"command":"/","description":"x"}]', "Bad Request: command must be non-empty"),
        ('[{"command":"   ","description":"x"}]', "Bad Request: command must be non-empty"),
        ('[{"command":"' + "a" * 33 + '","description":"x"}]', "Bad Request: command length must not exceed 32"),
        ('[{"command":"a","description":"  "}]', "Bad Request: command description must be non-empty"),
        (
            '[{"command":"a","description":"' + "é" * 257 + '"}]',
            "Bad Request: command description length must not exceed 256",
        ),
        ('[{"command":"Start","description":"x"}]', "Bad Request: BOT_COMMAND_INVALID"),
        ('[{"command":"go-on","description":"x"}]', "Bad Request: BOT_COMMAND_INVALID"),
        ('[{"command":"старт","description":"x"}]', "Bad Request: BOT_COMMAND_INVALID"),
    ],
)
async def test_bad_commands_are_refused_and_keep_the_list(wire: Wire, commands: str, description: str) -> None:
    await wire.ok("setMyCommands", commands=cmds(START))
    await wire.refused("setMyCommands", 400, description, commands=commands)
    assert await wire.ok("getMyCommands") == START


async def test_limits_count_code_points(wire: Wire) -> None:
    items = [{"command": "a" * 32, "description": "😀" * 256}, {"command": "5", "description": "x"}]
    await wire.ok("setMyCommands", commands=cmds(items))
    assert [c["command"] for c in await wire.ok("getMyCommands")] == ["a" * 32, "5"]
    await wire.ok("setMyCommands", commands='[{"command":5,"description":6}]')  # numbers read as their text
    assert await wire.ok("getMyCommands") == [{"command": "5", "description": "6"}]


@pytest.mark.parametrize(
    ("raw", "description"),
    [
        ("{", "Bad Request: can't parse BotCommandScope JSON object"),
        ("[]", "Bad Request: can't parse BotCommandScope: BotCommandScope must be an Object"),
        ("{}", "Bad Request: can't parse BotCommandScope: Can't find field \"type\""),
        ('{"type":1.5e3}', "Bad Request: can't parse BotCommandScope: Unsupported type specified"),
        ('{"type":"everyone"}', "Bad Request: can't parse BotCommandScope: Unsupported type specified"),
        ('{"type":"chat"}', "Bad Request: can't parse BotCommandScope: Can't find field \"chat_id\""),
        ('{"type":"chat","chat_id":""}', "Bad Request: can't parse BotCommandScope: Empty chat_id specified"),
        (
            '{"type":"chat_member","chat_id":-1}',
            "Bad Request: can't parse BotCommandScope: Can't find field \"user_id\"",
        ),
        (
            '{"type":"chat_member","chat_id":-1,"user_id":"x"}',
            'Bad Request: can\'t parse BotCommandScope: Field "user_id" must be a valid Number',
        ),
        (
            '{"type":"chat_member","chat_id":-1,"user_id":0}',
            "Bad Request: can't parse BotCommandScope: Invalid user_id specified",
        ),
        ('{"type":"chat","chat_id":-777}', "Bad Request: chat not found"),
        ('{"type":"chat","chat_id":"@nobody"}', "Bad Request: chat not found"),
        ('{"type":"chat_administrators","chat_id":4242}', "Bad Request: can't use specified scope in private chats"),
    ],
)
async def test_bad_scopes_are_refused_in_every_commands_method(wire: Wire, raw: str, description: str) -> None:
    await wire.say("hi")
    for method in ("setMyCommands", "getMyCommands", "deleteMyCommands"):
        await wire.refused(method, 400, description, commands=cmds(START), scope=raw)


async def test_the_commands_are_parsed_before_the_scope_and_the_language_last(wire: Wire) -> None:
    await wire.refused("setMyCommands", 400, "Bad Request: expected an Array of BotCommand", commands="1", scope="{")
    await wire.refused(
        "setMyCommands", 400, "Bad Request: chat not found", scope=scope("chat", chat_id=-9), language_code="xx1"
    )
    bad = '[{"command":"","description":"x"}]'
    await wire.refused(
        "setMyCommands", 400, "Bad Request: invalid language code specified", commands=bad, language_code="RU"
    )


@pytest.mark.parametrize("code", ["RU", "rus", "r", "r1", "en-US"])
async def test_language_codes_are_two_lower_case_letters(wire: Wire, code: str) -> None:
    for method in (
        "setMyCommands",
        "getMyCommands",
        "deleteMyCommands",
        "setMyName",
        "getMyName",
        "setMyDescription",
        "getMyDescription",
        "setMyShortDescription",
        "getMyShortDescription",
    ):
        await wire.refused(method, 400, "Bad Request: invalid language code specified", language_code=code)


async def test_channels_have_no_commands(wire: Wire) -> None:
    status, body = await wire.sim("POST", "/sim/chats", {"type": "channel", "title": "C", "admins": ["tgfake_bot"]})
    assert status == 200, body
    await wire.refused(
        "setMyCommands",
        400,
        "Bad Request: can't change commands in channel chats",
        commands=cmds(START),
        scope=scope("chat", chat_id=body["chat_id"]),
    )


# --- commands: what a person sees (the resolution order) ------------------------------------------------------------
async def test_a_private_chat_shows_the_narrowest_scope_in_the_persons_language(wire: Wire) -> None:
    await wire.say("hi")
    alice = wire.stand.world.users[4242]
    view = (await wire.sim("GET", "/sim/chat/4242"))[1]
    assert "commands" not in view
    await wire.ok("setMyCommands", commands=cmds(START))
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["commands"] == START
    await wire.ok("setMyCommands", commands=cmds(RU), language_code="ru")
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["commands"] == START
    alice.language_code = "ru"
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["commands"] == RU
    await wire.ok("setMyCommands", commands=cmds(HELP), scope=scope("all_private_chats"))
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["commands"] == HELP
    only = [{"command": "only", "description": "Only here"}]
    await wire.ok("setMyCommands", commands=cmds(only), scope=scope("chat", chat_id=4242))
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["commands"] == only
    await wire.ok("setMyCommands", commands=cmds(HELP), scope=scope("all_group_chats"))
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["commands"] == only


async def test_a_group_shows_member_then_admin_then_chat_then_all_scopes(wire: Wire) -> None:
    cid = await supergroup(wire)  # alice created it: she is its creator, so administrator scopes apply to her
    groups = [{"command": "g", "description": "groups"}]
    await wire.ok("setMyCommands", commands=cmds(START), scope=scope("all_private_chats"))
    assert "commands" not in (await wire.sim("GET", f"/sim/chat/{cid}"))[1]
    layers = [
        ("all_group_chats", {}),
        ("all_chat_administrators", {}),
        ("chat", {"chat_id": cid}),
        ("chat_administrators", {"chat_id": cid}),
        ("chat_member", {"chat_id": cid, "user_id": 4242}),
    ]
    for n, (kind, extra) in enumerate(layers):
        items = [{"command": f"c{n}", "description": kind}]
        await wire.ok("setMyCommands", commands=cmds(items), scope=scope(kind, **extra))
        assert (await wire.sim("GET", f"/sim/chat/{cid}"))[1]["commands"] == items, kind
    await wire.ok("setMyCommands", commands=cmds(groups), scope=scope("chat_member", chat_id=cid, user_id=4343))
    assert await wire.ok("getMyCommands", scope=scope("chat_member", chat_id=cid, user_id=4343)) == groups


def test_a_member_who_is_no_admin_skips_the_administrator_scopes() -> None:
    from tgfake.world.settings import BotSettings

    settings = BotSettings()
    admins = [{"command": "ban", "description": "Ban"}]
    settings.set_commands(("all_chat_administrators", 0, 0), "", admins)
    settings.set_commands(("all_group_chats", 0, 0), "", START)
    assert settings.commands_seen("supergroup", -1, 7, is_admin=False, language="") == START
    assert settings.commands_seen("supergroup", -1, 7, is_admin=True, language="") == admins
    assert settings.commands_seen("channel", -1, 7, is_admin=True, language="") == []


async def test_a_reset_forgets_the_settings(wire: Wire) -> None:
    await wire.ok("setMyCommands", commands=cmds(START))
    await wire.ok("setMyDescription", description="Hi")
    await wire.sim("POST", "/sim/reset")
    assert await wire.ok("getMyCommands") == []
    assert await wire.ok("getMyDescription") == {"description": ""}


# --- names and descriptions ---------------------------------------------------------------------------------------
async def test_name_per_language_and_the_default_is_the_first_name(wire: Wire) -> None:
    assert await wire.ok("getMyName") == {"name": "tgfake"}
    assert await wire.ok("getMyName", language_code="de") == {"name": ""}
    assert await wire.ok("setMyName", name="Helper") is True
    await wire.ok("setMyName", name="Helfer", language_code="de")
    assert await wire.ok("getMyName") == {"name": "Helper"}
    assert (await wire.ok("getMe"))["first_name"] == "Helper"
    assert await wire.ok("getMyName", language_code="de") == {"name": "Helfer"}
    await wire.ok("setMyName", language_code="de")
    assert await wire.ok("getMyName", language_code="de") == {"name": ""}


@pytest.mark.parametrize(("kind", "param"), [("Description", "description"), ("ShortDescription", "short_description")])
async def test_descriptions_per_language(wire: Wire, kind: str, param: str) -> None:
    assert await wire.ok(f"getMy{kind}") == {param: ""}
    assert await wire.ok(f"setMy{kind}", **{param: "Hello"}) is True
    await wire.ok(f"setMy{kind}", language_code="ru", **{param: "Привет"})
    assert await wire.ok(f"getMy{kind}") == {param: "Hello"}
    assert await wire.ok(f"getMy{kind}", language_code="ru") == {param: "Привет"}
    assert await wire.ok(f"getMy{kind}", language_code="de") == {param: ""}
    await wire.ok(f"setMy{kind}")
    assert await wire.ok(f"getMy{kind}") == {param: ""}


async def test_the_description_shows_on_an_empty_private_chat_in_the_persons_language(wire: Wire) -> None:
    await wire.ok("setMyDescription", description="I echo")
    await wire.ok("setMyDescription", description="Я эхо", language_code="ru")
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["description"] == "I echo"
    assert "description" not in (await wire.sim("GET", f"/sim/chat/{await supergroup(wire)}"))[1]
    wire.stand.world.users[4343].language_code = "ru"  # bob, met by the sim as a member of that group
    assert (await wire.sim("GET", "/sim/chat/4343"))[1]["description"] == "Я эхо"
    await wire.say("hi")
    assert "description" not in (await wire.sim("GET", "/sim/chat/4242"))[1]  # the chat is no longer empty


# --- default administrator rights -----------------------------------------------------------------------------------
GROUP_KEYS = [
    "can_manage_chat",
    "can_change_info",
    "can_delete_messages",
    "can_invite_users",
    "can_restrict_members",
    "can_pin_messages",
    "can_manage_topics",
    "can_promote_members",
    "can_manage_video_chats",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_manage_tags",
    "is_anonymous",
]
CHANNEL_KEYS = [
    "can_manage_chat",
    "can_change_info",
    "can_post_messages",
    "can_edit_messages",
    "can_delete_messages",
    "can_invite_users",
    "can_restrict_members",
    "can_promote_members",
    "can_manage_video_chats",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_manage_direct_messages",
    "is_anonymous",
]


async def test_default_rights_for_groups_and_channels(wire: Wire) -> None:
    resp = await wire.client.get("/bot1/getMyDefaultAdministratorRights")
    assert list(json.loads(await resp.text())["result"]) == GROUP_KEYS
    assert list(await wire.ok("getMyDefaultAdministratorRights", for_channels="true")) == CHANNEL_KEYS
    rights = {"can_pin_messages": True, "can_post_messages": True, "is_anonymous": True, "can_delete_messages": True}
    assert await wire.ok("setMyDefaultAdministratorRights", rights=json.dumps(rights)) is True
    await wire.ok("setMyDefaultAdministratorRights", rights=json.dumps(rights), for_channels="1")
    groups = await wire.ok("getMyDefaultAdministratorRights")
    channels = await wire.ok("getMyDefaultAdministratorRights", for_channels="yes")
    assert {k for k, v in groups.items() if v} == {"can_pin_messages", "is_anonymous", "can_delete_messages"}
    assert {k for k, v in channels.items() if v} == {"can_post_messages", "can_delete_messages"}
    await wire.ok("setMyDefaultAdministratorRights")
    assert not any((await wire.ok("getMyDefaultAdministratorRights")).values())
    assert any((await wire.ok("getMyDefaultAdministratorRights", for_channels="True")).values())


@pytest.mark.parametrize(
    ("rights", "description"),
    [
        ("{", "Bad Request: can't parse ChatAdministratorRights JSON object"),
        ("[]", "Bad Request: can't parse ChatAdministratorRights: ChatAdministratorRights must be an Object"),
        (
            '{"can_manage_chat":1}',
            'Bad Request: can\'t parse ChatAdministratorRights: Field "can_manage_chat" must be of type Boolean',
        ),
    ],
)
async def test_bad_rights_are_refused(wire: Wire, rights: str, description: str) -> None:
    await wire.refused("setMyDefaultAdministratorRights", 400, description, rights=rights)


# --- profile photo ----------------------------------------------------------------------------------------------
async def test_the_profile_photo_must_be_uploaded_in_the_request(wire: Wire) -> None:
    await wire.refused("setMyProfilePhoto", 400, "Bad Request: photo isn't specified")
    await wire.refused("setMyProfilePhoto", 400, "Bad Request: can't parse photo JSON object", photo="{")
    await wire.refused("setMyProfilePhoto", 400, "Bad Request: object expected as profile photo", photo="[]")
    await wire.refused("setMyProfilePhoto", 400, 'Bad Request: can\'t find field "type"', photo="{}")
    await wire.refused(
        "setMyProfilePhoto", 400, "Bad Request: invalid profile photo type specified", photo='{"type":"x"}'
    )
    by_id = '{"type":"static","photo":"AgACAgIAAx"}'
    await wire.refused("setMyProfilePhoto", 400, "Bad Request: photo must be uploaded as a file", photo=by_id)
    form = FormData()
    form.add_field("photo", '{"type":"static","photo":"attach://pic"}')
    form.add_field("pic", b"\x89PNG...", filename="p.png", content_type="image/png")
    resp = await wire.client.post(f"/bot{wire.token}/setMyProfilePhoto", data=form)
    assert (resp.status, await resp.json()) == (200, {"ok": True, "result": True})
    assert wire.stand.default_bot.settings.profile_photo == {"type": "static", "size": 7}
    assert await wire.ok("removeMyProfilePhoto") is True
    assert wire.stand.default_bot.settings.profile_photo is None


# --- logOut and close ---------------------------------------------------------------------------------------------
async def test_log_out_ends_the_held_poll_drops_the_queue_and_refuses_later_calls(wire: Wire) -> None:
    poll = asyncio.create_task(wire.call("getUpdates", timeout=30))
    assert await wire.stand.wait_polling(5)
    assert await wire.ok("logOut") is True
    assert await asyncio.wait_for(poll, 5) == (200, {"ok": True, "result": []})
    await wire.say("hi")
    await wire.refused("getUpdates", 400, "Logged out")
    await wire.refused("getMe", 400, "Logged out")
    assert await wire.ok("logOut") is True
    await wire.sim("POST", "/sim/reset")
    assert (await wire.ok("getMe"))["id"] == 123


async def test_close_ends_the_held_poll_and_keeps_the_queue(wire: Wire) -> None:
    poll = asyncio.create_task(wire.call("getUpdates", timeout=30))
    assert await wire.stand.wait_polling(5)
    assert await wire.ok("close") is True
    assert await asyncio.wait_for(poll, 5) == (200, {"ok": True, "result": []})
    await wire.say("hi")
    updates = await wire.ok("getUpdates", timeout=0)
    assert [u["message"]["text"] for u in updates] == ["hi"]
