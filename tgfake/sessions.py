"""Sessions: many independent worlds on one stand, so parallel tests (``pytest -n 4``) can share one process.

A session is a :class:`~tgfake.stand.Stand` of its own (bots, people, chats, outbox, faults, clock offset) and, when
the stand serves a model, a model of its own built from the root model's options (script and journal). The root
routes are the default session, which is not in this registry and never ends. Plain objects only: the app's
middleware maps ``/s/<id>/...`` onto a session (``tgfake/app.py``), the sim routes drive this registry
(``tgfake/sim/sessions.py``), and the hooks start and stop each session's webhook delivery.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tgfake.errors import SimError
from tgfake.options import DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE
from tgfake.stand import Stand

if TYPE_CHECKING:
    from llmstub import Model

__all__ = ["PREFIX", "Session", "Sessions"]

PREFIX = "/s/"
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(slots=True)
class Session:
    """One session: its id, its world and (with a model) its model; ``pinned`` ones never expire."""

    id: str
    stand: Stand
    model: Model | None = None
    pinned: bool = False
    last_used: float = 0.0

    @property
    def path(self) -> str:
        """The prefix every route of this session has (``/s/<id>``)."""
        return PREFIX + self.id


@dataclass(slots=True)
class Sessions:
    """The open sessions of one stand, capped at ``limit``; one idle for ``idle`` seconds ends when next looked at.

    Idle time is read from the root stand's base clock (the wall clock, or a test's ManualClock), never from a
    session's own moved clock. ``on_start`` and ``on_end`` let the app start and stop per-session work (webhook
    delivery) without this module knowing about it.
    """

    root: Stand
    make_model: Callable[[], Model | None] = lambda: None
    shared_model: Model | None = None  # an llmstub that serves every request with one model: sessions share it
    limit: int = DEFAULT_MAX_SESSIONS
    idle: float = DEFAULT_SESSION_IDLE
    on_start: list[Callable[[Session], None]] = field(default_factory=list)
    on_end: list[Callable[[Session], None]] = field(default_factory=list)
    open: dict[str, Session] = field(default_factory=dict)
    next_id: int = 1

    def _now(self) -> float:
        return self.root.clock.base.now()

    def create(self, name: str = "", *, pinned: bool = False) -> Session:
        """A new session (``name`` or the next free number); 400 for a bad name, 409 taken, 429 past the cap."""
        self.sweep()
        if name and not _ID.fullmatch(name):
            raise SimError(400, f"session id {name!r} must be 1-64 letters, digits, '-' or '_'")
        if name in self.open:
            raise SimError(409, f"session {name} already exists")
        if len(self.open) >= self.limit:
            raise SimError(429, f"too many sessions ({self.limit} open): end one with DELETE /sim/sessions/{{id}}")
        if not name:
            while str(self.next_id) in self.open:
                self.next_id += 1
            name = str(self.next_id)
            self.next_id += 1
        root = self.root
        stand = Stand(root.options, root.clock.base)
        stand.call_listeners = root.call_listeners  # --verbose logs every session's calls
        model = self.shared_model or self.make_model()
        if model is not None:
            stand.reset_hooks.append(model.reset)
        session = Session(id=name, stand=stand, model=model, pinned=pinned, last_used=self._now())
        self.open[name] = session
        for hook in self.on_start:
            hook(session)
        return session

    def get(self, name: str) -> Session | None:
        """The open session called ``name`` (marked as used now), or None; an expired one is ended first."""
        session = self.open.get(name)
        if session is None:
            return None
        now = self._now()
        if self._expired(session, now):
            self.end(name)
            return None
        session.last_used = now
        return session

    def end(self, name: str) -> Session:
        """End a session: held polls and waits answer at once, its delivery and model stop; 404 if unknown."""
        session = self.open.pop(name, None)
        if session is None:
            raise SimError(404, f"session {name} not found")
        session.stand.close()
        for hook in self.on_end:
            hook(session)
        if session.model is not None and session.model is not self.shared_model:
            session.model.close()
        return session

    def _expired(self, session: Session, now: float) -> bool:
        return not session.pinned and self.idle > 0 and now - session.last_used >= self.idle

    def sweep(self) -> None:
        """End every session idle for ``idle`` seconds (done on each create and list, and on each request)."""
        now = self._now()
        for name in [n for n, s in self.open.items() if self._expired(s, now)]:
            self.end(name)

    def idle_for(self, session: Session) -> float:
        return max(self._now() - session.last_used, 0.0)

    def close(self) -> None:
        """The stand is shutting down: end every session."""
        for name in list(self.open):
            self.end(name)
