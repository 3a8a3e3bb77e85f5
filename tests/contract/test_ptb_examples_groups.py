"""python-telegram-bot's own example bots (``examples/`` of the 22.x line), each rewritten here in the same shape: the
same handlers, calls, parameters and flow, polling with ``allowed_updates=Update.ALL_TYPES`` as every example's
``run_polling`` does. The person plays the human through the testing client; each test checks what the person sees
and what the bot received. A difference from Telegram shows up as a library exception, a refused call, a missing
field or a wrong update kind.

Here: polls in a group (pollbot.py) and the bot's and people's membership (chatmemberbot.py); the shared
helpers are in ``ptb_support.py``."""

from __future__ import annotations

import json

import pytest
from telegram import (
    Chat,
    ChatMember,
    ChatMemberUpdated,
    KeyboardButton,
    KeyboardButtonPollType,
    Poll,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    Update,
)
from telegram.constants import ParseMode
from telegram.ext import (
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    PollAnswerHandler,
    PollHandler,
    filters,
)

from tests.conftest import Wire
from tests.contract.ptb_support import BOB, CAROL, Handlers, example, refusals
from tests.contract.test_poll_oracles import until

# The examples' ConversationHandlers mix message and callback handlers with per_message=False, as PTB warns.
pytestmark = pytest.mark.filterwarnings("ignore:If 'per_message=False':telegram.warnings.PTBUserWarning")

# --- pollbot.py ----------------------------------------------------------------------------------------------------
TOTAL_VOTER_COUNT = 3


async def poll_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text(
        "Please select /poll to get a Poll, /quiz to get a Quiz or /preview to generate a preview for your poll"
    )


async def send_the_poll(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    questions = ["Good", "Really good", "Fantastic", "Great"]
    message = await context.bot.send_poll(
        update.effective_chat.id, "How are you?", questions, is_anonymous=False, allows_multiple_answers=True
    )
    assert message.poll is not None
    context.bot_data.update(
        {
            message.poll.id: {
                "questions": questions,
                "message_id": message.message_id,
                "chat_id": update.effective_chat.id,
                "answers": 0,
            }
        }
    )


async def receive_poll_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    answer = update.poll_answer
    assert answer is not None
    assert update.effective_user is not None
    answered_poll = context.bot_data[answer.poll_id]
    try:
        questions = answered_poll["questions"]
    except KeyError:
        return
    selected_options = answer.option_ids
    answer_string = ""
    for question_id in selected_options:
        if question_id != selected_options[-1]:
            answer_string += questions[question_id] + " and "
        else:
            answer_string += questions[question_id]
    await context.bot.send_message(
        answered_poll["chat_id"],
        f"{update.effective_user.mention_html()} feels {answer_string}!",
        parse_mode=ParseMode.HTML,
    )
    answered_poll["answers"] += 1
    if answered_poll["answers"] == TOTAL_VOTER_COUNT:
        await context.bot.stop_poll(answered_poll["chat_id"], answered_poll["message_id"])


async def quiz(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    assert update.effective_chat is not None
    message = await update.effective_message.reply_poll(
        "How many eggs do you need for a cake?", ["1", "2", "4", "20"], type=Poll.QUIZ, correct_option_ids=[2]
    )
    assert message.poll is not None
    context.bot_data.update({message.poll.id: {"chat_id": update.effective_chat.id, "message_id": message.message_id}})


async def receive_quiz_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.poll is not None
    context.bot_data.setdefault("poll_updates", []).append(update.poll)
    if update.poll.is_closed:
        return
    if update.poll.total_voter_count == TOTAL_VOTER_COUNT:
        try:
            quiz_data = context.bot_data[update.poll.id]
        except KeyError:
            return
        await context.bot.stop_poll(quiz_data["chat_id"], quiz_data["message_id"])


async def preview(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    button = [[KeyboardButton("Press me!", request_poll=KeyboardButtonPollType())]]
    message = "Press the button to let the bot generate a preview for your poll"
    await update.effective_message.reply_text(message, reply_markup=ReplyKeyboardMarkup(button, one_time_keyboard=True))


async def receive_poll(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    actual_poll = update.effective_message.poll
    assert actual_poll is not None
    await update.effective_message.reply_poll(
        question=actual_poll.question,
        options=[o.text for o in actual_poll.options],
        is_closed=True,
        reply_markup=ReplyKeyboardRemove(),
    )


async def poll_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text("Use /quiz, /poll or /preview to test this bot.")


POLLBOT: Handlers = [
    CommandHandler("start", poll_start),
    CommandHandler("poll", send_the_poll),
    CommandHandler("quiz", quiz),
    CommandHandler("preview", preview),
    CommandHandler("help", poll_help),
    MessageHandler(filters.POLL, receive_poll),
    PollAnswerHandler(receive_poll_answer),
    PollHandler(receive_quiz_answer),
]
VOTERS = ("alice", "bob", "carol")


async def test_pollbot_poll_and_quiz_in_a_group(wire: Wire) -> None:
    async with example(wire, POLLBOT) as (person, app):
        _, made = await wire.sim(
            "POST", "/sim/chats", {"title": "Club", "members": ["bob", "carol"], "admins": ["@tgfake_bot"]}
        )
        group = made["chat_id"]
        await person.send("/start", chat=group)
        await person.expect_reply(containing="Please select /poll", chat=group)
        await person.send("/poll", chat=group)
        asked = await person.expect_reply(chat=group)
        assert asked.kind == "poll"
        for n, (who, options) in enumerate(zip(VOTERS, ([0, 3], [1], [2]), strict=True), 1):
            await person.vote(asked.message_id, options, user=who, chat=group)
            await person.wait_call("sendMessage", n + 1)
        # Both handlers stop the poll at the third voter (poll_answer counts answers, poll counts voters), so one
        # stopPoll finds it closed, with Telegram's refusal: the example's own race.
        first, second = await person.wait_call("stopPoll", 2)
        assert first.ok
        assert (second.status, second.response["description"]) == (400, "Bad Request: poll has already been closed")
        lines = (await person.transcript(group)).splitlines()
        assert [line.split(": ", 1)[1] for line in lines[-3:]] == [
            "[Alice](tg://user?id=4242) feels Good and Great!",
            f"[Bob](tg://user?id={BOB}) feels Really good!",
            f"[Carol](tg://user?id={CAROL}) feels Fantastic!",
        ]
        closed = next(m for m in await person.messages(group) if m.message_id == asked.message_id)
        assert closed.poll is not None
        assert closed.poll["is_closed"] is True
        await person.send("/quiz", chat=group)
        [_, sent_quiz] = await person.wait_call("sendPoll", 2)
        the_quiz = sent_quiz.response["result"]
        assert json.loads(sent_quiz.params["reply_parameters"]) == {"message_id": the_quiz["message_id"] - 1}
        assert the_quiz["reply_to_message"]["text"] == "/quiz"  # reply_poll quotes the command in a group
        for who in VOTERS:
            await person.vote(the_quiz["message_id"], [2], user=who, chat=group)
        await person.wait_call("stopPoll", 3)
        await until(wire, lambda: any(p.is_closed and p.type == Poll.QUIZ for p in app.bot_data["poll_updates"]))
        quiz_updates = [p for p in app.bot_data["poll_updates"] if p.type == Poll.QUIZ]
        assert [(p.total_voter_count, p.is_closed) for p in quiz_updates][-2:] == [(3, False), (3, True)]
        assert quiz_updates[-1].correct_option_ids == (2,)
    assert refusals(wire) == [("stopPoll", 400, "Bad Request: poll has already been closed")]


async def test_pollbot_preview(wire: Wire) -> None:
    async with example(wire, POLLBOT) as (person, _):
        await person.send("/help")
        await person.expect_reply("Use /quiz, /poll or /preview to test this bot.")
        await person.send("/preview")
        await person.expect_reply("Press the button to let the bot generate a preview for your poll")
        made = {"question": "Tea or coffee?", "options": ["Tea", "Coffee"], "type": "regular"}
        await person.press("Press me!", poll=made)
        preview_poll = await person.expect_reply()
        assert preview_poll.poll is not None
        assert preview_poll.poll["question"] == "Tea or coffee?"
        assert [o["text"] for o in preview_poll.poll["options"]] == ["Tea", "Coffee"]
        assert preview_poll.poll["is_closed"] is True
        assert preview_poll.raw["reply_keyboard"] == {"remove_keyboard": True}
    assert refusals(wire) == []


# --- chatmemberbot.py ----------------------------------------------------------------------------------------------
def extract_status_change(chat_member_update: ChatMemberUpdated) -> tuple[bool, bool] | None:
    status_change = chat_member_update.difference().get("status")
    old_is_member, new_is_member = chat_member_update.difference().get("is_member", (None, None))
    if status_change is None:
        return None
    old_status, new_status = status_change
    present = [ChatMember.MEMBER, ChatMember.OWNER, ChatMember.ADMINISTRATOR]
    was_member = old_status in present or (old_status == ChatMember.RESTRICTED and old_is_member is True)
    is_member = new_status in present or (new_status == ChatMember.RESTRICTED and new_is_member is True)
    return was_member, is_member


async def track_chats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.my_chat_member is not None
    assert update.effective_user is not None
    assert update.effective_chat is not None
    context.bot_data.setdefault("tracked", []).append(update.my_chat_member)
    result = extract_status_change(update.my_chat_member)
    if result is None:
        return
    was_member, is_member = result
    chat = update.effective_chat
    key = {Chat.PRIVATE: "user_ids", Chat.GROUP: "group_ids", Chat.SUPERGROUP: "group_ids"}.get(
        chat.type, "channel_ids"
    )
    if not was_member and is_member:
        context.bot_data.setdefault(key, set()).add(chat.id)
    elif was_member and not is_member:
        context.bot_data.setdefault(key, set()).discard(chat.id)


async def show_chats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    user_ids = ", ".join(str(uid) for uid in context.bot_data.setdefault("user_ids", set()))
    group_ids = ", ".join(str(gid) for gid in context.bot_data.setdefault("group_ids", set()))
    channel_ids = ", ".join(str(cid) for cid in context.bot_data.setdefault("channel_ids", set()))
    text = (
        f"@{context.bot.username} is currently in a conversation with the user IDs {user_ids}."
        f" Moreover it is a member of the groups with IDs {group_ids} "
        f"and administrator in the channels with IDs {channel_ids}."
    )
    await update.effective_message.reply_text(text)


async def greet_chat_members(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.chat_member is not None
    assert update.effective_chat is not None
    result = extract_status_change(update.chat_member)
    if result is None:
        return
    was_member, is_member = result
    cause_name = update.chat_member.from_user.mention_html()
    member_name = update.chat_member.new_chat_member.user.mention_html()
    if not was_member and is_member:
        await update.effective_chat.send_message(
            f"{member_name} was added by {cause_name}. Welcome!", parse_mode=ParseMode.HTML
        )
    elif was_member and not is_member:
        await update.effective_chat.send_message(
            f"{member_name} is no longer with us. Thanks a lot, {cause_name} ...", parse_mode=ParseMode.HTML
        )


async def start_private_chat(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None
    assert update.effective_chat is not None
    assert update.effective_message is not None
    chat = update.effective_chat
    if chat.type != Chat.PRIVATE or chat.id in context.bot_data.get("user_ids", set()):
        return
    context.bot_data.setdefault("user_ids", set()).add(chat.id)
    await update.effective_message.reply_text(
        f"Welcome {update.effective_user.full_name}. Use /show_chats to see what chats I'm in."
    )


async def test_chatmemberbot(wire: Wire) -> None:
    handlers = [
        ChatMemberHandler(track_chats, ChatMemberHandler.MY_CHAT_MEMBER),
        CommandHandler("show_chats", show_chats),
        ChatMemberHandler(greet_chat_members, ChatMemberHandler.CHAT_MEMBER),
        MessageHandler(filters.ALL, start_private_chat),
    ]
    async with example(wire, handlers) as (person, app):
        await person.send("hi")
        await person.expect_reply("Welcome Alice. Use /show_chats to see what chats I'm in.")
        _, made = await wire.sim("POST", "/sim/chats", {"title": "Friends", "admins": ["@tgfake_bot"]})
        group = made["chat_id"]
        _, made = await wire.sim("POST", "/sim/chats", {"type": "channel", "title": "News", "admins": ["@tgfake_bot"]})
        channel = made["chat_id"]
        await until(wire, lambda: channel in app.bot_data.get("channel_ids", set()))
        assert app.bot_data["group_ids"] == {group}
        assert app.bot_data["channel_ids"] == {channel}
        assert (await wire.sim("POST", f"/sim/chats/{group}/join", {"user": "bob"}))[0] == 200
        welcome = await person.expect_reply(containing="was added by", chat=group)
        assert welcome.text == "Bob was added by Bob. Welcome!"
        assert [e["type"] for e in welcome.entities] == ["text_mention", "text_mention"]
        assert (await wire.sim("POST", f"/sim/chats/{group}/add", {"user": "carol", "by": "alice"}))[0] == 200
        await person.expect_reply("Carol was added by Alice. Welcome!", chat=group)
        assert (await wire.sim("POST", f"/sim/chats/{group}/leave", {"user": "bob"}))[0] == 200
        await person.expect_reply("Bob is no longer with us. Thanks a lot, Bob ...", chat=group)
        await person.send("/show_chats")
        await person.expect_reply(
            "@tgfake_bot is currently in a conversation with the user IDs 4242. Moreover it is a member of the "
            f"groups with IDs {group} and administrator in the channels with IDs {channel}."
        )
        assert (await wire.sim("POST", "/sim/block", {}))[0] == 200
        await until(wire, lambda: not app.bot_data["user_ids"])
        assert (await wire.sim("POST", "/sim/unblock", {}))[0] == 200
        await until(wire, lambda: app.bot_data["user_ids"] == {4242})
        removed = {"user": "@tgfake_bot", "by": "alice"}
        assert (await wire.sim("POST", f"/sim/chats/{group}/remove", removed))[0] == 200
        await until(wire, lambda: not app.bot_data["group_ids"])
        tracked = app.bot_data["tracked"]
        assert [(u.old_chat_member.status, u.new_chat_member.status) for u in tracked] == [
            ("left", "administrator"),
            ("left", "administrator"),
            ("member", "kicked"),
            ("kicked", "member"),
            ("administrator", "kicked"),
        ]
    assert refusals(wire) == []
