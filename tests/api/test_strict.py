"""``--strict``: tokens and chats refused as Telegram refuses them; leniency stays the default (the seeds')."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import Wire, WireFactory
from tgfake.cli import build_parser
from tgfake.errors import TelegramError
from tgfake.world.bots import check_token_shape

SHOP = "7001:shop-secret"
INVALID = "Unauthorized: invalid token specified"
UNALLOWED = "Misdirected Request: unallowed token specified"
NOT_FOUND = "Bad Request: chat not found"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"


@pytest_asyncio.fixture
async def strict(make_wire: WireFactory) -> AsyncIterator[Wire]:
    """A strict stand with one bot, made as BotFather makes it."""
    async with make_wire(strict=True) as wire:
        status, made = await wire.sim("POST", "/sim/bots", {"token": SHOP, "username": "shop_bot"})
        assert status == 200, made
        wire.token = SHOP
        yield wire


def test_the_flag_sets_strict_and_leniency_is_the_default() -> None:
    parser = build_parser()
    assert parser.parse_args(["--strict"]).strict is True
    assert parser.parse_args(["-strict=false"]).strict is False
    assert parser.parse_args([]).strict is False


@pytest.mark.parametrize(
    ("token", "status", "words"),
    [
        ("None", 401, INVALID),  # an unset BOT_TOKEN formatted into the URL
        ("", 401, INVALID),
        ("0123:abc", 401, INVALID),
        ("123abc", 401, INVALID),
        ("1:" + "x" * 79, 401, INVALID),
        ("-5:abc", 401, INVALID),
        ("18014398509481984:abc", 401, INVALID),  # 2^54
        ("abc:def", 421, UNALLOWED),
        (":def", 421, UNALLOWED),
        ("+5:abc", 421, UNALLOWED),
        ("99999999999999999999:abc", 421, UNALLOWED),
        ("7002:abc", 401, "Unauthorized"),  # well formed, no such bot
        ("7001:forged", 401, "Unauthorized"),
    ],
)
async def test_a_malformed_or_unknown_token_is_refused(strict: Wire, token: str, status: int, words: str) -> None:
    await strict.refused("getMe", status, words, token=token)
    [call] = await strict.outbox()
    assert (call["status"], call["response"]["description"], call["bot_id"]) == (status, words, 0)


async def test_the_bots_of_the_stand_are_accepted(strict: Wire) -> None:
    assert (await strict.ok("getMe"))["username"] == "shop_bot"
    status, made = await strict.sim("POST", "/sim/bots", {"username": "helper_bot"})
    assert status == 200, made
    assert (await strict.ok("getMe", token=made["token"]))["username"] == "helper_bot"


async def test_a_fixed_token_is_the_stands_bot(make_wire: WireFactory) -> None:
    async with make_wire(strict=True, token="42:fixed") as wire:
        assert (await wire.ok("getMe", token="42:fixed"))["id"] == 42
        await wire.refused("getMe", 401, "Unauthorized", token="43:other")
        await wire.refused("getMe", 401, INVALID, token="None")


async def test_a_send_to_a_chat_the_world_does_not_have_is_chat_not_found(strict: Wire) -> None:
    for chat_id in (999999, -1009999999, -999):
        await strict.refused("sendMessage", 400, NOT_FOUND, chat_id=chat_id, text="hello?")
        await strict.refused("sendLocation", 400, NOT_FOUND, chat_id=chat_id, latitude=1.5, longitude=2.5)
    assert await strict.sim("GET", "/sim/chats") == (200, {"chats": []})
    assert strict.stand.world.users == {}


async def test_a_person_who_never_wrote_to_the_bot_cannot_be_written_to(strict: Wire) -> None:
    status, made = await strict.sim("POST", "/sim/chats", {"members": ["bob", "@shop_bot"], "title": "Club"})
    assert status == 200, made
    bob = 4343  # bob's stable id
    assert bob in [m["user_id"] for m in made["chat"]["members"]]
    await strict.refused("sendMessage", 403, CANT_INITIATE, chat_id=bob, text="hi bob")
    assert (await strict.ok("sendMessage", chat_id=made["chat_id"], text="hi club"))["chat"]["id"] == made["chat_id"]
    status, _ = await strict.sim("POST", "/sim/message", {"text": "/start", "user_id": bob, "bot": "shop_bot"})
    assert status == 200
    assert (await strict.ok("sendMessage", chat_id=bob, text="hi bob"))["chat"]["id"] == bob
    await strict.sim("POST", "/sim/message", {"text": "/start", "bot": "shop_bot"})  # alice, to this bot only
    status, helper = await strict.sim("POST", "/sim/bots", {"username": "helper_bot"})
    assert status == 200, helper
    await strict.refused("sendMessage", 403, CANT_INITIATE, token=helper["token"], chat_id=4242, text="hi")


async def test_leniency_stays_the_default(wire: Wire) -> None:
    assert (await wire.ok("getMe", token="None"))["username"] == "tgfake_bot"  # any token is a bot
    assert (await wire.ok("sendMessage", token="None", chat_id=999999, text="made"))["chat"]["id"] == 999999
    channel = await wire.ok("sendMessage", token="None", chat_id=-1009999999, text="made too")
    assert channel["chat"]["id"] == -1009999999
    assert [c["chat_id"] for c in (await wire.sim("GET", "/sim/chats"))[1]["chats"]] == [-1009999999, 999999]


def telegram_token_check(token: str) -> tuple[int, str] | None:
    """ClientManager::send's look at a token, written out independently: None when it passes."""
    if not token or token[0] == "0" or len(token) > 80 or "/" in token or ":" not in token:
        return 401, INVALID
    head = token[: token.index(":")]
    # td::to_integer_safe: the text must be exactly the decimal spelling of an int64
    if re.fullmatch(r"-?[1-9][0-9]*", head) is None or not -(2**63) <= int(head) < 2**63:
        return 421, UNALLOWED
    return None if 0 < int(head) < 2**54 else (401, INVALID)


TOKENS = st.one_of(
    st.text(max_size=90),
    st.from_regex(r"[-+0-9]{0,21}:[A-Za-z0-9_/-]{0,85}", fullmatch=True),
    st.builds(lambda n, s: f"{n}:{s}", st.integers(-(2**64), 2**64), st.text(max_size=80)),
)


@given(TOKENS)
def test_the_token_shape_check_is_client_managers(token: str) -> None:
    expected = telegram_token_check(token)
    if expected is None:
        check_token_shape(token)
        return
    with pytest.raises(TelegramError) as refused:
        check_token_shape(token)
    assert (refused.value.status, refused.value.description) == expected
