"""Generated answers (echo and random modes), datasets, and the seeded completion fixture routes.

Phase-2 entry points for the Model: :func:`generate_answer` (with :class:`Generated`,
:class:`GenerationError`, :func:`error_body`), :class:`Dataset`, and :func:`register_fixtures`.
"""

from __future__ import annotations

from .answer import (
    DEFAULT_MAX_MODEL_LEN,
    MODES,
    Generated,
    GenerationError,
    Mode,
    error_body,
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
    "error_body",
    "generate_answer",
    "register_fixtures",
    "tokenize",
]
