"""Two bot processes in one group, privacy on for one (the readiness proof's inner suite; ``test_readiness.py`` runs
it under ``pytest -n``). Not collected by the outer suite: ``N`` copies of the test run in the inner one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tgfake.pytest_plugin import BotFactory
from tgfake.testing import StandClient

BOT = Path(__file__).with_name("group_bot.py")
N = int(os.environ.get("TWO_BOTS_N", "2"))


@pytest.mark.parametrize("n", range(N))
def test_two_bots_in_one_group_each_ready_on_its_own_call(tgfake: StandClient, tgfake_bot: BotFactory, n: int) -> None:
    listening = tgfake.add_bot(f"open{n}_bot", can_read_all_group_messages=True)
    private = tgfake.add_bot(f"quiet{n}_bot")  # privacy on: commands and mentions only
    group = tgfake.create_chat("Both", members=["bob", f"@{listening.username}", f"@{private.username}"])
    slow = {"IMPORT": os.environ["SLOW_IMPORT"]} if os.environ.get("SLOW_IMPORT") else {}
    first = tgfake_bot(f"python {BOT}", token=listening.token)
    second = tgfake_bot(f"python {BOT}", token=private.token, env=slow)
    ready = {c.bot_id for c in tgfake.outbox()}
    assert {listening.id, private.id} <= ready, "each bot made its own call before it was ready"
    tgfake.send("hello all", user="bob", chat=group.id)
    assert tgfake.expect_reply(f"{listening.username} heard: hello all").username == listening.username
    tgfake.send(f"/ping@{private.username}", user="bob", chat=group.id)
    assert tgfake.expect_reply(f"{private.username} heard: /ping@{private.username}").username == private.username
    tgfake.expect_no_reply(within=0.2)
    assert first.alive()
    assert second.alive()
