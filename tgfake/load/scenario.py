"""What the simulated people do during a load run: a scenario, read from YAML or JSON (docs/load.md#scenarios).

A scenario is the first thing each person sends (``start``), how long a person thinks between two acts
(``think``, seconds), the share of acts done in a group the person is in (``groups``), and the acts with their
weights::

    start: /start
    think: 2
    groups: 0.2
    actions:
      - text: "hello {name}, {words}"     # {name}: the person's first name; {words}: 1-5 random words; {n}: a number
        weight: 5
      - command: /help
      - tap: {}                            # an inline button the bot showed this person
      - press: {}                          # a reply-keyboard button the bot gave this person
      - photo: {caption: "look"}
      - join: {}                           # join a group the person is not in
      - leave: {}                          # leave one they are in
      - block: {}                          # block the bot (they stay silent in private after)

Anything else is refused with a :class:`ScenarioError` naming the problem and where it is.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

KINDS = ("text", "command", "tap", "press", "photo", "join", "leave", "block")
WHERE = ("any", "private", "group")
WORDS = (
    "apple", "river", "blue", "quick", "order", "status", "help", "price", "today", "tomorrow", "ticket", "weather",
    "coffee", "hello", "thanks", "please", "where", "when", "how", "why", "news", "music", "photo", "list", "again",
)  # fmt: skip


class ScenarioError(ValueError):
    """A scenario that cannot be run: the message says what and where (``actions[2]: weight must be positive``)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One kind of act with its weight: ``text`` is the pattern of a text or command, ``where`` where it is done."""

    kind: str
    weight: float = 1.0
    text: str = ""
    where: str = "any"

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {self.kind: self.text if self.kind in ("text", "command") else {}}
        if self.kind == "photo" and self.text:
            out["photo"] = {"caption": self.text}
        out["weight"] = self.weight
        if self.where != "any":
            out["where"] = self.where
        return out


@dataclass(frozen=True, slots=True)
class Scenario:
    start: tuple[str, ...] = ("/start",)
    think: float = 2.0
    groups: float = 0.2
    actions: tuple[Action, ...] = field(default_factory=lambda: (Action("text", 1.0, "{words}"),))

    def json(self) -> dict[str, Any]:
        return {
            "start": list(self.start),
            "think": self.think,
            "groups": self.groups,
            "actions": [a.json() for a in self.actions],
        }

    def pick(self, draw: random.Random, in_group: bool) -> Action | None:
        """A weighted draw among the acts that may be done there (None: none may)."""
        fits = [a for a in self.actions if a.where == "any" or (a.where == "group") == in_group]
        if not fits:
            return None
        return draw.choices(fits, weights=[a.weight for a in fits])[0]


DEFAULT = Scenario()
"""``/start``, then a conversation of plain texts (a few random words each), 2 s of thought between acts."""


def fill(pattern: str, name: str, draw: random.Random) -> str:
    """A text from its pattern: ``{name}``, ``{words}`` (1-5 random words), ``{word}``, ``{n}`` (0-999)."""
    out = pattern
    if "{name}" in out:
        out = out.replace("{name}", name)
    while "{words}" in out:
        out = out.replace("{words}", " ".join(draw.choices(WORDS, k=draw.randint(1, 5))), 1)
    while "{word}" in out:
        out = out.replace("{word}", draw.choice(WORDS), 1)
    while "{n}" in out:
        out = out.replace("{n}", str(draw.randint(0, 999)), 1)
    return out


def load_file(path: str | Path) -> Scenario:
    """A scenario from a ``.json`` file, else YAML (JSON is YAML too)."""
    target = Path(path)
    try:
        text = target.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"{path}: {exc.strerror or exc}") from None
    try:
        raw = json.loads(text) if target.suffix.lower() == ".json" else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{path}: not {'JSON' if target.suffix.lower() == '.json' else 'YAML'}: {exc}") from None
    return parse(raw)


def parse(raw: Any) -> Scenario:
    """A scenario from its decoded JSON or YAML (None or ``{}``: the default)."""
    if raw is None:
        return DEFAULT
    if not isinstance(raw, dict):
        raise ScenarioError("a scenario is a mapping with start, think, groups and actions")
    unknown = sorted(set(raw) - {"start", "think", "groups", "actions"})
    if unknown:
        raise ScenarioError(f"unknown key {unknown[0]!r} (known: start, think, groups, actions)")
    start = raw.get("start", list(DEFAULT.start))
    if isinstance(start, str):
        start = [start]
    if not isinstance(start, list) or not all(isinstance(s, str) and s.strip() for s in start):
        raise ScenarioError("start must be a text or a list of texts")
    think = _number(raw.get("think", DEFAULT.think), "think", low=0.0)
    groups = _number(raw.get("groups", DEFAULT.groups), "groups", low=0.0)
    if groups > 1:
        raise ScenarioError(f"groups is a share of the acts, 0 to 1, not {groups:g}")
    acts = raw.get("actions")
    if acts is None:
        return Scenario(tuple(start), think, groups, DEFAULT.actions)
    if not isinstance(acts, list) or not acts:
        raise ScenarioError("actions must be a non-empty list")
    return Scenario(tuple(start), think, groups, tuple(_action(a, i) for i, a in enumerate(acts)))


def _action(raw: Any, index: int) -> Action:
    where = f"actions[{index}]"
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: an act is a mapping such as {{text: hello}}")
    kinds = [k for k in raw if k in KINDS]
    others = sorted(set(raw) - set(KINDS) - {"weight", "where"})
    if others:
        raise ScenarioError(f"{where}: unknown key {others[0]!r}")
    if len(kinds) != 1:
        raise ScenarioError(f"{where}: exactly one of {', '.join(KINDS)}, not {len(kinds)}")
    kind = kinds[0]
    weight = _number(raw.get("weight", 1.0), f"{where}.weight", low=0.0)
    if weight <= 0:
        raise ScenarioError(f"{where}.weight must be positive")
    place = raw.get("where", "any")
    if place not in WHERE:
        raise ScenarioError(f"{where}.where must be one of {', '.join(WHERE)}")
    value = raw[kind]
    text = ""
    if kind in ("text", "command"):
        if not isinstance(value, str) or not value.strip():
            raise ScenarioError(f"{where}.{kind} must be a non-empty text")
        text = value if kind == "text" or value.startswith("/") else "/" + value
    elif kind == "photo":
        if value not in (None, {}) and not (isinstance(value, dict) and set(value) <= {"caption"}):
            raise ScenarioError(f"{where}.photo takes only a caption")
        text = str((value or {}).get("caption", ""))
    elif value not in (None, {}, True):
        raise ScenarioError(f"{where}.{kind} takes no options ({{}})")
    if kind in ("join", "leave") and place == "private":
        raise ScenarioError(f"{where}: {kind} is done in a group")
    if kind == "block" and place == "group":
        raise ScenarioError(f"{where}: block is done in the private chat")
    if kind in ("join", "leave"):
        place = "group"
    elif kind == "block":
        place = "private"
    return Action(kind, weight, text, place)


def _number(value: Any, name: str, *, low: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
        raise ScenarioError(f"{name} must be a number of at least {low:g}, not {value!r}")
    return float(value)
