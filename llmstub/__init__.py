"""llmstub: a scripted OpenAI-compatible model served under /v1 (mounted by ``tgfake --llm``)."""

from __future__ import annotations

from typing import Any

from aiohttp import web


class Model:
    """Placeholder until the scripted model lands."""

    model_id = "tgfake-demo"

    def register(self, app: web.Application) -> None:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    def log(self) -> Any:
        raise NotImplementedError


__all__ = ["Model"]
