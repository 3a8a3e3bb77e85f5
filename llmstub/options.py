"""How a model is configured: :class:`ModelOptions`, plain data every layer of llmstub may read."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .engine import FallbackReply
from .generate import Dataset
from .journal import JOURNAL_LIMIT
from .modes import ModeName
from .rules import Rule

__all__ = ["DEFAULT_MODEL", "SHUTDOWN_GRACE", "ModelOptions"]

DEFAULT_MODEL = "tgfake-demo"
SHUTDOWN_GRACE = 5.0


@dataclass(frozen=True, slots=True)
class ModelOptions:
    """How a model is configured; the library defaults stream at once (the command's delay is 50 ms).

    ``rules`` takes :class:`Rule` objects or plain dicts (validated by the model). ``mode`` decides
    the answer of last resort: ``script`` says ``You said: <prompt>`` (or what ``fallback`` returns),
    ``echo`` and ``random`` generate it (seed 000) within ``max_model_len`` tokens (default 1024),
    reproducibly with ``seed``; ``dataset`` (random mode) is a SQLite file or an open
    :class:`~llmstub.generate.Dataset`. ``fixture_clock`` is "now" for ``/api/llm-completions``.
    ``shutdown_grace`` bounds how long open requests may delay the application's shutdown.
    ``clock`` is the model's time in seconds since the epoch (``created``, the journal's ``at``, the
    quota window); tests pass a manual clock's ``now``. ``rpm``/``tpm`` turn on OpenAI-style quotas
    (429 with ``x-ratelimit-*`` and ``retry-after``). ``transcript`` is what a transcription says
    when no rule names its file (default ``Transcript of <file name>.``). ``usage_on_request`` sends the streamed usage
    chunk only when ``stream_options.include_usage`` asks for it, as OpenAI does (the default, seed
    002, always sends it).
    """

    model_id: str = DEFAULT_MODEL
    rules: Sequence[Rule | Mapping[str, Any]] = ()
    answers: Sequence[str] = ()
    delay: float = 0.0
    chunk_words: int = 1
    strip_tags: Sequence[str] = ()
    client_header: str | None = None
    fallback: FallbackReply | None = None
    mode: ModeName = "script"
    max_model_len: int | None = None
    seed: int | None = None
    dataset: str | os.PathLike[str] | Dataset | None = None
    fixture_clock: Callable[[], datetime] | None = None
    journal_limit: int = JOURNAL_LIMIT
    shutdown_grace: float = SHUTDOWN_GRACE
    clock: Callable[[], float] | None = None
    transcript: str | None = None
    rpm: int | None = None
    tpm: int | None = None
    usage_on_request: bool = False
