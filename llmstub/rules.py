"""The rules file: pydantic models for legacy rules, filtered rules and named sequences.

Parsing goes through :func:`parse_rules`, which validates one rule at a time so that every error
names the rule (its index and, when it has one, its name) and the field, the way a person editing
``rules.json`` needs to read it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationError,
    model_validator,
)

from .decoding import BodyError, JsonText, decode_json
from .faults import Fault

__all__ = [
    "Fault",
    "LegacyTool",
    "Rule",
    "RulesError",
    "Step",
    "StepToolCall",
    "Usage",
    "load_rules_file",
    "parse_rules",
]


FinishReason = Literal["stop", "length", "content_filter"]
"""What a scripted answer may say it ended with (tool calls end with ``tool_calls`` by themselves)."""


class RulesError(ValueError):
    """A script that is not a JSON list of valid rules; the message names the rule and the field."""


class _Strict(BaseModel):
    # Unknown fields are refused: a misspelt "anwser" silently ignored is a long debugging session.
    model_config = ConfigDict(extra="forbid", frozen=True)


class Usage(_Strict):
    """A scripted ``usage`` object, sent as given."""

    prompt_tokens: int = Field(ge=0)
    completion_tokens: int = Field(ge=0)
    total_tokens: int = Field(ge=0)


class _ToolArguments(_Strict):
    """A call's ``arguments`` object, which goes out as the rules file wrote it (seed 002: "the JSON
    text from the file"), byte for byte; rules given from Python are encoded."""

    arguments: dict[str, Any] | None = None
    _arguments_text: str | None = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _keep_text(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        model = handler(data)
        arguments = data.get("arguments") if isinstance(data, dict) else None
        if isinstance(arguments, JsonText) and arguments:
            model._arguments_text = arguments.text
        return model

    def arguments_json(self) -> str:
        """The arguments as Chat Completions carries them: JSON text, ``{}`` when there are none."""
        if self._arguments_text is not None:
            return self._arguments_text
        return encode_arguments(self.arguments)


class LegacyTool(_ToolArguments):
    """The ``tool`` of a rule without steps: a call the model makes before it answers."""

    name: str = Field(min_length=1)


class StepToolCall(_ToolArguments):
    """One entry of a step's ``tool_calls``."""

    name: str = Field(min_length=1)
    raw_arguments: str | None = None
    id: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _one_kind_of_arguments(self) -> StepToolCall:
        if self.arguments is not None and self.raw_arguments is not None:
            raise ValueError("set arguments (a JSON object) or raw_arguments (exact text), not both")
        return self

    def arguments_json(self) -> str:
        """``raw_arguments`` verbatim, else the encoded object (``{}`` when absent)."""
        if self.raw_arguments is not None:
            return self.raw_arguments
        return super().arguments_json()


class Step(_Strict):
    """One reply of a named sequence: an answer, tool calls, or a provider failure."""

    answer: str | None = None
    pieces: list[str] | None = None
    """The streamed pieces of ``answer`` as a recording kept them (they join to it); else it is cut in words."""
    tool_calls: list[StepToolCall] | None = None
    usage: Usage | None = None
    omit_usage: bool = False
    tool_name: str | None = Field(default=None, min_length=1)
    tool_result: str | None = None
    status: int = Field(default=200, ge=200, le=599)
    headers: dict[str, str] = Field(default_factory=dict)
    delay_ms: int = Field(default=0, ge=0)
    raw_body: str | None = None
    negative: bool = False
    empty_choices: bool = False
    code: str | None = None
    type: str | None = None
    param: str | None = None
    finish_reason: FinishReason | None = None
    refusal: str | None = None
    fault: Fault | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Step:
        if self.fault is not None and self.fault.streamed and (self.failing_status or self.raw_body is not None):
            sent = f"an error status ({self.status})" if self.failing_status else "a raw_body"
            raise ValueError(f"fault {self.fault.kind!r} acts on a streamed answer, and {sent} is never streamed")
        if not self.negative:
            if self.raw_body is not None:
                raise ValueError("raw_body requires negative: true")
            if self.empty_choices:
                raise ValueError("empty_choices requires negative: true")
            for call in self.tool_calls or ():
                if call.raw_arguments is not None:
                    raise ValueError(f"tool {call.name!r}: raw_arguments requires negative: true")
        if self.raw_body is not None:
            extra = [
                name
                for name, present in (
                    ("answer", self.answer is not None),
                    ("tool_calls", self.tool_calls is not None),
                    ("usage", self.usage is not None),
                    ("omit_usage", self.omit_usage),
                    ("empty_choices", self.empty_choices),
                )
                if present
            ]
            if extra:
                raise ValueError(f"raw_body is the whole response body; drop {', '.join(extra)}")
        errors = [name for name in ("code", "type", "param") if getattr(self, name) is not None]
        if errors and (not self.failing_status or self.raw_body is not None):
            raise ValueError(
                f"{', '.join(errors)} belong to the error object of a status of 400 or above "
                "(raw_body sends its own)"
            )
        streamed_text = self.answer if self.answer is not None else self.refusal
        if self.pieces is not None and "".join(self.pieces) != streamed_text:
            raise ValueError("pieces must join to the answer (or the refusal) they stream")
        if self.usage is not None and self.omit_usage:
            raise ValueError("usage and omit_usage: true contradict each other")
        if self.refusal is not None and (self.answer is not None or self.tool_calls):
            raise ValueError("a refusal is the whole message: drop answer and tool_calls")
        if self.failing_status and (
            self.tool_calls
            or self.empty_choices
            or self.usage is not None
            or self.refusal is not None
            or self.finish_reason is not None
        ):
            raise ValueError(
                f"status {self.status} answers with an error object; tool_calls, usage, refusal, "
                "finish_reason and empty_choices belong to a successful response"
            )
        if self.empty_choices and self.tool_calls:
            raise ValueError("empty_choices sends no message, so it cannot carry tool_calls")
        if self.tool_calls is not None and not self.tool_calls:
            raise ValueError("tool_calls must not be empty (leave it out instead)")
        return self

    @property
    def failing_status(self) -> bool:
        """A status of 400 or above: the response is an error object, not a completion."""
        return self.status >= 400

    @property
    def failing(self) -> bool:
        """Delivers no completion (so tool calls it answered stay outstanding)."""
        return self.failing_status or self.raw_body is not None or self.empty_choices


_FILTERS = ("model", "system", "tools", "has_tools", "profile", "user")

MODERATION_CATEGORIES: tuple[str, ...] = (
    "harassment",
    "harassment/threatening",
    "hate",
    "hate/threatening",
    "illicit",
    "illicit/violent",
    "self-harm",
    "self-harm/intent",
    "self-harm/instructions",
    "sexual",
    "sexual/minors",
    "violence",
    "violence/graphic",
)
"""The categories of ``omni-moderation-latest``, in OpenAI's order."""


class Rule(_Strict):
    """One entry of the rules file.

    Three shapes share the type. A *legacy* rule uses only ``match``, ``answer`` and ``tool`` (and
    perhaps ``name``): it answers on the legacy path and a ``tool`` scripts a whole tool turn. A
    *filtered* rule adds filters but no steps: it returns its ``answer`` or its ``tool`` call on every
    match. A *sequence* has ``steps``: each match reserves the next step of its own cursor.
    """

    name: str | None = None
    match: str = ""
    answer: str | None = None
    tool: LegacyTool | None = None
    model: str | None = None
    system: str | None = None
    tools: list[str] | None = None
    has_tools: bool | None = None
    profile: str | None = None
    user: str | None = None
    steps: list[Step] | None = None
    repeat_last: bool = False
    flag: list[str] | None = None
    transcript: str | None = None
    embedding: list[float] | None = Field(default=None, min_length=1, max_length=3072)
    """The vector ``/v1/embeddings`` answers for an input the rule matches (what ``--llm-record`` writes)."""
    finish_reason: FinishReason | None = None
    refusal: str | None = None
    fault: Fault | None = None
    """Injected into every answer of the rule (a step's own ``fault`` takes its place)."""

    @model_validator(mode="after")
    def _consistent(self) -> Rule:
        sides = [
            f"{name} {route}"
            for name, route in (("flag", "moderations"), ("transcript", "transcriptions"), ("embedding", "embeddings"))
            if getattr(self, name) is not None
        ]
        if len(sides) > 1:  # "flag answers moderations and transcript transcriptions: one rule does one"
            first, *others = sides
            named = first.replace(" ", " answers ", 1)
            raise ValueError(f"{', '.join([named, *others[:-1]])} and {others[-1]}: one rule does one")
        if self.side is not None:
            extra = [
                name
                for name in ("answer", "tool", "steps", "system", "tools", "has_tools", "profile", "user", "fault")
                if getattr(self, name) is not None
            ]
            if extra or self.repeat_last:
                raise ValueError(
                    f"a {self.side} rule matches with match and model only; drop "
                    f"{', '.join(extra or ['repeat_last'])}"
                )
            if self.finish_reason is not None or self.refusal is not None:
                raise ValueError(f"a {self.side} rule has no finish_reason or refusal")
            unknown = [name for name in self.flag or () if name not in MODERATION_CATEGORIES]
            if unknown:
                raise ValueError(
                    f"unknown moderation categor{'ies' if len(unknown) > 1 else 'y'} {', '.join(unknown)}; "
                    f"the categories are {', '.join(MODERATION_CATEGORIES)}"
                )
            return self
        if self.steps is not None:
            if not self.steps:
                raise ValueError("steps must not be empty")
            if self.answer is not None or self.tool is not None or self.refusal or self.finish_reason:
                raise ValueError(
                    "a rule with steps answers from its steps; drop answer, tool, refusal and finish_reason"
                )
            offered = set(self.tools or ())
            for index, step in enumerate(self.steps):
                for call in step.tool_calls or ():
                    if not step.negative and call.name not in offered:
                        raise ValueError(
                            f"steps[{index}]: tool {call.name!r} is not offered: list it in the rule's "
                            "tools filter, or mark the step negative: true"
                        )
        elif self.repeat_last:
            raise ValueError("repeat_last needs steps")
        elif self.refusal is not None and self.answer is not None:
            raise ValueError("a refusal is the whole message: drop answer")
        elif self.filtered and self.answer is not None and self.tool is not None:
            raise ValueError(
                "a filtered rule without steps returns its answer or its tool on every match, not both; "
                "use steps for a tool turn with a final answer"
            )
        return self

    @property
    def filtered(self) -> bool:
        """Whether any filter beyond ``match`` is set (which ends the legacy tool turn)."""
        return any(getattr(self, name) is not None for name in _FILTERS)

    @property
    def side(self) -> str | None:
        """``moderation``, ``transcription`` or ``embedding`` for a rule of those routes (never a completion's)."""
        if self.flag is not None:
            return "moderation"
        if self.embedding is not None:
            return "embedding"
        return "transcription" if self.transcript is not None else None

    @property
    def sequenced(self) -> bool:
        """Whether the rule is a named sequence (has steps)."""
        return self.steps is not None

    def label(self, index: int) -> str:
        """How errors and diagnostics refer to the rule: its index, and its name when it has one."""
        return f"rules[{index}]" + (f" ({self.name!r})" if self.name else "")


def encode_arguments(arguments: Mapping[str, Any] | None) -> str:
    """Tool arguments as JSON text, with the separators of the rules file examples (``{"city": "Paris"}``)."""
    if not arguments:
        return "{}"
    return json.dumps(arguments, ensure_ascii=False)


def _format_error(label: str, error: ValidationError) -> str:
    parts = []
    for item in error.errors(include_url=False):
        location = ".".join(str(p) for p in item["loc"])
        message = item["msg"].removeprefix("Value error, ")
        parts.append(f"{label}.{location}: {message}" if location else f"{label}: {message}")
    return "; ".join(parts)


def parse_rules(data: Any, *, strict: bool = False) -> list[Rule]:
    """Validate a decoded rules document (a JSON list) into rules, or raise :class:`RulesError`.

    ``strict``: JSON's types as written (no ``false`` for 0, no ``"2"`` for 2), as the document of
    ``PUT /sim/llm/script`` says; rules given from Python keep pydantic's coercions.
    """
    if not isinstance(data, list):
        kind = "an object" if isinstance(data, dict) else type(data).__name__
        raise RulesError(f"the script must be a JSON list of rules, got {kind}")
    rules: list[Rule] = []
    for index, item in enumerate(data):
        if isinstance(item, Rule):
            rules.append(item)
            continue
        name = item.get("name") if isinstance(item, dict) else None
        label = f"rules[{index}]" + (f" ({name!r})" if isinstance(name, str) and name else "")
        if not isinstance(item, dict):
            raise RulesError(f"{label}: a rule must be a JSON object")
        try:
            rules.append(Rule.model_validate(item, strict=strict))
        except ValidationError as exc:
            raise RulesError(_format_error(label, exc)) from None
    return rules


def parse_rules_json(text: str | bytes) -> list[Rule]:
    """Decode and validate a rules document given as JSON text (objects keep their text, see
    :class:`LegacyTool`); the decoding edge refuses what :func:`~llmstub.decoding.decode_json` does."""
    try:
        data = decode_json(text, keep_text=True, what="the script")
    except BodyError as exc:
        raise RulesError(f"invalid JSON: {exc.detail}") from None
    return parse_rules(data, strict=True)


def load_rules_file(path: str | Path) -> list[Rule]:
    """Read a rules file; every error (unreadable, not JSON, invalid rule) names the file."""
    try:
        text = Path(path).read_bytes()
    except OSError as exc:
        raise RulesError(f"{path}: {exc.strerror or exc}") from None
    try:
        return parse_rules_json(text)
    except RulesError as exc:
        raise RulesError(f"{path}: {exc}") from None


def coerce_rules(rules: Sequence[Rule | Mapping[str, Any]]) -> list[Rule]:
    """Rules given from Python, as models or plain dicts."""
    return parse_rules([r if isinstance(r, Rule) else dict(r) for r in rules])
