"""examples/dialogbot/features run against examples/dialogbot, both started exactly as compose.yaml starts them.

The stand is compose's `stand` service and the bot its `dialogbot` service, run here as local processes
(tests/e2e/compose_local.py), or, inside compose's e2e container, the running ones (`DIALOGBOT_STAND_URL`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_bdd import scenarios

from tests.e2e.compose_local import ROOT, Stack, stack
from tgfake.pytest_plugin import StandHandle

scenarios(str(ROOT / "examples/dialogbot/features"))


@pytest.fixture(scope="module")
def dialogbot_stack() -> Iterator[Stack]:
    yield from stack("stand", "dialogbot", "DIALOGBOT_STAND_URL")


@pytest.fixture(scope="module")
def tgfake_server(dialogbot_stack: Stack) -> StandHandle:
    """This module's stand is compose's, not the plugin's session stand."""
    return StandHandle(dialogbot_stack.url, script=dialogbot_stack.script)


@pytest.fixture
def tgfake_bot_command(dialogbot_stack: Stack) -> list[str]:
    return dialogbot_stack.bot_argv


@pytest.fixture
def tgfake_bot_env(dialogbot_stack: Stack) -> dict[str, str]:
    return dialogbot_stack.bot_env
