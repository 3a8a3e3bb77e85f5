"""``tgfake explore`` as a command: exit statuses, the summary, the files it writes, and a --tests file that fails
against the buggy bot and passes against its twin."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from tgfake.explore import command

BOT = str(Path(__file__).parent / "bots" / "plain_bot.py")
ROOT = Path(__file__).parents[2]


def tgfake(*args: str, plant: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PLANT": plant, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "tgfake", "explore", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_clean_bot_exits_0_with_a_summary(tmp_path: Path) -> None:
    report = tmp_path / "out.json"
    done = tgfake("--phases", "commands", "--reply-time", "1.5", "--report", str(report), "--", "python", BOT)
    assert done.returncode == 0, done.stderr
    assert "no findings" in done.stdout
    assert "5 commands" in done.stdout
    written = json.loads(report.read_text())
    assert written["findings"] == []
    assert written["coverage"]["commands_tried"] == ["/start", "/help", "/menu", "/about", "/stats"]
    assert written["actions"][:2] == ["/start", "/help"]


def test_findings_exit_1_and_their_tests_fail_until_the_bug_is_fixed(tmp_path: Path) -> None:
    report, tests = tmp_path / "out.json", tmp_path / "test_found.py"
    args = ["--phases", "commands", "--reply-time", "1.5", "--report", str(report), "--tests", str(tests)]
    done = tgfake(*args, "--html", str(tmp_path / "out.html"), "--", "python", BOT, plant="too_long")
    assert done.returncode == 1, done.stderr
    assert "1 findings: too_long 1" in done.stdout
    found = json.loads(report.read_text())["findings"]
    assert [(f["kind"], f["trimmed_from"], len(f["steps"])) for f in found] == [("too_long", 1, 1)]  # one act: kept
    assert "<details" in (tmp_path / "out.html").read_text()

    def pytest(plant: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PLANT": plant, "PYTHONPATH": str(ROOT)}
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", str(tests)]
        return subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)

    buggy = pytest("too_long")
    assert buggy.returncode == 1
    assert "1 failed" in buggy.stdout, buggy.stdout
    assert "Bad Request: message is too long" in buggy.stdout
    fixed = pytest("")
    assert fixed.returncode == 0, fixed.stdout
    assert "1 passed" in fixed.stdout


def test_a_bot_that_cannot_start_exits_2(tmp_path: Path) -> None:
    done = tgfake("--", "python", "-c", "print('no token'); raise SystemExit(3)")
    assert done.returncode == 2
    assert "tgfake explore: the bot exited with status 3; its output:\nno token" in done.stderr


def usage(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    return command.main(list(args), out, err), err.getvalue()


def test_usage_errors_exit_2() -> None:
    assert usage() == (2, "tgfake explore: give the bot's command after --, e.g. tgfake explore -- python my_bot.py\n")
    assert usage("--budget", "0", "--", "python", BOT) == (
        2,
        'tgfake explore: argument --budget: invalid value "0": a positive whole number\n',
    )
    assert usage("--phases", "dance", "--", "python", BOT) == (
        2,
        'tgfake explore: argument --phases: invalid phases "dance": choose from '
        "commands,texts,names,contents,buttons,groups,faults\n",
    )
    assert usage("--reply-time", "0.5", "--", "python", BOT) == (
        2,
        "tgfake explore: the slow-reply threshold (1 s) must be above 0 and below the reply time (0.5 s)\n",
    )
    assert usage("--llm-seed", "3", "--", "python", BOT) == (
        2,
        "tgfake explore: --llm-seed configures the scripted model, which only --llm serves\n",
    )
