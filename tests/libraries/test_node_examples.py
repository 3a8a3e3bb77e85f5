"""Telegraf's and grammY's own example bots, each rewritten in tests/libraries/node/examples in the same shape (the
same handlers, calls, parameters and flow; only the API root points at the stand, and what needs the network is
served locally). Every test starts a stand of its own, runs the bot as a subprocess, waits until it polls, plays the
person through the testing client and checks what the person sees and what the bot received (the bots that log
what they got print it, and an exception in a handler stops the bot, which shows in the failure's output).

Examples: feathers-studio/telegraf-docs ``examples/`` (the docs repo that telegraf's ``docs/examples`` moved to) and
grammyjs/examples. Without ``npm ci`` in tests/libraries/node they are skipped on a developer's machine and fail in
CI (``CI`` or ``TGFAKE_REQUIRE_NODE`` set), as tests/libraries/test_libraries.py's Node bots do.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.libraries.test_libraries import NODE_DIR, wait_polling
from tests.node_support import require_node
from tgfake.options import Options
from tgfake.testing import BotProcess, StandClient, ThreadedStand, bot_environment

pytestmark = pytest.mark.node
EXAMPLES = NODE_DIR / "examples"
ALICE = 4242


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

    def logged(self, marker: str) -> list[Any]:
        """The JSON the bot printed after ``marker`` on each of its output lines."""
        out = []
        for line in self.bot.output().splitlines():
            if line.startswith(marker):
                out.append(json.loads(line[len(marker) :]))
        return out


@contextmanager
def example(script: str, **env: str) -> Iterator[Run]:
    """The example bot ``script`` polling a fresh stand; a failed assertion shows the bot's output."""
    require_node(NODE_DIR, "the Node example bots")
    with ThreadedStand(Options(poll_max=1.0)) as served:
        stand = StandClient(served.url)
        environment = {**bot_environment(stand.url), **env}
        with BotProcess(["node", str(EXAMPLES / script)], env=environment, cwd=EXAMPLES, name=script) as bot:
            try:
                wait_polling(bot, stand)
                yield Run(stand, bot)
            except AssertionError as e:
                raise AssertionError(f"{e}\n--- {script} output ---\n{bot.output()}") from None


def last_bot_message(stand: StandClient) -> Any:
    return [m for m in stand.messages() if m.from_bot][-1]


# ---------------------------------------------------------------------------------------------------- Telegraf


def test_telegraf_echo_bot_copies_with_a_keyboard_and_deletes_the_copy() -> None:
    with example("telegraf_echo.js") as run:
        stand = run.stand
        stand.send("/start")
        stand.expect_reply("Hello")
        stand.send("/help")
        stand.expect_reply("Help message")
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
        stand.send("/settings")
        stand.expect_reply("Ok")
        stand.send("/help")
        stand.expect_reply("/foo - foo description\n/bar - bar description\n/baz - baz description")
        stand.send("/start")
        dice = stand.wait_for_reply()
        assert dice.kind == "dice" and 1 <= dice.raw["dice"]["value"] <= 6, dice
        stand.send("copy")
        assert stand.expect_reply("copy").keyboard == (("❤️", "Delete"),)


def test_telegraf_custom_context_sees_the_update_and_replies() -> None:
    with example("telegraf_custom_context.js") as run:
        stand = run.stand
        stand.send("/start")
        stand.expect_reply("Hello")
        stand.send("/help")
        stand.expect_reply("Help message")
        updates = run.logged("Creating context for ")
        assert [u["message"]["text"] for u in updates] == ["/start", "/help"]
        first = updates[0]["message"]
        assert first["from"]["id"] == ALICE and first["chat"] == {**first["chat"], "type": "private", "id": ALICE}
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
