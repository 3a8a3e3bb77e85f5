"""``tgfake load``: many simulated people on one bot, with Telegram's limits, measured (docs/load.md).

:func:`load` runs a bot under load and returns its :class:`LoadReport`; the engine itself runs in the stand
(tgfake/load/engine.py, driven by ``POST /sim/load``).
"""

from __future__ import annotations

from tgfake.load.run import LoadError, LoadReport, load
from tgfake.load.scenario import Action, Scenario, ScenarioError

__all__ = ["Action", "LoadError", "LoadReport", "Scenario", "ScenarioError", "load"]
