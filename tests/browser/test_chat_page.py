"""The chat page in a real browser: headless Chromium renders the conversation it reads from the sim API."""

from __future__ import annotations

import json
import shutil
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tgfake.testing import StandClient

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

# CI installs Chromium (.ci/run); a developer machine without it skips, and says so.
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")


def bot_call(base: str, method: str, **params: str) -> dict[str, object]:
    data = urllib.parse.urlencode(params).encode()
    with urllib.request.urlopen(f"{base}/bot1:page/{method}", data=data, timeout=10) as resp:
        return dict(json.loads(resp.read()))


def rendered_dom(url: str, profile: Path) -> str:
    """The page's DOM after its scripts ran (Chromium's virtual time lets the page's fetches settle)."""
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def test_the_page_renders_the_conversation_keyboard_draft_and_outbox(tgfake: StandClient, tmp_path: Path) -> None:
    tgfake.send("/start")
    keyboard = json.dumps({"inline_keyboard": [[{"text": "Ping", "callback_data": "ping"}]]})
    assert bot_call(tgfake.url, "sendMessage", chat_id="4242", text="Hi from the bot", reply_markup=keyboard)["ok"]
    assert bot_call(tgfake.url, "sendMessageDraft", chat_id="4242", draft_id="9", text="Still thinking")["ok"]
    dom = rendered_dom(tgfake.url + "/", tmp_path / "profile")
    assert "/start" in dom
    assert "Hi from the bot" in dom
    assert ">Ping</button>" in dom
    assert "Still thinking" in dom
    assert "sendMessageDraft 200" in dom  # the Bot API calls column


def test_the_page_renders_formatting_from_entities_and_keeps_bot_text_inert(
    tgfake: StandClient, tmp_path: Path
) -> None:
    tgfake.send("/start")
    text = "<b>Bold</b> <i>it</i> <code>x&lt;y</code> &lt;img src=x onerror=alert(1)&gt; <tg-spoiler>s</tg-spoiler>"
    assert bot_call(tgfake.url, "sendMessage", chat_id="4242", text=text, parse_mode="HTML")["ok"]
    dom = rendered_dom(tgfake.url + "/", tmp_path / "profile")
    assert "<b>Bold</b>" in dom
    assert "<i>it</i>" in dom
    assert "<code>x&lt;y</code>" in dom
    assert "&lt;img src=x onerror=alert(1)&gt;" in dom  # the bot's text is text, never markup
    assert '<span class="spoiler">s</span>' in dom
