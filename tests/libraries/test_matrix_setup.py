"""The matrix's own set-up: exact pins in sync with the lockfile, and Node missing skips locally but fails in CI."""

from __future__ import annotations

import json
import re

import pytest

from tests.libraries import test_libraries as matrix


def test_node_libraries_are_pinned_exactly_and_locked() -> None:
    package = json.loads((matrix.NODE_DIR / "package.json").read_text())
    lock = json.loads((matrix.NODE_DIR / "package-lock.json").read_text())
    pins: dict[str, str] = package["dependencies"]
    assert sorted(pins) == sorted(lib.package for lib in matrix.LIBRARIES if lib.node)
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", v) for v in pins.values()), pins
    assert lock["packages"][""]["dependencies"] == pins
    assert {name: lock["packages"][f"node_modules/{name}"]["version"] for name in pins} == pins
    # No registry host is named in the lock (npm's omit-lockfile-registry-resolved); npm ci resolves by name.
    assert not [k for k, v in lock["packages"].items() if "resolved" in v]


@pytest.mark.parametrize(
    ("env", "outcome"),
    [
        ({}, pytest.skip.Exception),
        ({"CI": "true"}, pytest.fail.Exception),
        ({"TGFAKE_REQUIRE_NODE": "1"}, pytest.fail.Exception),
    ],
)
def test_missing_node_skips_locally_and_fails_in_ci(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], outcome: type[BaseException]
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("TGFAKE_REQUIRE_NODE", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert matrix.node_missing() == "node is not installed (apt-get install nodejs npm)"
    with pytest.raises(outcome, match="node is not installed"):
        matrix.require_node()
