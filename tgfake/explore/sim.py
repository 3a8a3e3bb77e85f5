"""The explorer's line to the stand: JSON over HTTP to one session's ``/sim/`` routes, every person's act recorded.

Only the sim API is used (never the stand's objects), so exploring works the same against a stand in this process
and one reached through ``TGFAKE_URL``. Each act a person does is kept as a :class:`Step` (the route and its body),
which is what a finding hands back to reproduce it from a fresh session.
"""

from __future__ import annotations

import contextlib
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from tgfake import botrun
from tgfake.botrun import BotCall, RunningBot, SimLine
from tgfake.harness import HTTP_SLACK, SimAPIError
from tgfake.options import Options

__all__ = ["BotCall", "Sim", "Step", "bot_on_stand"]


@dataclass(frozen=True, slots=True)
class Step:
    """One thing a person does, as the sim call that does it (``path`` below ``/sim``)."""

    path: str
    body: dict[str, Any] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        return {"path": f"/sim{self.path}", "body": self.body}


class Sim(SimLine):
    """The sim API of one session (:class:`~tgfake.botrun.SimLine`) and the explorer's acts on it."""

    def do(self, step: Step) -> Any:
        return self.post(step.path, step.body)

    def wait_delivered(self, count: int, timeout: float) -> bool:
        try:
            self.get("/webhook/wait", wait=timeout, delivered=count, timeout=f"{timeout:.3f}")
        except SimAPIError as exc:
            if exc.status == 408:
                return False
            raise
        return True

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

    def flood_limits(self) -> bool:
        """Whether the stand runs with Telegram's flood limits (``GET /sim/options``; a stand without the route:
        no)."""
        try:
            return bool(self.get("/options").get("flood_control"))
        except SimAPIError as exc:
            if exc.status == 404:
                return False
            raise

    def advance_clock(self, seconds: float) -> None:
        self.post("/clock", {"advance": seconds})


@contextlib.contextmanager
def bot_on_stand(
    command: Sequence[str] | str,
    *,
    url: str | None = None,
    options: Options | None = None,
    model: Any = None,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
) -> Iterator[tuple[Sim, RunningBot, bool]]:
    """The bot on a session of its own, settled (:func:`tgfake.botrun.bot_on_stand`), with the explorer's line."""
    with botrun.bot_on_stand(command, url=url, options=options, model=model, env=env, cwd=cwd, line=Sim) as got:
        yield got
