"""The benchmark harness runs end to end with tiny counts and produces every row (numbers sane, never timed)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from benchmarks import wrk
from benchmarks.harness import Config, main, model_factory, run

TINY = Config(
    requests=20,
    concurrency=2,
    rounds=5,
    repeats=1,
    chat_messages=10,
    stream_requests=5,
    stream_words=20,
    pacing_streams=1,
    pacing_words=3,
    load_concurrency=4,
    memory_messages=50,
)

STAND_ROWS = [
    "baseline: bare POST, getMe-sized JSON",
    "getMe",
    "baseline: bare POST form read, message JSON",
    "sendMessage (form, inline keyboard)",
    "sendMessage (form, parse_mode HTML)",
    "baseline: bare POST JSON read, small JSON",
    "POST /sim/message",
    "baseline: bare GET, transcript-sized text",
    "GET /sim/chat/{id}?format=text (10 msgs)",
    "baseline: bare aiohttp hold/wake",
    "long poll woken by /sim/message",
    "GET /sim/wait woken by sendMessage",
]
LOAD_ROWS = [
    "baseline: bare POST, getMe-sized JSON under load (c=4)",
    "getMe under load (c=4)",
    "baseline: bare POST form read, message JSON under load (c=4)",
    "sendMessage under load (c=4)",
]
MEMORY_ROWS = ["memory: at the start", "memory: 50 messages stored", "memory: after POST /sim/reset"]
MODEL_ROWS = [
    "baseline: bare POST JSON read, completion JSON",
    "/v1/chat/completions (20 words, not streamed)",
    "baseline: bare aiohttp streaming the same SSE events",
    "stream /v1/chat/completions (20 words, delay 0s)",
    "baseline: bare aiohttp streaming the same SSE events (/v1/responses)",
    "stream /v1/responses (20 words, delay 0s)",
    "baseline: bare aiohttp streaming the same SSE events (/v1/messages)",
    "stream /v1/messages (20 words, delay 0s)",
    "pacing, delay 20 ms (3 words)",
]


async def test_every_row_with_sane_numbers() -> None:
    report = await run(TINY)
    has_model = model_factory()[0] is not None
    assert [r.name for r in report.rows] == STAND_ROWS + LOAD_ROWS + (MODEL_ROWS if has_model else []) + MEMORY_ROWS
    for row in report.rows:
        assert row.count > 0, row
        assert row.rate > 0, row
        assert 0 <= row.p50_ms <= row.p99_ms, row
    for row in report.rows:
        if row.name in MEMORY_ROWS:
            assert row.extra["rss_mb"] > 0, row
        elif not row.name.startswith("pacing"):
            assert row.ratio is not None, row
            assert row.ratio > 0, row
            assert row.baseline.startswith("baseline:"), row
    assert report.row("GET /sim/chat/{id}?format=text (10 msgs)").extra["transcript_bytes"] > 0
    assert report.row("long poll woken by /sim/message").ratio_of == "p50"
    assert report.row("getMe").ratio_of == "rate"
    assert report.row("sendMessage (form, parse_mode HTML)").baseline == "baseline: bare POST form read, message JSON"
    assert report.row("sendMessage under load (c=4)").baseline == LOAD_ROWS[2]
    assert report.row("sendMessage under load (c=4)").ratio_of == "p99"
    if has_model:
        assert report.skipped == {}
        for stream_row in (MODEL_ROWS[3], MODEL_ROWS[5], MODEL_ROWS[7]):
            extra = report.row(stream_row).extra
            assert extra["frames_per_stream"] >= 20
            assert extra["events_per_stream"] >= extra["frames_per_stream"]  # the floor writes each event alone
        assert report.row(MODEL_ROWS[1]).baseline == MODEL_ROWS[0]
        assert report.row(MODEL_ROWS[-1]).count == 3
    else:
        assert set(report.skipped) == {"stream /v1/chat/completions", "pacing"}


def test_command_prints_the_table_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    args = ["--requests", "20", "--concurrency", "2", "--rounds", "3", "--repeats", "1", "--chat-messages", "4"]
    small = ["--load-concurrency", "2", "--memory-messages", "5"]
    assert main([*args, *small, "--stream-requests", "3", "--pacing-streams", "1", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text())
    names = [r["name"] for r in data["rows"]]
    assert names[:2] == ["baseline: bare POST, getMe-sized JSON", "getMe"]
    for name in names:
        assert name in printed
    assert data["config"]["requests"] == 20
    assert data["meta"]["cpus"] >= 1
    assert all(r["rate"] > 0 for r in data["rows"])


def test_counts_below_one_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--requests", "0"])
    assert exc.value.code == 2
    assert "--requests must be at least 1" in capsys.readouterr().err


def require_wrk() -> None:
    """Skip without wrk on a developer's machine; fail in CI (``CI`` or ``TGFAKE_REQUIRE_NODE`` set), where
    .ci/run installs it (the convention of tests/node_support.py)."""
    if shutil.which("wrk") is not None:
        return
    if os.environ.get("CI") or os.environ.get("TGFAKE_REQUIRE_NODE"):
        pytest.fail("the wrk mode must run in CI: wrk is not installed (apt-get install wrk)")
    pytest.skip("wrk is not installed (apt-get install wrk)")


def test_wrk_mode_runs_every_row_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--wrk`` for 1 s and 1 round: the stand and the floor in their own processes, every row and the memory
    row measured (numbers sane, never timed), the table printed and the JSON written."""
    require_wrk()
    out = tmp_path / "wrk.json"
    argv = ["--duration", "1", "--rounds", "1", "--warmup", "0", "--bursts", "1", "--burst-requests", "300"]
    argv += ["--connections", "4"]
    assert wrk.main([*argv, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert [r["name"] for r in data["rows"]] == [p.name for p in wrk.PAIRS]
    assert [r["goal"] for r in data["rows"]] == [0.8, 0.7, 0.8, 0.5]
    for row in data["rows"]:
        assert row["name"] in printed
        for side in ("stand", "floor"):
            (run,) = row[side]
            assert run["requests"] > 0, row
            assert run["errors"] == 0, row
            assert run["rate"] > 0, row
            assert 0 < run["p50_ms"] <= run["p99_ms"], row
        assert row["ratio"] > 0, row
        assert row["p99_ratio"] > 0, row
    assert len(data["memory_mb"]) == 2
    (stored,) = data["burst_sizes"]
    assert 0 < stored <= 300 + 4, stored  # the count stops the burst (a request in flight on each connection)
    assert all(mb > 0 for mb in data["memory_mb"])
    assert "memory: VmRSS MB" in printed
    assert data["config"]["connections"] == 4


def test_wrk_mode_refuses_bad_counts(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        wrk.main(["--duration", "0"])
    assert exc.value.code == 2
    assert "--duration must be at least 1" in capsys.readouterr().err


def test_wrk_script_sends_the_body_and_reports_one_line() -> None:
    script = wrk.lua(wrk.Target("/x", b"a=%5D%5D&b=]====]", "application/x-www-form-urlencoded"))
    assert 'wrk.method = "POST"' in script
    assert "wrk.body = [=====[a=%5D%5D&b=]====]]=====]" in script  # a level the body does not close
    assert 'wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"' in script
    assert wrk.RESULT in script
