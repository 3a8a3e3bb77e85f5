"""``python -m benchmarks``: run every row once and print the table; ``--wrk``: the wrk mode (benchmarks.wrk);
``--load``: the load mode (benchmarks.load)."""

from __future__ import annotations

import sys

from benchmarks import harness, load, wrk

args = sys.argv[1:]
if "--load" in args:
    raise SystemExit(load.main([a for a in args if a != "--load"]))
if "--wrk" in args:
    raise SystemExit(wrk.main([a for a in args if a != "--wrk"]))
raise SystemExit(harness.main(args))
