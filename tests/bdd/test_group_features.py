"""The group, join and payment steps of tgfake.bdd (loaded by tests/conftest.py), run against tests/bdd/club_bot.py."""

from __future__ import annotations

from pytest_bdd import scenarios

scenarios("features/groups.feature")
