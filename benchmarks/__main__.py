"""``python -m benchmarks``: run every row once and print the table; ``--wrk``: the wrk mode (benchmarks.wrk)."""

from __future__ import annotations

import sys

from benchmarks import harness, wrk

args = sys.argv[1:]
if "--wrk" in args:
    raise SystemExit(wrk.main([a for a in args if a != "--wrk"]))
raise SystemExit(harness.main(args))
