"""Generated answers (echo and random modes), datasets, and the seeded completion fixture routes.

Phase-2 entry points for the Model: :func:`generate_answer` (with :class:`Generated`,
:class:`GenerationError`), :class:`Dataset`, and :func:`register_fixtures`; error bodies come
from :func:`llmstub.wire.error_body`.
"""

from __future__ import annotations

from .answer import (
    DEFAULT_MAX_MODEL_LEN,
    MODES,
    Generated,
    GenerationError,
    Mode,
    generate_answer,
)
from .conversations import Dataset, DatasetError
from .routes import register_fixtures
from .tokens import count_tokens, tokenize

__all__ = [
    "DEFAULT_MAX_MODEL_LEN",
    "MODES",
    "Dataset",
    "DatasetError",
    "Generated",
    "GenerationError",
    "Mode",
    "count_tokens",
    "generate_answer",
    "register_fixtures",
    "tokenize",
]
