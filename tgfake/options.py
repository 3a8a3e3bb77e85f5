"""The stand's settings: one frozen object whose fields map one to one onto the command's flags."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_ADDR = "127.0.0.1:18790"
DEFAULT_BOT_USERNAME = "tgfake_bot"
DEFAULT_BOT_NAME = "tgfake"
DEFAULT_BOT_ID = 7000000001
DEFAULT_POLL_MAX = 30.0
DEFAULT_MAX_SESSIONS = 256
DEFAULT_SESSION_IDLE = 600.0  # seconds without a request before a session ends (0: never)
URL_FILES = ("default", "all", "none")
DEFAULT_URL_FILES = "default"  # files by URL: from loopback and public addresses (tgfake/urlfiles.py)


@dataclass(frozen=True, slots=True)
class Options:
    """What a stand is configured with; the defaults are the Go reference stand's.

    ``token`` empty (and no ``tokens``) means any token is accepted: the first one claims the stand's first bot,
    each other one registers a bot whose id is the token's number. Set, only ``token`` and ``tokens`` are accepted
    (401 otherwise); the first is the first bot's and pins it as the default bot. ``bot_id`` (0: the token's
    number) fixes the first bot's id. ``allowed_updates`` is the first bot's initial subscription (``None``:
    Telegram's default).
    ``strict`` refuses what Telegram refuses where the stand is lenient by default: a token that is malformed or
    names no bot of the stand (``--token`` or ``POST /sim/bots``), and a send to a chat or person the world does
    not have (docs/world.md#strict-mode). ``sessions`` names sessions made at start that never expire
    (``/s/<name>/...``); ``max_sessions`` caps the open sessions and ``session_idle`` is how long one may go
    without a request (0: forever). ``url_files`` is where files named by URL may be fetched from
    (:data:`URL_FILES`: loopback and public addresses, any, none).
    """

    token: str = ""
    tokens: tuple[str, ...] = ()
    bot_username: str = DEFAULT_BOT_USERNAME
    bot_name: str = DEFAULT_BOT_NAME
    bot_id: int = 0
    poll_max: float = DEFAULT_POLL_MAX
    allowed_updates: tuple[str, ...] | None = None
    verbose: bool = False
    flood_control: bool = False
    strict: bool = False
    sessions: tuple[str, ...] = ()
    max_sessions: int = DEFAULT_MAX_SESSIONS
    session_idle: float = DEFAULT_SESSION_IDLE
    url_files: str = DEFAULT_URL_FILES

    @property
    def all_tokens(self) -> tuple[str, ...]:
        """Every allowed token, the default bot's first (empty: any token is accepted)."""
        first = (self.token,) if self.token else ()
        return first + tuple(t for t in self.tokens if t != self.token)
