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
from urllib.parse import SplitResult, urlsplit

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


TELEGRAM_PORTS = (80, 88, 443, 8443)
# td's IPAddress::is_reserved: the IPv4 blocks a webhook may not point at (every IPv6 address counts as reserved).
_RESERVED = tuple(
    ipaddress.IPv4Network(block)
    for block in (
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
        "224.0.0.0/3",
    )
)  # fmt: skip


def check_url(url: str) -> SplitResult:
    """The URL as Telegram parses it (no scheme means https; only http and https are URLs), or WebhookUrlError."""
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise WebhookUrlError(url)
    try:
        parts = urlsplit(url if "://" in url else "https://" + url)
        port = parts.port
    except ValueError:
        raise WebhookUrlError(url) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or port == 0:
        raise WebhookUrlError(url)
    return parts


def verify(parts: SplitResult) -> bool:
    """Whether the stand delivers to this URL (True: a loopback host), or BadWebhook with Telegram's reason.

    A loopback host takes http and any port (a documented deviation: the stand reaches only loopback, where Telegram
    would call 127.0.0.0/8 reserved). Any other host is checked as telegram-bot-api's WebhookActor verifies it
    (https on ports 80, 88, 443 or 8443, an IP literal IPv4 and not reserved; a name is taken as resolving) and then
    kept without ever being contacted: its updates wait in the queue.
    """
    host = parts.hostname or ""
    if is_loopback_host(host):
        return True
    if parts.scheme.lower() != "https":
        raise BadWebhook("An HTTPS URL must be provided for webhook")
    if (parts.port or 443) not in TELEGRAM_PORTS:
        raise BadWebhook("Webhook can be set up only on ports 80, 88, 443 or 8443")
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if not isinstance(ip, ipaddress.IPv4Address):
        raise BadWebhook("IPv6-only addresses are not allowed")
    if any(ip in block for block in _RESERVED):
        raise BadWebhook(f"IP address {ip} is reserved")
    return False


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
    local: bool = True  # a loopback host the stand POSTs to; False: Telegram would, the stand never connects

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
    started: float = 0.0  # when the POST went out (``at`` is when it was answered), on the stand's clock

    @property
    def ok(self) -> bool:
        return not self.error

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "update_id": self.update_id,
            "attempt": self.attempt,
            "at": self.at,
            "started": self.started,
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
