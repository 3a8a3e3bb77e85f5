"""The benchmark harness runs end to end with tiny counts and produces every row (numbers sane, never timed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
