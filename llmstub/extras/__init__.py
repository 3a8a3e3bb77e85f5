"""The OpenAI routes beside completions: embeddings, moderations, audio, images.

Each module is transport-thin: it reads the request through the model's decoding edge and answers in
OpenAI's shapes; :func:`register_extras` adds their routes with the model's per-request resolution.
These answers are not journaled (the journal records completions).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .audio import speech, transcriptions, translations
from .embeddings import embeddings
from .images import image_file, images
from .moderations import moderations

if TYPE_CHECKING:
    from ..serving import Handler

__all__ = ["register_extras"]


def register_extras(
    router: web.UrlDispatcher, route: Callable[[Handler], Callable[[web.Request], Awaitable[Any]]]
) -> None:
    """Add the extra ``/v1`` routes (before the model's ``/v1`` catch-all)."""
    for path, handler in (
        ("/v1/embeddings", embeddings),
        ("/v1/moderations", moderations),
        ("/v1/audio/transcriptions", transcriptions),
        ("/v1/audio/translations", translations),
        ("/v1/audio/speech", speech),
        ("/v1/images/generations", images),
        ("/v1/images/files/{name:.+}", image_file),
    ):
        router.add_route("*", path, route(handler))
