"""The recorded file: a rules file (``--llm-script`` loads it) that grows by one step per forwarded exchange.

A recorded exchange belongs to the rule of its *key*: the filters the match is made of (by default the
prompt, the model and the offered tool names; see :data:`MATCH_FIELDS`). Successive exchanges of one
key (a tool call, then the answer that reads its result) are the rule's steps, in order, so the engine's
sequence cursor replays them as they happened. The file is written whole after every exchange (to a
temporary file, then renamed), most specific rules first, so the engine's first-match choice picks the
rule a request was recorded under.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..engine import ChatRequest
from ..rules import Rule, load_rules_file, parse_rules_json
from .answers import RawJson

__all__ = ["DEFAULT_MATCH", "MATCH_FIELDS", "Recording", "dumps_rules", "parse_match"]

MATCH_FIELDS = ("prompt", "model", "tools", "system", "profile")
"""What a recorded rule may match on: the last user message (``match``), the ``model``, the offered
``tools`` (``has_tools: false`` when none), the ``system`` text and the ``profile`` header."""

DEFAULT_MATCH = ("prompt", "model", "tools")

RuleKey = tuple[str, str | None, tuple[str, ...], bool | None, str | None, str | None, bool]


def parse_match(text: str) -> tuple[str, ...]:
    """``prompt,model`` → the fields; ``ValueError`` naming an unknown one."""
    fields = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [name for name in fields if name not in MATCH_FIELDS]
    if unknown or not fields:
        raise ValueError(f"choose among {', '.join(MATCH_FIELDS)} (comma-separated), not {text!r}")
    return fields


def request_filters(chat: ChatRequest, prompt: str, fields: Sequence[str]) -> dict[str, Any]:
    """The filters of the rule a request is recorded under (as the rules file writes them)."""
    filters: dict[str, Any] = {}
    if "prompt" in fields:
        filters["match"] = prompt
    if "model" in fields and chat.model:
        filters["model"] = chat.model
    if "tools" in fields:
        names = sorted(chat.offered_tools())
        if names:
            filters["tools"] = names
        else:
            filters["has_tools"] = False
    if "system" in fields and chat.system_text():
        filters["system"] = chat.system_text()
    if "profile" in fields and chat.profile:
        filters["profile"] = chat.profile
    return filters


def rule_key(rule: Mapping[str, Any]) -> RuleKey:
    """Rules of one key are one rule (the match compares without case, as the engine does)."""
    return (
        str(rule.get("match", "")).casefold(),
        rule.get("model"),
        tuple(rule.get("tools") or ()),
        rule.get("has_tools"),
        rule.get("system"),
        rule.get("profile"),
        "embedding" in rule,  # an input's vector and a prompt's answer are rules apart
    )


def _specific_first(rule: Mapping[str, Any]) -> tuple[int, int, int]:
    """Longer matches, more tools and more filters first: the engine takes the first rule that matches."""
    filters = sum(1 for name in ("model", "has_tools", "system", "profile") if rule.get(name) is not None)
    return (-len(str(rule.get("match", ""))), -len(rule.get("tools") or ()), -filters)


def _with_raw_arguments(rule: Rule) -> dict[str, Any]:
    """A loaded rule as a dict, each call's arguments kept as the text the file had."""
    data = rule.model_dump(exclude_defaults=True, exclude_none=True)
    for step_data, step in zip(data.get("steps") or (), rule.steps or (), strict=True):
        for call_data, call in zip(step_data.get("tool_calls") or (), step.tool_calls or (), strict=True):
            if call.arguments is not None:
                call_data["arguments"] = RawJson(call.arguments_json())
    if rule.tool is not None and rule.tool.arguments is not None:
        data["tool"]["arguments"] = RawJson(rule.tool.arguments_json())
    return data


def dumps_rules(rules: Iterable[Mapping[str, Any]]) -> str:
    """The rules as the file's JSON text, every :class:`RawJson` written byte for byte."""
    raws: list[str] = []

    def placeholder(value: Any) -> Any:
        if isinstance(value, RawJson):
            raws.append(value.text)
            return f"\x00raw{len(raws) - 1}\x00"
        raise TypeError(f"{type(value).__name__} is not JSON")

    text = json.dumps(list(rules), indent=2, ensure_ascii=False, default=placeholder)
    for number, raw in enumerate(raws):
        text = text.replace(json.dumps(f"\x00raw{number}\x00"), raw, 1)
    return text + "\n"


class Recording:
    """The rules of one recorded file, by key, and the file itself (read at start when it exists)."""

    def __init__(self, path: str | os.PathLike[str], fields: Sequence[str] = DEFAULT_MATCH) -> None:
        self.path = Path(path)
        self.fields = tuple(fields)
        self._rules: list[dict[str, Any]] = []
        self._by_key: dict[RuleKey, dict[str, Any]] = {}
        if self.path.exists():
            for rule in load_rules_file(self.path):
                data = _with_raw_arguments(rule)
                self._rules.append(data)
                self._by_key.setdefault(rule_key(data), data)

    def filters(self, chat: ChatRequest, prompt: str) -> dict[str, Any]:
        return request_filters(chat, prompt, self.fields)

    def steps(self, key: RuleKey) -> int:
        """How many steps the rule of ``key`` has recorded (0 when there is none)."""
        rule = self._by_key.get(key)
        return len(rule.get("steps") or ()) if rule is not None else 0

    def record(self, filters: Mapping[str, Any], position: int, step: Mapping[str, Any]) -> None:
        """Write ``step`` as step ``position`` of the rule of ``filters`` (the steps after it are dropped:
        they were recorded in another conversation) and save the file."""
        key = rule_key(filters)
        rule = self._by_key.get(key)
        if rule is None:
            rule = {"name": f"recorded {len(self._rules) + 1}", **filters, "steps": []}
            self._rules.append(rule)
            self._by_key[key] = rule
        step = dict(step)
        offered = set(rule.get("tools") or ())
        if any(call["name"] not in offered for call in step.get("tool_calls") or ()):
            step["negative"] = True  # the upstream called a tool the request did not offer
        rule["steps"] = [*list(rule.get("steps") or ())[:position], step]
        rule["repeat_last"] = True  # a replay that asks once more than the recording hears the last answer again
        self.save()

    def record_vector(self, text: str, model: str, vector: list[float]) -> None:
        """Write the vector an input got as an ``embedding`` rule (replacing the one recorded before) and save."""
        rule: dict[str, Any] = {"match": text}
        if "model" in self.fields and model:
            rule["model"] = model
        rule["embedding"] = vector
        key = rule_key(rule)
        known = self._by_key.get(key)
        if known is not None:
            known["embedding"] = vector
        else:
            rule = {"name": f"recorded {len(self._rules) + 1}", **rule}
            self._rules.append(rule)
            self._by_key[key] = rule
        self.save()

    def text(self) -> str:
        return dumps_rules(sorted(self._rules, key=_specific_first))

    def rules(self) -> list[Rule]:
        """The recorded rules as the engine loads them (through the file's own parser)."""
        return parse_rules_json(self.text())

    def save(self) -> None:
        """Write the file whole: a temporary file beside it, then renamed over it."""
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text(self.text(), encoding="utf-8")
        temporary.replace(self.path)
