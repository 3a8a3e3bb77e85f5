"""The channel steps of tgfake.bdd (loaded by tests/conftest.py), run against tests/channels/channel_bot.py."""

from __future__ import annotations

from pytest_bdd import scenarios

scenarios("features/channels.feature")
