"""``tgfake replay talk.json -- python my_bot.py``: a recorded conversation played to a bot on a fresh stand.

A stand is started in this process (its bot named as the recording's ``getMe`` named it), the bot's command is run
with ``TELEGRAM_API`` and ``BOT_TOKEN`` pointing at it (``OPENAI_BASE_URL`` too when a model is served), and every
recorded update is played by the person it came from through the sim API (``POST /sim/message``, ``/sim/callback``),
each after the bot has made the calls it made for the previous one (``GET /sim/wait``, bounded). Then the bot's calls
(``GET /sim/outbox``) are compared with the recorded ones, normalised (:mod:`tgfake.record.talk`), as a unified diff.
Only public routes are used, so the stand's insides may change freely.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp

from ..app import create_app
from ..options import Options
from ..server import serve
from .talk import NOISE, Talk, call_lines, diff_lines

if TYPE_CHECKING:
    from llmstub import Model

__all__ = ["ReplayResult", "assert_replays", "replay", "replay_talk"]

STOP_GRACE = 10.0
"""How long the bot gets to stop after SIGTERM before it is killed."""


@dataclass
class ReplayResult:
    """What a replay found: the compared lines of both sides, their diff (empty: the bot did the same), the updates
    that could not be played, and the bot's output."""

    recorded: list[str]
    replayed: list[str]
    diff: str
    skipped: list[str] = field(default_factory=list)
    output: str = ""

    @property
    def ok(self) -> bool:
        return not self.diff


def _sender(update: Mapping[str, Any], chat: Mapping[str, Any] | None) -> dict[str, Any]:
    person = update.get("from") or {}
    body: dict[str, Any] = {"user_id": person.get("id", 4242)}
    for name in ("username", "first_name", "last_name"):
        if person.get(name):
            body[name] = person[name]
    if chat and chat.get("type") != "private":
        body |= {"chat_id": chat["id"], "chat_type": chat["type"]}
        if chat.get("title"):
            body["chat_title"] = chat["title"]
    return body


def sim_action(update: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | str:
    """The sim route and body that make the person do what ``update`` reports, or why it cannot be played."""
    message = update.get("message")
    if isinstance(message, dict) and isinstance(message.get("text"), str):
        return "/sim/message", _sender(message, message.get("chat")) | {"text": message["text"]}
    query = update.get("callback_query")
    if isinstance(query, dict) and isinstance(query.get("data"), str):
        chat = (query.get("message") or {}).get("chat")
        body = _sender(query, chat) | {"data": query["data"]}
        if chat:
            body["chat_id"] = chat["id"]
        return "/sim/callback", body
    kinds = [key for key in update if key != "update_id"]
    return f"update {update.get('update_id')}: {', '.join(kinds) or 'empty'} is not replayed (text messages and " \
        "callback buttons are)"


async def _read_all(stream: asyncio.StreamReader | None) -> bytes:
    return await stream.read() if stream is not None else b""


async def _get(http: aiohttp.ClientSession, path: str, **query: Any) -> tuple[int, Any]:
    async with http.get(path, params={k: str(v) for k, v in query.items()}) as response:
        return response.status, await response.json()


async def replay_talk(
    talk: Talk,
    command: Sequence[str],
    *,
    ignore_methods: Iterable[str] = NOISE,
    ignore_fields: Iterable[str] = (),
    timeout: float = 10.0,
    model: Model | None = None,
    env: Mapping[str, str] | None = None,
) -> ReplayResult:
    """Play ``talk`` to the bot ``command`` starts, on a fresh stand; ``timeout`` bounds each wait (0..60 s)."""
    bot = talk.bot
    options = Options(
        token=f"{bot.get('id', 123456)}:tgfake-replay",
        bot_username=bot.get("username") or "tgfake_bot",
        bot_name=bot.get("first_name") or "tgfake bot",
    )
    app = create_app(options, model=model)
    runner, port = await serve(app, "127.0.0.1", 0)
    origin = f"http://127.0.0.1:{port}"
    bot_env = dict(os.environ if env is None else env) | {"TELEGRAM_API": origin, "BOT_TOKEN": options.token}
    if model is not None:
        bot_env["OPENAI_BASE_URL"] = f"{origin}/v1"
        bot_env.setdefault("OPENAI_API_KEY", "tgfake")
    wait = min(max(timeout, 0.0), 60.0)
    skipped_methods = {method.lower() for method in ignore_methods}
    skipped: list[str] = []
    process = await asyncio.create_subprocess_exec(
        *command, env=bot_env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    output = asyncio.ensure_future(_read_all(process.stdout))
    try:
        async with aiohttp.ClientSession(origin, timeout=aiohttp.ClientTimeout(total=wait + 10)) as http:
            await _get(http, "/sim/wait", polling=1, timeout=wait)
            for update, calls in talk.turns():
                action = sim_action(update)
                if isinstance(action, str):
                    skipped.append(action)
                    continue
                _, counted = await _get(http, "/sim/outbox/count")
                async with http.post(action[0], json=action[1]) as response:
                    if response.status != 200:
                        skipped.append(f"{action[0]} {action[1]}: {response.status} {await response.text()}")
                        continue
                expected = [c["method"] for c in calls if c["method"].lower() not in skipped_methods]
                if expected:
                    last = expected[-1]
                    await _get(http, "/sim/wait", method=last, count=expected.count(last),
                               since=counted.get("count", 0), timeout=wait)
                await _get(http, "/sim/wait", polling=1, timeout=wait)
            _, outbox = await _get(http, "/sim/outbox")
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), STOP_GRACE)
            except TimeoutError:
                process.kill()
                await process.wait()
        await runner.cleanup()
    printed = ""
    with contextlib.suppress(OSError, ValueError):
        printed = (await asyncio.wait_for(output, STOP_GRACE)).decode("utf-8", errors="replace")
    recorded = call_lines(talk.calls, ignore_methods=ignore_methods, ignore_fields=ignore_fields)
    replayed = call_lines(outbox.get("calls") or (), ignore_methods=ignore_methods, ignore_fields=ignore_fields)
    return ReplayResult(recorded, replayed, diff_lines(recorded, replayed), skipped, printed)


async def replay(path: str | Path, command: Sequence[str], **options: Any) -> ReplayResult:
    """:func:`replay_talk` of the recording at ``path``."""
    return await replay_talk(Talk.load(path), command, **options)


def assert_replays(path: str | Path, command: Sequence[str], **options: Any) -> ReplayResult:
    """For a test: replay the recording (see :func:`replay_talk`) and fail with the diff when the bot's calls
    differ from the recorded ones."""
    result = asyncio.run(replay(path, command, **options))
    if not result.ok:
        raise AssertionError(f"the bot's calls differ from the recording {path}:\n{result.diff}")
    return result
