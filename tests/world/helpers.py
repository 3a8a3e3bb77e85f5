"""Building worlds through the sim routes, as a test in any language would, and reading what the bots got."""

from __future__ import annotations

from typing import Any

from tests.conftest import Wire

BOT = 123  # the wire's default token is 123:abc
MOD = 555  # a second bot, made with add_bot
MOD_TOKEN = "555:mod"
ALICE, BOB, CAROL = 4242, 4343, 4444


async def start(wire: Wire) -> None:
    """The default bot claims its id (123) with a first call, as a real bot's getMe would."""
    await wire.ok("getMe")


async def add_bot(wire: Wire, token: str = MOD_TOKEN, username: str = "mod_bot", **flags: Any) -> int:
    status, body = await wire.sim("POST", "/sim/bots", {"token": token, "username": username, **flags})
    assert status == 200, body
    return int(body["bot"]["id"])


async def make_chat(wire: Wire, **body: Any) -> int:
    """A chat owned by alice (unless ``creator`` says otherwise); ``admins`` are promoted with every right."""
    await start(wire)
    status, out = await wire.sim("POST", "/sim/chats", {"title": "Club", **body})
    assert status == 200, out
    return int(out["chat_id"])


async def sim_ok(wire: Wire, path: str, body: dict[str, Any]) -> Any:
    status, out = await wire.sim("POST", path, body)
    assert status == 200, out
    return out


async def pending(wire: Wire, bot_id: int = BOT) -> list[dict[str, Any]]:
    """The updates waiting for a bot (without confirming them)."""
    return list(wire.stand.bots[bot_id].pending)


async def kinds(wire: Wire, bot_id: int = BOT) -> list[str]:
    return [next(k for k in u if k != "update_id") for u in await pending(wire, bot_id)]


def forget_updates(wire: Wire, *bot_ids: int) -> None:
    for bot_id in bot_ids or (BOT,):
        wire.stand.bots[bot_id].pending.clear()


async def messages(wire: Wire, chat_id: int) -> list[dict[str, Any]]:
    status, view = await wire.sim("GET", f"/sim/chat/{chat_id}")
    assert status == 200, view
    return list(view["messages"])


async def status_of(wire: Wire, chat_id: int, user_id: int) -> dict[str, Any]:
    member = await wire.ok("getChatMember", chat_id=chat_id, user_id=user_id)
    assert isinstance(member, dict)
    return member


def bot_lines(wire: Wire, chat_id: int, bot_id: int = BOT) -> list[str]:
    """The texts a bot posted in a chat (a positive id: its private chat with that person), oldest first."""
    chat = wire.stand.world.chats.get(chat_id) or wire.stand.world.private.get((bot_id, chat_id))
    assert chat is not None
    return [m.text for m in chat.messages.values() if m.sender is not None and m.sender.id == bot_id and m.text]
