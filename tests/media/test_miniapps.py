"""Mini Apps over HTTP: web_app buttons, the menu button methods, launches signed like Telegram, themes."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer

from tests.conftest import Wire
from tgfake import webapp
from tgfake.app import create_app
from tgfake.clock import ManualClock
from tgfake.options import Options

APP = "https://app.example.com/"
WEB_APP_BUTTON = json.dumps({"type": "web_app", "text": "Open", "web_app": {"url": APP}})


def telegram_hash(fields: dict[str, str], token: str) -> str:
    """Telegram's documented check, written out independently of tgfake."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()


async def launch(wire: Wire, **body: Any) -> tuple[int, Any]:
    return await wire.sim("POST", "/sim/webapp/launch", body)


# --- web_app buttons ---------------------------------------------------------------------------------------------


def web_app_kb(url: str) -> str:
    return json.dumps({"inline_keyboard": [[{"text": "Open", "web_app": {"url": url}}]]})


@pytest.mark.parametrize("url", [APP, "http://127.0.0.1:18792/", "http://localhost:5173/", "http://[::1]:8080/"])
async def test_web_app_button_accepted_in_private_chats(wire: Wire, url: str) -> None:
    msg = await wire.ok("sendMessage", chat_id=4242, text="app", reply_markup=web_app_kb(url))
    assert msg["reply_markup"]["inline_keyboard"][0][0] == {"text": "Open", "web_app": {"url": url}}
    assert await wire.text() == "[1] bot: app\n    [Open]\n"


@pytest.mark.parametrize(
    ("url", "description"),
    [
        ("http://app.example.com/", "Web App URL 'http://app.example.com/' is invalid: Only HTTPS links are allowed"),
        ("ftp://app.example.com/", "Web App URL 'ftp://app.example.com/' is invalid"),
        ("app.example.com", "Web App URL 'app.example.com' is invalid"),
        ("", "Web App URL '' is invalid"),
        ("https://:443/app", "Web App URL 'https://:443/app' is invalid"),
    ],
)
async def test_web_app_button_address_refused(wire: Wire, url: str, description: str) -> None:
    await wire.refused(
        "sendMessage", 400, f"Bad Request: inline keyboard button {description}", chat_id=4242, text="x",
        reply_markup=web_app_kb(url),
    )  # fmt: skip


async def test_web_app_button_refused_outside_private_chats(wire: Wire) -> None:
    await wire.refused(
        "sendMessage", 400, "Bad Request: BUTTON_TYPE_INVALID", chat_id=-100, text="x", reply_markup=web_app_kb(APP)
    )


# --- setChatMenuButton / getChatMenuButton ---------------------------------------------------------------------------


async def test_menu_button_defaults_to_commands(wire: Wire) -> None:
    assert await wire.ok("getChatMenuButton") == {"type": "commands"}
    assert await wire.ok("getChatMenuButton", chat_id=4242) == {"type": "commands"}
    state = (await wire.sim("GET", "/sim/state"))[1]
    assert state["menu_button"] == {"type": "commands"}
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["menu_button"] == {"type": "commands"}


async def test_bot_button_then_chat_button_then_default(wire: Wire) -> None:
    assert await wire.ok("setChatMenuButton", menu_button=WEB_APP_BUTTON) is True
    shown = {"type": "web_app", "text": "Open", "web_app": {"url": APP}}
    assert await wire.ok("getChatMenuButton") == shown
    assert await wire.ok("getChatMenuButton", chat_id=4242) == shown  # follows the bot's
    assert (await wire.sim("GET", "/sim/state"))[1]["menu_button"] == shown
    own = json.dumps({"type": "web_app", "text": "Shop", "web_app": {"url": "https://shop.example.com/"}, "x": 1})
    await wire.ok("setChatMenuButton", chat_id=4242, menu_button=own)
    chat_button = {"type": "web_app", "text": "Shop", "web_app": {"url": "https://shop.example.com/"}}
    assert await wire.ok("getChatMenuButton", chat_id=4242) == chat_button
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["menu_button"] == chat_button
    assert await wire.ok("getChatMenuButton", chat_id=5) == shown
    # default on the chat: it follows the bot's button again, and is answered as default (python-telegram-bot's
    # suite finds Telegram answering so).
    await wire.ok("setChatMenuButton", chat_id=4242, menu_button='{"type":"default"}')
    assert await wire.ok("getChatMenuButton", chat_id=4242) == {"type": "default"}
    assert (await wire.sim("GET", "/sim/chat/4242"))[1]["menu_button"] == shown
    await wire.ok("setChatMenuButton", chat_id=4242)  # no button is default too
    assert await wire.ok("getChatMenuButton", chat_id=4242) == {"type": "default"}
    # commands on the chat is explicit, and drops text and web_app.
    await wire.ok("setChatMenuButton", chat_id=4242, menu_button='{"type":"commands","text":"x"}')
    assert await wire.ok("getChatMenuButton", chat_id=4242) == {"type": "commands"}
    # default (or no button at all) on the bot resets it to commands.
    await wire.ok("setChatMenuButton")
    assert await wire.ok("getChatMenuButton") == {"type": "commands"}
    assert await wire.ok("getChatMenuButton", chat_id=77) == {"type": "commands"}


async def test_groups_always_show_commands(wire: Wire) -> None:
    await wire.ok("setChatMenuButton", menu_button=WEB_APP_BUTTON)
    await wire.say("hi", chat_type="group")
    view = (await wire.sim("GET", "/sim/chat/-100000004242"))[1]
    assert view["menu_button"] == {"type": "commands"}


async def test_reset_forgets_menu_buttons(wire: Wire) -> None:
    await wire.ok("setChatMenuButton", menu_button=WEB_APP_BUTTON)
    await wire.ok("setChatMenuButton", chat_id=4242, menu_button=WEB_APP_BUTTON)
    await wire.sim("POST", "/sim/reset")
    assert (await wire.sim("GET", "/sim/state"))[1]["menu_button"] == {"type": "commands"}
    assert await wire.ok("getChatMenuButton", chat_id=4242) == {"type": "commands"}


@pytest.mark.parametrize(
    ("button", "description"),
    [
        ("not json", "Bad Request: can't parse menu button JSON object"),
        ("[]", "Bad Request: can't parse menu button JSON object"),
        ('{"type":5}', "Bad Request: can't parse menu button JSON object"),
        ("null", "Bad Request: unsupported menu button type"),
        ('{"type":"url"}', "Bad Request: unsupported menu button type"),
        ("{}", "Bad Request: unsupported menu button type"),
        ('{"type":"web_app","web_app":{"url":"https://a.example/"}}', "Bad Request: menu button text is empty"),
        (
            '{"type":"web_app","text":"  ","web_app":{"url":"https://a.example/"}}',
            "Bad Request: menu button text is empty",
        ),
        ('{"type":"web_app","text":"Open"}', "Bad Request: menu button Web App URL '' is invalid"),
        (
            '{"type":"web_app","text":"Open","web_app":{"url":"http://a.example/"}}',
            "Bad Request: menu button Web App URL 'http://a.example/' is invalid: Only HTTPS links are allowed",
        ),
        (
            '{"type":"web_app","text":"Open","web_app":{"url":"ftp://a.example/"}}',
            "Bad Request: menu button Web App URL 'ftp://a.example/' is invalid",
        ),
    ],
)
async def test_menu_button_refusals(wire: Wire, button: str, description: str) -> None:
    # The button is checked before the chat id, so a bad chat id does not mask it.
    await wire.refused("setChatMenuButton", 400, description, chat_id="abc", menu_button=button)
    await wire.refused("setChatMenuButton", 400, description, menu_button=button)
    assert await wire.ok("getChatMenuButton") == {"type": "commands"}


@pytest.mark.parametrize("chat_id", ["-100", "0", "abc", "@alice", "1.5"])
async def test_menu_buttons_belong_to_private_chats(wire: Wire, chat_id: str) -> None:
    description = "Bad Request: Invalid chat_id specified"
    await wire.refused("setChatMenuButton", 400, description, chat_id=chat_id, menu_button=WEB_APP_BUTTON)
    await wire.refused("getChatMenuButton", 400, description, chat_id=chat_id)
    assert await wire.ok("getChatMenuButton") == {"type": "commands"}


# --- launches ------------------------------------------------------------------------------------------------


async def test_launch_is_signed_with_the_token_of_the_latest_call(wire: Wire, clock: ManualClock) -> None:
    await wire.ok("getMe")
    status, body = await launch(wire, url="https://app.example.com/?session=sess_1")
    assert status == 200, body
    fields = dict(parse_qsl(body["init_data"], strict_parsing=True))
    assert fields["hash"] == telegram_hash(fields, wire.token)
    assert webapp.validate(body["init_data"], wire.token) == fields
    assert fields["auth_date"] == str(int(clock.now()))
    assert fields["query_id"] == "tgfake-1"
    assert "start_param" not in fields
    assert fields["user"] == (
        '{"allows_write_to_pm":true,"first_name":"Alice","id":4242,"language_code":"en","username":"alice"}'
    )
    assert list(fields) == ["auth_date", "hash", "query_id", "user"]  # form-encoded with keys sorted
    assert (body["version"], body["platform"]) == ("10.1", "tgfake")
    assert body["theme_params"] == webapp.theme_params("dark")
    base, fragment = body["url"].split("#", 1)
    assert base == "https://app.example.com/?session=sess_1"
    params = dict(parse_qsl(fragment, strict_parsing=True))
    assert params == {
        "tgWebAppData": body["init_data"],
        "tgWebAppPlatform": "tgfake",
        "tgWebAppThemeParams": json.dumps(webapp.theme_params("dark"), sort_keys=True, separators=(",", ":")),
        "tgWebAppVersion": "10.1",
    }
    with pytest.raises(webapp.BadHash):
        webapp.validate(body["init_data"], "999:other")


async def test_query_ids_count_for_the_life_of_the_process(wire: Wire) -> None:
    await wire.ok("getMe")
    ids = []
    for _ in range(2):
        ids.append(dict(parse_qsl((await launch(wire, url=APP))[1]["init_data"]))["query_id"])
    await wire.sim("POST", "/sim/reset")
    ids.append(dict(parse_qsl((await launch(wire, url=APP))[1]["init_data"]))["query_id"])
    assert ids == ["tgfake-1", "tgfake-2", "tgfake-3"]


async def test_launch_options(wire: Wire) -> None:
    await wire.ok("getMe")
    status, body = await launch(
        wire,
        url="https://app.example.com/app?b=2&a=1#/route",
        start_param="ref 42",
        color_scheme=" LIGHT ",
        platform="ios",
        version="9.0",
        user_id=99,
        username="ёжик",
    )
    assert status == 200, body
    assert body["url"].startswith("https://app.example.com/app?a=1&b=2&tgWebAppStartParam=ref+42#/route?tgWebAppData=")
    params = dict(parse_qsl(urlsplit(body["url"]).fragment.split("?", 1)[1]))
    assert (params["tgWebAppPlatform"], params["tgWebAppVersion"]) == ("ios", "9.0")
    assert json.loads(params["tgWebAppThemeParams"]) == webapp.theme_params("light")
    assert body["theme_params"]["bg_color"] == "#ffffff"
    fields = webapp.validate(body["init_data"], wire.token)
    assert fields["start_param"] == "ref 42"
    assert json.loads(fields["user"]) == {
        "allows_write_to_pm": True,
        "first_name": "Ёжик",
        "id": 99,
        "language_code": "en",
        "username": "ёжик",
    }


async def test_launch_from_the_menu_button(wire: Wire) -> None:
    await wire.ok("setChatMenuButton", menu_button=WEB_APP_BUTTON)
    status, body = await launch(wire)
    assert status == 200, body
    assert body["url"].startswith(APP + "#tgWebAppData=")
    await wire.ok(
        "setChatMenuButton", chat_id=4242, menu_button=WEB_APP_BUTTON.replace(APP, "https://mine.example.com/")
    )
    status, body = await launch(wire, chat_id=4242)
    assert body["url"].startswith("https://mine.example.com/#")
    status, body = await launch(wire, chat_id=-100000004242)
    assert (status, body) == (
        400,
        {"error": "no Mini App to open: give a url, or let the bot set a web_app menu button"},
    )


async def test_launch_refusals_in_order(wire: Wire) -> None:
    no_token = "no bot token to sign with yet: let the bot call the stand first, or start it with --token"
    assert await launch(wire, url="ftp://x") == (400, {"error": no_token})
    await wire.ok("getMe")
    assert await launch(wire, url="") == (
        400,
        {"error": "no Mini App to open: give a url, or let the bot set a web_app menu button"},
    )
    assert await launch(wire, url="http://app.example.com/") == (
        400,
        {"error": "Web App URL 'http://app.example.com/' is invalid: Only HTTPS links are allowed"},
    )
    assert await launch(wire, url="app") == (400, {"error": "Web App URL 'app' is invalid"})
    status, body = await launch(wire, chat_id="x")
    assert status == 400
    assert body["error"].startswith("invalid JSON body: chat_id")


async def test_a_refused_or_faulted_call_still_sets_the_signing_token(wire: Wire) -> None:
    await wire.sim("POST", "/sim/fault", {"method": "*", "code": 502})
    await wire.call("getFile", token="555:faulted")
    status, body = await launch(wire, url=APP)
    assert status == 200
    assert webapp.validate(body["init_data"], "555:faulted")["query_id"] == "tgfake-1"


@pytest_asyncio.fixture
async def fixed_token_wire(clock: ManualClock) -> Any:
    async with TestClient(TestServer(create_app(Options(token="42:fixed"), clock=clock))) as client:
        yield Wire(client, token="42:fixed")


async def test_a_fixed_token_signs_from_the_start(fixed_token_wire: Wire) -> None:
    await fixed_token_wire.call("getMe", token="1:wrong")
    status, body = await launch(fixed_token_wire, url=APP)
    assert status == 200
    assert webapp.validate(body["init_data"], "42:fixed")["auth_date"] == "1700000000"


# --- themes -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_theme_route(wire: Wire, scheme: str) -> None:
    assert await wire.sim("GET", f"/sim/webapp/theme/{scheme}") == (200, webapp.theme_params(scheme))


@pytest.mark.parametrize("scheme", ["Light", "blue", "x"])
async def test_theme_route_refuses_other_schemes(wire: Wire, scheme: str) -> None:
    assert await wire.sim("GET", f"/sim/webapp/theme/{scheme}") == (400, {"error": "scheme is light or dark"})
