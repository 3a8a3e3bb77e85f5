"""pyTelegramBotAPI's own example bots (``examples/`` of eternnoir/pyTelegramBotAPI, sync ``TeleBot`` and
``asynchronous_telebot``), run against the stand: each test builds a bot of the example's shape (its handlers, calls
and parameters, in our own words), plays the person through the testing client, and asserts what the person sees
and what the bot got. telebot logs a handler that raised, a failed getUpdates or a refused call on its ``TeleBot``
logger: any error there fails the test.

Here: webhooks (asynchronous_telebot/webhooks/, webhook_examples/: Flask, http.server, Tornado and
aiohttp); the shared helpers are in ``telebot_support.py``."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer
from telebot import TeleBot, types
from telebot.async_telebot import AsyncTeleBot

from tests.conftest import Wire
from tests.contract import telebot_support
from tests.contract.running import origin
from tests.contract.telebot_support import pointed, refusals
from tests.requirements import require_module
from tests.webhooks.conftest import closed_port, self_signed, wait_webhook
from tgfake.testing import AsyncStandClient

complaints = telebot_support.complaints  # the autouse fixture: a complaint logged fails every test here


# --- asynchronous_telebot/webhooks/async_webhook_aiohttp_echo_bot.py (webhook_examples/webhook_aiohttp_...) --------
async def test_async_webhook_aiohttp_echo_bot_with_a_self_signed_certificate(wire: Wire, tmp_path: Path) -> None:
    """The bot's own aiohttp app at ``/{token}/`` over TLS with the certificate uploaded by set_webhook; the stand
    delivers to it, the handler answers 200 at once and processes the update in a future."""
    cert = self_signed()
    cert_path = tmp_path / "webhook_cert.pem"
    cert_path.write_bytes(cert.certificate)
    bot = AsyncTeleBot(wire.token)
    pending: set[asyncio.Future[Any]] = set()

    async def handle(request: web.Request) -> web.Response:
        if request.match_info.get("token") == bot.token:
            update = types.Update.de_json(await request.json())
            pending.add(asyncio.ensure_future(bot.process_new_updates([update])))
            return web.Response()
        return web.Response(status=403)

    @bot.message_handler(commands=["help", "start"])
    async def send_welcome(message: types.Message) -> None:
        await bot.reply_to(message, "Hi there, I am EchoBot.\nI am here to echo your kind words back to you.")

    @bot.message_handler(func=lambda message: True, content_types=["text"])
    async def echo_message(message: types.Message) -> None:
        await bot.reply_to(message, str(message.text))

    app = web.Application()
    app.router.add_post("/{token}/", handle)
    server = TestServer(app, host="127.0.0.1", port=closed_port(), scheme="https")
    with pointed(wire):
        await server.start_server(ssl=cert.server)
        try:
            await bot.remove_webhook()
            with open(cert_path) as certificate:  # noqa: ASYNC230  # the example passes open(WEBHOOK_SSL_CERT, "r")
                await bot.set_webhook(url=f"https://127.0.0.1:{server.port}/{wire.token}/", certificate=certificate)
            async with AsyncStandClient(origin(wire)) as person:
                await person.send("/start")
                await person.expect_reply("Hi there, I am EchoBot.\nI am here to echo your kind words back to you.")
                await person.send("kind words")
                await person.expect_reply("kind words")
            view = await wait_webhook(wire, delivered=2)
            assert all(d["ok"] for d in view["deliveries"]), view
            await bot.remove_webhook()
        finally:
            await AsyncTeleBot.close_session()
            await server.close()
    assert refusals(wire) == []


# --- webhook_examples/: Flask, http.server, Tornado and aiohttp (sync TeleBot) -----------------------------------
HOOK_WELCOME = "Hi there, I am EchoBot.\nI am here to echo your kind words back to you."


def webhook_echo_bot(wire: Wire, *, echo: bool = True) -> TeleBot:
    """The webhook examples' bot: /start and /help answered, other texts echoed (Tornado's has no echo)."""
    bot = TeleBot(wire.token)

    @bot.message_handler(commands=["help", "start"])
    def send_welcome(message: types.Message) -> None:
        bot.reply_to(message, HOOK_WELCOME)

    if echo:

        @bot.message_handler(func=lambda message: True, content_types=["text"])
        def echo_message(message: types.Message) -> None:
            bot.reply_to(message, str(message.text))

    return bot


@contextlib.contextmanager
def served_in_thread(serve: Any, stop: Any) -> Iterator[None]:
    """``serve()`` (a framework's blocking server loop) in a thread until ``stop()``."""
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop()
        thread.join(5)
    assert not thread.is_alive()


async def webhook_echo_dialog(wire: Wire, bot: TeleBot, url: str, cert_path: Path, *, echo: bool = True) -> None:
    """The examples' start-up (``remove_webhook``, then ``set_webhook`` with the certificate file opened as text),
    then the person: a welcome and, with ``echo``, an echo, each delivered to the bot's own server over TLS."""

    def register() -> None:
        bot.remove_webhook()
        with open(cert_path) as certificate:
            bot.set_webhook(url=url, certificate=certificate)

    with pointed(wire):
        await asyncio.to_thread(register)
        async with AsyncStandClient(origin(wire)) as person:
            start = await person.send("/start")
            welcome = await person.expect_reply(HOOK_WELCOME)
            assert welcome.raw["reply_to_message_id"] == start.message_id
            if echo:
                await person.send("kind words")
                await person.expect_reply("kind words")
        view = await wait_webhook(wire, delivered=2 if echo else 1)
        assert all(d["ok"] for d in view["deliveries"]), view
        await asyncio.to_thread(bot.remove_webhook)
    bot.stop_bot()
    assert refusals(wire) == []


async def test_webhook_flask_echo_bot(wire: Wire, tmp_path: Path) -> None:
    """Flask checks ``content-type == 'application/json'`` exactly and answers 403 otherwise."""
    flask = require_module("flask", "telebot's Flask webhook example")
    make_server = require_module("werkzeug.serving", "telebot's Flask webhook example").make_server

    cert = self_signed()
    cert_path = tmp_path / "webhook_cert.pem"
    cert_path.write_bytes(cert.certificate)
    bot = webhook_echo_bot(wire)
    port = closed_port()
    app = flask.Flask(__name__)

    @app.route("/", methods=["GET", "HEAD"])
    def index() -> str:
        return ""

    @app.route(f"/{wire.token}/", methods=["POST"])
    def webhook() -> str:
        if flask.request.headers.get("content-type") == "application/json":
            update = types.Update.de_json(flask.request.get_data().decode("utf-8"))
            bot.process_new_updates([update])
            return ""
        flask.abort(403)
        return ""  # (abort raises)

    server = make_server("127.0.0.1", port, app, threaded=True, ssl_context=cert.server)
    with served_in_thread(server.serve_forever, server.shutdown):
        await webhook_echo_dialog(wire, bot, f"https://127.0.0.1:{port}/{wire.token}/", cert_path)


async def test_webhook_cpython_echo_bot(wire: Wire, tmp_path: Path) -> None:
    """http.server reads exactly ``Content-Length`` bytes and wants ``content-type: application/json``."""
    from http.server import BaseHTTPRequestHandler, HTTPServer

    cert = self_signed()
    cert_path = tmp_path / "webhook_cert.pem"
    cert_path.write_bytes(cert.certificate)
    bot = webhook_echo_bot(wire)
    path = f"/{wire.token}/"

    class WebhookHandler(BaseHTTPRequestHandler):
        server_version = "WebhookHandler/1.0"

        def do_POST(self) -> None:
            if (
                self.path == path
                and "content-type" in self.headers
                and "content-length" in self.headers
                and self.headers["content-type"] == "application/json"
            ):
                json_string = self.rfile.read(int(self.headers["content-length"]))
                self.send_response(200)
                self.end_headers()
                update = types.Update.de_json(json_string.decode())
                assert update is not None
                assert update.message is not None
                bot.process_new_messages([update.message])
            else:
                self.send_error(403)
                self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # quiet: the base class logs every request
            pass

    httpd = HTTPServer(("127.0.0.1", closed_port()), WebhookHandler)
    httpd.socket = cert.server.wrap_socket(httpd.socket, server_side=True)  # the example's ssl.wrap_socket
    with served_in_thread(httpd.serve_forever, httpd.shutdown):
        await webhook_echo_dialog(wire, bot, f"https://127.0.0.1:{httpd.server_port}{path}", cert_path)
    httpd.server_close()


async def test_webhook_tornado_echo_bot(wire: Wire, tmp_path: Path) -> None:
    """Tornado at a secret path, wanting ``Content-Length`` and ``Content-Type: application/json``."""
    import tornado.httpserver
    import tornado.web

    cert = self_signed()
    cert_path = tmp_path / "cert.pem"
    cert_path.write_bytes(cert.certificate)
    bot = webhook_echo_bot(wire, echo=False)
    secret = "updates-7f3a"
    seen: list[str] = []

    class WebhookServ(tornado.web.RequestHandler):
        def post(self) -> None:
            headers = self.request.headers
            if "Content-Length" in headers and headers.get("Content-Type") == "application/json":
                update = types.Update.de_json(self.request.body.decode("utf-8"))
                bot.process_new_updates([update])
                self.write("")
            else:
                seen.append(str(headers.get("Content-Type")))
                self.write("What are you doing here?")
            self.finish()

    port = closed_port()
    loop = asyncio.new_event_loop()
    started = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        application = tornado.web.Application([(r"/" + secret, WebhookServ)])
        server = tornado.httpserver.HTTPServer(application, ssl_options=cert.server)
        server.listen(port, address="127.0.0.1")
        loop.call_soon(started.set)
        loop.run_forever()
        server.stop()
        loop.run_until_complete(server.close_all_connections())
        loop.close()

    with served_in_thread(serve, lambda: loop.call_soon_threadsafe(loop.stop)):
        assert await asyncio.to_thread(started.wait, 5)
        await webhook_echo_dialog(wire, bot, f"https://127.0.0.1:{port}/{secret}", cert_path, echo=False)
    assert seen == []


async def test_webhook_aiohttp_echo_bot_sync_telebot(wire: Wire, tmp_path: Path) -> None:
    """aiohttp's app at ``/{token}/`` handing each update to a sync TeleBot (its worker threads send the answers)."""
    cert = self_signed()
    cert_path = tmp_path / "webhook_cert.pem"
    cert_path.write_bytes(cert.certificate)
    bot = webhook_echo_bot(wire)

    async def handle(request: web.Request) -> web.Response:
        if request.match_info.get("token") == bot.token:
            update = types.Update.de_json(await request.json())
            bot.process_new_updates([update])
            return web.Response()
        return web.Response(status=403)

    app = web.Application()
    app.router.add_post("/{token}/", handle)
    server = TestServer(app, host="127.0.0.1", port=closed_port(), scheme="https")
    await server.start_server(ssl=cert.server)
    try:
        await webhook_echo_dialog(wire, bot, f"https://127.0.0.1:{server.port}/{wire.token}/", cert_path)
    finally:
        await server.close()
