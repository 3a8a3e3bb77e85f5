"""``tgfake load``: many simulated people on one bot, with Telegram's limits, measured (docs/load.md).

:func:`load` runs a bot under load and returns its :class:`LoadReport`; the engine itself runs in the stand
(tgfake/load/engine.py, driven by ``POST /sim/load``). The package can be called as the function itself:
``import tgfake.load`` then ``tgfake.load(...)`` (typed code writes ``from tgfake.load import load``).
"""

from __future__ import annotations

import sys
import types
from typing import Any

from tgfake.load.run import LoadError, LoadReport, load
from tgfake.load.scenario import Action, Scenario, ScenarioError

__all__ = ["Action", "LoadError", "LoadReport", "Scenario", "ScenarioError", "load"]


class _CallableModule(types.ModuleType):
    """``tgfake.load(...)`` is :func:`load`."""

    def __call__(self, *args: Any, **kwargs: Any) -> LoadReport:
        return load(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
