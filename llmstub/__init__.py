"""llmstub: a scripted OpenAI-compatible model served under /v1 (mounted by ``tgfake --llm``)."""

from __future__ import annotations

__all__: list[str] = []
