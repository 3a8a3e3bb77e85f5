"""aiogram 3's own example bots (the ``examples/`` directory of aiogram/aiogram), run against the stand: each test
builds a bot of the example's shape (its handlers, calls and parameters, in our own words), plays the person
through the testing client, and asserts what the person sees and what the bot got. aiogram's warnings and errors
(a handler that raised, an update it could not parse, a call the stand refused) fail the test.

Here: the bots served by webhook (echo_bot_webhook.py, echo_bot_webhook_ssl.py, web_app/, multibot.py);
the shared helpers are in ``aiogram_support.py``."""

from __future__ import annotations

import contextlib
import ssl
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramUnauthorizedError
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.fsm.storage.memory import MemoryStorage
from aiogram.types import (
    FSInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    MenuButtonWebApp,
    Message,
    WebAppInfo,
)
from aiogram.utils.token import TokenValidationError, validate_token
from aiogram.utils.web_app import check_webapp_signature, safe_parse_webapp_init_data
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, TokenBasedRequestHandler, setup_application
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.conftest import Wire
from tests.contract import aiogram_support
from tests.contract.aiogram_support import HTML, PHOTO, echo_router, form_router
from tests.contract.running import aiogram_bot, origin
from tests.webhooks.conftest import closed_port, self_signed, wait_webhook
from tgfake import errors
from tgfake.testing import AsyncStandClient

complaints = aiogram_support.complaints  # the autouse fixture: a complaint logged fails every test here

# --- echo_bot_webhook.py -----------------------------------------------------------------------------------------
BOT = web.AppKey("bot", Bot)


@contextlib.asynccontextmanager
async def webhook_app(
    wire: Wire,
    dp: Dispatcher,
    path: str,
    tls: ssl.SSLContext | None = None,
    routes: Callable[[web.Application], None] | None = None,
    **handler: Any,
) -> AsyncIterator[tuple[str, Bot]]:
    """The example's aiohttp application on a loopback port (the stand delivers to loopback hosts only; the example
    names its public address): a SimpleRequestHandler at ``path``, the dispatcher's startup hooks mounted by
    setup_application and run as the server starts, with ``base_url`` (the server's address) in the workflow data;
    ``tls``: served over https with that context; ``routes`` adds the app's own pages (``app[BOT]`` is the bot)."""
    bot = aiogram_bot(wire, default=HTML)
    port = closed_port()
    dp["base_url"] = f"{'https' if tls else 'http'}://127.0.0.1:{port}"
    app = web.Application()
    app[BOT] = bot
    if routes is not None:
        routes(app)
    SimpleRequestHandler(dispatcher=dp, bot=bot, **handler).register(app, path=path)
    setup_application(app, dp, bot=bot)
    server = TestServer(app, host="127.0.0.1", port=port, scheme="https" if tls else "http")
    await server.start_server(ssl=tls)
    try:
        yield dp["base_url"], bot
    finally:
        await server.close()


async def test_echo_bot_webhook_behind_a_proxy(wire: Wire) -> None:
    dp = Dispatcher()
    dp.include_router(echo_router())

    async def on_startup(bot: Bot, base_url: str) -> None:
        await bot.set_webhook(f"{base_url}/webhook", secret_token="my-secret")

    dp.startup.register(on_startup)
    async with webhook_app(wire, dp, "/webhook", secret_token="my-secret") as (base_url, bot):
        [hooked] = await wire.stand.wait_calls("setWebhook", 1, 5)
        assert hooked.status == 200
        info = await bot.get_webhook_info()
        assert (info.url, info.has_custom_certificate, info.pending_update_count) == (f"{base_url}/webhook", False, 0)
        async with AsyncStandClient(origin(wire)) as person:
            await person.send("/start")
            await person.expect_reply("Hello, Alice!", html="Hello, <b>Alice</b>!")
            await person.send_photo(PHOTO, name="cat.png", caption="by webhook")
            assert (await person.expect_reply("by webhook")).kind == "photo"
        view = await wait_webhook(wire, delivered=2)
        assert [(d["status"], d["ok"]) for d in view["deliveries"]] == [(200, True), (200, True)]
        status, polled = await wire.call("getUpdates")
        assert (status, polled["description"]) == (409, errors.CONFLICT_WEBHOOK)


# --- echo_bot_webhook_ssl.py -------------------------------------------------------------------------------------
async def test_echo_bot_webhook_ssl_with_a_self_signed_certificate(wire: Wire, tmp_path: Path) -> None:
    """The webhook serves TLS with a self-signed certificate and uploads it with setWebhook (FSInputFile), so
    Telegram trusts that certificate: the stand delivers over https to it."""
    cert = self_signed()
    cert_path = tmp_path / "cert.pem"
    cert_path.write_bytes(cert.certificate)
    dp = Dispatcher()
    dp.include_router(echo_router())

    async def on_startup(bot: Bot, base_url: str) -> None:
        await bot.set_webhook(f"{base_url}/webhook", certificate=FSInputFile(cert_path), secret_token="my-secret")

    dp.startup.register(on_startup)
    async with webhook_app(wire, dp, "/webhook", tls=cert.server, secret_token="my-secret") as (base_url, bot):
        [hooked] = await wire.stand.wait_calls("setWebhook", 1, 5)
        assert (hooked.status, hooked.params["certificate"]) == (200, f"cert.pem ({len(cert.certificate)} bytes)")
        info = await bot.get_webhook_info()
        assert (info.url, info.has_custom_certificate) == (f"{base_url}/webhook", True)
        async with AsyncStandClient(origin(wire)) as person:
            await person.send("/start")
            await person.expect_reply("Hello, Alice!", html="Hello, <b>Alice</b>!")
            await person.share(location={"latitude": 48.85, "longitude": 2.35})
            assert (await person.expect_reply()).kind == "location"
        view = await wait_webhook(wire, delivered=2)
        assert all(d["url"].startswith("https://127.0.0.1:") and d["ok"] for d in view["deliveries"])


# --- web_app/ ----------------------------------------------------------------------------------------------------
def web_app_router() -> Router:
    """web_app/handlers.py: /start sets the chat's Mini App menu button, /webview and any other message offer an
    inline [Open] Mini App button."""
    my_router = Router()

    @my_router.message(CommandStart())
    async def command_start(message: Message, bot: Bot, base_url: str) -> None:
        await bot.set_chat_menu_button(
            chat_id=message.chat.id,
            menu_button=MenuButtonWebApp(text="Open Menu", web_app=WebAppInfo(url=f"{base_url}/demo")),
        )
        await message.answer("""Hi!\nSend me any type of message to start.\nOr just send /webview""")

    @my_router.message(Command("webview"))
    async def command_webview(message: Message, base_url: str) -> None:
        await message.answer(
            "Good. Now you can try to send it via Webview",
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[
                    [InlineKeyboardButton(text="Open Webview", web_app=WebAppInfo(url=f"{base_url}/demo"))]
                ]
            ),
        )

    @my_router.message(~F.message.via_bot)
    async def echo_all(message: Message, base_url: str) -> None:
        await message.answer(
            "Test webview",
            reply_markup=InlineKeyboardMarkup(
                inline_keyboard=[[InlineKeyboardButton(text="Open", web_app=WebAppInfo(url=f"{base_url}/demo"))]]
            ),
        )

    return my_router


def web_app_routes(app: web.Application) -> None:
    """web_app/routes.py: the page, and the two calls its script makes with ``Telegram.WebApp.initData``."""

    async def demo_handler(request: web.Request) -> web.Response:
        return web.Response(text="<!DOCTYPE html><title>demo</title>", content_type="text/html")

    async def check_data_handler(request: web.Request) -> web.Response:
        bot = request.app[BOT]
        data = await request.post()
        if check_webapp_signature(bot.token, str(data["_auth"])):
            return web.json_response({"ok": True})
        return web.json_response({"ok": False, "err": "Unauthorized"}, status=401)

    async def send_message_handler(request: web.Request) -> web.Response:
        bot = request.app[BOT]
        data = await request.post()
        try:
            init_data = safe_parse_webapp_init_data(token=bot.token, init_data=str(data["_auth"]))
        except ValueError:
            return web.json_response({"ok": False, "err": "Unauthorized"}, status=401)
        reply_markup = None
        if data["with_webview"] == "1":
            url = str(request.url.with_scheme("https").with_path("demo"))
            reply_markup = InlineKeyboardMarkup(
                inline_keyboard=[[InlineKeyboardButton(text="Open", web_app=WebAppInfo(url=url))]]
            )
        assert init_data.query_id is not None
        await bot.answer_web_app_query(
            web_app_query_id=init_data.query_id,
            result=InlineQueryResultArticle(
                id=init_data.query_id,
                title="Demo",
                input_message_content=InputTextMessageContent(message_text="Hello, World!", parse_mode=None),
                reply_markup=reply_markup,
            ),
        )
        return web.json_response({"ok": True})

    app.router.add_get("/demo", demo_handler)
    app.router.add_post("/demo/checkData", check_data_handler)
    app.router.add_post("/demo/sendMessage", send_message_handler)


async def test_web_app_menu_button_launch_and_answer(wire: Wire) -> None:
    dp = Dispatcher()
    dp.include_router(web_app_router())

    async def on_startup(bot: Bot, base_url: str) -> None:
        await bot.set_webhook(f"{base_url}/webhook")
        await bot.set_chat_menu_button(
            menu_button=MenuButtonWebApp(text="Open Menu", web_app=WebAppInfo(url=f"{base_url}/demo"))
        )

    dp.startup.register(on_startup)
    async with (
        webhook_app(wire, dp, "/webhook", routes=web_app_routes) as (base_url, _),
        AsyncStandClient(origin(wire)) as person,
        aiohttp.ClientSession() as browser,
    ):
        await wire.stand.wait_calls("setChatMenuButton", 1, 5)
        assert (await person.state())["menu_button"] == {
            "type": "web_app",
            "text": "Open Menu",
            "web_app": {"url": f"{base_url}/demo"},
        }
        await person.send("/start")
        await person.expect_reply("Hi!\nSend me any type of message to start.\nOr just send /webview")
        assert (await person.chat())["menu_button"]["web_app"] == {"url": f"{base_url}/demo"}
        await person.send("/webview")
        offer = await person.expect_reply("Good. Now you can try to send it via Webview")
        assert offer.keyboard == (("Open Webview",),)
        await person.send("anything")
        assert (await person.expect_reply("Test webview")).keyboard == (("Open",),)
        status, launch = await wire.sim("POST", "/sim/webapp/launch", {"chat_id": 4242})  # the chat's menu button
        assert status == 200, launch
        assert launch["url"].startswith(f"{base_url}/demo#tgWebAppData=")
        async with browser.get(f"{base_url}/demo") as page:
            assert page.status == 200
        async with browser.post(f"{base_url}/demo/checkData", data={"_auth": launch["init_data"]}) as checked:
            assert (checked.status, await checked.json()) == (200, {"ok": True})
        forged = launch["init_data"].replace("hash=", "hash=0")
        async with browser.post(f"{base_url}/demo/checkData", data={"_auth": forged}) as refused:
            assert refused.status == 401
        body = {"_auth": launch["init_data"], "with_webview": "1"}
        async with browser.post(f"{base_url}/demo/sendMessage", data=body) as sent:
            assert (sent.status, await sent.json()) == (200, {"ok": True})
        [answered] = await person.outbox("answerWebAppQuery")
        assert answered.ok, answered.response
        hello = (await person.messages())[-1]
        assert (hello.body, hello.from_bot, hello.keyboard) == ("Hello, World!", False, (("Open",),))
        assert hello.raw["via_bot"] == "tgfake_bot"
        # the message via the bot reached it too (~F.message.via_bot let it by), and it answered as to any message
        assert (await person.expect_reply("Test webview")).keyboard == (("Open",),)
        await wait_webhook(wire, delivered=4)


# --- multibot.py -------------------------------------------------------------------------------------------------
def is_bot_token(value: str) -> bool | dict[str, Any]:
    try:
        validate_token(value)
    except TokenValidationError:
        return False
    return True


async def test_multibot_adds_bots_by_token_and_serves_them_by_webhook(wire: Wire) -> None:
    """multibot.py: the main bot's webhook takes /add <token>; each added bot gets a webhook whose path carries its
    token, served by a TokenBasedRequestHandler running finite_state_machine's form. (The example passes
    ``parse_mode`` to Bot, which aiogram 3.7+ refuses with TypeError: given as ``default=`` here.)"""
    main_router = Router()
    port = closed_port()
    base_url = f"http://127.0.0.1:{port}"
    other_bots_url = f"{base_url}/webhook/bot/{{bot_token}}"

    @main_router.message(Command("add", magic=F.args.func(is_bot_token)))
    async def command_add_bot(message: Message, command: CommandObject, bot: Bot) -> Any:
        assert command.args is not None
        new_bot = Bot(token=command.args, session=bot.session)
        try:
            bot_user = await new_bot.get_me()
        except TelegramUnauthorizedError:
            return message.answer("Invalid token")
        await new_bot.delete_webhook(drop_pending_updates=True)
        await new_bot.set_webhook(other_bots_url.format(bot_token=command.args))
        return await message.answer(f"Bot @{bot_user.username} successful added")

    async def on_startup(dispatcher: Dispatcher, bot: Bot) -> None:
        await bot.set_webhook(f"{base_url}/webhook/main")

    session = AiohttpSession(api=TelegramAPIServer.from_base(origin(wire)))
    bot_settings: dict[str, Any] = {"session": session, "default": HTML}
    bot = Bot(token=wire.token, **bot_settings)
    storage = MemoryStorage()
    main_dispatcher = Dispatcher(storage=storage)
    main_dispatcher.include_router(main_router)
    main_dispatcher.startup.register(on_startup)
    multibot_dispatcher = Dispatcher(storage=storage)
    multibot_dispatcher.include_router(form_router())
    app = web.Application()
    SimpleRequestHandler(dispatcher=main_dispatcher, bot=bot).register(app, path="/webhook/main")
    TokenBasedRequestHandler(dispatcher=multibot_dispatcher, bot_settings=bot_settings).register(
        app, path="/webhook/bot/{bot_token}"
    )
    setup_application(app, main_dispatcher, bot=bot)
    setup_application(app, multibot_dispatcher)
    status, made = await wire.sim("POST", "/sim/bots", {"token": "2002:form-secret", "username": "form_bot"})
    assert status == 200, made
    server = TestServer(app, host="127.0.0.1", port=port)
    await server.start_server()
    try:
        await wire.stand.wait_calls("setWebhook", 1, 5)
        await wire.say("/add 2002:forged")  # a known bot with another secret: Telegram's 401
        await wire.stand.wait_calls("sendMessage", 1, 5)
        await wire.say("/add 2002:form-secret")
        calls = await wire.stand.wait_calls("sendMessage", 2, 5)
        assert await wire.text() == (
            "[1] alice: /add 2002:forged\n[2] bot: Invalid token\n"
            "[3] alice: /add 2002:form-secret\n[4] bot: Bot @form_bot successful added\n"
        )
        assert [c.status for c in calls] == [200, 200]
        hooked = await wire.call("getWebhookInfo", token="2002:form-secret")
        assert hooked[1]["result"]["url"] == f"{base_url}/webhook/bot/2002:form-secret"
        for count, text in enumerate(("/start", "Ann"), start=3):
            status, sent = await wire.sim("POST", "/sim/message", {"text": text, "bot": "form_bot"})
            assert status == 200, sent
            await wire.stand.wait_calls("sendMessage", count, 5)  # form_bot's answer, through its own webhook
        resp = await wire.client.get("/sim/chat/4242", params={"format": "text", "bot": "form_bot"})
        assert await resp.text() == (
            "[1] alice: /start\n[2] form_bot: Hi there! What's your name?\n    keyboard removed\n[3] alice: Ann\n"
            "[4] form_bot: Nice to meet you, Ann!\n    Did you like to write bots?\n    keyboard: [Yes] [No]\n"
        )
        # The main bot's chat is its own; with two bots polling, the test names the one it means (docs/world.md).
        main = await wire.client.get("/sim/chat/4242", params={"format": "text", "bot": wire.token.split(":")[0]})
        assert await main.text() == (
            "[1] alice: /add 2002:forged\n[2] bot: Invalid token\n"
            "[3] alice: /add 2002:form-secret\n[4] bot: Bot @form_bot successful added\n"
        )
    finally:
        await server.close()
