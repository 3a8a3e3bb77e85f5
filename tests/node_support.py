"""Node.js for the tests that run JavaScript clients (tests/libraries/node, tests/llm/node): skipped on a
developer's machine without Node or without ``npm ci`` at the repository's root (the folders are npm workspaces of
the root package.json, installed together into the root's node_modules), failed in CI
(tests/requirements.py), where .ci/run installs both."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.requirements import missing

ROOT = Path(__file__).parent.parent
LOCK = ROOT / "package-lock.json"
"""The one lockfile of every Node package of the repository (npm workspaces)."""


def workspace_lock(package_dir: Path) -> tuple[dict[str, str], dict[str, str]]:
    """A workspace's pins (its package.json ``dependencies``) and the versions the root lockfile installs for them."""
    lock = json.loads(LOCK.read_text())
    declared: dict[str, str] = lock["packages"][package_dir.relative_to(ROOT).as_posix()]["dependencies"]
    installed = {name: lock["packages"][f"node_modules/{name}"]["version"] for name in declared}
    return declared, installed


def registry_hosts_in_lock() -> list[str]:
    """Lock entries that name a download address (none: npm's omit-lockfile-registry-resolved; npm ci resolves by
    name from whichever registry is configured)."""
    lock = json.loads(LOCK.read_text())
    return [k for k, v in lock["packages"].items() if "resolved" in v and not v.get("link")]


def node_missing(package_dir: Path) -> str:
    """Why the scripts of ``package_dir`` cannot run here, or "" when they can."""
    if shutil.which("node") is None:
        return "node is not installed (apt-get install nodejs npm)"
    if not (ROOT / "node_modules").is_dir():
        return "no node_modules at the repository's root (run npm ci there)"
    package = json.loads((package_dir / "package.json").read_text())
    missing = [name for name in package.get("dependencies", {}) if not (ROOT / "node_modules" / name).is_dir()]
    if missing:
        return f"{', '.join(missing)} not installed for {package_dir.relative_to(ROOT)} (run npm ci at the root)"
    return ""


def require_node(package_dir: Path, what: str) -> None:
    """Skip (on a developer's machine) or fail (in CI) when ``what`` cannot run."""
    why = node_missing(package_dir)
    if why:
        missing(why, what)
