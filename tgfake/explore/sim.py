"""The explorer's line to the stand: JSON over HTTP to one session's ``/sim/`` routes, every person's act recorded.

Only the sim API is used (never the stand's objects), so exploring works the same against a stand in this process
and one reached through ``TGFAKE_URL``. Each act a person does is kept as a :class:`Step` (the route and its body),
which is what a finding hands back to reproduce it from a fresh session.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tgfake.testing import SimAPIError

HTTP_SLACK = 5.0
"""How much longer than a server-held wait the HTTP request itself may take."""


@dataclass(frozen=True, slots=True)
class Step:
    """One thing a person does, as the sim call that does it (``path`` below ``/sim``)."""

    path: str
    body: dict[str, Any] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        return {"path": f"/sim{self.path}", "body": self.body}


@dataclass(frozen=True, slots=True)
class BotCall:
    """One recorded Bot API call of the bot (``GET /sim/outbox``)."""

    seq: int
    at: float
    method: str
    params: dict[str, Any]
    status: int
    response: dict[str, Any]

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> BotCall:
        response = raw.get("response")
        return cls(
            seq=int(raw["seq"]),
            at=_seconds(raw.get("at")),
            method=str(raw["method"]),
            params=dict(raw.get("params") or {}),
            status=int(raw.get("status") or 0),
            response=response if isinstance(response, dict) else {},
        )

    @property
    def description(self) -> str:
        return str(self.response.get("description", ""))

    @property
    def ok(self) -> bool:
        return self.status == 200

    def json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "method": self.method,
            "params": self.params,
            "status": self.status,
            "description": self.description,
        }


def _seconds(at: Any) -> float:
    """A call's ``at`` (an ISO 8601 time on the stand's clock) as Unix seconds."""
    if isinstance(at, (int, float)):
        return float(at)
    try:
        return datetime.fromisoformat(str(at)).timestamp()
    except ValueError:
        return 0.0


class Sim:
    """The sim API of one session: ``base`` is the session's origin (``http://host:port/s/<id>``)."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")

    def request(self, verb: str, path: str, body: dict[str, Any] | None = None, *, wait: float = 0.0) -> Any:
        url = f"{self.base}/sim{path}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=verb, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=wait + HTTP_SLACK) as resp:
                text = resp.read().decode()
        except urllib.error.HTTPError as exc:
            raw = exc.read().decode(errors="replace")
            try:
                message = str(json.loads(raw).get("error", raw))
            except (ValueError, AttributeError):
                message = raw
            raise SimAPIError(exc.code, message, path) from None
        return json.loads(text) if text.strip() else {}

    def get(self, path: str, wait: float = 0.0, **query: Any) -> Any:
        given = {k: v for k, v in query.items() if v is not None}
        suffix = "?" + urllib.parse.urlencode(given) if given else ""
        return self.request("GET", path + suffix, wait=wait)

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.request("POST", path, body or {})

    def do(self, step: Step) -> Any:
        return self.post(step.path, step.body)

    # --- what the bot did ----------------------------------------------------------------------------------------
    def calls(self, since: int = 0) -> list[BotCall]:
        raw = self.get("/outbox", since=since or None)
        return [BotCall.from_json(c) for c in raw.get("calls", [])]

    def last_seq(self) -> int:
        return int(self.get("/outbox/count").get("count", 0))

    def wait_calls(self, since: int, timeout: float, method: str | None = None, count: int = 1) -> list[BotCall]:
        """Hold on the stand until ``count`` calls (of ``method``) come after ``since``; [] at the deadline."""
        try:
            raw = self.get("/wait", wait=timeout, method=method, count=count, timeout=f"{timeout:.3f}", since=since)
        except SimAPIError as exc:
            if exc.status == 408:
                return []
            raise
        return [BotCall.from_json(c) for c in raw.get("calls", [])]

    def wait_polling(self, timeout: float) -> bool:
        try:
            self.get("/wait", wait=timeout, polling=1, timeout=f"{timeout:.3f}")
        except SimAPIError as exc:
            if exc.status == 408:
                return False
            raise
        return True

    def wait_delivered(self, count: int, timeout: float) -> bool:
        try:
            self.get("/webhook/wait", wait=timeout, delivered=count, timeout=f"{timeout:.3f}")
        except SimAPIError as exc:
            if exc.status == 408:
                return False
            raise
        return True

    def webhook(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.get("/webhook")
        return answer

    def chat(self, chat_id: int) -> dict[str, Any]:
        answer: dict[str, Any] = self.get(f"/chat/{chat_id}")
        return answer

    def transcript(self, chat_id: int) -> str:
        url = f"{self.base}/sim/chat/{chat_id}?format=text"
        with urllib.request.urlopen(url, timeout=HTTP_SLACK) as resp:
            return str(resp.read().decode())

    def state(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.get("/state")
        return answer

    def advance_clock(self, seconds: float) -> None:
        self.post("/clock", {"advance": seconds})
