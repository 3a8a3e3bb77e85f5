"""``pip install 'tgfake[bdd]'`` is the one step for Gherkin dialog tests: the extra exists, and the shipped
echobot features pass in an environment holding only tgfake, its dependencies and that extra's packages.

The environment is built from the installed distributions (no network, no pip): the requirement closure
of tgfake's dependencies plus the ``bdd`` extra, each distribution linked into a fresh directory with its
metadata (pytest finds plugins by entry points), tgfake itself from this tree with the metadata a wheel
would carry, and the run is ``python -S`` so that nothing else on the machine is importable.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import Distribution, PackageNotFoundError, distribution
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]


def project() -> dict[str, Any]:
    meta: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return meta


def test_the_bdd_extra_brings_pytest_and_pytest_bdd() -> None:
    extras = project()["optional-dependencies"]
    assert sorted(Requirement(r).name for r in extras["bdd"]) == ["pytest", "pytest-bdd"]
    # the suite's own extra can run everything the bdd extra can
    test_names = {Requirement(r).name for r in extras["test"]}
    assert {Requirement(r).name for r in extras["bdd"]} <= test_names


def closure(requirements: list[str]) -> dict[str, Distribution]:
    """Every installed distribution the requirements need, transitively (markers evaluated, no extras beyond)."""
    found: dict[str, Distribution] = {}
    todo = [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        key = re.sub(r"[-_.]+", "-", req.name).lower()
        if key in found:
            continue
        try:
            dist = distribution(req.name)
        except PackageNotFoundError as e:
            raise AssertionError(f"{req.name} is required but not installed") from e
        found[key] = dist
        for sub in dist.requires or []:
            parsed = Requirement(sub)
            if parsed.marker is None or parsed.marker.evaluate({"extra": ""}):
                todo.append(parsed)
            elif any(parsed.marker.evaluate({"extra": x}) for x in req.extras):
                todo.append(Requirement(str(parsed).split(";")[0]))
    return found


def link_distribution(dist: Distribution, site: Path) -> None:
    """Link a distribution's top-level modules, packages and metadata directory into ``site``."""
    base = Path(str(dist.locate_file("")))
    tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
    for top in sorted(tops - {"__pycache__"}):
        src, dst = base / top, site / top
        if src.exists() and not dst.exists():
            dst.symlink_to(src)


def install_this_tree(site: Path) -> None:
    """tgfake from this tree with the metadata its wheel would have: its name, requirements and entry points."""
    for package in ("tgfake", "llmstub"):
        (site / package).symlink_to(ROOT / package)
    meta = project()
    info = site / f"tgfake-{meta['version']}.dist-info"
    info.mkdir()
    requires = [f"Requires-Dist: {r}" for r in meta["dependencies"]]
    requires += [f'Requires-Dist: {r}; extra == "bdd"' for r in meta["optional-dependencies"]["bdd"]]
    (info / "METADATA").write_text(
        "\n".join(["Metadata-Version: 2.1", "Name: tgfake", f"Version: {meta['version']}", *requires]) + "\n"
    )
    points = [
        line
        for group, entries in meta["entry-points"].items()
        for line in [f"[{group}]", *(f"{k} = {v}" for k, v in entries.items())]
    ]
    (info / "entry_points.txt").write_text("\n".join(points) + "\n")


def test_the_echobot_features_run_with_only_the_bdd_extra(tmp_path: Path) -> None:
    meta = project()
    site = tmp_path / "site"
    site.mkdir()
    for dist in closure([*meta["dependencies"], *meta["optional-dependencies"]["bdd"]]).values():
        link_distribution(dist, site)
    install_this_tree(site)

    # A new user's project, as the README's Gherkin section says to lay it out.
    work = tmp_path / "mybot"
    shutil.copytree(ROOT / "examples/echobot/features", work / "features")
    (work / "conftest.py").write_text('pytest_plugins = ["tgfake.bdd"]\n')
    (work / "test_features.py").write_text('from pytest_bdd import scenarios\n\nscenarios("features")\n')

    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST", "TGFAKE"))}
    env["PYTHONPATH"] = str(site)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no pyc of the linked trees carrying this run's paths
    isolated = [sys.executable, "-S"]
    leak = subprocess.run([*isolated, "-c", "import telegram"], env=env, capture_output=True, text=True, check=False)
    assert "No module named 'telegram'" in leak.stderr, "the isolated environment sees other packages"

    # The bot is the user's own program in its own environment (here: the suite's interpreter with PTB).
    env["BOT_CMD"] = f"{sys.executable} {ROOT / 'examples/echobot/echobot.py'}"
    run = subprocess.run(
        [*isolated, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )
    scenarios = (work / "features/echobot.feature").read_text().count("Scenario:")
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(rf"\b{scenarios} passed\b", run.stdout), run.stdout
