"""The repository's example bots are correct, so ``tgfake explore`` finds nothing in them: every phase, the
default settings, the command as a user runs it in the example's directory (the dialog bot on its scripted model).
Before they were fixed it found four true findings in the echo bot (no /help, a 4106-character echo, a second Help
tap's "message is not modified", a traceback after a block) and two in the dialog bot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.mark.parametrize(
    ("example", "model"),
    [("echobot", []), ("dialogbot", ["--llm", "--llm-script", "script.json"])],
)
def test_explore_finds_nothing_in_an_example_bot(example: str, model: list[str], tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    argv = ["--budget", "120", "--report", str(report), *model, "--", sys.executable, f"{example}.py"]
    done = subprocess.run(
        [sys.executable, "-m", "tgfake", "explore", *argv],
        cwd=EXAMPLES / example,
        env={**os.environ, "PYTHONPATH": str(EXAMPLES.parent)},
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    written = json.loads(report.read_text())
    assert [f["title"] for f in written["findings"]] == [], done.stdout
    assert done.returncode == 0, done.stderr
    assert "no findings" in done.stdout
    assert written["coverage"]["commands_tried"][:2] == ["/start", "/help"]
    assert written["coverage"]["actions"] >= 40
