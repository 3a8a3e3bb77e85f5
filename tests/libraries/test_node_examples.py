"""Telegraf's, grammY's and node-telegram-bot-api's own example bots, each rewritten in tests/libraries/node/examples
in the same shape (the same handlers, calls, parameters and flow; only the API root points at the stand, and what
needs the network is served locally). Every test starts a stand of its own, runs the bot as a subprocess, waits until
it polls, plays the person through the testing client and checks what the person sees and what the bot received (the
bots that log what they got print it, and an exception in a handler stops the bot, which shows in the failure's
output).

Examples: feathers-studio/telegraf-docs ``examples/`` (the docs repo that telegraf's ``docs/examples`` moved to),
grammyjs/examples and node-telegram-bot-api 0.67.0's ``examples/``. Without ``npm ci`` at the repository root they
are skipped on a developer's machine and fail in CI (tests/requirements.py), as
tests/libraries/test_libraries.py's Node bots do.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import threading
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.libraries.test_libraries import NODE_DIR, STARTUP, free_port, sim_get, wait_polling
from tests.node_support import require_node
from tgfake.options import Options
from tgfake.testing import DEFAULT_BOT_TOKEN, BotProcess, StandClient, ThreadedStand, bot_environment

pytestmark = pytest.mark.node
EXAMPLES = NODE_DIR / "examples"
ALICE = 4242
EXPIRED = "Bad Request: message can't be edited"  # a live location past its period (TDLib's can_edit_message)


@dataclass
class Run:
    """A running example: the stand's client and the bot's process (for its output)."""

    stand: StandClient
    bot: BotProcess

    def sim(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """A sim route's JSON answer (the routes the testing client has no method for)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.stand.url}{path}", data=data, method=method)
        req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=15) as resp:
            return json.loads(resp.read())

    def logged_text(self, marker: str) -> list[str]:
        return [line[len(marker) :] for line in self.bot.output().splitlines() if line.startswith(marker)]

    def logged_updates(self) -> list[dict[str, Any]]:
        """The updates Telegraf.log() printed (indented JSON, each from a line that is only ``{``)."""
        text, out, decoder = self.bot.output(), [], json.JSONDecoder()
        for start in (m.start() for m in re.finditer(r"^\{$", text, re.MULTILINE)):
            update, _ = decoder.raw_decode(text, start)
            if "update_id" in update:
                out.append(update)
        return out

    def logged(self, marker: str) -> list[Any]:
        """The JSON the bot printed after ``marker`` on each of its output lines."""
        out = []
        for line in self.bot.output().splitlines():
            if line.startswith(marker):
                out.append(json.loads(line[len(marker) :]))
        return out


@contextmanager
def example(
    script: str,
    *,
    setup: Callable[[StandClient], dict[str, str]] | None = None,
    cwd: Path = EXAMPLES,
    webhook: bool = False,
    **env: str,
) -> Iterator[Run]:
    """The example bot ``script`` polling a fresh stand; a failed assertion shows the bot's output. ``setup`` runs on
    the stand before the bot starts and gives more of its environment (file ids the example names, say)."""
    require_node(NODE_DIR, "the Node example bots")
    with ThreadedStand(Options(poll_max=1.0)) as served:
        stand = StandClient(served.url)
        environment = {**bot_environment(stand.url), **env, **(setup(stand) if setup else {})}
        if webhook:
            environment["WEBHOOK_PORT"] = str(free_port())
        with BotProcess(["node", str(EXAMPLES / script)], env=environment, cwd=cwd, name=script) as bot:
            try:
                if webhook:
                    stand.wait_until(lambda: sim_get(stand, "/sim/webhook")["webhook"], timeout=STARTUP, what="a hook")
                else:
                    wait_polling(bot, stand)
                yield Run(stand, bot)
            except AssertionError as e:
                raise AssertionError(f"{e}\n--- {script} output ---\n{bot.output()}") from None


def exchange(stand: StandClient, *steps: tuple[str, str]) -> None:
    """The person sends each text and the bot's next message reads the answer."""
    for text, answer in steps:
        stand.send(text)
        stand.expect_reply(answer)


def image(fmt: str = "PNG", size: tuple[int, int] = (40, 30), color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, fmt)
    return out.getvalue()


RECIPES = {
    "results": [
        {"title": "Omelette", "href": "http://recipes.example/omelette", "thumbnail": "http://img.example/o.jpg"},
        {"title": "Plain toast", "href": "http://recipes.example/toast", "thumbnail": ""},
        {"title": "Pancakes", "href": "http://recipes.example/pancakes", "thumbnail": "http://img.example/p.jpg"},
    ]
}


@pytest.fixture(scope="module")
def files() -> Iterator[str]:
    """A local web server for what the examples download from the internet: ``/photo.png`` (and any other name)."""
    png, gif = image(), image("GIF", color="green")

    class Files(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            kind, body = "image/png", png
            if self.path.endswith(".gif"):
                kind, body = "image/gif", gif
            elif self.path.startswith("/api/"):
                kind, body = "application/json", json.dumps(RECIPES).encode()
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Files)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


# ---------------------------------------------------------------------------------------------------- Telegraf


def test_telegraf_echo_bot_copies_with_a_keyboard_and_deletes_the_copy() -> None:
    with example("telegraf_echo.js") as run:
        stand = run.stand
        exchange(stand, ("/start", "Hello"), ("/help", "Help message"))
        stand.send("echo me")
        copy = stand.expect_reply("echo me")
        assert copy.keyboard == (("❤️", "Delete"),)
        assert copy.raw["keyboard"][0][0]["url"] == "http://telegraf.js.org/"  # Telegram normalises the url
        stand.tap("Delete", message_id=copy.message_id)
        stand.wait_call("deleteMessage")
        assert [m.message_id for m in stand.messages() if m.deleted] == [copy.message_id]


def test_telegraf_modules_set_and_list_commands_and_roll_a_dice() -> None:
    with example("telegraf_modules.js") as run:
        stand = run.stand
        exchange(
            stand,
            ("/settings", "Ok"),
            ("/help", "/foo - foo description\n/bar - bar description\n/baz - baz description"),
        )
        stand.send("/start")
        dice = stand.wait_for_reply()
        assert dice.kind == "dice", dice
        assert 1 <= dice.raw["dice"]["value"] <= 6, dice
        stand.send("copy")
        assert stand.expect_reply("copy").keyboard == (("❤️", "Delete"),)


def test_telegraf_custom_context_sees_the_update_and_replies() -> None:
    with example("telegraf_custom_context.js") as run:
        stand = run.stand
        exchange(stand, ("/start", "Hello"), ("/help", "Help message"))
        updates = run.logged("Creating context for ")
        assert [u["message"]["text"] for u in updates] == ["/start", "/help"]
        first = updates[0]["message"]
        assert first["from"]["id"] == ALICE
        assert first["chat"] == {**first["chat"], "type": "private", "id": ALICE}
        assert first["entities"] == [{"offset": 0, "length": 6, "type": "bot_command"}]
        assert [args[0] for args in run.logged("reply called with args: ")] == ["Hello", "Help message"]


def test_telegraf_deeplink_reads_the_start_payload() -> None:
    with example("telegraf_deeplink.js") as run:
        run.stand.send("/start ref-42")
        run.stand.expect_reply("Deep link payload: ref-42")
        run.stand.send("/start")
        run.stand.expect_reply("Deep link payload:")  # Telegram trims the trailing space


def test_telegraf_session_counts_messages() -> None:
    with example("telegraf_session.js") as run:
        for n in (1, 2, 3):
            run.stand.send(f"message {n}")
            run.stand.expect_reply(f"Seen {n} messages.")


def test_telegraf_example_bot(files: str) -> None:
    def setup(stand: StandClient) -> dict[str, str]:
        return {"CAT_PHOTO": stand.send_photo(image(color="blue"), name="cat.png").file_id, "CAT_URL": f"{files}/c.png"}

    with example("telegraf_example.js", setup=setup) as run:
        stand = run.stand
        stand.send("Hey")
        stand.expect_reply("yo")
        counter = stand.expect_reply(html="<i>Hey counter:</i> 1")
        stand.send("Hey")
        stand.expect_reply("yo")
        stand.expect_reply(html="<i>Hey counter:</i> 2")
        assert counter.body == "Hey counter: 1"
        stand.send("/answer")
        stand.expect_reply("yo")
        stand.expect_reply(html="<b>42</b>")
        (answer,) = run.logged("ANSWER ")
        assert answer["text"] == "/answer"
        assert answer["chat"]["id"] == ALICE
        stand.send("/cat")
        assert stand.wait_for_reply().kind == "photo"
        stand.send("/cat2")
        assert stand.wait_for_reply().content is not None
        exchange(stand, ("/foo", "http://coub.com/view/9cjmt"), ("reverse abc", "cba"))
        stand.send("where am I?")
        location = stand.wait_for_reply()
        assert location.kind == "location", location
        assert "response time" in run.bot.output()


def test_telegraf_keyboard_bot(files: str) -> None:
    with example("telegraf_keyboard.js", CAPTION_URL=f"{files}/photo.png", HIDE_PEPPER="1") as run:
        stand = run.stand
        stand.send("/onetime")
        onetime = stand.expect_reply("One time keyboard")
        assert onetime.reply_keyboard == (("/simple",), ("/inline",), ("/pyramid",))  # Markup.keyboard: one a row
        assert onetime.raw["reply_keyboard"]["one_time_keyboard"] is True
        assert onetime.raw["reply_keyboard"]["resize_keyboard"] is True
        stand.press("/simple")
        simple = stand.expect_reply(html="<b>Coke</b> or <i>Pepsi?</i>")
        assert simple.reply_keyboard == (("Coke",), ("Pepsi",))
        stand.send("/custom")
        custom = stand.expect_reply("Custom buttons keyboard")
        assert custom.reply_keyboard[2] == ("📢 Ads", "⭐️ Rate us", "👥 Share")
        stand.press("🔍 Search")
        stand.expect_reply("Yay!")
        stand.send("/special")
        stand.expect_reply("Special buttons keyboard")
        stand.press("Send location", latitude=52.5, longitude=13.4)
        stand.press("Send contact")
        stand.send("/pyramid")
        assert stand.expect_reply("Keyboard wrap").reply_keyboard == (
            ("one",),
            ("two", "three"),
            ("four", "five", "six"),
        )
        stand.send("/wrap 4")
        assert stand.expect_reply("Keyboard wrap").reply_keyboard == (("one", "two", "three", "four"), ("five", "six"))
        stand.send("/inline")
        inline = stand.expect_reply(html="<b>Coke</b> or <i>Pepsi?</i>")
        assert inline.keyboard == (("Coke", "Pepsi"),)
        stand.tap("Pepsi", message_id=inline.message_id)
        assert stand.wait_call("answerCallbackQuery")[-1].params["text"] == "Oh, Pepsi! Great choice"
        stand.send("/random")
        assert stand.expect_reply("random example").keyboard == (("Coke", "Pepsi"),)
        stand.tap(data="Dr Pepper", message_id=stand.messages()[-1].message_id)
        stand.expect_reply("👍")
        assert stand.wait_call("answerCallbackQuery", 2)[-1].params["text"] == "Oh, Dr Pepper! Great choice"
        stand.send("/caption")
        photo = stand.wait_for_reply()
        assert (photo.kind, photo.caption, photo.keyboard) == ("photo", "Caption", (("Plain", "Italic"),))
        stand.tap("Italic", message_id=photo.message_id)
        stand.wait_call("editMessageCaption")
        edited = next(m for m in stand.messages() if m.message_id == photo.message_id)
        assert (edited.html, edited.keyboard) == ("<i>Caption</i>", (("Plain", "* Italic *"),))
        stand.tap("Plain", message_id=photo.message_id)
        stand.wait_call("editMessageCaption", 2)
        edited = next(m for m in stand.messages() if m.message_id == photo.message_id)
        assert (edited.html, edited.keyboard) == ("Caption", (("Plain", "Italic"),))
        kinds = [u.get("message", {}) for u in run.logged_updates()]
        assert any("location" in m for m in kinds)
        assert any("contact" in m for m in kinds)


def test_telegraf_poll_bot() -> None:
    with example("telegraf_poll.js") as run:
        stand = run.stand
        stand.send("/start")
        start = stand.expect_reply("supported commands: /poll /quiz")
        rows = start.raw["reply_keyboard"]["keyboard"]
        assert [b["request_poll"] for row in rows for b in row] == [{"type": "regular"}, {"type": "quiz"}]
        stand.send("/poll")
        poll = stand.wait_for_reply()
        assert poll.poll is not None
        assert poll.poll["is_anonymous"] is False
        stand.vote(poll.message_id, [poll.poll_option("π")])
        stand.wait_until(lambda: run.logged("Poll answer ") or None, what="the poll answer")
        (answer,) = run.logged("Poll answer ")
        assert (answer["user"]["id"], answer["option_ids"]) == (ALICE, [2])
        stand.send("/quiz")
        quiz = stand.wait_for_reply()
        assert quiz.poll is not None
        assert (quiz.poll["type"], quiz.poll["correct_option_id"]) == ("quiz", 0)


def test_telegraf_download_bot_saves_the_photo(tmp_path: Path) -> None:
    picture = image(size=(64, 48))
    with example("telegraf_download.js", cwd=tmp_path) as run:
        sent = run.stand.send_photo(picture, name="me.png")
        run.stand.wait_until(lambda: run.logged_text("Downloaded ") or None, what="the download")
        saved = list((tmp_path / "photos").iterdir())
        assert [p.name for p in saved] == [f"{sent.file_id}.jpg"]
        assert saved[0].read_bytes() == picture


def message(stand: StandClient, message_id: int) -> Any:
    return next(m for m in stand.messages() if m.message_id == message_id)


def test_telegraf_media_bot(files: str, tmp_path: Path) -> None:
    for n, color in ((1, "red"), (2, "green"), (3, "blue")):
        (tmp_path / f"cat{n}.jpeg").write_bytes(image("JPEG", color=color))

    def setup(stand: StandClient) -> dict[str, str]:
        photo = stand.send_photo(image(color="white"), name="p.png").file_id
        gif1 = stand.send_file("animation", image("GIF", color="black"), name="a.gif").file_id
        gif2 = stand.send_file("animation", image("GIF", color="yellow"), name="b.gif").file_id
        return {"PHOTO_ID": photo, "ANIMATION_1": gif1, "ANIMATION_2": gif2, "MEDIA_URL": files, "CATS": str(tmp_path)}

    with example("telegraf_media.js", setup=setup) as run:
        stand = run.stand
        for command in ("local", "stream", "buffer", "pipe", "url"):
            stand.send(f"/{command}")
            assert stand.wait_for_reply().kind == "photo", command
        for command in ("animation", "pipe_animation"):
            stand.send(f"/{command}")
            assert stand.wait_for_reply().kind == "animation", command
        stand.send("/caption")
        assert stand.expect_reply(html="Caption <b>text</b>").kind == "photo"
        stand.send("/album")
        (album,) = stand.wait_call("sendMediaGroup")
        assert album.ok, album
        shown = [m for m in stand.messages() if m.from_bot][-6:]
        assert [m.caption for m in shown] == [
            "From file_id",
            "From URL",
            "Piped from URL",
            "From file",
            "From stream",
            "From buffer",
        ]
        assert len({m.raw.get("media_group_id") for m in shown}) == 1
        stand.send("/edit_media")
        stand.wait_call("sendAnimation", 3)  # the album's messages were never waited for: take the newest
        animation = [m for m in stand.messages() if m.from_bot][-1]
        first = animation.content
        stand.tap("Change media", message_id=animation.message_id)
        (edit,) = stand.wait_call("editMessageMedia")
        assert edit.ok, edit
        swapped = message(stand, animation.message_id)
        assert swapped.kind == "animation"
        assert swapped.content != first
        assert swapped.keyboard == ()


def test_telegraf_game_bot() -> None:
    with example("telegraf_game.js") as run:
        stand = run.stand
        stand.send("/start")
        game = stand.wait_for_reply()
        assert game.keyboard == (("Play your-game",),)
        stand.send("/foo")
        game = stand.wait_for_reply()
        assert game.keyboard == (("🎮 Play now!", "Telegraf help"),)
        stand.tap("🎮 Play now!", message_id=game.message_id)
        (answer,) = stand.wait_call("answerCallbackQuery")
        assert (answer.ok, answer.params["url"]) == (True, "https://your-game.tld"), answer
        assert "https://your-game.tld" in json.dumps(stand.chat()["callbacks"])


def test_telegraf_inline_bot(files: str) -> None:
    with example("telegraf_inline.js", RECIPES_API=files) as run:
        stand = run.stand
        stand.inline_mode(True, feedback=100)
        answer = stand.inline("eggs")
        results = answer["results"]
        assert [r["title"] for r in results] == ["Omelette", "Pancakes"]
        assert results[0]["reply_markup"]["inline_keyboard"][0][0]["url"] == "http://recipes.example/omelette"
        stand.choose("http://img.example/p.jpg")
        chosen = stand.wait_until(lambda: run.logged("chosen inline result ") or None, what="chosen_inline_result")
        assert (chosen[0]["result_id"], chosen[0]["query"]) == ("http://img.example/p.jpg", "eggs")
        picked = list(stand.messages())[-1]
        assert picked.text == "Pancakes"
        assert picked.keyboard == (("Go to recipe",),)


def test_telegraf_live_location_bot() -> None:
    with example("telegraf_live_location.js", LIVE_EVERY_MS="50") as run:
        stand = run.stand
        stand.send("/start")
        live = stand.wait_for_reply()
        assert live.kind == "location"
        assert live.content is not None
        assert live.content["live_period"] == 60
        edits = stand.wait_call("editMessageLiveLocation", 3)
        assert all(c.ok for c in edits), edits
        moved = message(stand, live.message_id).content
        assert moved is not None
        assert moved["latitude"] > 42.0
        stand.move_clock(61)
        stand.wait_until(lambda: run.logged_text("EDIT REFUSED ") or None, what="a refused edit")
        assert run.logged_text("EDIT REFUSED ") == [EXPIRED]


def test_telegraf_live_location_bot_with_the_examples_argument_order() -> None:
    """The example's (lat, lon, chat, message) on Telegraf 4: lat and lon land in chat_id and message_id, the chat id
    in inline_message_id and the message id in latitude; Telegram reads the location first (Client.cpp)."""
    with example("telegraf_live_location.js", LIVE_EVERY_MS="50", LIVE_ARGS="example") as run:
        run.stand.send("/start")
        (edit,) = run.stand.wait_call("editMessageLiveLocation")
        assert (edit.status, edit.response["description"]) == (400, "Bad Request: longitude is empty")
        run.stand.wait_until(lambda: run.logged_text("EDIT REFUSED ") or None, what="a refused edit")


def test_telegraf_login_bot() -> None:
    with example("telegraf_login.js") as run:
        stand = run.stand
        stand.send("/start")
        hello = stand.expect_reply("Hello")
        assert hello.keyboard == (("Login", "❤️", "Delete"),)
        assert hello.raw["keyboard"][0][0]["url"] == "http://domain.tld/hash"  # as Telegram shows a login button
        stand.tap("Delete", message_id=hello.message_id)
        stand.wait_call("deleteMessage")
        assert message(stand, hello.message_id).deleted


def test_telegraf_shop_bot() -> None:
    with example("telegraf_shop.js", PROVIDER_TOKEN="284685063:TEST:shop") as run:
        stand = run.stand
        stand.send("/buy")
        invoice = stand.wait_for_reply()
        assert invoice.keyboard == (("💸 Buy", "❤️"),)
        paid = run.sim(
            "POST",
            "/sim/pay",
            {
                "message_id": invoice.message_id,
                "shipping_address": {
                    "country_code": "US",
                    "state": "CA",
                    "city": "LA",
                    "street_line1": "Main 1",
                    "street_line2": "",
                    "post_code": "90001",
                },
                "shipping_option_id": "unicorn",
            },
        )
        assert paid["status"] == "paid", paid
        done = stand.wait_until(lambda: run.logged("Woohoo ") or None, what="the successful payment")
        assert (done[0]["total_amount"], done[0]["currency"].upper()) == (4200 + 1000 + 2000, "USD")
        assert json.loads(done[0]["invoice_payload"]) == {"coupon": "BLACK FRIDAY"}
        stand.send("/start")
        (_, again) = stand.wait_call("sendInvoice", 2)
        assert again.ok, again
        assert again.response["result"]["invoice"]["title"] == "Working Time Machine"


def test_telegraf_scenes_enter_echo_and_leave() -> None:
    with example("telegraf_scenes.js") as run:
        stand = run.stand
        exchange(stand, ("hello", "Try /echo or /greeter"), ("/echo", "echo scene"), ("ping", "ping"))
        stand.share(location={"latitude": 1.5, "longitude": 2.5})
        stand.expect_reply("Only text messages please")
        exchange(stand, ("/back", "exiting echo scene"), ("ping", "Try /echo or /greeter"), ("/greeter", "Hi"))
        stand.send("what?")
        stand.expect_reply(html="Send <code>hi</code>")
        stand.send("hi")
        stand.expect_reply("Bye")  # entering a scene leaves the current one first
        stand.expect_reply("Hi")
        stand.send("/echo")
        stand.expect_reply(html="Send <code>hi</code>")  # the greeter scene takes every message until its ttl


def test_telegraf_wizard_walks_five_steps() -> None:
    with example("telegraf_wizard.js") as run:
        stand = run.stand
        stand.send("go")
        step1 = stand.expect_reply("Step 1")
        assert step1.keyboard == (("❤️", "➡️ Next"),)
        stand.send("huh")
        stand.expect_reply(html="Press <code>Next</code> button or type /next")
        stand.tap("➡️ Next", message_id=step1.message_id)
        stand.expect_reply("Step 2. Via inline button")
        stand.send("three")
        step3 = stand.expect_reply(containing="[ctx] Step 3.\nYour random myWizardSessionProp is ")
        assert 0 <= int(step3.text.rsplit(" ", 1)[1]) < 10
        exchange(stand, ("four", "Step 4"), ("five", "Done"))
        stand.send("again")
        stand.expect_reply("Step 1")  # the default scene starts over
        stand.send("/next")
        stand.expect_reply("Step 2. Via command")


def test_telegraf_mini_apps() -> None:
    with example("telegraf_mini_apps.js") as run:
        stand = run.stand
        stand.send("/link")
        launch = stand.expect_reply("Launch")
        assert launch.entities == (
            {"type": "text_link", "offset": 0, "length": 6, "url": "https://t.me/$botname/$appname?startapp=$command"},
        )
        stand.send("/inlinekb")
        inline = stand.expect_reply("Launch mini app from inline keyboard!")
        assert inline.raw["keyboard"][0][0]["web_app"] == {"url": "https://feathers.studio/telegraf/webapp/example"}
        stand.send("/keyboard")
        keyboard = stand.expect_reply("Launch mini app from keyboard!")
        (button,) = keyboard.raw["reply_keyboard"]["keyboard"][0]
        assert button["web_app"] == {"url": "https://feathers.studio/telegraf/webapp/example"}
        stand.send("/setmenu")
        (menu,) = stand.wait_call("setChatMenuButton")
        assert menu.ok, menu
        stand.inline_mode(True)
        answer = stand.inline("app")
        assert answer["results"] == []
        assert answer["button"] == {
            "text": "Launch",
            "web_app": {"url": "https://feathers.studio/telegraf/webapp/example"},
        }


def test_telegraf_webhook_bot(files: str) -> None:
    with example("telegraf_webhook.js", webhook=True, IMAGE_URL=f"{files}/photo.png") as run:
        stand = run.stand
        hook = sim_get(stand, "/sim/webhook")["webhook"]
        assert hook["url"].startswith("http://127.0.0.1:"), hook
        assert "/telegraf/" in hook["url"], hook
        exchange(stand, ("hi there", "Hello"), ("/hello", "Hello, friend!"))
        stand.send("/image")
        assert stand.wait_for_reply().kind == "photo"


# ---------------------------------------------------------------------------------------------------- grammY


def test_grammy_echo_bot() -> None:
    with example("grammy_echo.js") as run:
        run.stand.send("Hello, grammY")
        run.stand.expect_reply("Hello, grammY")
        run.stand.share(location={"latitude": 1.5, "longitude": 2.5})
        run.stand.expect_no_reply(within=0.3)  # message:text only
        run.stand.send("again")
        run.stand.expect_reply("again")


def test_grammy_send_message_to_a_user_by_id() -> None:
    require_node(NODE_DIR, "the Node example bots")
    script = ["node", str(EXAMPLES / "grammy_send_message.js")]
    with ThreadedStand(Options(poll_max=1.0)) as served:
        stand = StandClient(served.url)
        env = bot_environment(stand.url)
        stand.send("/start")  # the person has started the bot: it may write to them
        done = subprocess.run(script, env={**os.environ, **env, "USER_ID": str(ALICE)}, capture_output=True, timeout=30)
        assert done.returncode == 0, done.stderr
        stand.expect_reply("I wrote a Telegram bot!")
        # The example's user 1234 has never written to the bot. Telegram refuses that send (chat not found, or the
        # bot can't initiate the conversation); the stand makes the private chat on first use (docs/world.md).
        with BotProcess(script, env={**env, "USER_ID": "1234"}, cwd=EXAMPLES):
            (sent,) = stand.wait_call("sendMessage", since=stand.outbox()[-1].seq)
            assert sent.params["chat_id"] == "1234"


def greeted_in_private(run: Run, counted: str) -> None:
    run.stand.send("/start")
    run.stand.expect_reply(f"Hi there! I will count the {counted} in this chat so you can get your /stats!")


def greeted_in_a_group(run: Run, counted: str) -> None:
    """The bot is put in a new group: ``:new_chat_members:me`` greets it."""
    username = run.sim("GET", "/sim/bots")["bots"][0]["username"]
    club = run.sim("POST", "/sim/chats", {"type": "group", "title": "Club", "members": [f"@{username}"]})
    greeting = f"Hi everyone! I will count the {counted} in this chat so you can get your /stats!"
    run.stand.expect_reply(greeting, chat=club["chat_id"])


def test_grammy_stats_counts_messages_and_edits() -> None:
    with example("grammy_stats.js") as run:
        stand = run.stand
        greeted_in_private(run, "messages")
        sent = stand.send("one")
        stand.edit(sent.message_id, "one, edited")
        stand.send("/stats")
        stand.expect_reply(
            html="You sent <b>4 messages</b> since I'm here! You edited messages <b>1 times</b>—that is "
            "<b>0.25 edits</b> per message on average!"
        )
        greeted_in_a_group(run, "messages")


def test_grammy_stats_lazy_counts_photos() -> None:
    with example("grammy_stats_lazy.js") as run:
        stand = run.stand
        greeted_in_private(run, "photos")
        stand.send_photo(image(), name="a.png")
        stand.send_photo(image(color="blue"), name="b.png")
        stand.send("/stats")
        stand.expect_reply(html="You sent <b>2 photos</b> since I'm here!")
        greeted_in_a_group(run, "photos")


def test_grammy_scaling_routes_a_sum_and_a_product() -> None:
    with example("grammy_scaling.js") as run:
        stand = run.stand
        exchange(
            stand,
            ("hello", "Not a recognised input. If you need help, do /help."),
            ("/help", "To add numbers, do /add. To multiply numbers, do /multiply."),
            ("/add", "Send me the first number to add."),
            ("two", "Please provide a valid number."),
            ("2", "Please provide the next number to add."),
            ("40", "The result of adding the numbers is 42"),
            ("/multiply", "Send me the first number to multiply."),
            ("6", "Please provide the next number to multiply."),
            ("7", "The result of multiplying the numbers is 42"),
        )


def test_grammy_webhook_bot() -> None:
    with example("grammy_webhook.js", webhook=True) as run:
        stand = run.stand
        hook = sim_get(stand, "/sim/webhook")["webhook"]
        assert hook["secret_token"] == "grammy-secret", hook
        exchange(stand, ("/start", "Hi, I'm run faster than you :)"), ("fast?", "You said: fast?"))


# ---------------------------------------------------------------------------------------------- node-telegram-bot-api


def test_ntba_polling_example(files: str, tmp_path: Path) -> None:
    photo = tmp_path / "photo.gif"
    photo.write_bytes(image("GIF", color="green"))
    with example("ntba_polling.js", PHOTO_PATH=str(photo), AUDIO_URL=f"{files}/Example.ogg") as run:
        stand = run.stand
        stand.send("/photo")
        sent = stand.wait_for_reply()
        assert (sent.kind, sent.raw["caption"]) == ("photo", "I'm a bot!"), sent
        assert sent.content is not None
        assert (sent.content["width"], sent.content["height"]) == (40, 30)
        stand.send("/audio")
        assert stand.wait_for_reply().kind == "audio"
        asked = stand.send("/love")
        love = stand.expect_reply("Do you love me?")
        assert love.reply_keyboard == (("Yes, you are the bot of my life ❤",), ("No, sorry there is another one...",))
        assert love.raw["reply_to_message_id"] == asked.message_id
        exchange(stand, ("/echo hello there", "hello there"))
        stand.send("/editable")
        editable = stand.expect_reply("Original Text")
        assert editable.keyboard == (("Edit Text",),)
        stand.tap("Edit Text", message_id=editable.message_id)
        (edit,) = stand.wait_call("editMessageText")
        assert edit.ok, edit
        assert message(stand, editable.message_id).text == "Edited Text"


def test_ntba_webhook_example() -> None:
    with example("ntba_webhook.js", webhook=True) as run:
        stand = run.stand
        hook = sim_get(stand, "/sim/webhook")["webhook"]
        assert hook["url"].startswith("http://127.0.0.1:"), hook
        assert hook["url"].endswith(f"/bot{DEFAULT_BOT_TOKEN}"), hook
        exchange(stand, ("ping", "I am alive!"))
        stand.share(location={"latitude": 1.5, "longitude": 2.5})
        stand.expect_reply("I am alive!")
        view = sim_get(stand, "/sim/webhook")
        assert [d["ok"] for d in view["deliveries"]] == [True, True], view


def test_ntba_game_example() -> None:
    port = free_port()
    with example("ntba_game.js", TELEGRAM_GAMENAME="medusalab_test", GAME_PORT=str(port)) as run:
        stand = run.stand
        stand.send("/start")
        game = stand.wait_for_reply()
        assert game.keyboard == (("Play medusalab_test",),), game
        stand.tap("Play medusalab_test", message_id=game.message_id)
        (answer,) = stand.wait_call("answerCallbackQuery")
        assert (answer.ok, answer.params["url"]) == (True, f"http://127.0.0.1:{port}/"), answer
        (tapped,) = run.logged("GAME ")
        assert tapped == {"game_short_name": "medusalab_test"}  # no data: a game button carries none
        with urllib.request.urlopen(answer.params["url"], timeout=5) as page:
            assert b"The game" in page.read()


def test_ntba_inline_bot() -> None:
    with example("ntba_inline.js") as run:
        stand = run.stand
        stand.inline_mode(True, feedback=100)
        answer = stand.inline("tea")
        assert [r["title"] for r in answer["results"]] == ["TEA", "Bold tea"]
        assert (answer["is_personal"], answer["cache_time"]) == (True, 0), answer
        picked = stand.choose("bold")
        shown = message(stand, picked.message_id)
        assert (shown.text, [e["type"] for e in shown.raw["entities"]]) == ("tea", ["bold"]), shown
        chosen = stand.wait_until(lambda: run.logged("CHOSEN ") or None, what="chosen_inline_result")
        assert (chosen[0]["result_id"], chosen[0]["query"]) == ("bold", "tea")
