"""python-telegram-bot's own example bots (``examples/`` of the 22.x line), each rewritten here in the same shape: the
same handlers, calls, parameters and flow, polling with ``allowed_updates=Update.ALL_TYPES`` as every example's
``run_polling`` does. The person plays the human through the testing client; each test checks what the person sees
and what the bot received. A difference from Telegram shows up as a library exception, a refused call, a missing
field or a wrong update kind.

Here: a custom webhook server (customwebhookbot/starlettebot.py); the shared helpers are in
``ptb_support.py``."""

from __future__ import annotations

import asyncio
import html
import socket
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from telegram import Update
from telegram.constants import ParseMode
from telegram.ext import Application, CallbackContext, CommandHandler, ContextTypes, ExtBot, TypeHandler

from tests.clients import origin
from tests.conftest import Wire
from tests.contract.ptb_support import refusals
from tgfake.testing import AsyncStandClient

# The examples' ConversationHandlers mix message and callback handlers with per_message=False, as PTB warns.
pytestmark = pytest.mark.filterwarnings("ignore:If 'per_message=False':telegram.warnings.PTBUserWarning")


# --- customwebhookbot/starlettebot.py ------------------------------------------------------------------------------
@dataclass
class WebhookUpdate:
    """A custom update the bot's own web server takes in."""

    user_id: int
    payload: str


class WebhookContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """``user_data`` for :class:`WebhookUpdate` too."""

    @classmethod
    def from_update(cls, update: object, application: Any) -> WebhookContext:
        if isinstance(update, WebhookUpdate):
            return cls(application=application, user_id=update.user_id)
        return super().from_update(update, application)


async def test_customwebhookbot_starlette(wire: Wire) -> None:
    """Updater(None): the bot's own Starlette app takes Telegram's webhook POSTs and custom updates, both fed to the
    Application's update queue; served by uvicorn on a loopback port (the stand delivers to loopback over http)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    admin_chat_id = 4242  # the example's ADMIN_CHAT_ID, here the person

    async def start(update: Update, context: WebhookContext) -> None:
        assert update.message is not None
        payload_url = html.escape(f"{url}/submitpayload?user_id=<your user id>&payload=<payload>")
        text = (
            f"To check if the bot is still running, call <code>{url}/healthcheck</code>.\n\n"
            f"To post a custom update, call <code>{payload_url}</code>."
        )
        await update.message.reply_html(text=text)

    async def webhook_update(update: WebhookUpdate, context: WebhookContext) -> None:
        assert context.user_data is not None
        chat_member = await context.bot.get_chat_member(chat_id=update.user_id, user_id=update.user_id)
        payloads = context.user_data.setdefault("payloads", [])
        payloads.append(update.payload)
        combined_payloads = "</code>\n• <code>".join(html.escape(payload) for payload in payloads)
        text = (
            f"The user {chat_member.user.mention_html()} has sent a new payload. "
            f"So far they have sent the following payloads: \n\n• <code>{combined_payloads}</code>"
        )
        await context.bot.send_message(chat_id=admin_chat_id, text=text, parse_mode=ParseMode.HTML)

    api = origin(wire)
    builder = Application.builder().token(wire.token).base_url(f"{api}/bot").updater(None)
    application = builder.context_types(ContextTypes(context=WebhookContext)).build()
    application.add_handler(CommandHandler("start", start))
    application.add_handler(TypeHandler(type=WebhookUpdate, callback=webhook_update))
    await application.bot.set_webhook(url=f"{url}/telegram", allowed_updates=Update.ALL_TYPES)

    async def telegram(request: Request) -> Response:
        await application.update_queue.put(Update.de_json(data=await request.json(), bot=application.bot))
        return Response()

    async def custom_updates(request: Request) -> PlainTextResponse:
        try:
            user_id = int(request.query_params["user_id"])
            payload = request.query_params["payload"]
        except KeyError:
            return PlainTextResponse(
                status_code=HTTPStatus.BAD_REQUEST,
                content="Please pass both `user_id` and `payload` as query parameters.",
            )
        except ValueError:
            return PlainTextResponse(status_code=HTTPStatus.BAD_REQUEST, content="The `user_id` must be a string!")
        await application.update_queue.put(WebhookUpdate(user_id=user_id, payload=payload))
        return PlainTextResponse("Thank you for the submission! It's being forwarded.")

    async def health(_: Request) -> PlainTextResponse:
        return PlainTextResponse(content="The bot is still running fine :)")

    starlette_app = Starlette(
        routes=[
            Route("/telegram", telegram, methods=["POST"]),
            Route("/healthcheck", health, methods=["GET"]),
            Route("/submitpayload", custom_updates, methods=["POST", "GET"]),
        ]
    )
    webserver = uvicorn.Server(uvicorn.Config(app=starlette_app, use_colors=False, log_level="warning"))
    async with application, AsyncStandClient(api) as person, httpx.AsyncClient(base_url=url) as browser:
        await application.start()
        serving = asyncio.create_task(webserver.serve(sockets=[listener]))
        try:
            await person.send("/start")
            told = await person.expect_reply(containing="To check if the bot is still running, call")
            assert told.html == (
                f"To check if the bot is still running, call <code>{url}/healthcheck</code>.\n\n"
                f"To post a custom update, call <code>{html.escape(url)}/submitpayload?user_id=&lt;your user "
                "id&gt;&amp;payload=&lt;payload&gt;</code>."
            )
            assert (await browser.get("/healthcheck")).text == "The bot is still running fine :)"
            assert (await browser.get("/submitpayload", params={"user_id": "4242"})).status_code == 400
            for payload in ("first", "<second>"):
                answer = await browser.post("/submitpayload", params={"user_id": "4242", "payload": payload})
                assert answer.text == "Thank you for the submission! It's being forwarded."
                forwarded = await person.expect_reply(containing="has sent a new payload")
            assert forwarded.html == (
                'The user <a href="tg://user?id=4242">Alice</a> has sent a new payload. '
                "So far they have sent the following payloads: \n\n"
                "• <code>first</code>\n• <code>&lt;second&gt;</code>"
            )
            assert [e["type"] for e in forwarded.entities] == ["text_mention", "code", "code"]
            status, hook = await wire.sim("GET", "/sim/webhook")
            assert status == 200
            assert hook["webhook"]["url"] == f"{url}/telegram"
            assert [d["status"] for d in hook["deliveries"]] == [200]
        finally:
            webserver.should_exit = True
            await serving
            await application.stop()
    assert refusals(wire) == []
