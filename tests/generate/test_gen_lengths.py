"""Random-mode answer lengths, measured through generate_answer: seed 000's histogram and Gaussian."""

from __future__ import annotations

import itertools
import random
import statistics
from collections import Counter

import pytest

from llmstub.generate import Generated, generate_answer
from llmstub.generate.lengths import buckets

DRAWS = 5000
SEED_PROBABILITIES = (0.20, 0.30, 0.20, 0.05, 0.10, 0.15)
TOLERANCE = 0.025  # about four standard errors of a 30 % bucket over 5,000 draws

# The tables of seed 000, verbatim: (first token, last token) of buckets 1-6.
SEED_TABLE = {
    60: ((1, 10), (11, 20), (21, 30), (31, 40), (41, 50), (51, 60)),
    200: ((1, 20), (21, 40), (41, 60), (61, 160), (161, 180), (181, 200)),
}


def draw_lengths(count: int, **request: object) -> list[int]:
    rng = random.Random(20260730)
    lengths = []
    for _ in range(count):
        answer = generate_answer(mode="random", prompt="Tell me something.", rng=rng, **request)  # type: ignore[arg-type]
        assert isinstance(answer, Generated)
        lengths.append(answer.completion_tokens)
    return lengths


@pytest.mark.parametrize("max_tokens", [60, 200])
def test_bucket_frequencies_match_the_seed_table(max_tokens: int) -> None:
    lengths = draw_lengths(DRAWS, max_tokens=max_tokens, max_model_len=4096)
    table = SEED_TABLE[max_tokens]
    assert buckets(max_tokens) == list(table)
    counts = Counter(next(i for i, (lo, hi) in enumerate(table) if lo <= n <= hi) for n in lengths)
    assert sum(counts.values()) == DRAWS  # every length fell in a bucket, so none exceeded max_tokens
    for bucket, expected in enumerate(SEED_PROBABILITIES):
        assert abs(counts[bucket] / DRAWS - expected) < TOLERANCE, (bucket + 1, counts[bucket] / DRAWS)


def test_lengths_are_spread_uniformly_inside_a_bucket() -> None:
    lengths = draw_lengths(DRAWS, max_tokens=60, max_model_len=4096)
    second_bucket = Counter(n for n in lengths if 11 <= n <= 20)
    assert set(second_bucket) == set(range(11, 21))
    assert max(second_bucket.values()) < 2 * min(second_bucket.values())


def test_finish_reason_is_length_exactly_at_max_tokens() -> None:
    rng = random.Random(7)
    seen = set()
    for _ in range(2000):
        answer = generate_answer(mode="random", prompt="Hi", max_tokens=12, rng=rng)
        assert isinstance(answer, Generated)
        assert (answer.finish_reason == "length") == (answer.completion_tokens == 12)
        seen.add(answer.finish_reason)
    assert seen == {"stop", "length"}


def test_default_length_is_gaussian_mean_40_sd_20() -> None:
    lengths = draw_lengths(DRAWS, max_model_len=1024)
    # Rejection into 1..window trims the left tail below 1 (z = -1.95), which lifts the mean by ~1.2.
    assert 39.5 < statistics.fmean(lengths) < 42.5
    assert 17.5 < statistics.pstdev(lengths) < 20.5
    assert min(lengths) >= 1
    assert max(lengths) > 80  # a real Gaussian tail, not a clamp at the mean


def test_default_length_never_overflows_the_window() -> None:
    # "Tell me something." is 4 tokens; a 29-token window leaves 25 tokens of room.
    lengths = draw_lengths(1000, max_model_len=29)
    assert max(lengths) == 25
    assert min(lengths) >= 1


def test_default_length_is_uniform_below_a_20_token_window() -> None:
    lengths = draw_lengths(3000, max_model_len=4 + 10)
    counts = Counter(lengths)
    assert set(counts) == set(range(1, 11))
    for n in range(1, 11):
        assert abs(counts[n] / 3000 - 0.1) < 0.025, n


@pytest.mark.parametrize("cap", [*range(6, 121), 121, 150, 1000])
def test_buckets_tile_the_budget(cap: int) -> None:
    ranges = buckets(cap)
    assert ranges[0][0] == 1
    assert ranges[-1][1] == cap
    for (_, hi), (lo, _) in itertools.pairwise(ranges):
        assert lo == hi + 1
    sizes = [hi - lo + 1 for lo, hi in ranges]
    if cap <= 120:
        assert max(sizes) - min(sizes) <= 1
        assert sizes == sorted(sizes)  # any extra token goes to the later buckets
    else:
        assert sizes[:3] == [20, 20, 20]
        assert sizes[4:] == [20, 20]


@pytest.mark.parametrize("cap", [1, 2, 5])
def test_budgets_below_six_are_uniform(cap: int) -> None:
    lengths = draw_lengths(1200, max_tokens=cap)
    counts = Counter(lengths)
    assert set(counts) == set(range(1, cap + 1))
    for n in counts:
        assert abs(counts[n] / 1200 - 1 / cap) < 0.05


def test_histogram_uses_the_window_when_max_tokens_exceeds_it() -> None:
    # 4 prompt tokens, window 64: the effective budget is 60 whatever max_tokens says.
    lengths = draw_lengths(DRAWS, max_tokens=500, max_model_len=64)
    assert max(lengths) == 60
    share_of_last_bucket = sum(1 for n in lengths if 51 <= n <= 60) / DRAWS
    assert abs(share_of_last_bucket - 0.15) < TOLERANCE
