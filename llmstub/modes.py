"""The model's modes: what it says when no rule and no canned answer applies.

``script`` answers ``You said: <prompt>`` (the engine's own fallback). ``echo`` and ``random`` hand the
request to :func:`llmstub.generate.generate_answer` (seed 000) through :class:`ModeGenerator`, which
reads the generation fields of the request body, owns the model's seeded random generator and the
optional dataset, and turns the result into a :class:`~llmstub.engine.Reply` (token pieces, tokenizer
counts) or a 400 :class:`~llmstub.engine.Refusal`. It runs under the engine's lock, so one generator
serves concurrent requests in reservation order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from .engine import ChatRequest, Refusal, Reply
from .generate import DEFAULT_MAX_MODEL_LEN, Dataset, GenerationError, generate_answer
from .text import content_text, strip_tags
from .wire import dumps, error_body

__all__ = ["DEFAULT_MAX_MODEL_LEN", "MODES", "ModeGenerator", "ModeName"]

ModeName = Literal["script", "echo", "random"]
MODES: tuple[ModeName, ...] = get_args(ModeName)


def _refusal(message: str, param: str, code: str = "invalid_type") -> Refusal:
    body = error_body(message, type_="invalid_request_error", param=param, code=code, full=True)
    return Refusal(400, body)


def _int_field(body: Mapping[str, Any], name: str) -> int | Refusal | None:
    """An optional integer field (``null`` = absent); booleans and floats are refused."""
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        return _refusal(f"{name} must be an integer, got {dumps(value)}", name)
    return value


class ModeGenerator:
    """Generated answers of echo and random modes for one model (stateful: the seeded generator)."""

    def __init__(
        self,
        mode: Literal["echo", "random"],
        *,
        max_model_len: int = DEFAULT_MAX_MODEL_LEN,
        seed: int | None = None,
        dataset: Dataset | None = None,
    ) -> None:
        self.mode: Literal["echo", "random"] = mode
        self.max_model_len = max_model_len
        self.seed = seed
        self.dataset = dataset
        self._rng = random.Random(seed)

    def reset(self) -> None:
        """Rewind the generator to its seed, so a reset stand repeats its answers (with ``--llm-seed``)."""
        self._rng = random.Random(self.seed)

    def answer(self, request: ChatRequest, strip: Sequence[str]) -> Reply | Refusal:
        """Answer ``request`` by the mode; user texts are tag-stripped first (empty ones dropped)."""
        body = request.body
        limits: dict[str, int | None] = {}
        for name in ("max_tokens", "max_completion_tokens", "seed"):
            value = _int_field(body, name)
            if isinstance(value, Refusal):
                return value
            limits[name] = value
        ignore_eos = body.get("ignore_eos")
        if ignore_eos is not None and not isinstance(ignore_eos, bool):
            return _refusal(f"ignore_eos must be a boolean, got {dumps(ignore_eos)}", "ignore_eos")
        seed = limits["seed"]
        rng = random.Random(seed) if seed is not None else self._rng
        common: dict[str, Any] = {
            "mode": self.mode,
            "max_tokens": limits["max_tokens"],
            "max_completion_tokens": limits["max_completion_tokens"],
            "ignore_eos": bool(ignore_eos),
            "max_model_len": self.max_model_len,
            "rng": rng,
            "dataset": self.dataset if self.mode == "random" else None,
        }
        if request.prompt is not None:
            prompt = strip_tags(request.prompt, strip) if strip else request.prompt
            result = generate_answer(prompt=prompt, **common)
        else:
            result = generate_answer(messages=_stripped(request.messages, strip), **common)
        if isinstance(result, GenerationError):
            return Refusal(result.status, result.body())
        return Reply(
            result.text,
            finish_reason=result.finish_reason,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            pieces=result.tokens,
        )


def _stripped(messages: Sequence[Mapping[str, Any]], tags: Sequence[str]) -> list[Mapping[str, Any]]:
    """Messages with the tag blocks cut out of user texts; a user message left blank is dropped."""
    if not tags:
        return list(messages)
    kept: list[Mapping[str, Any]] = []
    for message in messages:
        if message.get("role") == "user":
            text = strip_tags(content_text(message.get("content")), tags)
            if not text.strip():
                continue
            message = {**message, "content": text}
        kept.append(message)
    return kept
