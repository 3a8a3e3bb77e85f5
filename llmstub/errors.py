"""OpenAI's error envelope and the ``type``/``code`` it carries for each status: the one table of them.

Every error a ``/v1`` route sends is ``{"error": {"message", "type", "param", "code"}}`` with all four
keys (``null`` where there is nothing to say), the shape the OpenAI SDKs read ``e.code``, ``e.type``
and ``e.param`` from. A scripted failure takes its defaults from :data:`STATUS_ERRORS` and may
override each key.
"""

from __future__ import annotations

from typing import Any

from .wire import error_body

__all__ = [
    "INSUFFICIENT_QUOTA",
    "STATUS_ERRORS",
    "anthropic_error",
    "default_message",
    "openai_error",
    "status_error",
]

STATUS_ERRORS: dict[int, tuple[str, str | None]] = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", None),
    404: ("invalid_request_error", "model_not_found"),
    409: ("invalid_request_error", None),
    413: ("invalid_request_error", None),
    422: ("invalid_request_error", None),
    429: ("requests", "rate_limit_exceeded"),
    500: ("server_error", "server_error"),
}
"""(type, code) by status, as OpenAI sends them; other 4xx are ``invalid_request_error`` and other 5xx
``server_error``."""

CODE_TYPES: dict[str, str] = {"insufficient_quota": "insufficient_quota"}
"""Codes whose ``type`` is not the status's: a 429 for an empty balance is ``insufficient_quota`` twice."""

INSUFFICIENT_QUOTA = (
    "You exceeded your current quota, please check your plan and billing details. For more information "
    "on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."
)

_MESSAGES: dict[str, str] = {
    "insufficient_quota": INSUFFICIENT_QUOTA,
    "server_error": "The server had an error while processing your request. Sorry about that!",
}


def status_error(status: int) -> tuple[str, str | None]:
    """The ``type`` and ``code`` OpenAI pairs with ``status``."""
    if status in STATUS_ERRORS:
        return STATUS_ERRORS[status]
    return ("server_error", "server_error") if status >= 500 else ("invalid_request_error", None)


def default_message(status: int, code: str | None) -> str:
    """What a scripted failure says when its step gives no ``answer``: OpenAI's words for a ``code``
    the step names where they are fixed, else ``scripted failure with status N``."""
    if code is not None and code in _MESSAGES:
        return _MESSAGES[code]
    return f"scripted failure with status {status}"


def openai_error(
    status: int,
    message: str,
    *,
    code: str | None = None,
    type_: str | None = None,
    param: str | None = None,
) -> dict[str, Any]:
    """The full envelope; ``type`` and ``code`` default to the status's (``code`` first picks the type)."""
    default_type, default_code = status_error(status)
    code = code if code is not None else default_code
    if type_ is None:
        type_ = CODE_TYPES.get(code or "", default_type)
    return error_body(message, code=code, type_=type_, param=param, full=True)


_ANTHROPIC_TYPES: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}
"""Anthropic's error type by status, as its errors documentation lists them; other 4xx are
``invalid_request_error`` and other 5xx ``api_error``."""


def anthropic_error(status: int, message: str, **_openai_only: Any) -> dict[str, Any]:
    """Anthropic's envelope, ``{"type": "error", "error": {"type", "message"}}``, for its routes (it has no
    ``param`` or ``code``: keywords meant for OpenAI's envelope are dropped)."""
    kind = _ANTHROPIC_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return {"error": {"message": message, "type": kind}, "type": "error"}
