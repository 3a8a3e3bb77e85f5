"""Dialog bot: a Telegram bot on a language model, the kind of bot tgfake exists to test.

python-telegram-bot v22 for Telegram and the official ``openai`` client (``AsyncOpenAI``) for the model.
It keeps the conversation per chat, shows "typing…", streams the model's answer into the chat (as a
draft with ``sendMessageDraft`` where the server supports it, otherwise by editing its message at most
every ``STREAM_INTERVAL`` seconds) and then sends the final text, runs a local tool (``get_weather``)
when the model calls it and sends the result back, and answers a model failure (429, 5xx, no
connection) by retrying (the client's own retries honour ``Retry-After``) and then with a short apology.

    TELEGRAM_API     origin of the Bot API (a tgfake stand, e.g. http://127.0.0.1:18790); default Telegram
    BOT_TOKEN        the bot's token
    OPENAI_BASE_URL  the model's base URL (tgfake: <origin>/v1)
    OPENAI_API_KEY   any key for tgfake
    OPENAI_MODEL     optional, default tgfake-demo
    STREAM_INTERVAL  optional, seconds between two updates of a streamed message, default 0.5
    OPENAI_PROFILE   optional label sent as X-Tgfake-Profile: tgfake's scripted model picks rules by it
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import openai
from openai import AsyncOpenAI
from telegram import Bot, Message, Update
from telegram.constants import ChatAction, ChatType
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError
from telegram.ext import Application, CommandHandler, ContextTypes, MessageHandler, filters

log = logging.getLogger("dialogbot")

T = TypeVar("T")
MAX_FLOOD_RETRIES = 3


async def with_flood_retry(call: Callable[[], Awaitable[T]]) -> T:
    """Run a Bot API call; on Telegram's flood control (429) wait the ``retry_after`` it asked for and try again."""
    for attempt in range(MAX_FLOOD_RETRIES):
        try:
            return await call()
        except RetryAfter as e:
            wait = e.retry_after
            seconds = wait.total_seconds() if isinstance(wait, dt.timedelta) else float(wait)
            log.warning("flood control: retrying in %.1f s (attempt %d)", seconds, attempt + 1)
            await asyncio.sleep(seconds)
    return await call()

SYSTEM_PROMPT = (
    "You are Dialogbot, a friendly assistant in a Telegram chat. Answer briefly. "
    "For questions about the weather, call the get_weather tool."
)
GREETING = "Hi! I am a bot on a language model. Ask me anything, for example about the weather."
HELP = "Write to me and a language model answers. /new begins a new conversation."
APOLOGY = "Sorry, I cannot answer right now: the model is unavailable. Please try again in a minute."
TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "The city, e.g. Paris"}},
                "required": ["city"],
            },
        },
    }
]
MAX_TOOL_ROUNDS = 3
WEATHER = {"paris": "sunny, 21 °C", "london": "light rain, 14 °C", "berlin": "cloudy, 17 °C"}


def get_weather(city: str) -> str:
    """The local tool: an offline forecast so the example needs no network."""
    return f"{city}: {WEATHER.get(city.strip().lower(), 'clear, 18 °C')}"


def run_tool(name: str, arguments: str) -> str:
    try:
        args = json.loads(arguments or "{}")
    except ValueError:
        return f"error: the arguments are not JSON: {arguments!r}"
    if name == "get_weather" and isinstance(args, dict):
        return get_weather(str(args.get("city", "")))
    return f"error: no tool {name!r}"


class Streamer:
    """Shows a growing answer: a draft (``sendMessageDraft``) in private chats, else edits of one message."""

    drafts_supported = True  # switched off for the process when the server does not know the method

    def __init__(self, bot: Bot, chat_id: int, chat_type: str, reply_to: int, interval: float) -> None:
        self.bot = bot
        self.chat_id = chat_id
        self.private = chat_type == ChatType.PRIVATE
        self.reply_to = reply_to
        self.interval = interval
        self.draft_id = reply_to or 1
        self.message: Message | None = None
        self.shown = ""
        self.last = float("-inf")

    async def update(self, text: str) -> None:
        if not text.strip() or time.monotonic() - self.last < self.interval:
            return
        self.last = time.monotonic()
        if self.private and Streamer.drafts_supported:
            try:
                await self.bot.send_message_draft(self.chat_id, self.draft_id, text)
                self.shown = text
                return
            except RetryAfter:  # a draft is only a preview: skip this one, the next revision will show
                return
            except TelegramError as e:
                log.info("drafts unavailable (%s); streaming by edits", e)
                Streamer.drafts_supported = False
        await self._show(text)

    async def _show(self, text: str) -> None:
        if self.message is None:
            self.message = await with_flood_retry(
                lambda: self.bot.send_message(self.chat_id, text, reply_to_message_id=self.reply_to)
            )
        elif text != self.shown:
            try:
                await self.message.edit_text(text)
            except BadRequest as e:  # "message is not modified" and the like: the answer is still shown
                log.warning("edit refused: %s", e)
        self.shown = text

    async def finish(self, text: str) -> None:
        """The final text: a message of its own after a draft, or the last edit of the streamed message."""
        if self.message is None:
            await with_flood_retry(
                lambda: self.bot.send_message(self.chat_id, text, reply_to_message_id=self.reply_to)
            )
        else:
            await self._show(text)


@dataclass
class Dialogs:
    client: AsyncOpenAI
    model: str
    interval: float
    history: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    async def ask(self, chat_id: int, turn: list[dict[str, Any]], streamer: Streamer) -> tuple[str, list[Any]]:
        """One model request, streamed; a provider that refuses to stream (4xx other than 401/403/404/429)
        is asked again without streaming. The text and the tool calls (id, name, arguments) it asked for."""
        messages: Any = [{"role": "system", "content": SYSTEM_PROMPT}, *turn]
        tools: Any = TOOLS
        try:
            stream = await self.client.chat.completions.create(
                model=self.model, messages=messages, tools=tools, stream=True, user=f"tg-{chat_id}"
            )
        except openai.APIStatusError as e:
            if e.status_code in (401, 403, 404, 429) or e.status_code >= 500:
                raise
            log.info("streaming refused (%s); asking without streaming", e.status_code)
            done = await self.client.chat.completions.create(
                model=self.model, messages=messages, tools=tools, user=f"tg-{chat_id}"
            )
            msg = done.choices[0].message if done.choices else None
            if msg is None:
                return "", []
            called = [
                (tc.id, tc.function.name, tc.function.arguments) for tc in msg.tool_calls or [] if tc.type == "function"
            ]
            return msg.content or "", called
        text = ""
        calls: dict[int, dict[str, str]] = {}
        async for chunk in stream:
            if not chunk.choices:
                continue
            delta = chunk.choices[0].delta
            if delta.content:
                text += delta.content
                await streamer.update(text)
            for tc in delta.tool_calls or []:
                slot = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                slot["id"] = tc.id or slot["id"]
                if tc.function is not None:
                    slot["name"] = tc.function.name or slot["name"]
                    slot["arguments"] += tc.function.arguments or ""
        return text, [(c["id"], c["name"], c["arguments"]) for c in calls.values()]

    async def complete(self, chat_id: int, turn: list[dict[str, Any]], streamer: Streamer) -> str:
        """One answer, running the tools the model asks for; ``turn`` gets the assistant and tool messages."""
        text = ""
        for _ in range(MAX_TOOL_ROUNDS):
            text, calls = await self.ask(chat_id, turn, streamer)
            if not calls:
                return text
            turn.append(
                {
                    "role": "assistant",
                    "content": text or None,
                    "tool_calls": [
                        {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
                        for cid, name, args in calls
                    ],
                }
            )
            for cid, name, args in calls:
                result = run_tool(name, args)
                log.info("tool %s(%s) -> %s", name, args, result)
                turn.append({"role": "tool", "tool_call_id": cid, "content": result})
        return text or "I could not finish that answer."

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        msg = update.effective_message
        if msg is None:
            return
        self.history.pop(msg.chat_id, None)  # /start begins a new conversation
        await with_flood_retry(lambda: msg.reply_text(GREETING, do_quote=False))

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        msg = update.effective_message
        if msg is not None:
            await with_flood_retry(lambda: msg.reply_text(HELP, do_quote=False))

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        msg = update.effective_message
        if msg is None or msg.text is None:
            return
        text = msg.text
        if msg.chat.type != ChatType.PRIVATE:
            mention = f"@{context.bot.username}"
            if not text.startswith(mention):
                return
            text = text[len(mention) :].strip()
        history = self.history.setdefault(msg.chat_id, [])
        turn = [*history, {"role": "user", "content": text}]
        await context.bot.send_chat_action(msg.chat_id, ChatAction.TYPING)
        streamer = Streamer(context.bot, msg.chat_id, msg.chat.type, msg.message_id, self.interval)
        try:
            answer = await self.complete(msg.chat_id, turn, streamer)
        except openai.APIError as e:  # 429 and 5xx after the client's retries, refusals, no connection
            log.warning("model failed: %s", e)
            await with_flood_retry(lambda: msg.reply_text(APOLOGY, do_quote=True))
            return  # the question is not kept: the conversation stays as the person saw it answered
        answer = answer.strip() or "…"
        await streamer.finish(answer)
        turn.append({"role": "assistant", "content": answer})
        history[:] = turn


def build(token: str, api: str, dialogs: Dialogs) -> Application:  # type: ignore[type-arg]
    app = Application.builder().token(token).base_url(f"{api}/bot").base_file_url(f"{api}/file/bot").build()
    app.add_handler(CommandHandler(["start", "new"], dialogs.on_start))
    app.add_handler(CommandHandler("help", dialogs.on_help))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, dialogs.on_text))
    app.add_error_handler(on_error)
    return app


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A person who blocked the bot is no error of the bot's: one line in the log; anything else with its traceback."""
    if isinstance(context.error, Forbidden):
        log.warning("not delivered: %s", context.error.message)
        return
    log.error("update %s failed", update, exc_info=context.error)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    api = os.environ.get("TELEGRAM_API", "https://api.telegram.org").rstrip("/")
    profile = os.environ.get("OPENAI_PROFILE", "")
    client = AsyncOpenAI(
        base_url=os.environ.get("OPENAI_BASE_URL"),
        api_key=os.environ.get("OPENAI_API_KEY"),
        max_retries=2,  # the client retries 429 and 5xx itself, waiting what Retry-After says
        default_headers={"X-Tgfake-Profile": profile} if profile else None,
    )
    dialogs = Dialogs(
        client=client,
        model=os.environ.get("OPENAI_MODEL", "tgfake-demo"),
        interval=float(os.environ.get("STREAM_INTERVAL", "0.5")),
    )
    log.info("dialogbot polling %s, model at %s", api, client.base_url)
    build(os.environ["BOT_TOKEN"], api, dialogs).run_polling(allowed_updates=["message"])


if __name__ == "__main__":
    main()
