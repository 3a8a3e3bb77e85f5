"""What a completion request asks of the answer's shape, and values that satisfy a JSON Schema.

The request→plan layer reads these so that an unscripted answer respects the request: a
``response_format`` of ``json_schema`` is answered with JSON valid against the schema, ``json_object``
with a JSON object, ``tool_choice`` ``required`` or a named function with a call whose arguments fit
the tool's ``parameters``, ``none`` with text; ``n`` asks for that many choices; the legacy
``functions``/``function_call`` fields are the same as tools, answered in the legacy shape.

:func:`schema_value` builds a value from the subset of JSON Schema that OpenAI's structured outputs
allow (``type`` and type lists, ``enum``, ``const``, ``anyOf``, ``$ref`` into ``$defs``/``definitions``
or the root, ``properties``/``required``/``additionalProperties``, ``items``, ``minItems``/``maxItems``,
string ``format``, ``pattern``, ``minLength``/``maxLength``, ``minimum``/``maximum`` and their exclusive
forms, ``multipleOf``), deterministically from a seed.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_CHOICES", "DemandError", "Demands", "arguments_text", "read_demands", "schema_value", "seed_for"]

MAX_CHOICES = 128
_DEPTH = 8  # recursion through $ref stops here: the smallest value is chosen below it
_WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet")
_FORMATS = {
    "date-time": "2026-07-30T12:00:00Z",
    "date": "2026-07-30",
    "time": "12:00:00",
    "duration": "PT1H",
    "email": "dana@example.com",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uuid": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    "uri": "https://example.com/",
}


class DemandError(ValueError):
    """A shape demand the model cannot read (a 400 naming ``param``)."""

    def __init__(self, message: str, param: str) -> None:
        super().__init__(message)
        self.param = param


@dataclass(frozen=True, slots=True)
class Demands:
    """The answer shape a request asks for; the defaults are a plain chat request's."""

    format: str = "text"
    schema: dict[str, Any] | None = None
    tool_choice: str = "auto"  # auto | none | required | named
    named: str | None = None
    legacy_functions: bool = False
    parameters: dict[str, Any] = field(default_factory=dict)  # offered function name -> parameters schema
    n: int = 1

    @property
    def forced_tool(self) -> str | None:
        """The tool an unscripted answer must call (``required`` calls the first offered), else None."""
        if self.tool_choice == "named":
            return self.named
        if self.tool_choice == "required" and self.parameters:
            return next(iter(self.parameters))
        return None


def _functions(body: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Offered function names with their parameter schemas, and whether they came as legacy functions."""
    found: dict[str, Any] = {}
    tools = body.get("tools")
    legacy = False
    if isinstance(tools, list):
        for tool in tools:
            if isinstance(tool, dict) and tool.get("type", "function") == "function":
                function = tool.get("function")
                if isinstance(function, dict) and isinstance(function.get("name"), str):
                    found[function["name"]] = function.get("parameters")
    functions = body.get("functions")
    if isinstance(functions, list) and not found:
        for function in functions:
            if isinstance(function, dict) and isinstance(function.get("name"), str):
                found[function["name"]] = function.get("parameters")
                legacy = True
    return found, legacy


def read_demands(body: dict[str, Any]) -> Demands:
    """Read ``response_format``, ``tool_choice``/``function_call``, ``functions`` and ``n``."""
    fmt, schema = "text", None
    response_format = body.get("response_format")
    if response_format is not None:
        kind = response_format.get("type") if isinstance(response_format, dict) else None
        if kind not in ("text", "json_object", "json_schema"):
            raise DemandError("response_format.type must be one of text, json_object, json_schema", "response_format")
        fmt = kind
        if kind == "json_schema":
            spec = response_format.get("json_schema")
            schema = spec.get("schema") if isinstance(spec, dict) else None
            if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
                raise DemandError("response_format.json_schema.name is required", "response_format")
            if schema is not None and not isinstance(schema, dict):
                raise DemandError("response_format.json_schema.schema must be an object", "response_format")
    parameters, legacy = _functions(body)
    legacy_choice = legacy or ("function_call" in body and "tool_choice" not in body)
    choice_field = "function_call" if legacy_choice else "tool_choice"
    choice = body.get(choice_field)
    tool_choice, named = "auto", None
    if isinstance(choice, str):
        if choice not in ("auto", "none", "required"):
            raise DemandError(f"{choice_field} must be auto, none, required or a named function", choice_field)
        tool_choice = choice
    elif isinstance(choice, dict):
        function = choice.get("function") if choice_field == "tool_choice" else choice
        name = function.get("name") if isinstance(function, dict) else None
        if not isinstance(name, str):
            raise DemandError(f"{choice_field} must name a function: {{\"type\": \"function\", \"function\": "
                              f"{{\"name\": ...}}}}", choice_field)  # fmt: skip
        if name not in parameters:
            raise DemandError(f"{choice_field} names function {name!r}, which the request does not offer", choice_field)
        tool_choice, named = "named", name
    elif choice is not None:
        raise DemandError(f"{choice_field} must be a string or an object", choice_field)
    n = body.get("n")
    if n is None:
        n = 1
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_CHOICES:
        raise DemandError(f"n must be an integer from 1 to {MAX_CHOICES}", "n")
    return Demands(fmt, schema, tool_choice, named, legacy, parameters, n)


def seed_for(*parts: Any) -> int:
    """A seed derived from the request's own content, so the same request gets the same value."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:8], "big")


def arguments_text(value: Any) -> str:
    """Compact JSON text in the schema's property order, as OpenAI sends tool arguments."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _Builder:
    def __init__(self, root: dict[str, Any], rng: random.Random, words: list[str]) -> None:
        self.root = root
        self.rng = rng
        self.words = words or list(_WORDS)

    def resolve(self, ref: str) -> Any:
        if ref == "#":
            return self.root
        if not ref.startswith("#/"):
            return {}
        node: Any = self.root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            node = node.get(part) if isinstance(node, dict) else None
        return node if isinstance(node, dict) else {}

    def value(self, schema: Any, depth: int = 0, name: str = "") -> Any:
        if not isinstance(schema, dict) or depth > 4 * _DEPTH:
            return None
        if "$ref" in schema and isinstance(schema["$ref"], str):
            return self.value(self.resolve(schema["$ref"]), depth + 1, name)
        if "const" in schema:
            return schema["const"]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return self.rng.choice(schema["enum"])
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                if depth >= _DEPTH:  # prefer a branch that ends the recursion
                    plain = [o for o in options if isinstance(o, dict) and "$ref" not in o]
                    options = plain or options
                return self.value(self.rng.choice(options), depth + 1, name)
        if isinstance(schema.get("allOf"), list) and schema["allOf"]:
            merged: dict[str, Any] = {}
            for part in schema["allOf"]:
                if isinstance(part, dict):
                    merged |= self.resolve(part["$ref"]) if isinstance(part.get("$ref"), str) else part
            return self.value(merged, depth + 1, name)
        kind = schema.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if isinstance(k, str)]
            if depth >= _DEPTH and "null" in kinds:
                return None
            kind = self.rng.choice([k for k in kinds if k != "null"] or kinds or ["null"])
        if kind is None:
            kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
        return getattr(self, f"_{kind}", self._unknown)(schema, depth, name)

    def _unknown(self, schema: dict[str, Any], depth: int, name: str) -> Any:
        return None

    def _null(self, schema: dict[str, Any], depth: int, name: str) -> Any:
        return None

    def _boolean(self, schema: dict[str, Any], depth: int, name: str) -> Any:
        return self.rng.random() < 0.5

    def _object(self, schema: dict[str, Any], depth: int, name: str) -> Any:
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            return {}
        required = schema.get("required")
        keep = set(required) if isinstance(required, list) and depth >= _DEPTH else set(properties)
        return {key: self.value(sub, depth + 1, key) for key, sub in properties.items() if key in keep}

    def _array(self, schema: dict[str, Any], depth: int, name: str) -> Any:
        low = _number(schema.get("minItems"), 0)
        high = _number(schema.get("maxItems"), low + 3)
        count = int(low) if depth >= _DEPTH else self.rng.randint(int(low), max(int(low), min(int(high), int(low) + 3)))
        items = schema.get("items", {})
        return [self.value(items, depth + 1, name) for _ in range(count)]

    def _string(self, schema: dict[str, Any], depth: int, name: str) -> Any:
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in _FORMATS:
            return _FORMATS[fmt]
        low = int(_number(schema.get("minLength"), 0))
        high = int(_number(schema.get("maxLength"), max(low, 40)))
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            found = _matching(pattern, self.rng)
            if found is not None and low <= len(found) <= high:
                return found
        text = " ".join(self.rng.choice(self.words) for _ in range(self.rng.randint(1, 3)))
        while len(text) < low:
            text += " " + self.rng.choice(self.words)
        return text[:high] if high >= low else text

    def _integer(self, schema: dict[str, Any], depth: int, name: str) -> Any:
        low, high = _bounds(schema, integer=True)
        step = schema.get("multipleOf")
        if isinstance(step, int) and not isinstance(step, bool) and step > 0:
            first, last = math.ceil(low / step), math.floor(high / step)
            return self.rng.randint(first, last) * step if first <= last else int(low)
        return self.rng.randint(math.ceil(low), max(math.ceil(low), math.floor(high)))

    def _number(self, schema: dict[str, Any], depth: int, name: str) -> Any:
        if isinstance(schema.get("multipleOf"), int):
            return self._integer(schema, depth, name)
        low, high = _bounds(schema, integer=False)
        return round(self.rng.uniform(low, high), 2) if high > low else low


def _number(value: Any, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return default
    return float(value)


def _bounds(schema: dict[str, Any], *, integer: bool) -> tuple[float, float]:
    low = _number(schema.get("minimum"), -math.inf)
    high = _number(schema.get("maximum"), math.inf)
    nudge = 1 if integer else 0.01
    if "exclusiveMinimum" in schema:
        low = max(low, _number(schema["exclusiveMinimum"], -math.inf) + nudge)
    if "exclusiveMaximum" in schema:
        high = min(high, _number(schema["exclusiveMaximum"], math.inf) - nudge)
    if math.isinf(low) and math.isinf(high):
        low, high = 0, 100
    elif math.isinf(low):
        low = high - 100
    elif math.isinf(high):
        high = low + 100
    return low, max(low, high)


_CANDIDATES = ("abc", "a", "A", "1", "42", "abc123", "ABC", "a-b", "a_b", "2026-07-30", "12:00", "x@example.com", "")


def _matching(pattern: str, rng: random.Random) -> str | None:
    """A string the pattern matches (``re.search``, as JSON Schema does), from a few candidates."""
    try:
        compiled = re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return None
    for candidate in _CANDIDATES:
        if compiled.search(candidate):
            return candidate
    return None


def schema_value(schema: Any, seed: int, words: list[str] | None = None) -> Any:
    """A value valid against ``schema`` (within the supported subset), the same for the same seed."""
    root = schema if isinstance(schema, dict) else {}
    return _Builder(root, random.Random(seed), words or []).value(root)
