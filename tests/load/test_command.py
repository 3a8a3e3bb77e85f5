"""``tgfake load`` as a command: its exit statuses, the summary, the JSON and HTML it writes, Ctrl-C."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.load.conftest import ANSWER_BOT, assert_consistent
from tgfake.load import LoadReport, command
from tgfake.load.command import _rate
from tgfake.load.html import render

ROOT = Path(__file__).parents[2]
QUICK = ["--people", "30", "--groups", "3", "--members", "5", "--rate", "60/s", "--duration", "0.8s", "--drain", "1s"]


def tgfake(*args: str, origin: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tgfake", "load", *args],
        env={**os.environ, "PYTHONPATH": str(ROOT), "TGFAKE_URL": origin, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


def test_a_run_to_its_end_exits_0_with_a_summary_json_and_html(origin: str, tmp_path: Path) -> None:
    report, page = tmp_path / "load.json", tmp_path / "load.html"
    scenario = tmp_path / "s.yaml"
    scenario.write_text("think: 0.3\nactions:\n  - text: 'hi {name}'\n")
    status, out, err = finished(
        tgfake(*QUICK, "--no-flood-control", "--scenario", str(scenario), "--report", str(report), "--html",
               str(page), "--", *ANSWER_BOT, origin=origin)
    )  # fmt: skip
    assert status == 0, err
    assert "load: 0.8" in out
    assert "stopped by duration" in out
    for row in ("offered", "delivered", "answered", "unanswered  0", "latency ms", "429s 0", "backlog", "stand"):
        assert row in out, row
    written = LoadReport(json.loads(report.read_text()))
    assert_consistent(written)
    assert written.raw["settings"]["scenario"]["actions"] == [{"text": "hi {name}", "weight": 1.0}]
    html = page.read_text()
    assert html.count("<svg") >= 5
    assert "src=" not in html
    assert "http" not in html.replace("http://www.w3.org", "")  # nothing fetched from anywhere
    assert "load: running" in err


def test_updates_left_unanswered_exit_1(origin: str) -> None:
    status, out, _ = finished(tgfake(*QUICK, "--drain", "0", "--", *ANSWER_BOT, origin=origin, SLEEP="0.3"))
    assert status == 1
    assert "unanswered" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--rate", "fast", "--", *ANSWER_BOT], 'invalid rate "fast": acts per second, such as 300/s'),
        ([], "give the bot's command after --, e.g. tgfake load -- python my_bot.py"),
        (["--scenario", "{bad}", "--", *ANSWER_BOT], "unknown key 'dance'"),
        (["--", sys.executable, "-c", "raise SystemExit(3)"], "the bot exited with status 3"),
    ],
)
def test_usage_errors_and_a_bot_that_cannot_start_exit_2(
    origin: str, tmp_path: Path, argv: list[str], words: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"actions": [{"dance": {}}]}')
    out, err = io.StringIO(), io.StringIO()
    argv = [str(bad) if a == "{bad}" else a for a in argv]
    assert command.main(["--url", origin, *argv] if argv[:1] == ["--"] else argv, out, err) == 2
    assert words in err.getvalue()
    assert out.getvalue() == ""


def test_ctrl_c_stops_the_run_and_writes_the_partial_report(origin: str, tmp_path: Path) -> None:
    report = tmp_path / "partial.json"
    proc = tgfake("--duration", "120s", "--rate", "30/s", "--report", str(report), "--", *ANSWER_BOT, origin=origin)
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("load: running"):
            break
    proc.send_signal(signal.SIGINT)
    status, out, _ = finished(proc)
    assert status == 130
    assert "stopped by interrupted" in out
    written = LoadReport(json.loads(report.read_text()))
    assert written.stopped == "interrupted"
    assert_consistent(written)


def test_rates_read_per_second_or_per_minute() -> None:
    assert (_rate("300/s"), _rate("300"), _rate("1200/m")) == (300.0, 300.0, 20.0)


def test_the_page_draws_each_chart_from_the_rows() -> None:
    rows = [{"t": i, "offered": 10, "delivered": 9, "answered": 8, "p50": 1.0 + i, "p90": 2.0, "p99": 3.0 + i,
             "max": 4.0 + i, "errors": i, "too_many": i, "webhook_failures": 0, "backlog": i, "cpu": 5.0,
             "rss_mb": 60.0} for i in range(3)]  # fmt: skip
    page = render(LoadReport({"seconds": rows, "totals": {"calls": {"sendMessage": 3}}, "settings": {}}))
    assert page.count("<polyline") == 3 + 3 + 3 + 1 + 2
    assert "Reply latency" in page
    assert "Backlog" in page
    assert "sendMessage" in page
