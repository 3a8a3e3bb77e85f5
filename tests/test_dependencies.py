"""The dependencies cannot drift: every package the code and the suite import is declared with a range, the lock
(constraints.txt) satisfies every range, and CI runs on exactly the locked set."""

from __future__ import annotations

import ast
import importlib.metadata
import sys
from pathlib import Path

from packaging.utils import canonicalize_name

from tests.requirements import in_ci
from tools import lock

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = {"tgfake", "llmstub", "tests", "tools", "benchmarks", "examples"}
SOURCES = ("tgfake", "llmstub", "tests", "tools", "benchmarks", "examples")


def imported_modules() -> dict[str, set[str]]:
    """Top-level modules imported anywhere in the repository's Python code -> the folders that import them."""
    found: dict[str, set[str]] = {}
    for folder in SOURCES:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names = [node.module]
                for name in names:
                    found.setdefault(name.split(".")[0], set()).add(folder)
    return {m: f for m, f in found.items() if m not in sys.stdlib_module_names and m not in FIRST_PARTY}


def test_every_imported_package_is_declared() -> None:
    """A module the code imports comes from a distribution pyproject.toml names (runtime, or the test extra)."""
    declared = {canonicalize_name(req.name) for req in lock.declared()}
    distributions = importlib.metadata.packages_distributions()
    undeclared: dict[str, tuple[list[str], list[str]]] = {}
    for module, folders in sorted(imported_modules().items()):
        names = {canonicalize_name(d) for d in distributions.get(module, [])}
        if not names & declared:
            undeclared[module] = ([str(n) for n in sorted(names)] or ["(not installed)"], sorted(folders))
    assert undeclared == {}


def test_the_lock_satisfies_every_range() -> None:
    assert lock.mismatches(lock.pins(lock.LOCK.read_text()), lock.declared()) == []


def test_ci_runs_on_the_locked_set() -> None:
    """In CI every declared package is installed at its locked version (a developer may run newer releases)."""
    locked = lock.pins(lock.LOCK.read_text())
    installed: dict[str, str] = {}
    for req in lock.declared():
        name = canonicalize_name(req.name)
        installed[name] = importlib.metadata.version(req.name)
    drift = {name: (version, locked.get(name)) for name, version in installed.items() if locked.get(name) != version}
    if in_ci():
        assert drift == {}
    else:  # locally, the installed set must still lie within the ranges
        assert lock.mismatches(installed, lock.declared()) == []
