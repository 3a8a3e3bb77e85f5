"""Refresh constraints.txt, the known-good set of Python packages that CI installs.

    python -m tools.lock            # newest releases the ranges of pyproject.toml allow, into constraints.txt
    python -m tools.lock --check    # exit 1 when constraints.txt no longer satisfies pyproject.toml's ranges

The refresh builds a fresh virtual environment in a temporary folder, installs the project with its test extra there
(so nothing this machine already has can leak into the set), and writes what ``pip freeze`` reports. Run the whole
suite against the new set before committing it (docs/testing.md#dependencies).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "constraints.txt"
EXTRAS = "test"
HEADER = """\
# The Python packages CI installs (.ci/run: pip install -c constraints.txt -e '.[test]').
# Made by `python -m tools.lock` from the ranges in pyproject.toml; do not edit by hand.
"""


def fresh_freeze(extras: str = EXTRAS) -> list[str]:
    """``pip freeze`` of a new virtual environment holding only this project with ``extras``."""
    with tempfile.TemporaryDirectory(prefix="tgfake-lock-") as tmp:
        env = Path(tmp) / "venv"
        venv.create(env, with_pip=True)
        python = str(env / "bin" / "python")
        pip = [python, "-m", "pip", "--disable-pip-version-check"]
        subprocess.run([*pip, "install", "--quiet", "--upgrade", "pip"], check=True)
        subprocess.run([*pip, "install", "--quiet", "-e", f"{ROOT}[{extras}]"], check=True)
        frozen = subprocess.run(
            [*pip, "freeze", "--exclude-editable", "--all"], check=True, capture_output=True, text=True
        ).stdout
    return sorted(
        (line for line in frozen.splitlines() if line and not line.startswith(("pip==", "setuptools==", "#"))),
        key=str.lower,
    )


def pins(text: str) -> dict[str, str]:
    """The ``name==version`` lines of a constraints file, by canonical name."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            out[canonicalize_name(name.split("[", 1)[0])] = version.strip()
    return out


def declared(extras: str = EXTRAS) -> list[Requirement]:
    """The project's runtime requirements and those of ``extras``, as pyproject.toml states them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in [*project["dependencies"], *project["optional-dependencies"][extras]]]


def mismatches(locked: dict[str, str], requirements: list[Requirement]) -> list[str]:
    """Each declared requirement that the locked set leaves out or pins outside its range."""
    out = []
    for req in requirements:
        version = locked.get(canonicalize_name(req.name))
        if version is None:
            out.append(f"{req.name} is not in constraints.txt")
        elif not req.specifier.contains(version, prereleases=True):
            out.append(f"{req.name}=={version} is outside {req.name}{req.specifier}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.lock", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check constraints.txt against pyproject.toml")
    args = parser.parse_args(argv)
    if args.check:
        problems = mismatches(pins(LOCK.read_text()), declared())
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    lines = fresh_freeze()
    LOCK.write_text(HEADER + "\n".join(lines) + "\n")
    print(f"wrote {len(lines)} pins to {LOCK.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
