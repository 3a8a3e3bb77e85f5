"""One description, two clients: every method is written once (an ``op`` of the methods classes) and both clients
serve it, sync and awaited, with one signature and full static types (the ``assert_type`` lines are checked by mypy
and run as well)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable
from typing import assert_type

from tgfake.testing import AsyncStandClient, ChatInfo, ChatMessage, Sent, StandClient
from tgfake.testing.business import BusinessMethods
from tgfake.testing.clients import AsyncModelClient, ModelClient
from tgfake.testing.drivers import op
from tgfake.testing.person import PersonMethods
from tgfake.testing.reading import ModelMethods, ReadingMethods
from tgfake.testing.world import WorldMethods

NOWHERE = "http://127.0.0.1:9"


def ops(*classes: type) -> set[str]:
    return {name for cls in classes for name, value in vars(cls).items() if isinstance(value, op)}


def test_every_method_is_written_once_and_both_clients_serve_it() -> None:
    described = ops(PersonMethods, WorldMethods, ReadingMethods, BusinessMethods)
    assert {"send", "tap", "share", "vote", "react", "forward", "edit", "delete", "inline", "choose"} <= described
    assert {"create_chat", "join", "leave", "add", "promote", "restrict", "ban", "add_bot", "pay", "sim"} <= described
    sync, async_ = StandClient(NOWHERE), AsyncStandClient(NOWHERE)
    for name in sorted(described):
        plain, awaited = getattr(sync, name), getattr(async_, name)
        assert not inspect.iscoroutinefunction(plain), name
        assert inspect.iscoroutinefunction(awaited), name
        assert inspect.signature(plain) == inspect.signature(awaited), name
        assert "core" not in inspect.signature(plain).parameters, name
        assert plain.__doc__, f"{name} has no docstring"
    for client in (StandClient, AsyncStandClient):  # the clients themselves add plumbing only
        written = {n for n, v in vars(client).items() if callable(v) and not n.startswith("_")}
        assert written <= {"retarget", "close", "share_reading"}, written
    model_ops = ops(ModelMethods)
    assert model_ops == {"log", "calls", "script", "reset"}
    for name in model_ops:
        assert isinstance(getattr(ModelClient, name), op)
        assert not inspect.iscoroutinefunction(getattr(sync.model, name))
        assert inspect.iscoroutinefunction(getattr(async_.model, name))
    assert isinstance(async_.model, AsyncModelClient)


def test_the_types_follow_the_client(tgfake: StandClient) -> None:
    sent = tgfake.send("hi")
    assert_type(sent, Sent)
    assert_type(tgfake.create_chat("Club"), ChatInfo)
    assert_type(tgfake.messages(), list[ChatMessage])
    assert sent.message_id == 1


async def test_the_async_types_are_awaitables_of_the_same(tgfake: StandClient) -> None:
    async with AsyncStandClient(tgfake.url) as client:
        pending = client.send("hi")
        assert_type(pending, Awaitable[Sent])
        sent = await pending
        assert_type(sent, Sent)
        assert_type(await client.create_chat("Club"), ChatInfo)
        assert sent.message_id == 1
