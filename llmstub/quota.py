"""Optional requests-per-minute and tokens-per-minute quotas, read on the model's clock.

A sliding window of the last 60 seconds: a request is admitted when one more request, and its
estimated tokens, fit under the limits. OpenAI estimates a request's tokens before answering it (from
its characters and ``max_tokens``); llmstub counts a quarter of the body's bytes, rounded up, which is
the usual rule of thumb for English text. A refusal is OpenAI's 429 with its message, ``type``
(``requests`` or ``tokens``), code ``rate_limit_exceeded`` and the ``x-ratelimit-*`` and
``retry-after`` headers; every admitted request carries the ``x-ratelimit-*`` headers too. Tests move
the clock (``ModelOptions.clock``) instead of sleeping.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import openai_error

__all__ = ["WINDOW", "Quota", "Verdict", "estimate_tokens", "format_duration"]

WINDOW = 60.0


def format_duration(seconds: float) -> str:
    """A duration as OpenAI's rate-limit headers write it: ``644ms``, ``7.66s``, ``6m0s``."""
    if seconds <= 0:
        return "0s"
    if seconds < 1:
        return f"{max(1, math.ceil(seconds * 1000))}ms"
    if seconds < 60:
        return f"{math.ceil(seconds * 100) / 100:g}s"
    minutes, rest = divmod(math.ceil(seconds), 60)
    return f"{minutes}m{rest}s"


def estimate_tokens(body_bytes: int) -> int:
    """The tokens a request is charged before it is answered: a quarter of its body, rounded up."""
    return max(1, math.ceil(body_bytes / 4))


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer of :meth:`Quota.admit`: the headers to send, and the 429 body when refused."""

    headers: dict[str, str]
    refusal: dict[str, Any] | None = None


class Quota:
    """The window of one model (thread-safe); ``None`` limits are not enforced."""

    def __init__(self, *, rpm: int | None, tpm: int | None, clock: Callable[[], float]) -> None:
        for name, value in (("rpm", rpm), ("tpm", tpm)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
        self.rpm = rpm
        self.tpm = tpm
        self._clock = clock
        self._lock = threading.Lock()
        self._window: deque[tuple[float, int]] = deque()

    @property
    def enabled(self) -> bool:
        return self.rpm is not None or self.tpm is not None

    def reset(self) -> None:
        with self._lock:
            self._window.clear()

    def admit(self, tokens: int, model: str) -> Verdict:
        """Charge one request of ``tokens`` estimated tokens, or refuse it without charging."""
        with self._lock:
            now = self._clock()
            while self._window and self._window[0][0] <= now - WINDOW:
                self._window.popleft()
            used_requests = len(self._window)
            used_tokens = sum(t for _, t in self._window)
            refusal: dict[str, Any] | None = None
            wait = 0.0
            if self.rpm is not None and used_requests + 1 > self.rpm:
                wait = self._window[used_requests - self.rpm][0] + WINDOW - now
                refusal = self._refusal("requests", "RPM", self.rpm, used_requests, 1, wait, model)
            elif self.tpm is not None and used_tokens + tokens > self.tpm:
                wait = self._tokens_free_at(tokens) - now
                refusal = self._refusal("tokens", "TPM", self.tpm, used_tokens, tokens, wait, model)
            else:
                self._window.append((now, tokens))
                used_requests += 1
                used_tokens += tokens
            headers = self._headers(now, used_requests, used_tokens)
        if refusal is not None:
            headers["retry-after"] = str(max(1, math.ceil(wait)))
        return Verdict(headers, refusal)

    def _tokens_free_at(self, tokens: int) -> float:
        """When enough old requests have left the window for ``tokens`` more (never, for a request over
        the limit alone: then the whole window)."""
        assert self.tpm is not None
        total = sum(t for _, t in self._window)
        for at, charged in self._window:
            total -= charged
            if total + tokens <= self.tpm:
                return at + WINDOW
        return (self._window[-1][0] if self._window else self._clock()) + WINDOW

    def _headers(self, now: float, used_requests: int, used_tokens: int) -> dict[str, str]:
        headers: dict[str, str] = {}
        oldest = self._window[0][0] + WINDOW - now if self._window else 0.0
        if self.rpm is not None:
            headers["x-ratelimit-limit-requests"] = str(self.rpm)
            headers["x-ratelimit-remaining-requests"] = str(max(0, self.rpm - used_requests))
            headers["x-ratelimit-reset-requests"] = format_duration(oldest)
        if self.tpm is not None:
            headers["x-ratelimit-limit-tokens"] = str(self.tpm)
            headers["x-ratelimit-remaining-tokens"] = str(max(0, self.tpm - used_tokens))
            headers["x-ratelimit-reset-tokens"] = format_duration(oldest)
        return headers

    @staticmethod
    def _refusal(
        kind: str, unit: str, limit: int, used: int, requested: int, wait: float, model: str
    ) -> dict[str, Any]:
        on = f"on {kind} per min ({unit})"
        if requested > limit:
            message = (
                f"Request too large for {model} in organization org-tgfake {on}: Limit {limit}, "
                f"Requested {requested}. The input or output tokens must be reduced in order to run "
                "successfully."
            )
        else:
            message = (
                f"Rate limit reached for {model} in organization org-tgfake {on}: Limit {limit}, "
                f"Used {used}, Requested {requested}. Please try again in {format_duration(wait)}."
            )
        return openai_error(429, message, type_=kind, code="rate_limit_exceeded")
