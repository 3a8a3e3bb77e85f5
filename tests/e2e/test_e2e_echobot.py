"""examples/echobot/features run against examples/echobot, both started exactly as compose.yaml starts them.

The stand is compose's `stand` service (the bot in its session `echobot`) and the bot its `echobot` service, run
here as local processes (tests/e2e/compose_local.py), or, inside compose's e2e container, the running ones
(`ECHOBOT_STAND_URL`).
"""

from __future__ import annotations

from pytest_bdd import scenarios

from tests.e2e.compose_local import ROOT, example_fixtures

scenarios(str(ROOT / "examples/echobot/features"))

compose_stack, tgfake_server, tgfake_bot_command, tgfake_bot_env = example_fixtures(
    "stand", "echobot", "ECHOBOT_STAND_URL"
)
