"""The testing client's channel methods (written once for both clients), over a stand served by the plugin."""

from __future__ import annotations

import pytest

from tgfake.testing import SimAPIError, StandClient


def test_the_client_plays_each_persons_action(tgfake: StandClient) -> None:
    channel = tgfake.create_chat("News", type="channel", admins=["@tgfake_bot"])
    group = tgfake.create_chat("Friends", members=["bob"])
    boosted = tgfake.boost(channel, user="bob", count=2)
    assert len(boosted["boosts"]) == 2
    assert len(tgfake.unboost(channel, user="bob")["boosts"]) == 2
    assert tgfake.make_verifier()["verifier"] is True
    assert tgfake.verifications()["verified"] == []
    made = tgfake.create_managed_bot("alice_helper_bot", first_name="Helper")
    assert (made.username, made.first_name) == ("alice_helper_bot", "Helper")
    assert made.token.startswith(f"{made.id}:")
    club = tgfake.create_chat("Club", admins=["@tgfake_bot"], join_by_request=True)
    assert tgfake.assign_join_requests(club)["bot"] == "tgfake_bot"
    summoned = tgfake.summon(group, "what time is it?")
    assert summoned["guest_query_id"]
    placed = tgfake.suggest_post(channel, "my post", price={"currency": "XTR", "amount": 10})
    assert placed["chat_id"] != channel.id
    with pytest.raises(SimAPIError, match="no ephemeral command"):  # the bot's menu marks none is_ephemeral
        tgfake.ephemeral_command(club, "/start", user="alice")
    state = tgfake.sim("GET", "/sim/state")
    assert state["pending_updates"] >= 4  # chat_boost x2, removed_chat_boost x2, ... for the stand's bot
