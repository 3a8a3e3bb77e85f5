"""Six Bot API libraries, polling and webhook: each one's small, unmodified bot plays the same dialog.

Every case gets a stand of its own (a ThreadedStand on a free port: a webhook survives a reset, so cases
cannot share one), starts the bot as a subprocess pointed at it, waits on the stand until the bot polls
or has set its webhook, then plays tests/libraries/dialog.py. Nothing sleeps: every step is a
server-held wait. The Node bots need ``npm ci`` at the repository root; without Node they are skipped
on a developer's machine and fail in CI (tests/requirements.py).
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from tests.libraries.dialog import play
from tests.node_support import require_node
from tgfake.options import Options
from tgfake.testing import BotProcess, StandClient, ThreadedStand, bot_environment

HERE = Path(__file__).parent
NODE_DIR = HERE / "node"
SECRET = "matrix-secret_1"
STARTUP = 30.0  # seconds a bot may take to poll or set its webhook (aiogram alone imports for seconds on a busy CI)


@dataclass(frozen=True)
class Library:
    name: str
    package: str  # the PyPI distribution or npm package whose version the matrix pins
    bot: str  # the bot's file, relative to tests/libraries
    node: bool = False

    @property
    def command(self) -> list[str]:
        return ["node" if self.node else "python", str(HERE / self.bot)]

    def version(self) -> str:
        if self.node:
            pinned: dict[str, str] = json.loads((NODE_DIR / "package.json").read_text())["dependencies"]
            return pinned[self.package]
        return version(self.package)


LIBRARIES = [
    Library("python-telegram-bot", "python-telegram-bot", "bots/ptb_bot.py"),
    Library("aiogram", "aiogram", "bots/aiogram_bot.py"),
    Library("pyTelegramBotAPI", "pyTelegramBotAPI", "bots/telebot_bot.py"),
    Library("Telegraf", "telegraf", "node/telegraf_bot.js", node=True),
    Library("grammY", "grammy", "node/grammy_bot.js", node=True),
    Library("node-telegram-bot-api", "node-telegram-bot-api", "node/ntba_bot.js", node=True),
]
MODES = ["polling", "webhook"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def stand() -> Iterator[StandClient]:
    with ThreadedStand(Options(poll_max=1.0)) as served:
        yield StandClient(served.url)


def cases() -> Iterator[object]:
    for lib in LIBRARIES:
        for mode in MODES:
            marks = [pytest.mark.node] if lib.node else []
            yield pytest.param(lib, mode, id=f"{lib.name}-{mode}", marks=marks)


@pytest.mark.parametrize(("lib", "mode"), list(cases()))
def test_the_dialog(lib: Library, mode: str, stand: StandClient) -> None:
    if lib.node:
        require_node(NODE_DIR, "the Node library bots")
    env = {**bot_environment(stand.url), "BOT_MODE": mode}
    hook = ""
    if mode == "webhook":
        port = free_port()
        hook = f"http://127.0.0.1:{port}/hook"
        env |= {"WEBHOOK_URL": hook, "WEBHOOK_PORT": str(port), "WEBHOOK_SECRET": SECRET}
    with BotProcess(lib.command, env=env, cwd=HERE, name=f"{lib.name} ({mode})") as bot:
        try:
            if mode == "webhook":
                webhook = stand.wait_until(
                    lambda: sim_get(stand, "/sim/webhook")["webhook"], timeout=STARTUP, what="a webhook"
                )
                assert (webhook["url"].startswith(hook), webhook["secret_token"]) == (True, SECRET), webhook
            else:
                wait_polling(bot, stand)
            play(stand)
            if mode == "webhook":
                assert_delivered(stand, updates=4)
        except AssertionError as e:
            raise AssertionError(f"{e}\n--- {bot.name} output ---\n{bot.output()}") from None


def sim_get(stand: StandClient, path: str, timeout: float = 10.0) -> dict[str, Any]:
    """A sim route's JSON (200 or 408: a server-held wait that ran out answers 408)."""
    try:
        with urllib.request.urlopen(f"{stand.url}{path}", timeout=timeout + 5) as resp:
            body: dict[str, Any] = json.loads(resp.read())
    except urllib.error.HTTPError as e:
        if e.code != 408:
            raise
        body = {"timed_out": True, **json.loads(e.read())}
    return body


def wait_polling(bot: BotProcess, stand: StandClient, timeout: float = STARTUP) -> None:
    """Until the bot holds a getUpdates (``/sim/wait?polling=1``), in one-second slices so a crash shows at once."""
    deadline = time.monotonic() + timeout
    while bot.alive() and time.monotonic() < deadline:
        if not sim_get(stand, "/sim/wait?polling=1&timeout=1", timeout=1).get("timed_out"):
            return
    raise AssertionError(f"the bot is not polling (exit status {bot.returncode})")


def assert_delivered(stand: StandClient, updates: int) -> None:
    """Every update reached the bot's own webhook server, and every method it put in an answer was served.

    Failed attempts are allowed: PTB's run_webhook and aiogram's on_startup set the webhook before their
    server listens, so a first delivery may be refused and retried, as Telegram would.
    """
    # the bot answers an update's webhook POST after the calls it makes for it: wait for that answer on the server
    view = sim_get(stand, f"/sim/webhook/wait?delivered={updates}&timeout=10")
    confirmed = [d for d in view["deliveries"] if d["ok"]]
    assert sorted({d["update_id"] for d in confirmed}) == list(range(1, updates + 1)), view
    assert {d["status"] for d in confirmed} == {200}, view
    replies = [(d["reply_method"], d["reply_status"]) for d in confirmed if d.get("reply_method")]
    assert all(status == 200 for _, status in replies), replies
    assert stand.count("getUpdates") == 0
