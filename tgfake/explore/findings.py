"""What exploring reports: the fixed vocabulary of finding kinds, a finding, the coverage, the report as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tgfake.explore.sim import BotCall, Step

KINDS: dict[str, str] = {
    "crash": "the bot's process exited, or printed an unhandled exception (a traceback)",
    "no_reply": "/start, /help or a command from its own menu got no message within the reply time",
    "unanswered_callback": "a callback query the bot never answered with answerCallbackQuery",
    "dead_button": "a tap that produced nothing: no answer, no message, no edit",
    "markup_injection": "can't parse entities on a text holding something a person controls (their name or message)",
    "not_modified": "an edit refused with message is not modified",
    "too_long": "a message or caption refused as too long",
    "api_refused": "any other refusal of a call the bot made (method, parameters, status, description)",
    "flood": "the bot went over Telegram's limits (it got a 429 with flood limits on)",
    "retry_after_ignored": "after a 429 with retry_after, the bot called again sooner",
    "blocked_not_handled": "after a block, the bot crashed or kept sending to that person",
    "fault_not_recovered": "after one injected 429 or 5xx, the bot stopped answering",
    "slow_reply": "a reply later than the threshold",
}
"""Every kind a finding can have, and when it is reported (docs/explore.md lists the same)."""


@dataclass(slots=True)
class Finding:
    """One bug: its kind, a one-line title, the person's steps that show it from a fresh session, the evidence."""

    kind: str
    title: str
    steps: list[Step]
    calls: list[BotCall] = field(default_factory=list)
    """The bot's refused (or otherwise telling) calls."""
    output: str = ""
    """The traceback lines or the bot's last output, when the evidence is there."""
    transcript: str = ""
    chat_id: int = 0
    key: str = ""
    """What makes two findings the same bug (reported once)."""
    trimmed_from: int = 0
    """How many steps there were before trimming (0: not trimmed)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown finding kind {self.kind!r}")

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "title": self.title,
            "steps": [s.json() for s in self.steps],
            "evidence": {
                "calls": [c.json() for c in self.calls],
                "output": self.output,
            },
            "chat_id": self.chat_id,
            "transcript": self.transcript,
        }
        if self.trimmed_from:
            out["trimmed_from"] = self.trimmed_from
        return out


@dataclass(slots=True)
class Coverage:
    """What was tried: actions done, commands sent, buttons tapped, the distinct (message, keyboard) states."""

    actions: int = 0
    commands: list[str] = field(default_factory=list)
    buttons: list[str] = field(default_factory=list)
    reply_buttons: list[str] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    """The map of states: ``{"from": state index or -1 (an action), "via": what was done, "to": state index}``."""
    seconds: float = 0.0

    def json(self) -> dict[str, Any]:
        return {
            "actions": self.actions,
            "commands_tried": self.commands,
            "buttons_tapped": self.buttons,
            "reply_buttons_pressed": self.reply_buttons,
            "distinct_states": len(self.states),
            "states": self.states,
            "edges": self.edges,
            "seconds": round(self.seconds, 3),
        }


@dataclass(slots=True)
class Report:
    """The outcome of one exploration."""

    command: list[str]
    seed: int
    budget: int
    findings: list[Finding] = field(default_factory=list)
    coverage: Coverage = field(default_factory=Coverage)
    mode: str = "polling"
    stopped: str = ""
    """Why exploring ended early (budget, time), empty when every planned action ran."""
    reply_time: float = 3.0
    slow_reply: float = 1.0
    actions: list[str] = field(default_factory=list)
    """Every act in the order done (the same seed gives the same list)."""

    def json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "seed": self.seed,
            "budget": self.budget,
            "reply_time": self.reply_time,
            "slow_reply": self.slow_reply,
            "mode": self.mode,
            "stopped": self.stopped,
            "findings": [f.json() for f in self.findings],
            "coverage": self.coverage.json(),
            "actions": self.actions,
            "kinds": KINDS,
        }

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in self.findings:
            out[f.kind] = out.get(f.kind, 0) + 1
        return out
