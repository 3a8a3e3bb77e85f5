"""The chat page in a real browser: Playwright drives Debian's Chromium through a group conversation.

A small bot (plain HTTP long polling, no library) answers in a group with a reply keyboard, an inline keyboard and
a formatted reply built from the scripted model's answer; the test clicks and types as a person would and asserts
what the page shows. Each view is a screenshot (docs/images/ with ``TGFAKE_SCREENSHOTS=update``: the screenshots of
docs/chat-page.md and the README).
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
import re
import tempfile
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from tests.browser.conftest import sync_api
from tgfake.testing import StandClient

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
TOKEN = "1:page"
GROUP = -1001500
HOSTILE = '<img src=x onerror="window.pwned=1">'
NOISE = 48  # per-channel difference below which two screenshots are the same view (antialiasing, palette)
SHOT_TIME = 1_800_000_000  # 2027-01-15 08:00 UTC
MODEL_SCRIPT = [{"match": "tea", "answer": "Green tea: 80 °C, three minutes."}]


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as resp:
        return json.loads(resp.read())


class PollingBot(threading.Thread):
    """A bot as a user writes one, without a library: long polling ``getUpdates``, each update to ``handle``."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.base = base
        self.done = threading.Event()
        self.failure: BaseException | None = None

    def api(self, method: str, **params: Any) -> Any:
        answer = post(f"{self.base}/bot{TOKEN}/{method}", params)
        assert answer["ok"], answer
        return answer["result"]

    def run(self) -> None:
        offset = 0
        try:
            while not self.done.is_set():
                for update in self.api("getUpdates", offset=offset, timeout=1):
                    offset = update["update_id"] + 1
                    self.handle(update)
        except BaseException as exc:  # reported by the test, not lost in the thread
            self.failure = exc

    def handle(self, update: dict[str, Any]) -> None:
        raise NotImplementedError


class TeaBot(PollingBot):
    """A reply keyboard, an inline keyboard, a model call, HTML."""

    def handle(self, update: dict[str, Any]) -> None:
        if "callback_query" in update:
            self.pressed(update["callback_query"])
            return
        message = update.get("message") or {}
        text = message.get("text", "")
        chat = message.get("chat", {}).get("id")
        if text.startswith("/start"):
            keyboard = {"keyboard": [[{"text": "Menu"}, {"text": "Help"}]], "resize_keyboard": True}
            self.api(
                "sendMessage",
                chat_id=chat,
                text="Welcome to the tea club! Pick from the keyboard.",
                reply_markup=keyboard,
            )
        elif text == "Menu":
            inline = {
                "inline_keyboard": [
                    [{"text": "Tea", "callback_data": "tea"}, {"text": "Coffee", "callback_data": "coffee"}],
                    [{"text": "Docs", "url": "https://core.telegram.org/bots/api"}],
                ]
            }
            self.api("sendMessage", chat_id=chat, text="What would you like?", reply_markup=inline)

    def pressed(self, query: dict[str, Any]) -> None:
        message = query["message"]
        chat = message["chat"]["id"]
        self.api("answerCallbackQuery", callback_query_id=query["id"], text="Brewing…")
        self.api("editMessageText", chat_id=chat, message_id=message["message_id"], text="What would you like? Tea.")
        self.api("sendChatAction", chat_id=chat, action="typing")
        completion = post(
            f"{self.base}/v1/chat/completions",
            {"model": "any", "messages": [{"role": "user", "content": "How do I brew tea?"}]},
        )
        answer = completion["choices"][0]["message"]["content"]
        name = html.escape(query["from"]["first_name"])
        text = (
            f"<b>Tea</b> for {name}: <i>{html.escape(answer)}</i>\n<code>temp=80</code> "
            f'<tg-spoiler>a secret leaf</tg-spoiler> <a href="https://example.com/tea">recipe</a>\n'
            f"{html.escape(HOSTILE)}"
        )
        self.api(
            "sendMessage",
            chat_id=chat,
            text=text,
            parse_mode="HTML",
            reply_parameters={"message_id": message["message_id"]},
        )


@pytest.fixture
def bot(tgfake: StandClient) -> Iterator[TeaBot]:
    # The session's clock at a fixed time, so the screenshots' message times stay the same from run to run.
    post(f"{tgfake.url}/sim/clock", {"set": SHOT_TIME})
    running = TeaBot(tgfake.url)
    running.api(
        "setMyCommands",
        commands=[
            {"command": "start", "description": "Open the tea menu"},
            {"command": "help", "description": "What this bot does"},
        ],
    )
    running.start()
    yield running
    running.done.set()
    running.join(timeout=10)
    assert running.failure is None, running.failure


def shot(page: Any, name: str) -> None:
    """The view as docs/images/chat-page-<name>.png, reduced to a 64-colour palette to stay small in the repo.

    The committed file is rewritten only with ``TGFAKE_SCREENSHOTS=update`` (and then only when the view looks
    different: antialiasing noise is not a change); other runs write to a temporary folder, so a test run never
    changes the repository's files.
    """
    folder = (
        IMAGES if os.environ.get("TGFAKE_SCREENSHOTS") == "update" else Path(tempfile.gettempdir()) / "tgfake-shots"
    )
    folder.mkdir(parents=True, exist_ok=True)
    page.evaluate("document.activeElement && document.activeElement.blur()")  # no caret, no focus ring
    image = Image.open(io.BytesIO(page.screenshot(animations="disabled"))).convert("RGB").quantize(colors=64)
    path = folder / f"chat-page-{name}.png"
    if path.exists():
        with Image.open(path) as old:
            same_size = old.size == image.size
            diff = ImageChops.difference(old.convert("RGB"), image.convert("RGB")) if same_size else None
        if diff is not None and diff.convert("L").point(lambda v: 255 if v > NOISE else 0).getbbox() is None:
            return
    image.save(path, optimize=True)


def expect(locator: Any) -> Any:
    return sync_api.expect(locator)


@pytest.mark.tgfake(script=MODEL_SCRIPT)
def test_a_group_conversation_through_the_page(tgfake: StandClient, bot: TeaBot, page: Any) -> None:
    made = post(
        f"{tgfake.url}/sim/chats",
        {
            "type": "supergroup",
            "id": GROUP,
            "title": "Tea club",
            "admins": ["@" + bot.api("getMe")["username"]],
            "members": [77],
        },
    )
    assert made["chat_id"] == GROUP
    page.goto(tgfake.url + "/")
    group = page.locator(f'.chat-item[data-chat-id="{GROUP}"]')
    expect(group).to_contain_text("Tea club")
    group.click()
    expect(page.locator("#chatTitle")).to_have_text("Tea club")
    expect(page.locator("#chatStatus")).to_contain_text("supergroup · 3 members")
    expect(page.locator(".service").first).to_contain_text("created the group «Tea club»")

    # The command menu (setMyCommands) sends /start@<bot>, as a client does in a group.
    page.locator("#menuButton").click()
    expect(page.locator("#commandMenu")).to_contain_text("Open the tea menu")
    shot(page, "commands")
    page.locator("#commandMenu button", has_text="/start").click()
    expect(page.locator(".msg.out .body").last).to_have_text("/start@" + bot.api("getMe")["username"])

    # The reply keyboard replaces the person's keyboard; a press sends its label.
    expect(page.locator("#replyKeyboard")).to_be_visible()
    expect(page.locator(".msg.in .body").last).to_have_text("Welcome to the tea club! Pick from the keyboard.")
    expect(group).to_contain_text("Welcome to the tea club!")
    shot(page, "reply-keyboard")
    page.locator("#replyKeyboard button", has_text="Menu").click()

    # The inline keyboard: a press is a callback query; the bot's answer shows as a toast, its edit as "edited".
    question = page.locator(".msg.in", has_text="What would you like?")
    expect(question.locator(".ikb button")).to_have_text(["Tea", "Coffee", "Docs ↗"])
    expect(group).to_contain_text("What would you like?")  # the chat list's preview follows
    shot(page, "inline-keyboard")
    question.locator(".ikb button", has_text="Tea").click()
    expect(page.locator("#toast")).to_have_text("Brewing…")
    page.locator("#toast").click()  # a tap dismisses it
    expect(page.locator("#toast")).to_be_hidden()

    # The formatted reply: entities as DOM nodes, the reply header, the hostile text inert.
    reply = page.locator(".msg.in", has_text="Tea for Alice")
    expect(reply.locator(".body b")).to_have_text("Tea")
    expect(reply.locator(".body i")).to_have_text("Green tea: 80 °C, three minutes.")
    expect(reply.locator(".body code")).to_have_text("temp=80")
    expect(reply.locator(".body .spoiler")).to_have_text("a secret leaf")
    expect(reply.locator(".body a")).to_have_attribute("href", "https://example.com/tea")
    expect(reply.locator(".reply")).to_contain_text("What would you like? Tea.")
    expect(reply.locator(".body")).to_contain_text(HOSTILE)
    assert reply.locator(".body img").count() == 0
    assert page.evaluate("window.pwned") is None
    edited = page.locator(".bubble", has=page.locator("> .body", has_text=re.compile(r"^What would you like\? Tea\.$")))
    expect(edited.locator(".stamp")).to_contain_text("edited")

    # The person types, reacts and replies.
    page.locator("#text").fill("Thanks, lovely!")
    page.locator("#text").press("Enter")
    expect(page.locator(".msg.out .body").last).to_have_text("Thanks, lovely!")
    reply.hover()
    reply.locator(".actions button", has_text="👍").click()
    expect(reply.locator(".reactions button")).to_have_text("👍 1")
    expect(group).to_contain_text("Thanks, lovely!")
    shot(page, "conversation")

    # The panels: the Bot API calls, the model's journal, faults, the chat's members.
    calls = page.locator("#outbox")
    expect(calls).to_contain_text("sendMessage 200")
    expect(calls).to_contain_text("answerCallbackQuery 200")
    bot.api("getMe")  # a new call, then refreshes racing each other (the timer and clicks do): each call shows once
    page.evaluate("Promise.all([1, 2, 3].map(() => window.__tgfakePage.refresh()))")
    seqs = calls.locator("div").evaluate_all("lines => lines.map((line) => line.dataset.seq)")
    assert len(seqs) == len(set(seqs)) > 5
    page.locator("#sidePanel .tabs button", has_text="Model").click()
    expect(page.locator("#journal")).to_contain_text("Green tea: 80 °C, three minutes.")
    expect(page.locator("#journal")).to_contain_text("How do I brew tea?")
    shot(page, "model-journal")
    page.locator("#sidePanel .tabs button", has_text="Faults").click()
    page.locator("#faultForm button", has_text="Add fault").click()
    expect(page.locator("#faultList")).to_contain_text("sendmessage · 429")
    shot(page, "faults")
    page.locator("#faultClear").click()
    expect(page.locator("#faultList")).to_contain_text("no faults scheduled")
    page.locator("#sidePanel .tabs button", has_text="Chat").click()
    expect(page.locator("#memberList")).to_contain_text("administrator")
    me = bot.api("getMe")
    expect(page.locator("#memberList")).to_contain_text(f"{me['first_name']} @{me['username']} (bot)")


def png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), color).save(out, format="PNG")
    return out.getvalue()


def test_media_albums_polls_drafts_topics_and_people_through_the_page(
    tgfake: StandClient, bot: TeaBot, page: Any, tmp_path: Path
) -> None:
    username = bot.api("getMe")["username"]
    post(
        f"{tgfake.url}/sim/chats",
        {
            "type": "supergroup",
            "id": GROUP,
            "title": "Tea forum",
            "is_forum": True,
            "admins": ["@" + username],
            "members": [77],
        },
    )
    topic = post(f"{tgfake.url}/sim/chats/{GROUP}/topics", {"name": "Recipes"})["message_thread_id"]
    page.goto(tgfake.url + "/")

    # The person attaches a photo from the composer, in a forum topic.
    page.locator(f'.chat-item[data-chat-id="{GROUP}"][data-thread="{topic}"]').click()
    expect(page.locator("#chatTitle")).to_have_text("Tea forum › Recipes")
    image = tmp_path / "leaf.png"
    image.write_bytes(png("green"))
    page.locator("#text").fill("my leaf")
    page.locator("#fileInput").set_input_files(str(image))
    sent = page.locator(".msg.out", has_text="my leaf")
    expect(sent.locator("img")).to_have_count(1)
    sent.locator("img").evaluate("img => img.decode()")  # the stand's file route served real bytes
    assert sent.locator("img").evaluate("img => img.naturalWidth") == 64
    with urllib.request.urlopen(f"{tgfake.url}/sim/chat/{GROUP}", timeout=10) as resp:
        stored = json.loads(resp.read())["messages"][-1]
    assert (stored["kind"], stored["caption"], stored["message_thread_id"]) == ("photo", "my leaf", topic)

    # What the bot sends into its private chat: an album, a location, a dice; a draft streams, typing shows.
    chat = 4242
    # (the photos are uploaded once by another person, so the bot re-sends them by file_id)
    photo_ids = [
        post(f"{tgfake.url}/sim/file", {"user_id": 5555, "photo": {"name": f"{c}.png", "data": b64(png(c))}})["file_id"]
        for c in ("olive", "teal")
    ]
    media = [
        {"type": "photo", "media": photo_ids[0], "caption": "two leaves"},
        {"type": "photo", "media": photo_ids[1]},
    ]
    bot.api("sendMediaGroup", chat_id=chat, media=media)
    bot.api("sendLocation", chat_id=chat, latitude=51.5, longitude=-0.12)
    bot.api("sendDice", chat_id=chat, emoji="🎯")
    bot.api("sendMessageDraft", chat_id=chat, draft_id=7, text="Steeping")
    bot.api("sendChatAction", chat_id=chat, action="typing")
    page.locator(f'.chat-item[data-chat-id="{chat}"]').click()
    expect(page.locator("#chatStatus")).to_have_text("typing…")
    expect(page.locator(".album img")).to_have_count(2)
    expect(page.locator(".msg", has=page.locator(".album")).locator(".body")).to_have_text("two leaves")
    expect(page.locator(".tile", has_text="Location")).to_contain_text("51.5, -0.12")
    expect(page.locator(".big-emoji")).to_contain_text("🎯")
    draft = page.locator(".draft .body")
    expect(draft).to_have_text("Steeping")
    bot.api("sendMessageDraft", chat_id=chat, draft_id=7, text="Steeping… nearly there")
    expect(draft).to_have_text("Steeping… nearly there")  # the draft streams live

    # A poll: clicking an option votes.
    post(f"{tgfake.url}/sim/share", {"poll": {"question": "Milk first?", "options": ["Yes", "Never"]}})
    poll = page.locator(".poll", has_text="Milk first?")
    poll.locator(".option", has_text="Never").click()
    expect(poll.locator(".option", has_text="Never")).to_contain_text("100% Never · 1")
    expect(poll).to_contain_text("1 vote")
    shot(page, "media")

    # Switching who the person is: bob's private chat, and his message in the group.
    page.locator("#personSelect").select_option("new")
    page.locator("#newUserId").fill("77")
    page.locator("#newUsername").fill("bob")
    page.locator("#usePerson").click()
    expect(page.locator('.chat-item[data-chat-id="77"]')).to_be_visible()
    expect(page.locator('.chat-item[data-chat-id="4242"]')).to_have_count(0)
    page.locator(f'.chat-item[data-chat-id="{GROUP}"]').first.click()
    page.locator("#text").fill("hi from bob")
    page.locator("#text").press("Enter")
    expect(page.locator(".msg.out .body").last).to_have_text("hi from bob")
    shot(page, "forum")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_refusals_show_as_toasts_and_reset_forgets_the_conversation(
    tgfake: StandClient, bot: TeaBot, page: Any
) -> None:
    bot.api("setMyDescription", description="I brew tea for tea clubs.")
    bot.api(
        "setChatMenuButton",
        menu_button={"type": "web_app", "text": "Order", "web_app": {"url": "https://example.com/app"}},
    )
    page.goto(tgfake.url + "/")
    assert "/s/" in page.url  # the page of a session reads that session's world only
    expect(page.locator("#chatTitle")).to_have_text(bot.api("getMe")["first_name"])
    expect(page.locator(".empty-chat")).to_have_text("I brew tea for tea clubs.")  # an empty private chat
    expect(page.locator("#menuButton")).to_have_text("Order")  # the web_app menu button
    page.locator("#menuButton").click()  # opens its Mini App in the phone frame
    expect(page.locator("#miniapp")).to_be_visible()
    assert page.evaluate("window.__tgfakeMiniApp.url").startswith("https://example.com/app#tgWebAppData=")
    page.locator("#miniappClose").click()
    expect(page.locator("#miniapp")).to_be_hidden()

    # The stand's refusal reaches the person as Telegram's app would put it: a message that names the problem.
    page.locator("#text").fill("x" * 4097)
    page.locator("#text").press("Enter")
    expect(page.locator("#toast")).to_have_text("text is longer than 4096 characters")
    expect(page.locator("#toast")).to_have_class("bad")

    page.locator("#text").fill("/start")
    page.locator("#text").press("Enter")
    expect(page.locator(".msg.in .body").last).to_have_text("Welcome to the tea club! Pick from the keyboard.")
    expect(page.locator("#outbox")).to_contain_text("sendMessage 200")
    # A force_reply opens a reply to the bot's question, with its placeholder.
    force = {"force_reply": True, "input_field_placeholder": "Your name"}
    bot.api("sendMessage", chat_id=4242, text="What is your name?", reply_markup=force)
    expect(page.locator("#replyBar")).to_contain_text("What is your name?")
    expect(page.locator("#text")).to_have_attribute("placeholder", "Your name")
    page.locator("#text").fill("Ann")
    page.locator("#text").press("Enter")
    expect(page.locator(".msg.out", has_text="Ann").locator(".reply")).to_contain_text("What is your name?")

    # Another bot: the page writes to its private chat.
    post(f"{tgfake.url}/sim/bots", {"first_name": "Coffee", "username": "coffee_bot"})
    page.locator("#botSelect").select_option("coffee_bot")
    expect(page.locator("#chatTitle")).to_have_text("Coffee")
    page.locator("#text").fill("hello coffee")
    page.locator("#text").press("Enter")
    expect(page.locator(".msg.out .body").last).to_have_text("hello coffee")
    with urllib.request.urlopen(f"{tgfake.url}/sim/chat/4242?bot=coffee_bot&format=text", timeout=10) as resp:
        assert resp.read().decode() == "[1] alice: hello coffee\n"
    page.locator("#botSelect").select_option(bot.api("getMe")["username"])
    expect(page.locator("#chatTitle")).to_have_text(bot.api("getMe")["first_name"])

    page.locator("#reset").click()  # the conversation, the outbox and the bot's settings are forgotten
    expect(page.locator(".msg")).to_have_count(0)
    expect(page.locator(".empty-chat")).to_have_text("No messages here yet…")
    expect(page.locator("#menuButton")).to_be_hidden()
    expect(page.locator("#outbox")).not_to_contain_text("sendMessage 200")
    expect(page.locator("#replyKeyboard")).to_be_hidden()
