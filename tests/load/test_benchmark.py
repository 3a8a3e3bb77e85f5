"""``python -m benchmarks --load`` runs every row once, briefly, and writes sane numbers (its smoke test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import load


def test_the_load_mode_runs_every_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "load.json"
    assert load.main(["--seconds", "0.5", "--rate", "300", "--messages", "2000", "--json", str(out)]) == 0
    rows = {r["name"]: r for r in json.loads(out.read_text())}
    assert list(rows) == [
        "long polling",
        "webhook (max_connections 40)",
        "added p99 at 1,000/s (the stand's sendMessage)",
        "memory: 10,000 people, 1,000 groups, 200,000 messages",
    ]
    for name in ("long polling", "webhook (max_connections 40)"):
        assert 0 < rows[name]["value"] <= rows[name]["extra"]["offered_per_s"], rows[name]
    added = rows["added p99 at 1,000/s (the stand's sendMessage)"]
    assert 0 < added["extra"]["p50_ms"] <= added["value"] <= added["extra"]["max_ms"]
    assert added["extra"]["calls"] > 0
    memory = rows["memory: 10,000 people, 1,000 groups, 200,000 messages"]
    assert memory["extra"]["messages"] == 2000
    assert memory["value"] > memory["extra"]["before_mb"]
    assert "long polling" in capsys.readouterr().out
