"""Node.js for the tests that run JavaScript clients (tests/libraries/node, tests/llm/node): skipped on a
developer's machine without Node or without ``npm ci`` in the package's folder, failed in CI (``CI`` or
``TGFAKE_REQUIRE_NODE`` set), where .ci/run installs both."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def node_missing(package_dir: Path) -> str:
    """Why the scripts of ``package_dir`` cannot run here, or "" when they can."""
    if shutil.which("node") is None:
        return "node is not installed (apt-get install nodejs npm)"
    if not (package_dir / "node_modules").is_dir():
        return f"no {package_dir.relative_to(ROOT)}/node_modules (run npm ci there)"
    return ""


def require_node(package_dir: Path, what: str) -> None:
    """Skip (on a developer's machine) or fail (in CI) when ``what`` cannot run."""
    why = node_missing(package_dir)
    if not why:
        return
    if os.environ.get("CI") or os.environ.get("TGFAKE_REQUIRE_NODE"):
        pytest.fail(f"{what} must run in CI: {why}")
    pytest.skip(why)
