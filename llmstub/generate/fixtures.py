"""Seeded completion fixtures (seed 003): coherent records and their replayable chunk streams.

Pure logic behind ``GET /api/llm-completions`` and ``GET /api/llm-completions/chunks``: query
parsing (every error a :class:`FixtureError`, answered as 400), record generation and rendering.
A record's text and timing are derived from its id alone (:func:`build_stream`), which is why
``/chunks`` can replay any id the list route produced, byte for byte and without reading a clock.
Token counts here are whitespace words, not :mod:`.tokens`: seed 003 defines them that way.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import random
import re
import secrets
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from .text import fixture_words

MODEL_CODES: dict[str, str] = {"demo-model-sm": "1", "demo-model-md": "2", "demo-model-lg": "3"}
MODELS: tuple[str, ...] = tuple(MODEL_CODES)
FINISH_CODES: dict[str, str] = {"stop": "s", "length": "l", "tool_calls": "t", "content_filter": "c"}
FINISH_REASONS: tuple[str, ...] = tuple(FINISH_CODES)
STREAM_FINISH_REASONS: tuple[str, ...] = ("stop", "length")
FINISH_WEIGHTS: dict[str, int] = {"stop": 70, "length": 15, "tool_calls": 10, "content_filter": 5}
"""The mix when finishReason is omitted: dominated by stop."""

MAX_TOKENS = 200
DEFAULT_MAX_TOKENS = 64
DEFAULT_COUNT = 10
MAX_COUNT = 100
DEFAULT_STREAM_TOKENS = 24
DEFAULT_STREAM_FINISH = "stop"
DEFAULT_STREAM_MODEL = "demo-model-md"
MAX_SEED = 2**53 - 1
"""Seeds stay JavaScript-safe integers so meta.seed round-trips through any JSON client."""
CACHE_HIT_RATE = 0.25
WINDOW = timedelta(days=7)

RECORD_FIELDS: tuple[str, ...] = (
    "id",
    "model",
    "createdAt",
    "prompt",
    "message",
    "finishReason",
    "toolCalls",
    "usage",
    "latencyMs",
)
STREAM_FIELDS: tuple[str, ...] = (
    "completionId",
    "model",
    "finishReason",
    "content",
    "chunkCount",
    "completionTokens",
    "timeToFirstChunkMs",
    "totalElapsedMs",
    "chunks",
)
FORMATS: tuple[str, ...] = ("json", "ndjson", "csv")


@dataclass(frozen=True, slots=True)
class LatencyProfile:
    """Fictional timing per model: time to the first chunk, then one step per later token (ms ranges)."""

    first_chunk_ms: tuple[int, int]
    step_ms: tuple[int, int]


LATENCY: dict[str, LatencyProfile] = {
    "demo-model-sm": LatencyProfile((120, 260), (6, 14)),
    "demo-model-md": LatencyProfile((200, 420), (14, 34)),
    "demo-model-lg": LatencyProfile((450, 900), (35, 75)),
}

FIXTURE_PROMPTS: tuple[str, ...] = (
    "Write a commit message for this diff.",
    "Propose three names for this feature flag.",
    "Describe what this route returns in one sentence.",
    "Suggest a shorter name for this variable.",
    "Rewrite this comment so it explains why.",
    "Summarize this changelog in three bullet points.",
    "What is the weather in Berlin?",
    "List the risks of this migration.",
    "Explain this error message to a new teammate.",
    "Draft a reply to this support ticket.",
)

_HEX6 = "{hex6}"
TOOL_FIXTURES: tuple[tuple[str, tuple[dict[str, str], ...]], ...] = (
    (
        "lookup_user",
        ({"email": "dana@example.com"}, {"email": "omar@example.com"}, {"email": "li.wei@example.com"}),
    ),
    ("get_weather", ({"city": "Berlin", "unit": "celsius"}, {"city": "Lisbon", "unit": "celsius"})),
    ("create_ticket", ({"queue": "billing", "priority": "p2"}, {"queue": "support", "priority": "p1"})),
    (
        "search_orders",
        (
            {"customerId": f"cus_{_HEX6}", "status": "held"},
            {"customerId": f"cus_{_HEX6}", "status": "shipped"},
        ),
    ),
    ("get_time", ({"tz": "UTC"}, {"tz": "Europe/Berlin"})),
)


def _arguments_template(args: Mapping[str, str]) -> str:
    return json.dumps(args, separators=(",", ":"))


def tool_call_cost(arguments: str) -> int:
    """Seed 003's estimate: 2 tokens for the name plus one per 4 characters of arguments (rounded up)."""
    return 2 + math.ceil(len(arguments) / 4)


CHEAPEST_TOOL_COST = min(
    tool_call_cost(_arguments_template(args).replace(_HEX6, "0" * 6))
    for _, variants in TOOL_FIXTURES
    for args in variants
)
"""Below this budget tool_calls leaves the mix, and asking for it is a 400."""

ID_PATTERN = re.compile(r"cmpl_(0|[1-9a-z][0-9a-z]*)_([sltc])([123])_([0-9a-f]{8})")
ID_LENGTH = (5, 32)


class FixtureError(Exception):
    """A client mistake in a fixture query: answered with 400 and this message."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.param = param


def base36(value: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        value, rest = divmod(value, 36)
        out = digits[rest] + out
        if value == 0:
            return out


def iso_ms(moment: datetime) -> str:
    """``2026-07-30T23:59:59.999Z``: UTC, millisecond precision."""
    moment = moment.astimezone(UTC)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}Z"


def end_of_day(moment: datetime) -> datetime:
    """The last millisecond of ``moment``'s UTC day: the default asOf."""
    day = moment.astimezone(UTC).date()
    return datetime(day.year, day.month, day.day, 23, 59, 59, 999000, tzinfo=UTC)


# --------------------------------------------------------------------------- query parsing


def _single(pairs: Iterable[tuple[str, str]], allowed: Sequence[str]) -> dict[str, str]:
    """The query as a dict: unknown and repeated parameters are refused, so typos never pass silently."""
    out: dict[str, str] = {}
    for key, value in pairs:
        if key not in allowed:
            raise FixtureError(f"unknown parameter {key!r}; this route accepts {', '.join(allowed)}", key)
        if key in out:
            raise FixtureError(f"parameter {key!r} is given more than once", key)
        out[key] = value
    return out


def _int(name: str, raw: str, low: int, high: int) -> int:
    if re.fullmatch(r"[+-]?[0-9]+", raw.strip()) is None or not low <= int(raw) <= high:
        raise FixtureError(f"{name} must be an integer from {low} to {high}, got {raw!r}", name)
    return int(raw)


def _enum(name: str, raw: str, allowed: Sequence[str]) -> str:
    if raw not in allowed:
        raise FixtureError(f"{name} must be one of {' | '.join(allowed)}, got {raw!r}", name)
    return raw


def _bool(name: str, raw: str) -> bool:
    lowered = raw.strip().lower()
    if lowered in ("true", "1"):
        return True
    if lowered in ("false", "0"):
        return False
    raise FixtureError(f"{name} must be true or false, got {raw!r}", name)


def _field_list(name: str, raw: str, allowed: Sequence[str]) -> tuple[str, ...]:
    names = [part.strip() for part in raw.split(",") if part.strip()]
    if not names:
        raise FixtureError(f"{name} must list at least one field, got {raw!r}", name)
    unknown = [n for n in names if n not in allowed]
    if unknown:
        raise FixtureError(f"{name}: unknown field {unknown[0]!r}; fields are {', '.join(allowed)}", name)
    return tuple(dict.fromkeys(names))


@dataclass(frozen=True, slots=True)
class Shape:
    """The universal output options: projection, format, pretty-printing, envelope."""

    fields: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    format: str = "json"
    pretty: bool = False
    unwrap: bool = False
    echo: dict[str, Any] = field(default_factory=dict)

    def project(self, record: Mapping[str, Any], order: Sequence[str]) -> dict[str, Any]:
        if self.fields is not None:
            keep = [n for n in order if n in self.fields]
        elif self.exclude is not None:
            keep = [n for n in order if n not in self.exclude]
        else:
            keep = list(order)
        return {name: record[name] for name in keep}


def _shape(query: Mapping[str, str], order: Sequence[str], *, formats: bool) -> Shape:
    if "fields" in query and "exclude" in query:
        raise FixtureError("fields and exclude are mutually exclusive", "fields")
    echo: dict[str, Any] = {}
    fields = exclude = None
    if "fields" in query:
        fields = _field_list("fields", query["fields"], order)
        echo["fields"] = ",".join(fields)
    if "exclude" in query:
        exclude = _field_list("exclude", query["exclude"], order)
        if len(exclude) == len(order):
            raise FixtureError("exclude leaves no field to return", "exclude")
        echo["exclude"] = ",".join(exclude)
    fmt = "json"
    if formats and "format" in query:
        fmt = echo["format"] = _enum("format", query["format"], FORMATS)
    pretty = unwrap = False
    if "pretty" in query:
        pretty = echo["pretty"] = _bool("pretty", query["pretty"])
    if "unwrap" in query:
        unwrap = echo["unwrap"] = _bool("unwrap", query["unwrap"])
    return Shape(fields, exclude, fmt, pretty, unwrap, echo)


def _prompt(raw: str) -> str:
    if not 1 <= len(raw) <= 200:
        raise FixtureError(f"prompt must be 1 to 200 characters long, got {len(raw)}", "prompt")
    for position, char in enumerate(raw):
        if unicodedata.category(char) == "Cc":
            raise FixtureError(
                f"prompt must not contain control characters: U+{ord(char):04X} at position {position}",
                "prompt",
            )
    if not raw.split():
        raise FixtureError("prompt must contain at least one word", "prompt")
    return raw


def _as_of(raw: str) -> datetime:
    """An ISO 8601 date (the end of that UTC day) or date-time (no zone means UTC), 1970 to 9999 in UTC."""
    text = raw.strip()
    moment: datetime | None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:  # a zone can move the moment past year 9999 (9999-12-31T23:59:59-14:00), which datetime cannot hold
        utc = moment.astimezone(UTC) if moment is not None else None
    except OverflowError:
        utc = None
    if moment is None or utc is None or utc.year < 1970:
        raise FixtureError(
            f"asOf must be an ISO 8601 date or date-time from 1970 to 9999 (UTC), such as "
            f"2026-07-30T23:59:59.999Z, got {raw!r}",
            "asOf",
        )
    if re.fullmatch(r"\d{4}-?\d{2}-?\d{2}", text):
        return end_of_day(moment)
    return utc.replace(microsecond=utc.microsecond // 1000 * 1000)


LIST_PARAMS: tuple[str, ...] = (
    "model",
    "finishReason",
    "maxTokens",
    "prompt",
    "cached",
    "asOf",
    "count",
    "seed",
    "fields",
    "exclude",
    "format",
    "pretty",
    "unwrap",
)
CHUNKS_PARAMS: tuple[str, ...] = (
    "completionId",
    "tokens",
    "finishReason",
    "model",
    "fields",
    "exclude",
    "pretty",
    "unwrap",
)


@dataclass(frozen=True, slots=True)
class ListQuery:
    """A resolved ``/api/llm-completions`` query: defaults applied, seed and asOf fixed."""

    seed: int
    as_of: datetime
    count: int = DEFAULT_COUNT
    max_tokens: int = DEFAULT_MAX_TOKENS
    model: str | None = None
    finish_reason: str | None = None
    prompt: str | None = None
    cached: bool | None = None
    shape: Shape = field(default_factory=Shape)

    def params(self) -> dict[str, Any]:
        """The query in force: re-issuing it returns the same records."""
        out: dict[str, Any] = {}
        for name, value in (
            ("model", self.model),
            ("finishReason", self.finish_reason),
            ("prompt", self.prompt),
        ):
            if value is not None:
                out[name] = value
        out["maxTokens"] = self.max_tokens
        if self.cached is not None:
            out["cached"] = self.cached
        out["asOf"] = iso_ms(self.as_of)
        out["count"] = self.count
        out["seed"] = self.seed
        return out | self.shape.echo


def parse_list_query(
    pairs: Iterable[tuple[str, str]], now: datetime, new_seed: int | None = None
) -> ListQuery:
    """Validate a list query; ``now`` resolves the default asOf, ``new_seed`` the omitted seed."""
    query = _single(pairs, LIST_PARAMS)
    shape = _shape(query, RECORD_FIELDS, formats=True)
    model = _enum("model", query["model"], MODELS) if "model" in query else None
    finish = _enum("finishReason", query["finishReason"], FINISH_REASONS) if "finishReason" in query else None
    max_tokens = (
        _int("maxTokens", query["maxTokens"], 1, MAX_TOKENS) if "maxTokens" in query else DEFAULT_MAX_TOKENS
    )
    if finish == "tool_calls" and max_tokens < CHEAPEST_TOOL_COST:
        raise FixtureError(
            f"finishReason=tool_calls needs maxTokens of at least {CHEAPEST_TOOL_COST} (the cheapest tool "
            f"call costs {CHEAPEST_TOOL_COST} tokens), got {max_tokens}",
            "finishReason",
        )
    prompt = _prompt(query["prompt"]) if "prompt" in query else None
    cached = _bool("cached", query["cached"]) if "cached" in query else None
    as_of = _as_of(query["asOf"]) if "asOf" in query else end_of_day(now)
    count = _int("count", query["count"], 1, MAX_COUNT) if "count" in query else DEFAULT_COUNT
    if "seed" in query:
        seed = _int("seed", query["seed"], 0, MAX_SEED)
    else:
        seed = new_seed if new_seed is not None else secrets.randbelow(2**31)
    return ListQuery(seed, as_of, count, max_tokens, model, finish, prompt, cached, shape)


@dataclass(frozen=True, slots=True)
class Handle:
    """A decoded completion id: everything a stream is derived from."""

    id: str
    tokens: int
    finish_reason: str
    model: str


def encode_id(tokens: int, finish_reason: str, model: str, tail: str) -> str:
    return f"cmpl_{base36(tokens)}_{FINISH_CODES[finish_reason]}{MODEL_CODES[model]}_{tail}"


def decode_id(completion_id: str) -> Handle:
    """Decode an id's shape (400 quoting the value when it is wrong); any eight hex digits are accepted."""
    low, high = ID_LENGTH
    match = ID_PATTERN.fullmatch(completion_id) if low <= len(completion_id) <= high else None
    if match is None:
        raise FixtureError(
            f"completionId {completion_id!r} is not a completion id: expected "
            "cmpl_<completionTokens base36>_<finish code s|l|t|c><model code 1|2|3>_<8 lowercase hex>, "
            f"{low} to {high} characters",
            "completionId",
        )
    tokens = int(match[1], 36)
    finish = next(name for name, code in FINISH_CODES.items() if code == match[2])
    model = next(name for name, code in MODEL_CODES.items() if code == match[3])
    return Handle(completion_id, tokens, finish, model)


def unreplayable_reason(handle: Handle) -> str | None:
    """Why an id with a valid shape has no text to stream, or None when it can be replayed."""
    if handle.finish_reason == "tool_calls":
        return "a tool-call completion, which has no text to stream"
    if handle.finish_reason == "content_filter":
        return "a filtered completion (content_filter), which has no text to stream"
    if handle.tokens == 0:
        return "an empty completion (0 tokens), which has no text to stream"
    if handle.tokens > MAX_TOKENS:
        return f"an over-long completion ({handle.tokens} tokens, more than the {MAX_TOKENS} a stream holds)"
    return None


@dataclass(frozen=True, slots=True)
class ChunksQuery:
    handle: Handle
    params: dict[str, Any]
    shape: Shape


def parse_chunks_query(pairs: Iterable[tuple[str, str]]) -> ChunksQuery:
    """Validate a ``/chunks`` query: an id on its own, or the trio (defaults filled in), never both."""
    query = _single(pairs, CHUNKS_PARAMS)
    shape = _shape(query, STREAM_FIELDS, formats=False)
    if "completionId" in query:
        clash = [name for name in ("tokens", "finishReason", "model") if name in query]
        if clash:
            raise FixtureError(
                f"completionId is mutually exclusive with tokens, finishReason and model (the id already "
                f"encodes them); got {', '.join(clash)}",
                clash[0],
            )
        handle = decode_id(query["completionId"])
        reason = unreplayable_reason(handle)
        if reason is not None:
            raise FixtureError(f"completionId {handle.id!r} decodes to {reason}", "completionId")
        params: dict[str, Any] = {"completionId": handle.id}
    else:
        tokens = (
            _int("tokens", query["tokens"], 1, MAX_TOKENS) if "tokens" in query else DEFAULT_STREAM_TOKENS
        )
        finish = (
            _enum("finishReason", query["finishReason"], STREAM_FINISH_REASONS)
            if "finishReason" in query
            else DEFAULT_STREAM_FINISH
        )
        model = _enum("model", query["model"], MODELS) if "model" in query else DEFAULT_STREAM_MODEL
        tail = hashlib.sha256(f"{tokens}:{finish}:{model}".encode()).hexdigest()[:8]
        handle = Handle(encode_id(tokens, finish, model, tail), tokens, finish, model)
        params = {"tokens": tokens, "finishReason": finish, "model": model}
    return ChunksQuery(handle, params | shape.echo, shape)


# --------------------------------------------------------------------------- generation


def elapsed_ms(handle: Handle) -> list[int]:
    """Cumulative, strictly increasing chunk times: the first chunk, then one step per later token.

    With no token at all the list holds the time to the first chunk only (it is still the latency).
    """
    rng = random.Random(f"timing:{handle.id}")
    profile = LATENCY[handle.model]
    times = [rng.randint(*profile.first_chunk_ms)]
    for _ in range(handle.tokens - 1):
        times.append(times[-1] + rng.randint(*profile.step_ms))
    return times


def build_stream(handle: Handle) -> dict[str, Any]:
    """The whole replay of a stop/length completion, derived from its id alone."""
    words = fixture_words(
        random.Random(f"text:{handle.id}"), handle.tokens, close=handle.finish_reason == "stop"
    )
    times = elapsed_ms(handle)
    last = len(words) - 1
    chunks = [
        {
            "index": i,
            "delta": word if i == 0 else f" {word}",
            "elapsedMs": times[i],
            "finishReason": handle.finish_reason if i == last else None,
        }
        for i, word in enumerate(words)
    ]
    return {
        "completionId": handle.id,
        "model": handle.model,
        "finishReason": handle.finish_reason,
        "content": " ".join(words),
        "chunkCount": len(chunks),
        "completionTokens": handle.tokens,
        "timeToFirstChunkMs": times[0],
        "totalElapsedMs": times[-1],
        "chunks": chunks,
    }


def _tool_calls(rng: random.Random, budget: int) -> list[dict[str, str]]:
    """One or two fixture calls whose summed cost fits ``budget`` (which is ≥ the cheapest call)."""
    candidates = []
    for name, variants in TOOL_FIXTURES:
        for args in variants:
            template = _arguments_template(args)
            cost = tool_call_cost(template.replace(_HEX6, "0" * 6))
            if cost <= budget:
                candidates.append((name, template, cost))
    first = rng.choice(candidates)
    chosen = [first]
    if rng.random() < 0.5:
        rest = [c for c in candidates if c[0] != first[0] and c[2] + first[2] <= budget]
        if rest:
            chosen.append(rng.choice(rest))
    return [
        {
            "id": f"call_{rng.getrandbits(32):08x}",
            "name": name,
            "arguments": template.replace(_HEX6, f"{rng.getrandbits(24):06x}"),
        }
        for name, template, _ in chosen
    ]


def _finish_mix(rng: random.Random, max_tokens: int) -> str:
    reasons = [r for r in FINISH_REASONS if r != "tool_calls" or max_tokens >= CHEAPEST_TOOL_COST]
    return rng.choices(reasons, weights=[FINISH_WEIGHTS[r] for r in reasons])[0]


def generate_record(query: ListQuery, index: int) -> dict[str, Any]:
    """Record ``index`` of a list query: a pure function of the seed, the index and the params."""
    rng = random.Random(f"llm-completions:{query.seed}:{index}")
    model = rng.choice(MODELS)
    prompt = rng.choice(FIXTURE_PROMPTS)
    cache_roll = rng.random()
    cache_draw = rng.random()
    created_back = rng.randrange(int(WINDOW / timedelta(milliseconds=1)))
    model = query.model or model
    prompt = query.prompt if query.prompt is not None else prompt
    finish = query.finish_reason or _finish_mix(rng, query.max_tokens)
    budget = query.max_tokens
    tool_calls = None
    if finish == "tool_calls":
        tool_calls = _tool_calls(rng, budget)
        completion = sum(tool_call_cost(call["arguments"]) for call in tool_calls)
    elif finish == "content_filter":
        completion = 0
    elif finish == "length" or budget == 1:
        completion = budget
    else:
        completion = rng.randint(1 if budget <= 8 else 4, budget - 1)
    prompt_tokens = len(prompt.split())
    hit = query.cached if query.cached is not None else cache_roll < CACHE_HIT_RATE
    cached_tokens = 1 + int(cache_draw * prompt_tokens) if hit else 0
    handle = Handle(
        encode_id(completion, finish, model, f"{rng.getrandbits(16):04x}{index:04x}"),
        completion,
        finish,
        model,
    )
    if finish in STREAM_FINISH_REASONS:
        stream = build_stream(handle)
        content, latency = stream["content"], stream["totalElapsedMs"]
    else:
        content, latency = "", elapsed_ms(handle)[-1]
    return {
        "id": handle.id,
        "model": model,
        "createdAt": iso_ms(query.as_of - timedelta(milliseconds=created_back)),
        "prompt": prompt,
        "message": {"role": "assistant", "content": content},
        "finishReason": finish,
        "toolCalls": tool_calls,
        "usage": {
            "promptTokens": prompt_tokens,
            "completionTokens": completion,
            "cachedPromptTokens": cached_tokens,
            "totalTokens": prompt_tokens + completion,
        },
        "latencyMs": latency,
    }


def generate_records(query: ListQuery) -> list[dict[str, Any]]:
    return [generate_record(query, index) for index in range(query.count)]


# --------------------------------------------------------------------------- rendering


@dataclass(frozen=True, slots=True)
class Rendered:
    body: str
    content_type: str


def _dumps(value: Any, pretty: bool) -> str:
    if pretty:
        return json.dumps(value, ensure_ascii=False, indent=2)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _flatten(record: Mapping[str, Any]) -> dict[str, str]:
    row: dict[str, str] = {}
    for name, value in record.items():
        if name == "toolCalls":
            row[name] = "" if value is None else json.dumps(value, separators=(",", ":"))
        elif isinstance(value, Mapping):
            for key, inner in value.items():
                row[f"{name}.{key}"] = str(inner)
        else:
            row[name] = str(value)
    return row


def meta_block(params: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    """``meta``: the params in force (and the same as a ready query string), plus route extras."""
    query = urlencode({k: str(v).lower() if isinstance(v, bool) else v for k, v in params.items()})
    return {**extra, "params": dict(params), "query": query}


def render_records(
    query: ListQuery, records: Sequence[Mapping[str, Any]], generated_at: datetime
) -> Rendered:
    shape = query.shape
    rows = [shape.project(r, RECORD_FIELDS) for r in records]
    if shape.format == "ndjson":
        return Rendered("".join(_dumps(r, False) + "\n" for r in rows), "application/x-ndjson")
    if shape.format == "csv":
        flat = [_flatten(r) for r in rows]
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(flat[0]))
        writer.writeheader()
        writer.writerows(flat)
        return Rendered(out.getvalue(), "text/csv")
    if shape.unwrap:
        return Rendered(_dumps(rows, shape.pretty), "application/json")
    meta = meta_block(query.params(), seed=query.seed, generatedAt=iso_ms(generated_at))
    return Rendered(_dumps({"data": rows, "meta": meta}, shape.pretty), "application/json")


def render_stream(query: ChunksQuery) -> Rendered:
    data = query.shape.project(build_stream(query.handle), STREAM_FIELDS)
    if query.shape.unwrap:
        return Rendered(_dumps(data, query.shape.pretty), "application/json")
    return Rendered(
        _dumps({"data": data, "meta": meta_block(query.params)}, query.shape.pretty), "application/json"
    )
