"""The testing client's world methods against a real stand (the plugin's session stand): groups and who is in them,
bots as BotFather makes them, payments, any sim route, and which of the bot's messages ``expect_reply`` reads.

The test plays both sides: the people through the client, the bot through raw Bot API calls.
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any, cast

import aiohttp
import pytest

from tgfake.testing import AsyncStandClient, ChatInfo, SimAPIError, StandClient, person

STARS = {"title": "Boost", "description": "A boost", "payload": "boost-1", "currency": "XTR"}
PRICES = json.dumps([{"label": "Boost", "amount": 50}])


def bot(client: StandClient | AsyncStandClient, method: str, token: str = "123:abc", **params: Any) -> Any:
    """A Bot API call as a bot makes it (form-encoded); its result, or the refusal's envelope."""
    data = urllib.parse.urlencode({k: str(v) for k, v in params.items()}).encode()
    req = urllib.request.Request(f"{client.url}/bot{token}/{method}", data=data, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as f:
            return json.loads(f.read())["result"]
    except urllib.error.HTTPError as e:
        with e:
            return json.loads(e.read())


def club(tgfake: StandClient) -> ChatInfo:
    """A supergroup of alice's with bob and carol, the bot (123, after its first call) an administrator."""
    me = bot(tgfake, "getMe")
    return tgfake.create_chat("Club", members=["bob", "carol"], admins=[f"@{me['username']}"])


def test_create_chat_makes_groups_channels_and_forums_with_members_and_admins(tgfake: StandClient) -> None:
    group = club(tgfake)
    assert (group.type, group.title, group.id < -1000000000000) == ("supergroup", "Club", True)
    assert [group.status_of(who) for who in ("alice", "bob", "carol", "@tgfake_bot", 123)] == [
        "creator", "member", "member", "administrator", "administrator",
    ]  # fmt: skip
    assert group.status_of("zed") == ""
    assert tgfake.transcript(group.id).splitlines()[:2] == [
        "[1] * alice created the supergroup",
        "[2] * alice added bob",
    ]
    small = tgfake.create_chat("Old", type="group", members=[person("dave")])
    assert (small.type, small.status_of("dave"), -1000000000000 < small.id < 0) == ("group", "member", True)
    forum = tgfake.create_chat("Help", forum=True, username="help_forum")
    assert (forum.is_forum, forum.username) == (True, "help_forum")
    news = tgfake.create_chat("News", type="channel", admins=["bob"])
    assert (news.type, news.status_of("bob")) == ("channel", "administrator")


def test_join_leave_add_promote_restrict_ban_remove_and_demote(tgfake: StandClient) -> None:
    group = club(tgfake)
    assert tgfake.join(group, user="dave").status == "member"
    assert tgfake.leave(group.id, user="dave").status == "left"
    assert tgfake.add(group, "erin").status == "member"
    promoted = tgfake.promote(group, "bob", title="Mod", can_restrict_members=True)
    assert promoted.status == "administrator"
    assert tgfake.restrict(group, "erin", by="bob", can_send_messages=False).status == "restricted"
    assert tgfake.ban(group, "carol", by="bob").status == "kicked"
    assert tgfake.remove(group, "erin").status == "left"
    assert tgfake.demote(group, "bob").status == "member"
    with pytest.raises(SimAPIError) as refused:
        tgfake.ban(group, "dave", by="bob")
    assert (refused.value.status, refused.value.message) == (
        403,
        f"bob may not do that in chat {group.id} (needs can_restrict_members)",
    )
    assert tgfake.transcript(group.id).splitlines()[4:] == [
        "[5] * dave joined",
        "[6] * dave left",
        "[7] * alice added erin",
        "[8] * bob removed carol",
        "[9] * alice removed erin",
    ]
    now = tgfake.chat_info(group)
    assert (now.id, now.title, now.status_of("carol"), now.status_of("@tgfake_bot")) == (
        group.id, "Club", "kicked", "administrator",
    )  # fmt: skip


def test_add_bot_makes_a_bot_with_botfathers_flags_that_starts_with_its_token(tgfake: StandClient) -> None:
    helper = tgfake.add_bot("helper_bot", first_name="Helper", can_read_all_group_messages=True)
    assert (helper.username, helper.first_name, helper.token.startswith(f"{helper.id}:")) == (
        "helper_bot", "Helper", True,
    )  # fmt: skip
    me = bot(tgfake, "getMe", token=helper.token)
    assert (me["id"], me["can_read_all_group_messages"], me["supports_inline_queries"]) == (helper.id, True, False)
    inline = tgfake.add_bot("finder_bot", token="777:key", supports_inline_queries=True, can_join_groups=False)
    assert (inline.id, inline.token) == (777, "777:key")
    group = tgfake.create_chat("Bots")
    assert tgfake.add(group, "@helper_bot").status == "member"
    with pytest.raises(SimAPIError) as refused:
        tgfake.add(group, "@finder_bot")
    assert refused.value.message == "@finder_bot can't be added to groups (BotFather: can_join_groups off)"
    with pytest.raises(SimAPIError, match="username @helper_bot is taken"):
        tgfake.add_bot("helper_bot")


def test_sim_calls_any_route_and_raises_the_stands_words(tgfake: StandClient) -> None:
    group = tgfake.create_chat("Asking", join_by_request=True)
    asked = tgfake.sim("POST", f"chats/{group.id}/join-request", {"user": "bob", "bio": "hi"})
    assert asked["ok"] is True
    assert [b["username"] for b in tgfake.sim("GET", "/sim/bots")["bots"]] == ["tgfake_bot"]
    assert tgfake.sim("GET", "/sim/chat/4242", query={"format": "text"}) == ""
    with pytest.raises(SimAPIError) as refused:
        tgfake.sim("POST", f"/sim/chats/{group.id}/join", {"user": "bob"})
    assert (refused.value.status, refused.value.message) == (
        409,
        f"chat {group.id} approves its members: POST /sim/chats/{group.id}/join-request",
    )
    assert tgfake.sim("POST", "/sim/chats/1/join", {"user": "bob"}, accept=(404,)) == {
        "error": "chat 1 not found (create it with POST /sim/chats)"
    }


def test_pay_answers_the_invoices_outcome(tgfake: StandClient) -> None:
    tgfake.send("/buy")
    bot(tgfake, "sendInvoice", chat_id=4242, prices=PRICES, **STARS)

    def approve() -> None:  # the bot: its next update is the pre-checkout query, which it approves
        updates = bot(tgfake, "getUpdates", offset=2, timeout=10, allowed_updates='["pre_checkout_query"]')
        query = next(u["pre_checkout_query"] for u in updates if "pre_checkout_query" in u)
        bot(tgfake, "answerPreCheckoutQuery", pre_checkout_query_id=query["id"], ok="true")

    answering = threading.Thread(target=approve)
    answering.start()
    paid = tgfake.pay()  # the newest invoice in alice's chat
    answering.join()
    assert (paid["status"], paid["total_amount"]) == ("paid", 50)
    assert "successful_payment" in (tgfake.messages()[-1].service or {})
    again = bot(tgfake, "sendInvoice", chat_id=4242, prices=PRICES, **STARS)
    assert tgfake.pay(again["message_id"], timeout=0.2) == {"status": "timeout", "step": "pre_checkout_query"}
    with pytest.raises(SimAPIError) as refused:
        tgfake.pay(99)
    assert refused.value.status == 404


async def test_the_async_client_has_the_world_methods_too(tgfake: StandClient) -> None:
    async with AsyncStandClient(tgfake.url) as client, aiohttp.ClientSession() as http:
        me = bot(client, "getMe")
        group = await client.create_chat("Club", type="group", admins=[me["id"]])
        assert (await client.join(group, user="bob")).status == "member"
        assert (await client.promote(group, "bob", can_invite_users=True)).status == "administrator"
        assert (await client.add(group, "carol", by="bob")).status == "member"
        assert (await client.ban(group, "carol")).status == "kicked"
        assert (await client.leave(group, user="bob")).status == "left"
        helper = await client.add_bot("async_helper_bot")
        assert helper.username == "async_helper_bot"
        assert (await client.sim("GET", "bots"))["bots"][-1]["username"] == "async_helper_bot"
        invoice = bot(client, "sendInvoice", chat_id=4242, prices=PRICES, **STARS)

        async def decline() -> None:
            url = f"{client.url}/bot123:abc/getUpdates"
            async with http.post(url, data={"timeout": "10", "allowed_updates": '["pre_checkout_query"]'}) as r:
                query = next(u["pre_checkout_query"] for u in (await r.json())["result"] if "pre_checkout_query" in u)
            answer = {"pre_checkout_query_id": query["id"], "ok": "false", "error_message": "Sold out"}
            async with http.post(f"{client.url}/bot123:abc/answerPreCheckoutQuery", data=answer) as r:
                assert r.status == 200

        outcome, _ = await asyncio.gather(client.pay(invoice["message_id"]), decline())
        assert outcome == {"status": "declined", "error_message": "Sold out"}


def test_expect_reply_passes_over_service_messages_and_names_them_at_the_timeout(tgfake: StandClient) -> None:
    group = club(tgfake)
    tgfake.send("/ban carol", chat=group.id)
    assert bot(tgfake, "banChatMember", chat_id=group.id, user_id=person("carol").user_id) is True
    with pytest.raises(AssertionError) as failed:
        tgfake.expect_reply("Banned Carol.", timeout=0.5)
    first = str(failed.value).splitlines()[0]
    assert first == (
        f"timed out waiting for the bot's next message to read 'Banned Carol.' in chat {group.id} within 0.5 s; "
        "the bot's next message was a service message: * bot removed carol"
    )
    bot(tgfake, "sendMessage", chat_id=group.id, text="Banned Carol.")
    assert tgfake.expect_reply("Banned Carol.").kind == "text"
    removal = [m for m in tgfake.messages() if m.kind == "service" and m.from_bot]
    assert [m.readable for m in removal] == [False]
    assert removal[0].service is not None
    assert "left_chat_member" in removal[0].service


def test_kind_asks_for_a_service_message_and_any_readable_kind_is_a_reply(tgfake: StandClient) -> None:
    group = club(tgfake)
    tgfake.send("/ban carol", chat=group.id)
    bot(tgfake, "banChatMember", chat_id=group.id, user_id=person("carol").user_id)
    assert tgfake.expect_reply(kind="service").service == tgfake.messages()[-1].service
    tgfake.expect_no_reply(within=0.1)
    poll = bot(tgfake, "sendPoll", chat_id=group.id, question="Lunch?", options='["Yes","No"]')
    bot(tgfake, "pinChatMessage", chat_id=group.id, message_id=poll["message_id"])
    got = tgfake.expect_reply()  # the poll is read, the pin that follows is not a reply
    assert (got.kind, got.readable, got.poll is not None) == ("poll", True, True)
    tgfake.expect_no_reply(within=0.1)
    with pytest.raises(AssertionError, match="the bot sent a further message"):
        tgfake.expect_no_reply(within=0.1, kind="any")


def test_an_invoice_is_a_reply_that_carries_the_invoice(tgfake: StandClient) -> None:
    tgfake.send("/buy")
    bot(tgfake, "sendInvoice", chat_id=4242, prices=PRICES, **STARS)
    invoice = tgfake.expect_reply()
    assert (invoice.kind, invoice.readable, invoice.service) == ("invoice", True, None)
    assert invoice.content is not None
    assert (invoice.content["title"], invoice.content["total_amount"]) == ("Boost", 50)


def test_a_wrong_reply_is_named_in_the_first_line(tgfake: StandClient) -> None:
    tgfake.send("hello")
    bot(tgfake, "sendMessage", chat_id=4242, text="You said: hello")
    with pytest.raises(AssertionError) as failed:
        tgfake.expect_reply("You said: hallo", timeout=5)
    assert str(failed.value).splitlines()[0] == (
        "timed out waiting for the bot's next message to read 'You said: hallo' in chat 4242; "
        "the bot's next message was: bot: You said: hello"
    )


async def test_the_async_wait_until_awaits_a_coroutine_check(tgfake: StandClient) -> None:
    async with AsyncStandClient(tgfake.url) as client:
        await client.send("hello")
        bot(client, "sendChatAction", chat_id=4242, action="typing")

        async def typing() -> bool | None:
            typing: bool | None = (await client.chat(4242))["typing"] or None
            return typing

        assert await client.wait_until(cast(Callable[[], bool | None], typing), what="typing") is True
