"""Giving a dropped history's memory back: after a reset of a long run, a full collection and ``malloc_trim``.

A reset drops the world at once (tgfake/stand.py), but the process keeps what the allocators hold: objects the
collector has not reached yet (``gc.freeze()`` kept the history out of its sight), the interpreter's free lists
(cleared only by a full collection), and free pages glibc keeps at the top of its heap and in its bins. Without
this, VmRSS after three 5-second sendMessage bursts, each followed by ``POST /sim/reset``, went 70 → 93 → 95 →
100 MB (docs/benchmarks.md, "Memory after resets").
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Callable

_trim: Callable[[int], int] | None = None
_looked = False


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None on another C library (musl, macOS)."""
    global _trim, _looked
    if not _looked:
        _looked = True
        name = ctypes.util.find_library("c")
        try:
            libc = ctypes.CDLL(name) if name else None
            _trim = getattr(libc, "malloc_trim", None)
        except OSError:
            _trim = None
    return _trim


def release() -> None:
    """Collect every generation (the free lists with it), then hand glibc's free pages back to the system."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
