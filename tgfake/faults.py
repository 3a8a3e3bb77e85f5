"""Scheduled faults: one per method (plus the ``*`` catch-all) that answers in place of the method."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tgfake.errors import TelegramError, default_description
from tgfake.params import Params


@dataclass(slots=True)
class Fault:
    """A refusal the next matching calls get; ``times`` <= 0 means until cleared."""

    method: str = "*"
    code: int = 500
    description: str = ""
    retry_after: int = 0
    times: int = 0
    contains: str = ""

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method, "code": self.code}
        if self.description:
            out["description"] = self.description
        if self.retry_after:
            out["retry_after"] = self.retry_after
        if self.times:
            out["times"] = self.times
        if self.contains:
            out["contains"] = self.contains
        return out

    def matches(self, params: Params) -> bool:
        return not self.contains or any(self.contains in v for v in params.values.values())

    def error(self) -> TelegramError:
        desc = self.description or default_description(self.code, self.retry_after)
        return TelegramError(self.code, desc, self.retry_after)


def fault_key(method: str) -> str:
    """Faults are keyed by the lower-cased, trimmed method name; empty means the catch-all."""
    key = method.strip().lower()
    return key or "*"


class Faults:
    """The schedule: set, clear, and fire (counting down) in the reference stand's lookup order."""

    def __init__(self) -> None:
        self._by_method: dict[str, Fault] = {}

    def set(self, fault: Fault) -> None:
        fault.method = fault_key(fault.method)
        self._by_method[fault.method] = fault

    def clear(self, method: str) -> None:
        self._by_method.pop(fault_key(method), None)

    def clear_all(self) -> None:
        self._by_method.clear()

    def list(self) -> list[dict[str, Any]]:
        return [f.json() for f in self._by_method.values()]

    def fire(self, method: str, params: Params) -> TelegramError | None:
        """The method's own fault first, then ``*``; a fault whose ``contains`` does not match is skipped uncounted."""
        for key in (method.lower(), "*"):
            fault = self._by_method.get(key)
            if fault is None or not fault.matches(params):
                continue
            if fault.times > 0:
                fault.times -= 1
                if fault.times == 0:
                    del self._by_method[key]
            return fault.error()
        return None
