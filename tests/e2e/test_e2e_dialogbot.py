"""examples/dialogbot/features run against examples/dialogbot, both started exactly as compose.yaml starts them.

The stand is compose's `stand` service (the bot in its session `dialogbot`) and the bot its `dialogbot` service, run
here as local processes (tests/e2e/compose_local.py), or, inside compose's e2e container, the running ones
(`DIALOGBOT_STAND_URL`).
"""

from __future__ import annotations

from pytest_bdd import scenarios

from tests.e2e.compose_local import ROOT, example_fixtures

scenarios(str(ROOT / "examples/dialogbot/features"))

compose_stack, tgfake_server, tgfake_bot_command, tgfake_bot_env = example_fixtures(
    "stand", "dialogbot", "DIALOGBOT_STAND_URL"
)
