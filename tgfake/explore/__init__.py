"""``tgfake explore``: the stand acts as many people on a bot, on its own, and reports the bugs it finds.

See docs/explore.md. ``explore(command)`` runs one exploration and answers a :class:`Report`;
``replay(command, steps, kind)`` does a finding's steps again on a fresh session and answers the findings of that
kind they still show.
"""

from tgfake.explore.findings import KINDS, Coverage, Finding, Report
from tgfake.explore.replay import replay
from tgfake.explore.run import BotStartError, explore

__all__ = ["KINDS", "BotStartError", "Coverage", "Finding", "Report", "explore", "replay"]
