"""A bot's process on a session of its own, started and settled: what ``tgfake explore`` and ``tgfake load`` share.

:func:`bot_on_stand` opens a session on a stand (``url``, ``TGFAKE_URL``, or one started here), starts the bot with
the environment an example bot reads (``TELEGRAM_API``, ``BOT_TOKEN``, ``OPENAI_BASE_URL``, ``OPENAI_API_KEY``),
waits for its first Bot API call, then until it polls or has set its webhook, and stops everything after.
Only the sim API is used (:class:`SimLine`), so a stand in this process and one reached by URL behave the same.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from tgfake.harness import HTTP_SLACK, BotProcess, SimAPIError, ThreadedStand, bot_environment
from tgfake.options import Options


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


class SimLine:
    """JSON over HTTP to one session's ``/sim/`` routes: ``base`` is the session's origin
    (``http://host:port/s/<id>``). What starting a bot needs of it; the explorer's line adds the rest."""

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

    def webhook(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.get("/webhook")
        return answer


L = TypeVar("L", bound=SimLine)


STARTUP_TIMEOUT = 60.0
"""How long the bot may take to make its first Bot API call and settle (poll, or set its webhook): generous, as
importing a bot library takes over 10 s on a busy machine (and only a bot that never starts waits it out)."""


class BotStartError(Exception):
    """The bot could not be started: it exited, or made no Bot API call in time (its output is kept)."""


class RunningBot:
    """The bot's process, started again (with the same environment) after it died; its output kept across runs."""

    def __init__(self, command: Sequence[str] | str, env: dict[str, str], cwd: str | None = None) -> None:
        self.command = command
        self.env = env
        self.cwd = cwd
        self.sim: SimLine | None = None
        self._earlier = ""
        self._proc = BotProcess(command, env=env, cwd=cwd)
        self.restarts = 0

    def start(self, sim: SimLine) -> None:
        self.sim = sim
        since = sim.last_seq()
        self._proc.start()
        self._wait_first_call(since)

    def _wait_first_call(self, since: int) -> None:
        assert self.sim is not None
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while self.alive():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if self.sim.wait_calls(since, min(remaining, 1.0)):
                break
        else:
            raise BotStartError(f"the bot exited with status {self._proc.returncode}; its output:\n{self.output()}")
        if not self.alive() or not self.sim.calls(since):
            raise BotStartError(
                f"the bot made no Bot API call within {STARTUP_TIMEOUT:g} s; its output:\n{self.output()}"
            )

    def settle(self) -> bool:
        """Wait until the bot polls or has a webhook; True for a webhook."""
        assert self.sim is not None
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while self.alive() and time.monotonic() < deadline:
            hook = self.sim.webhook().get("webhook")
            if hook:
                self.sim.wait_calls(self.sim.last_seq(), 0.3)  # its remaining set-up calls
                return True
            if self.sim.wait_polling(min(0.5, max(deadline - time.monotonic(), 0.0))):
                return False
        raise BotStartError(
            f"the bot neither polled nor set a webhook within {STARTUP_TIMEOUT:g} s; its output:\n{self.output()}"
        )

    def alive(self) -> bool:
        return self._proc.alive()

    def output(self, offset: int = 0) -> str:
        return (self._earlier + self._proc.output())[offset:]

    def output_size(self) -> int:
        return len(self.output())

    def restart(self) -> None:
        assert self.sim is not None
        self._earlier += self._proc.output()
        self._proc.close()
        self.restarts += 1
        self._proc = BotProcess(self.command, env=self.env, cwd=self.cwd)
        self.start(self.sim)
        self.settle()

    def close(self) -> None:
        self._proc.close()


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        answer: dict[str, Any] = json.loads(resp.read().decode())
    return answer


def _delete(url: str) -> None:
    req = urllib.request.Request(url, method="DELETE")
    try:
        with urllib.request.urlopen(req, timeout=10):
            pass
    except OSError:
        pass


@contextlib.contextmanager
def bot_on_stand(
    command: Sequence[str] | str,
    *,
    url: str | None = None,
    options: Options | None = None,
    model: Any = None,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    line: Callable[[str], L],
) -> Iterator[tuple[L, RunningBot, bool]]:
    """The bot started on a session of its own (of ``url``, ``TGFAKE_URL`` or a stand started here), settled:
    yields the session's sim API (``line`` made from the session's origin), the bot, and whether it took a
    webhook. Everything is stopped after."""
    origin = url or os.environ.get("TGFAKE_URL", "")
    stand: ThreadedStand | None = None
    if not origin:
        stand = ThreadedStand(options or Options(), model=model)
        origin = stand.start()
    origin = origin.rstrip("/")
    try:
        session = _post(f"{origin}/sim/sessions", {})
        base = str(session["url"]).rstrip("/")
        sim = line(base)
        bot = RunningBot(command, {**bot_environment(base), **(env or {})}, cwd)
        try:
            bot.start(sim)
            webhook = bot.settle()
            yield sim, bot, webhook
        finally:
            bot.close()
            _delete(f"{origin}/sim/sessions/{session['id']}")
    finally:
        if stand is not None:
            stand.stop()
