"""The matrix's own set-up: exact pins in sync with the lockfile, and Node missing skips locally but fails in CI."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from packaging.requirements import Requirement

from tests.libraries import test_libraries as matrix
from tests.node_support import node_missing, registry_hosts_in_lock, require_node, workspace_lock
from tests.requirements import CI_VARIABLES


def test_node_libraries_are_pinned_exactly_and_locked() -> None:
    package = json.loads((matrix.NODE_DIR / "package.json").read_text())
    pins: dict[str, str] = package["dependencies"]
    assert sorted(pins) == sorted(lib.package for lib in matrix.LIBRARIES if lib.node)
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", v) for v in pins.values()), pins
    assert workspace_lock(matrix.NODE_DIR) == (pins, pins)  # the root lockfile installs exactly the pins
    assert not registry_hosts_in_lock()


@pytest.mark.parametrize(
    ("env", "outcome"),
    [
        ({}, pytest.skip.Exception),
        ({"CI": "true"}, pytest.fail.Exception),
        ({"TGFAKE_REQUIRE_NODE": "1"}, pytest.fail.Exception),
        ({"TGFAKE_CI": "1"}, pytest.fail.Exception),
    ],
)
def test_missing_node_skips_locally_and_fails_in_ci(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], outcome: type[BaseException]
) -> None:
    for name in CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert node_missing(matrix.NODE_DIR) == "node is not installed (apt-get install nodejs npm)"
    with pytest.raises(outcome, match="node is not installed"):
        require_node(matrix.NODE_DIR, "the Node library bots")


ROOT = matrix.HERE.parents[1]


def python_spec(package: str) -> str:
    """The test extra's version specifier of a Python library (``>=21.0``)."""
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    reqs = {Requirement(r).name.lower(): Requirement(r) for r in extra}
    return str(reqs[package.lower()].specifier)


def test_the_docs_table_is_the_matrix() -> None:
    """docs/testing.md's table names each library, its version (pin or extra) and its bot, and nothing else."""
    text = (ROOT / "docs/testing.md").read_text()
    section = text.split("## Six libraries in CI", 1)[1]
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| ") and "](../tests/" in line]
    shown = [
        (cells[0].lstrip("| "), cells[1].split("`")[1], cells[-1].split("(../")[1].split(")")[0]) for cells in rows
    ]
    pins = json.loads((matrix.NODE_DIR / "package.json").read_text())["dependencies"]
    want = [
        (lib.name, pins[lib.package] if lib.node else python_spec(lib.package), f"tests/libraries/{lib.bot}")
        for lib in matrix.LIBRARIES
    ]
    assert shown == want
    assert all((ROOT / path).is_file() for _, _, path in shown)


def test_the_readme_links_each_library_to_its_bot() -> None:
    text = (ROOT / "README.md").read_text()
    table = text.split("## Point your bot at it", 1)[1].split("\n\n")[2]
    links = re.findall(r"^\| \[([^\]]+)\]\(([^)]+)\)", table, flags=re.MULTILINE)
    assert [(name.removesuffix(" 3"), path) for name, path in links] == [
        (lib.name, f"tests/libraries/{lib.bot}") for lib in matrix.LIBRARIES
    ]
