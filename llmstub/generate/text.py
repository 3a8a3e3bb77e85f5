"""The one synthetic-text engine behind random mode, dataset padding and the completion fixtures.

Text is built from a predefined list of sentences: a random one first (behind a short lead-in such
as "In practice,"), then more random sentences appended until the target length is reached, the last
one trimmed. The same sentence stream is cut in two units: regex tokens (:mod:`.tokens`, random mode)
or whitespace words (the fixture routes). Both cuts are pure functions of a ``random.Random``, so a
seed always rebuilds the same text, and the two surfaces can never drift apart.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .tokens import tokenize

LEAD_INS: tuple[str, ...] = (
    "In practice,",
    "In short,",
    "At a high level,",
    "To summarize,",
    "Quick recap,",
    "The key point,",
    "Here is the summary,",
    "Put simply,",
)

SENTENCES: tuple[str, ...] = (
    "The copy is stored next to the source, reads go to the nearest replica.",
    "Each field has a default value, the record is versioned on update.",
    "The report covers the last seven days, the summary is short by design.",
    "Writes are ordered by a single owner, reads go to the nearest replica.",
    "The flag is read once per session, the response is safe to cache.",
    "The job resumes from the last offset, the client backs off between retries.",
    "Each request carries a trace id, logs are sampled at a low rate.",
    "The check runs before every deploy, the build fails fast on a type error.",
    "The limit applies per client key, the worker pool scales with demand.",
    "The index is rebuilt every night, the list is sorted by created time.",
    "The header names the schema version, the parser skips unknown keys.",
    "The payload is trimmed to the fields in use, the id is stable across requests.",
    "State is kept out of the handler, the path is resolved at build time.",
    "The cache holds warm keys for an hour, stale entries are dropped on read.",
    "The queue drains in order of arrival, a failed item is retried once.",
    "The config is loaded at start, a reload needs no restart.",
    "Every change is reviewed by a second person, the diff stays small.",
    "The test suite runs in under a minute, flaky tests are quarantined.",
    "The token expires after an hour, the refresh happens in the background.",
    "Errors carry a stable code, the message names the bad value.",
    "The backup runs every night, a restore is tested once a month.",
    "The schema allows extra fields, unknown values are kept as they are.",
    "Timeouts are set on every call, the default is ten seconds.",
    "The dashboard shows the last hour, older data lives in the archive.",
)


def sentences(rng: random.Random) -> Iterator[str]:
    """An endless stream of predefined sentences; the first one opens with a random lead-in."""
    first = rng.choice(SENTENCES)
    yield f"{rng.choice(LEAD_INS)} {first[0].lower()}{first[1:]}"
    while True:
        yield rng.choice(SENTENCES)


def take_words(rng: random.Random, count: int) -> list[str]:
    """Exactly ``count`` whitespace-delimited words of synthetic text (punctuation kept as written)."""
    words: list[str] = []
    if count <= 0:
        return words
    for sentence in sentences(rng):
        words.extend(sentence.split())
        if len(words) >= count:
            return words[:count]
    raise AssertionError("unreachable: the sentence stream is endless")  # pragma: no cover


def take_tokens(rng: random.Random, count: int) -> list[str]:
    """Exactly ``count`` regex tokens of synthetic text; joined, they re-tokenize to the same tokens."""
    tokens: list[str] = []
    if count <= 0:
        return tokens
    for sentence in sentences(rng):
        if tokens:
            tokens[-1] += " "
        tokens.extend(tokenize(sentence))
        if len(tokens) >= count:
            del tokens[count:]
            tokens[-1] = tokens[-1].rstrip()
            return tokens
    raise AssertionError("unreachable: the sentence stream is endless")  # pragma: no cover


def fixture_words(rng: random.Random, count: int, *, close: bool) -> list[str]:
    """``count`` words shaped for a finish reason: ``close`` ends on a full stop, otherwise no punctuation.

    The word count never changes: only the last word's trailing punctuation is replaced.
    """
    words = take_words(rng, count)
    if words:
        last = words[-1].rstrip(",.")
        words[-1] = f"{last}." if close else last
    return words
