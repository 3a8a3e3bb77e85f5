"""The webhook as plain data: what ``setWebhook`` configured and what the delivery worker did with it.

Transport-free like the rest of the stand (the aiohttp worker that POSTs updates is :mod:`tgfake.delivery`). The
configuration belongs to the bot (Telegram keeps it with the token), so a reset keeps it; the delivery log, the
last error and the retry schedule are conversation state, so a reset forgets them.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from tgfake.webapp import is_loopback_host

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SECRET_TOKEN_MAX = 256
MAX_CERTIFICATE_BYTES = 3 << 20  # telegram-bot-api's MAX_CERTIFICATE_FILE_SIZE
DEFAULT_MAX_CONNECTIONS = 40
MAX_CONNECTIONS = 100
REQUEST_TIMEOUT = 60.0  # seconds a delivery may take before it counts as "Read timeout expired"
BACKOFF_CAP = 60.0  # Telegram caps at a random 60..120 s; the stand at the low end, deterministically
RETRY_AFTER_CAP = 3600.0
_SECRET = re.compile(r"[A-Za-z0-9_-]*")


class WebhookUrlError(ValueError):
    """The url is not a URL at all (Telegram: ``invalid webhook URL specified``)."""


class BadWebhook(ValueError):
    """A URL the stand will not deliver to; the message is the reason after ``bad webhook: ``."""


def check_url(url: str) -> str:
    """The URL deliveries go to, as given, or raise why not.

    Like Telegram's parser, a URL without a scheme means https; only http and https are URLs here. The stand can
    reach only loopback hosts, so it accepts http and any port for them (a documented deviation: Telegram wants
    https on ports 80, 88, 443 or 8443) and refuses every other host.
    """
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise WebhookUrlError(url)
    full = url if "://" in url else "https://" + url
    try:
        parts = urlsplit(full)
        port = parts.port
    except ValueError:
        raise WebhookUrlError(url) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or port == 0:
        raise WebhookUrlError(url)
    host = parts.hostname
    if not is_loopback_host(host):
        try:
            ipaddress.ip_address(host)
            what = f"IP address {host} is not a loopback address"
        except ValueError:
            what = f"host {host} is not a loopback host"
        raise BadWebhook(f"tgfake delivers webhooks only to loopback hosts (localhost, 127.0.0.0/8, ::1); {what}")
    return full


def secret_problem(secret: str) -> str | None:
    """``is too long`` (over 256) or ``contains unallowed characters`` (only A-Z a-z 0-9 _ -), else None."""
    if len(secret) > SECRET_TOKEN_MAX:
        return "is too long"
    if not _SECRET.fullmatch(secret):
        return "contains unallowed characters"
    return None


@dataclass(frozen=True, slots=True)
class WebhookConfig:
    """One ``setWebhook``: where to POST, as which bot (webhook replies are served as this token's calls)."""

    url: str
    token: str
    secret_token: str = ""
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    ip_address: str = ""
    certificate: bytes = b""  # the uploaded public key (a self-signed webhook): deliveries trust it, and only it

    def json(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "secret_token": self.secret_token,
            "max_connections": self.max_connections,
            "ip_address": self.ip_address,
        }


@dataclass(slots=True)
class Delivery:
    """One POST of one update: ``status`` 0 when no HTTP answer came; ``error`` empty when it was confirmed."""

    update_id: int
    attempt: int
    at: float
    url: str
    status: int
    error: str
    reply_method: str = ""
    reply_status: int | None = None  # None: no reply, or one Telegram would not serve (get*, setWebhook, ...)

    @property
    def ok(self) -> bool:
        return not self.error

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "update_id": self.update_id,
            "attempt": self.attempt,
            "at": self.at,
            "url": self.url,
            "status": self.status,
            "ok": self.ok,
        }
        if self.error:
            out["error"] = self.error
        if self.reply_method:
            out["reply_method"] = self.reply_method
            out["reply_status"] = self.reply_status
        return out


@dataclass(slots=True)
class Webhook:
    """The webhook of one stand: ``config`` None means none is set (the bot may poll).

    ``failures``/``retry_at`` schedule the retries of the update at the head of the queue (``head``); ``retry_at``
    is on the event loop's clock. ``request_timeout`` and ``backoff_cap`` are knobs for in-process tests.
    """

    config: WebhookConfig | None = None
    deliveries: list[Delivery] = field(default_factory=list)
    last_error_date: int = 0
    last_error_message: str = ""
    head: int = 0
    failures: int = 0
    retry_at: float = 0.0
    request_timeout: float = REQUEST_TIMEOUT
    backoff_cap: float = BACKOFF_CAP

    @property
    def active(self) -> bool:
        return self.config is not None

    def set(self, config: WebhookConfig | None) -> None:
        """A new (or removed) webhook is tried at once: the retry schedule starts over."""
        self.config = config
        self.failures = 0
        self.retry_at = 0.0

    def forget(self) -> None:
        """What a reset drops: the log, the last error and the retry schedule (the config stays)."""
        self.deliveries = []
        self.last_error_date = 0
        self.last_error_message = ""
        self.head = 0
        self.failures = 0
        self.retry_at = 0.0

    def fail(self, now: float, unix_now: int, message: str, retry_after: float | None) -> None:
        """Record a failed attempt and schedule the next: at once after the first, then 2, 4, 8 ... s up to the cap.

        A ``Retry-After`` header in the bot's answer wins (clamped to 0..3600 s), as Telegram honours it.
        """
        self.last_error_date = unix_now
        self.last_error_message = message
        self.failures += 1
        if retry_after is not None:
            delay = min(max(retry_after, 0.0), RETRY_AFTER_CAP)
        elif self.failures == 1:
            delay = 0.0
        else:
            delay = min(2.0 ** (self.failures - 1), self.backoff_cap)
        self.retry_at = now + delay

    def delivered(self, ok_only: bool) -> int:
        return sum(1 for d in self.deliveries if d.ok or not ok_only)

    def view(self, now: float, pending: int, allowed_updates: list[str] | None) -> dict[str, Any]:
        """``GET /sim/webhook``: the config, the queue, the last error, when the next retry is due, every attempt."""
        config = self.config.json() if self.config is not None else None
        if config is not None:
            config["allowed_updates"] = allowed_updates
        return {
            "webhook": config,
            "pending_update_count": pending,
            "last_error_date": self.last_error_date,
            "last_error_message": self.last_error_message,
            "retry_in": round(max(self.retry_at - now, 0.0), 3) if self.failures and pending else 0.0,
            "deliveries": [d.json() for d in self.deliveries],
        }
