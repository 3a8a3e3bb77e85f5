"""The bodies and answers of the load routes (``POST /sim/world/bulk``, ``/sim/load``): pydantic models, which
read the bodies and describe them in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from tgfake.models import BotRef, SimBody
from tgfake.sim.answers import Answer

MAX_PEOPLE = 20_000
MAX_GROUPS = 2_000
MAX_MEMBERS = 500
MAX_MEMBERSHIPS = 200_000
"""One bulk build adds at most this many memberships (groups x members)."""
WORLD_MEMBERSHIPS = 1_000_000
"""A world holds at most this many bulk memberships in all (each a few hundred bytes)."""
MAX_RATE = 50_000.0
MAX_DURATION = 3600.0


class BulkIn(SimBody):
    """``POST /sim/world/bulk``: people and groups of ``members`` people each, the bot in every group (an
    administrator unless ``bot_admin`` is false); built at once, nothing announced."""

    people: int = Field(default=0, ge=0, le=MAX_PEOPLE)
    groups: int = Field(default=0, ge=0, le=MAX_GROUPS)
    members: int = Field(default=10, ge=1, le=MAX_MEMBERS)
    chat_type: str = "supergroup"
    bot: BotRef = ""
    bot_admin: bool = True
    seed: int = Field(default=1, ge=0, lt=1 << 31)


class LoadIn(SimBody):
    """``POST /sim/load``: a load run on the bot (docs/load.md); ``scenario`` as a scenario file holds it."""

    people: int = Field(default=100, ge=1, le=MAX_PEOPLE)
    groups: int = Field(default=10, ge=0, le=MAX_GROUPS)
    members: int = Field(default=10, ge=1, le=MAX_MEMBERS)
    rate: float = Field(default=50.0, gt=0, le=MAX_RATE)
    duration: float = Field(default=10.0, gt=0, le=MAX_DURATION)
    ramp: float = Field(default=0.0, ge=0, le=MAX_DURATION)
    budget: int = Field(default=0, ge=0, lt=1 << 31)
    drain: float = Field(default=2.0, ge=0, le=60.0)
    flood: bool = True
    chat_burst: int = Field(default=3, ge=1, le=100)
    seed: int = Field(default=1, ge=0, lt=1 << 31)
    bot_admin: bool = True
    bot: BotRef = ""
    scenario: dict[str, Any] | None = None


class BulkGroup(Answer):
    id: int
    members: list[int]


class BulkBuilt(Answer):
    """The new people's ids, each new group with its members' ids (owner first), and the build's milliseconds."""

    people: list[int]
    groups: list[BulkGroup]
    ms: float


class LoadState(Answer):
    """A run's progress: ``state`` is building, running, draining or done; ``stopped`` why it stopped."""

    state: str
    stopped: str
    elapsed: float
    offered: int
    delivered: int
    answered: int
    too_many: int
    errors: int
    backlog: int


class LoadReport(Answer):
    """A run's report (docs/load.md): its settings, totals, and one row per second."""

    state: str
    stopped: str
    elapsed: float
    settings: dict[str, Any]
    totals: dict[str, Any]
    seconds: list[dict[str, Any]]
