"""The lifecycle and Mini App scenarios (steps in steps_media.py)."""

from __future__ import annotations

from pytest_bdd import scenarios

from tests.bdd.steps_media import *  # noqa: F403  (step definitions are fixtures the scenarios look up by name)

scenarios("features/update_lifecycle.feature", "features/mini_app.feature")
