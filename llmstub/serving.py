"""What a route handler needs of the model that serves it: :class:`ServingModel`.

The routes beside chat completions (tgfake's extras: embeddings, moderations, audio, images; the surfaces:
Responses and Anthropic Messages) take the serving model as their first argument. They name it by this protocol,
not by :class:`llmstub.model.Model`, because the model mounts them: the model's module imports theirs, and theirs
import only this one, so every import points one way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from aiohttp import web

if TYPE_CHECKING:
    from .options import ModelOptions
    from .rules import Rule
    from .surface import Surface

__all__ = ["Clearable", "Handler", "RouteHandler", "ServingModel"]


class Clearable(Protocol):
    """State a surface keeps on the model (see :meth:`ServingModel.state`); ``clear`` is its part of a reset."""

    def clear(self) -> None: ...


S = TypeVar("S", bound=Clearable)


class ServingModel(Protocol):
    """The model a request is served with (:meth:`llmstub.model.Model.serving`), as the routes use it."""

    @property
    def options(self) -> ModelOptions: ...

    @property
    def model_id(self) -> str: ...

    @property
    def rules(self) -> list[Rule]: ...

    def clock(self) -> float:
        """The model's time, seconds since the epoch."""
        ...

    def next_id(self, kind: str) -> int:
        """The next number of ``kind``'s ids (never rewound)."""
        ...

    def state(self, kind: type[S]) -> S:
        """This model's own ``kind()``, made on first use and cleared by a reset."""
        ...

    async def serve(self, request: web.Request, surface: Surface) -> web.StreamResponse:
        """Answer a request of another API with the engine (see :mod:`llmstub.surface`)."""
        ...

    def method_not_allowed(self, allowed: str) -> web.Response: ...


Handler = Callable[[ServingModel, web.Request], Awaitable[web.StreamResponse]]
"""A route that serves with the request's model."""
RouteHandler = Callable[[web.Request], Awaitable[web.StreamResponse]]
"""The aiohttp handler a :data:`Handler` is wrapped into (the model resolved per request)."""
