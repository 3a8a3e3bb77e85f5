"""pytest plugin for :mod:`tools.ptb_suite`: python-telegram-bot's suite talks to the stand (configuration only).

Every ``telegram.Bot`` built with Telegram's default URLs gets the stand's (``PTB_STAND_URL``) instead, and the
suite's bot info (tests/auxil/ci_bots.py) is its first fallback bot, its channel named by username as the suite
names it (``PTB_CHANNEL_ID`` gives an id instead). The tests themselves are untouched.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from telegram import _bot

STAND = os.environ.get("PTB_STAND_URL", "http://127.0.0.1:18790")
TELEGRAM = "https://api.telegram.org"
_built = _bot.Bot.__init__


def _at_the_stand(
    self: Any,
    token: str,
    base_url: str = f"{TELEGRAM}/bot",
    base_file_url: str = f"{TELEGRAM}/file/bot",
    *a: Any,
    **kw: Any,
) -> None:
    base_url = base_url.replace(TELEGRAM, STAND, 1)
    base_file_url = base_file_url.replace(TELEGRAM, STAND, 1)
    _built(self, token, base_url, base_file_url, *a, **kw)


setattr(_bot.Bot, "__init__", _at_the_stand)  # noqa: B010 (a patch of the class, not an attribute set by name)

# The checkout's tests package (first on PYTHONPATH), imported only once the Bot is pointed.
ci_bots: Any = importlib.import_module("tests.auxil.ci_bots")
_info = dict(ci_bots.FALLBACKS[0])
if os.environ.get("PTB_CHANNEL_ID"):  # a numeric id instead of the suite's @pythontelegrambottests, if asked
    _info["channel_id"] = int(os.environ["PTB_CHANNEL_ID"])
ci_bots.BOT_INFO_PROVIDER._cached = _info
