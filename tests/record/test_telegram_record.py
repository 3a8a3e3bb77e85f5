"""``tgfake record`` / ``tgfake replay``: the dialog example bot talks to an upstream stand through the recording
proxy, and the recording replays green on a fresh stand, and fails with a diff when the bot's reply changes."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web

from llmstub import Model, ModelOptions
from tgfake.app import create_app
from tgfake.cli import main
from tgfake.options import Options
from tgfake.record import Talk, call_lines, create_recorder, diff_lines, replay
from tgfake.server import serve

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "examples" / "dialogbot" / "dialogbot.py"
TOKEN = "111222:AAHrealLookingSecretToken_0123456789"


@pytest_asyncio.fixture
async def upstream() -> AsyncIterator[str]:
    """The "real" Bot API: a stand with its model, on a free port."""
    runner, port = await serve(create_app(Options(), model=Model(ModelOptions())), "127.0.0.1", 0)
    yield f"http://127.0.0.1:{port}"
    await runner.cleanup()


async def serve_app(app: web.Application) -> tuple[web.AppRunner, str]:
    runner, port = await serve(app, "127.0.0.1", 0)
    return runner, f"http://127.0.0.1:{port}"


async def get(http: aiohttp.ClientSession, url: str) -> Any:
    async with http.get(url) as response:
        assert response.status == 200, await response.text()
        return await response.json()


async def record_dialog(upstream: str, path: Path) -> None:
    """Run the dialog bot against the proxy; the person says /start and a question on the upstream."""
    runner, proxy = await serve_app(create_recorder(upstream, str(path)))
    env = {"TELEGRAM_API": proxy, "BOT_TOKEN": TOKEN, "OPENAI_BASE_URL": f"{upstream}/v1", "OPENAI_API_KEY": "k",
           "STREAM_INTERVAL": "0", "PATH": "/usr/bin:/bin"}
    bot = await asyncio.create_subprocess_exec(sys.executable, str(BOT), env=env, stderr=asyncio.subprocess.DEVNULL)
    try:
        async with aiohttp.ClientSession() as http:
            await get(http, f"{upstream}/sim/wait?polling=1&timeout=30")
            for number, text in enumerate(["/start", "hello there"], start=1):
                async with http.post(f"{upstream}/sim/message", json={"text": text}) as response:
                    assert response.status == 200
                await get(http, f"{upstream}/sim/wait?method=sendMessage&count={number}&timeout=30")
                await get(http, f"{upstream}/sim/wait?polling=1&timeout=30")
    finally:
        bot.terminate()
        await asyncio.wait_for(bot.wait(), 15)
        await runner.cleanup()


async def test_a_recorded_conversation_replays_green_and_a_changed_reply_fails_with_a_diff(
    upstream: str, tmp_path: Path
) -> None:
    path = tmp_path / "talk.json"
    await record_dialog(upstream, path)
    text = path.read_text()
    assert TOKEN not in text
    assert "AAHrealLooking" not in text
    talk = Talk.load(path)
    assert [update["message"]["text"] for update, _calls in talk.turns()] == ["/start", "hello there"]
    lines = call_lines(talk.calls)
    assert any("Hi! I am a bot on a language model" in line for line in lines), lines
    assert any("You said: hello there" in line for line in lines), lines

    same = await replay(path, [sys.executable, str(BOT)], model=Model(ModelOptions()), timeout=30)
    assert same.skipped == []
    assert same.diff == "", same.output
    assert same.replayed == lines

    changed = tmp_path / "changed_bot.py"
    changed.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(BOT.parent)!r})\n"
        "import dialogbot\n"
        "dialogbot.GREETING = 'Hello! I changed my greeting.'\n"
        "dialogbot.main()\n"
    )
    command = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tgfake", "replay", str(path), "--llm", "--llm-delay", "0", "--timeout", "30", "--",
        sys.executable, str(changed), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(command.communicate(), 120)
    printed = out.decode()
    assert command.returncode == 1, err.decode()
    assert printed.startswith(f"tgfake replay: the bot's calls differ from {path}\n--- recorded\n+++ replayed\n@@ ")
    removed = [line for line in printed.splitlines() if line.startswith("-sendMessage")]
    added = [line for line in printed.splitlines() if line.startswith("+sendMessage")]
    assert len(removed) == len(added) == 1
    assert "Hi! I am a bot on a language model" in removed[0]
    assert "Hello! I changed my greeting." in added[0]


def test_volatile_fields_are_normalised_and_further_ignores_apply() -> None:
    def call(message_id: str, date: int) -> dict[str, Any]:
        markup = json.dumps({"k": [{"date": date}]})
        params = {"chat_id": "4242", "text": "hi", "reply_to_message_id": message_id, "reply_markup": markup}
        return {"method": "sendMessage", "params": params}

    recorded, replayed = [call("7", 1)], [call("12", 2)]
    assert diff_lines(call_lines(recorded), call_lines(replayed)) == ""
    replayed[0]["params"]["chat_id"] = "5"
    assert diff_lines(call_lines(recorded), call_lines(replayed)) != ""
    ignored = ["chat_id"]
    assert diff_lines(call_lines(recorded, ignore_fields=ignored), call_lines(replayed, ignore_fields=ignored)) == ""


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[]", 'not a tgfake recording (no "tgfake_recording": 1)'),
        ("{", "not JSON: "),
        ('{"tgfake_recording": 1, "calls": [{"params": {}}]}', "calls must be a list of objects with a method"),
    ],
)
def test_a_broken_recording_is_refused_naming_the_file(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "talk.json"
    path.write_text(content)
    assert main(["replay", str(path), "--", sys.executable, "-c", "pass"]) == 1
    assert capsys.readouterr().err.startswith(f"tgfake replay: {path}: {message}")


async def test_the_proxy_records_uploads_by_hash_and_never_the_token(upstream: str, tmp_path: Path) -> None:
    path = tmp_path / "talk.json"
    runner, proxy = await serve_app(create_recorder(upstream, str(path)))
    try:
        async with aiohttp.ClientSession() as http:
            form = aiohttp.FormData()
            form.add_field("chat_id", "4242")
            form.add_field("caption", f"sent with {TOKEN}")
            form.add_field("document", b"hello file", filename="notes.txt", content_type="text/plain")
            async with http.post(f"{proxy}/bot{TOKEN}/sendDocument", data=form) as response:
                sent = await response.json()
            assert sent["ok"], sent
            file_id = sent["result"]["document"]["file_id"]
            async with http.post(f"{proxy}/bot{TOKEN}/getFile", json={"file_id": file_id}) as response:
                file_path = (await response.json())["result"]["file_path"]
            async with http.get(f"{proxy}/file/bot{TOKEN}/{file_path}") as response:
                assert await response.read() == b"hello file"
    finally:
        await runner.cleanup()
    text = path.read_text()
    assert TOKEN not in text
    document = Talk.load(path).calls[0]
    assert document["params"]["document"] == "notes.txt (10 bytes)"
    assert document["params"]["caption"] == "sent with <token>"
    assert document["uploads"] == {"document": "sha256:" + hashlib.sha256(b"hello file").hexdigest()}
    assert [call["method"] for call in Talk.load(path).calls] == ["sendDocument", "getFile"]


async def test_an_upstream_that_does_not_answer_is_a_502_in_the_envelope(tmp_path: Path) -> None:
    runner, proxy = await serve_app(create_recorder("http://127.0.0.1:9", str(tmp_path / "talk.json")))
    try:
        async with aiohttp.ClientSession() as http, http.post(f"{proxy}/bot{TOKEN}/getMe") as response:
            body = await response.json()
            assert response.status == 502
    finally:
        await runner.cleanup()
    assert body["ok"] is False
    assert body["error_code"] == 502
    assert body["description"].startswith("Bad Gateway: the upstream http://127.0.0.1:9 did not answer: ")
    assert not (tmp_path / "talk.json").exists()


async def test_the_record_command_serves_the_proxy_until_it_is_stopped(upstream: str, tmp_path: Path) -> None:
    path = tmp_path / "talk.json"
    command = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tgfake", "record", "--upstream", upstream, "-o", str(path), "--addr", "127.0.0.1:0",
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert command.stdout is not None
        banner = (await asyncio.wait_for(command.stdout.readline(), 30)).decode()
        assert banner.startswith("tgfake record: Bot API at http://127.0.0.1:")
        assert banner.endswith(f" → {upstream}, writing {path}\n")
        proxy = banner.split(" at ", 1)[1].split(" ", 1)[0]
        async with aiohttp.ClientSession() as http, http.get(f"{proxy}/bot{TOKEN}/getMe") as response:
            assert (await response.json())["ok"]
    finally:
        command.terminate()
        assert await asyncio.wait_for(command.wait(), 15) == 0
    assert Talk.load(path).bot["is_bot"] is True
