"""The OpenAI routes beside completions: embeddings, moderations, audio, images.

Each module is transport-thin: it reads the request through the model's decoding edge and answers in
OpenAI's shapes; :func:`register_extras` adds their routes with the model's per-request resolution.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from ..model import ModelHandler

__all__ = ["register_extras"]


def register_extras(
    router: web.UrlDispatcher, route: Callable[[ModelHandler], Callable[[web.Request], Awaitable[Any]]]
) -> None:
    """Add the extra ``/v1`` routes (before the model's ``/v1`` catch-all)."""
