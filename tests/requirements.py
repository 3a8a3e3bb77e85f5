"""What a test needs beyond the Python test extra, and what happens without it: a developer's machine skips the
test and says why; CI fails it, so a missing install step can never pass as a skip.

CI is recognised by ``TGFAKE_CI`` (which .ci/run sets), ``CI`` (set by most CI services) or the older
``TGFAKE_REQUIRE_NODE``.
"""

from __future__ import annotations

import importlib
import os
import shutil
from types import ModuleType

import pytest

CI_VARIABLES = ("TGFAKE_CI", "CI", "TGFAKE_REQUIRE_NODE")


def in_ci() -> bool:
    """Whether this run is CI's, where nothing may be skipped for want of an install."""
    return any(os.environ.get(name) for name in CI_VARIABLES)


def missing(why: str, what: str) -> None:
    """Skip ``what`` (a developer's machine) or fail it (CI) because of ``why``."""
    if in_ci():
        pytest.fail(f"{what} must run in CI: {why}")
    pytest.skip(why, allow_module_level=True)


def require_module(name: str, what: str) -> ModuleType:
    """The module ``name``, imported; skipped (or failed in CI) when it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        missing(f"{name} is not installed ({exc}; pip install -e '.[test]')", what)
        raise  # unreachable: missing() raises


def require_program(name: str, what: str, install: str) -> str:
    """The path of the program ``name``; skipped (or failed in CI) when it is not on PATH."""
    path = shutil.which(name)
    if path is None:
        missing(f"{name} is not installed ({install})", what)
        raise AssertionError  # unreachable: missing() raises
    return path
