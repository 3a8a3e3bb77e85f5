"""The registry serves a subset of the 185 Bot API methods of the schema, each reachable in any letter case."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import Wire
from tgfake.botapi import lookup, method_names
from tgfake.botapi.schema import methods

SCHEMA = sorted(m.name for m in methods().values())
SERVED = method_names()
# Modelled methods plus the refusal-only families (tgfake/botapi/<family>.py).
EXPECTED_SERVED = 185


def test_the_schema_lists_every_method_of_bot_api_10_3() -> None:
    assert len(SCHEMA) == 185
    assert {"sendMessage", "getUpdates", "close", "logOut", "sendRichMessageDraft", "verifyUser"} <= set(SCHEMA)


def test_served_methods_are_a_subset_of_the_schema_and_counted(record_property: Callable[[str, object], None]) -> None:
    assert set(SERVED) <= set(SCHEMA), sorted(set(SERVED) - set(SCHEMA))
    record_property("coverage", f"{len(SERVED)}/{len(SCHEMA)}")
    print(f"Bot API coverage: {len(SERVED)} of {len(SCHEMA)} methods served")
    assert len(SERVED) == EXPECTED_SERVED


def test_lookup_ignores_letter_case_and_knows_nothing_else() -> None:
    assert lookup("SENDMESSAGE") is lookup("sendMessage") is not None
    assert lookup("sendPhotoo") is None


@pytest.mark.parametrize("method", SERVED)
async def test_every_served_method_answers_bare_calls_without_404(wire: Wire, method: str) -> None:
    """Called bare, no served method answers "method not found" (they answer or refuse with a 400 of their own)."""
    status, body = await wire.call(method, timeout=0)
    assert (status, body.get("description")) != (404, "Not Found: method not found")
    assert status in (200, 400), body


def test_every_method_of_the_schema_is_served() -> None:
    """All of Bot API 10.3: no real method answers "method not found" (an unknown name still does)."""
    assert sorted(set(SCHEMA) - set(SERVED)) == []
    assert len(SCHEMA) == 185
