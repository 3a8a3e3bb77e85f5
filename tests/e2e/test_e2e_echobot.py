"""examples/echobot/features run against examples/echobot, both started exactly as compose.yaml starts them.

The stand is compose's `echostand` service and the bot its `echobot` service, run here as local processes
(tests/e2e/compose_local.py), or, inside compose's e2e container, the running ones (`ECHOBOT_STAND_URL`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_bdd import scenarios

from tests.e2e.compose_local import ROOT, Stack, stack
from tgfake.pytest_plugin import StandHandle

scenarios(str(ROOT / "examples/echobot/features"))


@pytest.fixture(scope="module")
def echobot_stack() -> Iterator[Stack]:
    yield from stack("echostand", "echobot", "ECHOBOT_STAND_URL")


@pytest.fixture(scope="module")
def tgfake_server(echobot_stack: Stack) -> StandHandle:
    """This module's stand is compose's, not the plugin's session stand."""
    return StandHandle(echobot_stack.url, script=echobot_stack.script)


@pytest.fixture
def tgfake_bot_command(echobot_stack: Stack) -> list[str]:
    return echobot_stack.bot_argv


@pytest.fixture
def tgfake_bot_env(echobot_stack: Stack) -> dict[str, str]:
    return echobot_stack.bot_env
