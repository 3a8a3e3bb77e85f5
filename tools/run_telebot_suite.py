"""Run pyTelegramBotAPI's own online tests (``tests/test_telebot.py`` of a checkout) against a stand of this tree.

    python -m tools.run_telebot_suite /path/to/pyTelegramBotAPI [pytest args...]

The suite talks to api.telegram.org when ``TOKEN``, ``CHAT_ID`` and ``GROUP_ID`` are set. This starts
``python -m tgfake`` on a free port with a fixed token, sets up the world the maintainers' chats give them (alice has
started the bot: her private chat is ``CHAT_ID``; a supergroup with two more members where the bot is an
administrator is ``GROUP_ID``), points ``telebot.apihelper`` at the stand and runs pytest in the checkout's
``tests/`` (its files are opened by relative paths). Only the address and the three variables are set: the tests
run as written. A discovery tool, not collected by pytest and not run in CI (docs/testing.md says what passes).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

TOKEN = "111222:telebot-suite-token"
ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _sim(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def _wait_up(base: str, stand: subprocess.Popen[bytes]) -> None:
    for _ in range(100):
        if stand.poll() is not None:
            raise SystemExit(f"the stand exited with {stand.returncode}")
        try:
            _sim(base, "/sim/clock")
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the stand did not answer within 10s")


class PointAtStand:
    """A pytest plugin object: telebot's server address set before the suite's modules are imported."""

    def __init__(self, base: str) -> None:
        self.base = base

    def pytest_configure(self) -> None:
        from telebot import apihelper

        apihelper.API_URL = self.base + "/bot{0}/{1}"  # type: ignore[assignment]  # typed None upstream
        apihelper.FILE_URL = self.base + "/file/bot{0}/{1}"  # type: ignore[assignment]


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    checkout, pytest_args = Path(argv[0]).resolve(), argv[1:]
    base = f"http://127.0.0.1:{_free_port()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    addr = base.removeprefix("http://")
    stand = subprocess.Popen([sys.executable, "-m", "tgfake", "--addr", addr, "--token", TOKEN], env=env, cwd=ROOT)
    try:
        _wait_up(base, stand)
        _sim(base, "/sim/message", {"text": "/start"})
        group = _sim(
            base,
            "/sim/chats",
            {"type": "supergroup", "title": "telebot suite", "members": ["bob", "carol"], "admins": ["@tgfake_bot"]},
        )
        os.environ.update(TOKEN=TOKEN, CHAT_ID="4242", GROUP_ID=str(group["chat_id"]))
        import pytest

        os.chdir(checkout / "tests")
        args = ["test_telebot.py", "-q", "-p", "no:cacheprovider", "-p", "no:tgfake", *pytest_args]
        return int(pytest.main(args, plugins=[PointAtStand(base)]))
    finally:
        stand.terminate()
        stand.wait(10)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
