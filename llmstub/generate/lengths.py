"""How long a random-mode answer is: seed 000's six-bucket histogram and its Gaussian default.

Decisions where the seed is silent (documented in docs/generated-answers.md):

* The histogram is laid over the *effective* budget, ``cap = min(max_tokens, max_model_len - input)``.
* ``cap`` of 6…120: six consecutive buckets of ``cap // 6`` tokens; the ``cap % 6`` left-over tokens
  widen the *last* buckets by one each (sizes differ by at most one; exact multiples of 6 give the
  seed's equal buckets, e.g. 60 → 1–10 … 51–60; 64 → 10, 10, 11, 11, 11, 11).
* ``cap`` above 120: buckets 1, 2, 3, 5 and 6 are 20 tokens wide, bucket 4 takes the rest
  (200 → 1–20, 21–40, 41–60, 61–160, 161–180, 181–200), exactly as the seed's table.
* ``cap`` below 6 cannot hold six non-empty buckets: the length is uniform in 1…cap.
* Inside a bucket the length is uniform.
"""

from __future__ import annotations

import random

BUCKET_WEIGHTS: tuple[int, ...] = (20, 30, 20, 5, 10, 15)
"""Probabilities of buckets 1–6, in percent (seed 000)."""

SMALL_BUDGET = 120
"""Budgets up to this many tokens get six equal buckets; larger ones a stretched bucket 4."""

FIXED_BUCKET = 20
GAUSS_MEAN = 40.0
GAUSS_SD = 20.0
GAUSS_MIN_LIMIT = 20
"""Below this remaining window the default length is uniform instead of Gaussian."""


def buckets(cap: int) -> list[tuple[int, int]]:
    """The six inclusive token ranges for a budget of ``cap`` tokens (``cap`` ≥ 6)."""
    if cap < len(BUCKET_WEIGHTS):
        raise ValueError(f"a budget of {cap} tokens cannot hold six buckets")
    if cap <= SMALL_BUDGET:
        base, extra = divmod(cap, 6)
        sizes = [base + (1 if i >= 6 - extra else 0) for i in range(6)]
        ranges, low = [], 1
        for size in sizes:
            ranges.append((low, low + size - 1))
            low += size
        return ranges
    w = FIXED_BUCKET
    return [
        (1, w),
        (w + 1, 2 * w),
        (2 * w + 1, 3 * w),
        (3 * w + 1, cap - 2 * w),
        (cap - 2 * w + 1, cap - w),
        (cap - w + 1, cap),
    ]


def sample_with_max(rng: random.Random, cap: int) -> int:
    """A length in 1…cap from the six-bucket histogram (uniform when cap < 6)."""
    if cap < 1:
        raise ValueError("the budget must be at least one token")
    if cap < len(BUCKET_WEIGHTS):
        return rng.randint(1, cap)
    low, high = rng.choices(buckets(cap), weights=BUCKET_WEIGHTS)[0]
    return rng.randint(low, high)


def sample_without_max(rng: random.Random, limit: int) -> int:
    """A length in 1…limit: Gaussian (mean 40, SD 20, rejection-sampled) or uniform when limit < 20."""
    if limit < 1:
        raise ValueError("the window must leave at least one token")
    if limit < GAUSS_MIN_LIMIT:
        return rng.randint(1, limit)
    while True:
        length = round(rng.gauss(GAUSS_MEAN, GAUSS_SD))
        if 1 <= length <= limit:
            return length
