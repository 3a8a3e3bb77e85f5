"""``python -m benchmarks``: run every row once and print the table."""

from __future__ import annotations

from benchmarks.harness import main

raise SystemExit(main())
