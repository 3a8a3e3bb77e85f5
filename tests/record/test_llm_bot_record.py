"""An LLM bot's conversation recorded once and replayed offline: the dialog example bot (python-telegram-bot on the
openai SDK, streaming, one tool call) talks to a stand whose model records from an upstream model; then a fresh
stand replays the recorded rules with the upstream gone, and the chat's transcript is the same."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import aiohttp
from aiohttp import web

from llmstub import Model, ModelOptions
from llmstub.record import RecordingModel, RecordOptions
from llmstub.rules import load_rules_file
from tgfake.app import create_app
from tgfake.options import Options
from tgfake.server import serve

BOT = Path(__file__).resolve().parents[2] / "examples" / "dialogbot" / "dialogbot.py"
UPSTREAM_RULES = [
    {
        "name": "weather",
        "match": "weather",
        "tools": ["get_weather"],
        "steps": [
            {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"tool_name": "get_weather", "answer": "In Paris it is sunny and warm today."},
        ],
    }
]


async def talk_to(model: Model) -> str:
    """The person asks the bot about the weather on a stand served by ``model``; the chat's transcript."""
    runner, port = await serve(create_app(Options(), model=model), "127.0.0.1", 0)
    origin = f"http://127.0.0.1:{port}"
    env = {"TELEGRAM_API": origin, "BOT_TOKEN": "123:abc", "OPENAI_BASE_URL": f"{origin}/v1",
           "OPENAI_API_KEY": "sk-the-bots-own-key", "STREAM_INTERVAL": "0", "PATH": "/usr/bin:/bin"}
    bot = await asyncio.create_subprocess_exec(sys.executable, str(BOT), env=env, stderr=asyncio.subprocess.DEVNULL)
    try:
        async with aiohttp.ClientSession(origin) as http:
            async with http.get("/sim/wait", params={"polling": "1", "timeout": "30"}) as response:
                assert response.status == 200
            async with http.post("/sim/message", json={"text": "What is the weather in Paris?"}) as response:
                assert response.status == 200
            async with http.get("/sim/wait", params={"method": "sendMessage", "timeout": "30"}) as response:
                assert response.status == 200, await response.text()
            async with http.get("/sim/chat/4242", params={"format": "text"}) as response:
                transcript = await response.text()
    finally:
        bot.terminate()
        await asyncio.wait_for(bot.wait(), 15)
        await runner.cleanup()
    return "\n".join(line for line in transcript.splitlines() if line != "typing…")


async def test_an_llm_bot_recorded_once_replays_offline_with_the_same_transcript(tmp_path: Path) -> None:
    upstream_app = web.Application()
    upstream_model = Model(ModelOptions(rules=UPSTREAM_RULES, chunk_words=2))
    upstream_model.register(upstream_app)
    upstream_runner, upstream_port = await serve(upstream_app, "127.0.0.1", 0)
    path = tmp_path / "recorded.json"
    try:
        record = RecordOptions(file=path, openai=f"http://127.0.0.1:{upstream_port}/v1")
        recorded = await talk_to(RecordingModel(ModelOptions(), record))
    finally:
        await upstream_runner.cleanup()
    assert upstream_model.calls == 2  # the tool call, then the answer that read its result
    assert "In Paris it is sunny and warm today." in recorded
    assert "sk-the-bots-own-key" not in path.read_text()

    replayed = await talk_to(Model(ModelOptions(rules=load_rules_file(path))))
    assert replayed == recorded
