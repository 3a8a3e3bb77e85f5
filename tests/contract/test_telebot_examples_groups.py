"""pyTelegramBotAPI's own example bots (``examples/`` of eternnoir/pyTelegramBotAPI, sync ``TeleBot`` and
``asynchronous_telebot``), run against the stand: each test builds a bot of the example's shape (its handlers, calls
and parameters, in our own words), plays the person through the testing client, and asserts what the person sees
and what the bot got. telebot logs a handler that raised, a failed getUpdates or a refused call on its ``TeleBot``
logger: any error there fails the test.

Here: members, join requests and invite links of groups (chat_member_example.py,
chat_join_request.py, create_invite_link.py); the shared helpers are in ``telebot_support.py``."""

from __future__ import annotations

import asyncio
import time

from telebot import TeleBot, types, util

from tests.conftest import Wire
from tests.contract import telebot_support
from tests.contract.telebot_support import Complaints, group, polling, refusals
from tgfake.testing import Call
from tgfake.world.people import user_id_for

complaints = telebot_support.complaints  # the autouse fixture: a complaint logged fails every test here


# --- chat_member_example.py -------------------------------------------------------------------------------------
def chat_member_bot(wire: Wire) -> TeleBot:
    bot = TeleBot(wire.token)

    @bot.chat_member_handler()
    def chat_m(message: types.ChatMemberUpdated) -> None:
        new = message.new_chat_member
        if new.status == "member":
            bot.send_message(message.chat.id, f"Hello {new.user.first_name}!")

    @bot.my_chat_member_handler()
    def my_chat_m(message: types.ChatMemberUpdated) -> None:
        if message.new_chat_member.status == "member":
            bot.send_message(message.chat.id, "Somebody added me to group")
            bot.leave_chat(message.chat.id)

    @bot.message_handler(content_types=util.content_type_service)
    def delall(message: types.Message) -> None:
        bot.delete_message(message.chat.id, message.message_id)

    @bot.message_handler(commands=["set_tag"])
    def set_tag(message: types.Message) -> None:
        tag = util.extract_arguments(message.text)  # type: ignore[arg-type]  # a command's text
        if not tag:
            bot.reply_to(message, "Usage: /set_tag your_tag")
            return
        assert message.from_user is not None
        bot.set_chat_member_tag(message.chat.id, message.from_user.id, tag=tag)
        bot.reply_to(message, f"Tag updated: {tag}")

    return bot


async def test_chat_member_example_welcomes_deletes_service_messages_and_tags(wire: Wire) -> None:
    async with polling(wire, chat_member_bot(wire), allowed_updates=util.update_types) as person:
        club = await group(wire, admins=["@tgfake_bot"])
        status, joined = await wire.sim("POST", f"/sim/chats/{club}/join", {"user": "bob"})
        assert status == 200, joined
        await person.expect_reply("Hello Bob!", chat=club)
        [note] = [m for m in await person.messages(club) if m.kind == "service" and m.username == "bob"]
        deletes: list[Call] = []
        while not any(d.params["message_id"] == str(note.message_id) for d in deletes):  # other service notes too
            deletes = await person.wait_call("deleteMessage", len(deletes) + 1)
        assert all(d.ok for d in deletes), [d.line() for d in deletes]
        [joined_note] = [m for m in await person.messages(club) if m.message_id == note.message_id]
        assert joined_note.deleted
        await person.send("/set_tag", chat=club)
        await person.expect_reply("Usage: /set_tag your_tag", chat=club)
        await person.send("/set_tag Writer", chat=club)
        await person.expect_reply("Tag updated: Writer", chat=club)
    assert refusals(wire) == []


async def test_chat_member_example_leaves_a_group_it_was_added_to(wire: Wire, complaints: Complaints) -> None:
    async with polling(wire, chat_member_bot(wire), allowed_updates=util.update_types) as person:
        club = await group(wire, members=["@tgfake_bot"])
        await person.expect_reply("Somebody added me to group", chat=club)
        [left] = await person.wait_call("leaveChat")
        assert left.ok, left.line()
        [delete] = await person.wait_call("deleteMessage")
        assert await asyncio.to_thread(complaints.logged.wait, 10)  # telebot logs the refusal after the call returns
    # The service message of its own arrival is alice's: a member bot may not delete it (or has left already).
    assert (delete.status, delete.response["description"]) in {
        (400, "Bad Request: message can't be deleted"),
        (403, "Forbidden: bot is not a member of the supergroup chat"),
    }
    assert [r.getMessage().rsplit("Description: ", 1)[-1] for r in complaints.records] == [
        delete.response["description"]
    ]
    complaints.records.clear()


# --- chat_join_request.py ---------------------------------------------------------------------------------------
async def test_chat_join_request_is_approved(wire: Wire) -> None:
    bot = TeleBot(wire.token)

    @bot.chat_join_request_handler()
    def make_some(message: types.ChatJoinRequest) -> None:
        bot.send_message(message.chat.id, "I accepted a new user!")
        bot.approve_chat_join_request(message.chat.id, message.from_user.id)

    async with polling(wire, bot, allowed_updates=util.update_types) as person:
        club = await group(wire, admins=["@tgfake_bot"])
        status, asked = await wire.sim("POST", f"/sim/chats/{club}/join-request", {"user": "bob"})
        assert status == 200, asked
        await person.expect_reply("I accepted a new user!", chat=club)
        [approved] = await person.wait_call("approveChatJoinRequest")
        assert (approved.ok, approved.params["user_id"]) == (True, str(user_id_for("bob")))
        await person.send("I am in", user="bob", chat=club)
    assert refusals(wire) == []


# --- create_invite_link.py --------------------------------------------------------------------------------------
OFFICIAL = -1001234567890  # the example's Group_ID


async def test_create_invite_link_offers_a_one_use_link_to_a_new_member(wire: Wire) -> None:
    bot = TeleBot(wire.token, parse_mode="HTML")

    @bot.message_handler(commands=["start"])
    def startmsg(msg: types.Message) -> None:
        bot.reply_to(msg, "Hey there, I'm a bot made by pyTelegramBotAPI!")

    @bot.message_handler(content_types=["new_chat_members"])
    def newmember(msg: types.Message) -> None:
        invite = bot.create_chat_invite_link(OFFICIAL, member_limit=1, expire_date=int(time.time()) + 45)
        markup = types.InlineKeyboardMarkup()
        markup.add(types.InlineKeyboardButton("Join our group 🚀", url=invite.invite_link))
        assert msg.from_user is not None
        bot.send_message(
            msg.chat.id,
            f"Hey there {msg.from_user.first_name}, Click the link below to join our Official Group.",
            reply_markup=markup,
        )

    def offer(name: str) -> str:
        return f"Hey there {name}, Click the link below to join our Official Group."

    async with polling(wire, bot) as person:
        await person.move_clock(to=time.time())  # the example counts the expiry from the wall clock
        await person.send("/start")
        await person.expect_reply("Hey there, I'm a bot made by pyTelegramBotAPI!")
        await group(wire, id=OFFICIAL, title="Official", admins=["@tgfake_bot"])
        await person.expect_reply(offer("Alice"), chat=OFFICIAL)  # its own arrival is a new_chat_members message
        lobby = await group(wire, title="Lobby", members=["@tgfake_bot"])
        await person.expect_reply(offer("Alice"), chat=lobby)
        status, joined = await wire.sim("POST", f"/sim/chats/{lobby}/join", {"user": "bob"})
        assert status == 200, joined
        offered = await person.expect_reply(offer("Bob"), chat=lobby)
        [[button]] = offered.raw["keyboard"]
        assert button["text"] == "Join our group 🚀"
        # bob opens the link: he is in the official group, and the link is used up
        status, joined = await wire.sim(
            "POST", f"/sim/chats/{OFFICIAL}/join", {"user": "bob", "invite_link": button["url"]}
        )
        assert (status, joined["status"]) == (200, "member"), joined
        await person.expect_reply(offer("Bob"), chat=OFFICIAL)
        status, refused = await wire.sim(
            "POST", f"/sim/chats/{OFFICIAL}/join", {"user": "carol", "invite_link": button["url"]}
        )
        assert (status, refused) == (409, {"error": f"invite link {button['url']} has reached its member limit of 1"})
        created = await person.wait_call("createChatInviteLink", 4)
    link = created[2].response["result"]
    assert button["url"] == link["invite_link"]
    assert len({c.response["result"]["invite_link"] for c in created}) == 4
    bot_id = int(wire.token.split(":")[0])
    assert (link["member_limit"], link["is_revoked"], link["creator"]["id"]) == (1, False, bot_id)
    assert link["expire_date"] == int(created[2].params["expire_date"])
    assert refusals(wire) == []
