"""Benchmarks: tgfake's routes measured against a bare aiohttp handler in the same process and run.

Run ``python -m benchmarks`` from the repository root; ``--help`` lists the counts, ``--json`` saves the numbers.
Not collected by pytest (``testpaths`` is ``tests``); ``tests/bench`` only smoke-tests the harness.
"""

from __future__ import annotations
