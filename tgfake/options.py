"""The stand's settings: one frozen object whose fields map one to one onto the command's flags."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_ADDR = "127.0.0.1:18790"
DEFAULT_BOT_USERNAME = "tgfake_bot"
DEFAULT_BOT_NAME = "tgfake"
DEFAULT_BOT_ID = 7000000001
DEFAULT_POLL_MAX = 30.0


@dataclass(frozen=True, slots=True)
class Options:
    """What a stand is configured with; the defaults are the Go reference stand's.

    ``token`` empty means any token is accepted and the latest one seen becomes the Mini App
    signing token; set, only that token is accepted (401 otherwise).
    ``allowed_updates`` is the initial subscription (``None`` = every kind).
    """

    token: str = ""
    bot_username: str = DEFAULT_BOT_USERNAME
    bot_name: str = DEFAULT_BOT_NAME
    bot_id: int = DEFAULT_BOT_ID
    poll_max: float = DEFAULT_POLL_MAX
    allowed_updates: tuple[str, ...] | None = None
    verbose: bool = False
