"""Inline mode and the attach menu in the chat page, in Chromium: a person types ``@bot query``, scrolls through the
bot's pages of articles, picks one (sent ``via @bot``), follows switch_inline_query buttons; and sends a location,
a poll, a dice, a contact, a voice, a sticker and an album from the attach menu, and forwards one. Views go to
docs/images/."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_chat_page import (
    GROUP,
    HOSTILE,
    SHOT_TIME,
    TOKEN,
    PollingBot,
    b64,
    expect,
    png,
    post,
    shot,
)
from tgfake.testing import StandClient

PAGE = 8  # results per page the bot answers
TOTAL = 20  # results a query has in all


class InlineBot(PollingBot):
    """An inline bot: pages of articles by ``offset`` (and photos for "pictures")."""

    def __init__(self, base: str) -> None:
        super().__init__(base)
        self.offsets: list[tuple[str, str]] = []  # (query, offset) of every inline query the bot answered
        self.cached = ""  # a photo's file id the stand holds: answered as a cached photo after the URL ones

    def handle(self, update: dict[str, Any]) -> None:
        if "inline_query" in update:
            self.answer(update["inline_query"])

    def answer(self, query: dict[str, Any]) -> None:
        self.offsets.append((query["query"], query["offset"]))
        if query["query"] == "pictures":  # photos by URL: the app shows them as tiles
            photos = [
                {"type": "photo", "id": f"leaf-{n}", "photo_url": f"https://example.com/leaf{n}.jpg",
                 "thumbnail_url": f"https://example.com/leaf{n}-s.jpg", "title": f"Leaf {n}"}
                for n in range(1, 7)
            ]  # fmt: skip
            if self.cached:
                photos.append({"type": "photo", "id": "held", "photo_file_id": self.cached, "title": "Held leaf"})
            self.api("answerInlineQuery", inline_query_id=query["id"], results=photos)
            return
        if query["query"] == "hostile":  # a bot's markup is text on the page
            hostile = {"type": "article", "id": "x", "title": HOSTILE, "description": HOSTILE,
                       "input_message_content": {"message_text": "x"}}  # fmt: skip
            self.api("answerInlineQuery", inline_query_id=query["id"], results=[hostile])
            return
        start = int(query["offset"] or 0)
        name = query["query"].strip().capitalize() or "Any"
        results = [
            {
                "type": "article",
                "id": f"{name.lower()}-{n}",
                "title": f"{name} tea #{n}",
                "description": f"{n} g a cup, 80 °C",
                "input_message_content": {"message_text": f"{name} tea #{n} is brewing"},
            }
            for n in range(start + 1, min(start + PAGE, TOTAL) + 1)
        ]
        more = str(start + PAGE) if start + PAGE < TOTAL else ""
        extra: dict[str, Any] = {}
        if name == "Oolong":  # a button above the results: the bot's private chat, started with a parameter
            extra["button"] = {"text": "Settings", "start_parameter": "settings"}
        self.api("answerInlineQuery", inline_query_id=query["id"], results=results, next_offset=more, **extra)


@pytest.fixture
def inline_bot(tgfake: StandClient) -> Iterator[InlineBot]:
    post(f"{tgfake.url}/sim/clock", {"set": SHOT_TIME})
    running = InlineBot(tgfake.url)
    username = running.api("getMe")["username"]
    post(f"{tgfake.url}/sim/bots/{username}/inline", {"enabled": True})
    running.start()
    yield running
    running.done.set()
    running.join(timeout=10)
    assert running.failure is None, running.failure


def stored(tgfake: StandClient, chat_id: int) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{tgfake.url}/sim/chat/{chat_id}", timeout=10) as resp:
        messages: list[dict[str, Any]] = json.loads(resp.read())["messages"]
    return messages


def test_inline_mode_through_the_page(tgfake: StandClient, inline_bot: InlineBot, page: Any) -> None:
    me = inline_bot.api("getMe")
    username = me["username"]
    assert me["supports_inline_queries"] is True
    post(f"{tgfake.url}/sim/chats", {"type": "supergroup", "id": GROUP, "title": "Tea club", "members": [77],
                                     "admins": ["@" + username]})  # fmt: skip
    page.goto(tgfake.url + "/")
    page.locator(f'.chat-item[data-chat-id="{GROUP}"]').click()
    expect(page.locator("#chatTitle")).to_have_text("Tea club")

    # Typing "@bot query" asks the bot; its first page shows above the composer, title and description.
    page.locator("#text").fill(f"@{username} green")
    results = page.locator("#inlineResults .inline-result")
    expect(results).to_have_count(PAGE)
    expect(results.first.locator(".title")).to_have_text("Green tea #1")
    expect(results.first.locator(".detail")).to_have_text("1 g a cup, 80 °C")
    assert inline_bot.offsets == [("green", "")]
    expect(page.locator("#outbox")).to_contain_text("answerInlineQuery 200")  # the same view on every run
    shot(page, "inline-results")

    # Scrolling to the end asks the next page, until the answer has no next_offset.
    box = page.locator("#inlineResults")
    box.evaluate("b => { b.scrollTop = b.scrollHeight; }")
    expect(results).to_have_count(2 * PAGE)
    box.evaluate("b => { b.scrollTop = b.scrollHeight; }")
    expect(results).to_have_count(TOTAL)
    box.evaluate("b => { b.scrollTop = 0; b.scrollTop = b.scrollHeight; }")
    expect(results.last.locator(".title")).to_have_text(f"Green tea #{TOTAL}")
    assert inline_bot.offsets == [("green", ""), ("green", str(PAGE)), ("green", str(2 * PAGE))]

    # A click sends the result as the person's message via the bot; the results and the typed query go.
    results.filter(has_text="Green tea #10").click()
    sent = page.locator(".msg.out", has_text="Green tea #10 is brewing")
    expect(sent.locator(".via")).to_have_text("via @" + username)
    expect(page.locator("#inlinePanel")).to_be_hidden()
    expect(page.locator("#text")).to_have_value("")
    last = stored(tgfake, GROUP)[-1]
    assert (last["text"], last["via_bot"]) == ("Green tea #10 is brewing", username)

    # switch_inline_query_current_chat fills this chat's composer with "@bot query" and asks at once.
    keyboard = {"inline_keyboard": [[{"text": "Search here", "switch_inline_query_current_chat": "black"}],
                                    [{"text": "Share", "switch_inline_query": "oolong"}]]}  # fmt: skip
    inline_bot.api("sendMessage", chat_id=GROUP, text="Find a tea:", reply_markup=keyboard)
    card = page.locator(".msg.in", has_text="Find a tea:")
    card.locator(".ikb button", has_text="Search here").click()
    expect(page.locator("#text")).to_have_value(f"@{username} black")
    expect(results.first.locator(".title")).to_have_text("Black tea #1")
    expect(page.locator("#outbox div").last).to_contain_text("answerInlineQuery 200")
    shot(page, "inline-via")

    # switch_inline_query asks for a chat first (here the bot's private chat), then fills its composer.
    card.locator(".ikb button", has_text="Share").click()
    expect(page.locator("#switchBanner")).to_contain_text(f"Choose a chat for @{username} oolong")
    page.locator('.chat-item[data-chat-id="4242"]').click()
    expect(page.locator("#chatTitle")).to_have_text(me["first_name"])
    expect(page.locator("#switchBanner")).to_be_hidden()
    expect(page.locator("#text")).to_have_value(f"@{username} oolong")
    expect(results.first.locator(".title")).to_have_text("Oolong tea #1")
    # The answer's button starts the bot's private chat with its parameter.
    expect(page.locator("#inlineStartButton")).to_have_text("Settings")
    page.locator("#inlineStartButton").click()
    expect(page.locator(".msg.out .body").last).to_have_text("/start settings")
    expect(page.locator("#inlinePanel")).to_be_hidden()
    assert stored(tgfake, 4242)[-1]["text"] == "/start settings"

    # Photo results are tiles in a grid (a photo the stand holds as its image); a picked one is a photo message
    # via the bot (a URL's is not fetched).
    inline_bot.cached = post(f"{tgfake.url}/sim/file", {"photo": {"name": "leaf.png", "data": b64(png("green"))}})[
        "file_id"
    ]
    page.locator("#text").fill(f"@{username} pictures")
    expect(results).to_have_count(7)
    expect(page.locator("#inlineResults")).to_have_class("grid")
    expect(results.first).to_have_attribute("title", "Leaf 1")
    held = results.last.locator("img")
    held.evaluate("img => img.decode()")  # the stand's file route served real bytes
    assert held.evaluate("img => img.naturalWidth") == 64
    results.nth(2).click()
    picked = page.locator(".msg.out").last
    expect(picked.locator(".via")).to_have_text("via @" + username)
    expect(picked.locator(".tile")).to_contain_text("not fetched")
    assert stored(tgfake, 4242)[-1]["kind"] == "photo"
    page.locator("#text").fill(f"@{username} hostile")
    expect(results.locator(".title")).to_have_text(HOSTILE)
    expect(results.locator(".detail")).to_have_text(HOSTILE)
    assert page.locator("#inlineResults img").count() == 0
    assert page.evaluate("window.pwned") is None
    # Esc closes the results and clears the query.
    page.locator("#text").fill(f"@{username} green")
    expect(results).to_have_count(PAGE)
    page.locator("#text").press("Escape")
    expect(page.locator("#inlinePanel")).to_be_hidden()
    expect(page.locator("#text")).to_have_value("")


def choose_file(page: Any, item: str, files: list[Path]) -> None:
    """Open the attach menu, pick ``item`` and answer the file chooser it opens, as a person does."""
    page.locator("#attach").click()
    with page.expect_file_chooser() as chooser:
        page.locator("#attachMenu button", has_text=item).click()
    chooser.value.set_files([str(f) for f in files])


def test_the_attach_menu_sends_every_kind(tgfake: StandClient, page: Any, tmp_path: Path) -> None:
    post(f"{tgfake.url}/sim/clock", {"set": SHOT_TIME})
    page.goto(tgfake.url + "/")
    expect(page.locator(".empty-chat")).to_be_visible()

    page.locator("#attach").click()
    page.locator("#attachMenu button", has_text="Location").click()
    page.locator("#attachForm button", has_text="Send location").click()
    expect(page.locator(".msg.out .tile").last).to_contain_text("51.5007, -0.1246")

    page.locator("#attach").click()
    page.locator("#attachMenu button", has_text="Poll").click()
    page.locator("#share_question").fill("Tea or coffee?")
    page.locator("#share_options").fill("Tea\nCoffee\n")
    page.locator("#share_multiple").check()
    page.locator("#attachForm button", has_text="Send poll").click()
    poll = page.locator(".msg.out .poll")
    expect(poll.locator(".question")).to_have_text("Tea or coffee?")
    expect(poll.locator(".option .label")).to_have_text(["Tea", "Coffee"])
    expect(poll).to_contain_text("Anonymous Poll · multiple answers")

    page.locator("#attach").click()
    page.locator("#attachMenu button", has_text="Contact").click()
    expect(page.locator("#share_first_name")).to_have_value("alice")
    page.locator("#share_phone_number").fill("+447700900777")
    page.locator("#attachForm button", has_text="Send contact").click()
    expect(page.locator(".msg.out .tile").last).to_contain_text("+447700900777")

    page.evaluate("Math.random = () => 0.5")  # the page throws the dice; a fixed throw keeps the screenshot
    page.locator("#attach").click()
    page.locator("#attachMenu button", has_text="Dice").click()
    page.locator("#attachForm button.dice", has_text="🎯").click()
    expect(page.locator(".msg.out .big-emoji").last).to_contain_text("🎯")

    voice = tmp_path / "note.ogg"
    voice.write_bytes(b"OggS" + bytes(60))
    choose_file(page, "Voice", [voice])
    expect(page.locator(".msg.out .tile").last).to_contain_text("voice")
    sticker = tmp_path / "leaf.png"
    sticker.write_bytes(png("green"))
    choose_file(page, "Sticker", [sticker])
    expect(page.locator(".msg.out .big-emoji").last).to_be_visible()

    leaves = []
    for color in ("green", "olive", "teal"):
        leaves.append(tmp_path / f"{color}.png")
        leaves[-1].write_bytes(png(color))
    page.locator("#text").fill("three leaves")
    choose_file(page, "Album", leaves)
    album = page.locator(".msg.out", has=page.locator(".album"))
    expect(album.locator(".album img")).to_have_count(3)
    expect(album.locator(".body")).to_contain_text("three leaves")
    page.locator("#attach").click()
    expect(page.locator("#attachMenu")).to_be_visible()
    shot(page, "attachments")
    page.locator("#text").press("Escape")
    expect(page.locator("#attachMenu")).to_be_hidden()

    kinds = []
    for m in stored(tgfake, 4242):
        kinds.append(m["kind"])
    assert kinds == ["location", "poll", "contact", "dice", "voice", "sticker", "photo", "photo", "photo"], kinds
    messages = stored(tgfake, 4242)
    assert messages[2]["contact"]["phone_number"] == "+447700900777"
    assert messages[1]["poll"]["allows_multiple_answers"] is True
    assert messages[3]["dice"] == {"emoji": "🎯", "value": 4}
    assert len({m["media_group_id"] for m in messages[6:]}) == 1

    # Forward: hover, pick the chat it goes to; it arrives there "Forwarded from" the person.
    username = post(f"{tgfake.url}/bot{TOKEN}/getMe", {})["result"]["username"]
    post(f"{tgfake.url}/sim/chats", {"type": "supergroup", "id": GROUP, "title": "Tea", "admins": ["@" + username]})
    location = page.locator(".msg.out", has=page.locator(".tile", has_text="51.5007"))
    location.hover()
    location.locator(".actions button", has_text="Forward").click()
    expect(page.locator("#switchBanner")).to_contain_text("Choose a chat to forward «[location]» to")
    page.locator(f'.chat-item[data-chat-id="{GROUP}"]').click()
    forwarded = page.locator(".msg.out", has=page.locator(".fwd"))
    expect(forwarded.locator(".fwd")).to_have_text("Forwarded from Alice")
    expect(forwarded.locator(".tile")).to_contain_text("51.5007, -0.1246")
    last = stored(tgfake, GROUP)[-1]
    assert (last["kind"], last["content"]["forward_origin"]["type"]) == ("location", "user"), last
