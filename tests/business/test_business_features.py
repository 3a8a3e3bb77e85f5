"""The business steps of tgfake.bdd (loaded by tests/conftest.py), run against tests/business/business_bot.py."""

from __future__ import annotations

from pytest_bdd import scenarios

scenarios("features/business.feature")
