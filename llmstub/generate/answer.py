"""What the model says in echo and random modes (seed 000), as a pure function of the request.

:func:`generate_answer` takes the request's essentials and returns either a :class:`Generated`
answer or a :class:`GenerationError` (a 400 with an OpenAI-shaped body). No aiohttp, no clock, no
network: the Model owns HTTP, SSE framing and the per-process random generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..wire import error_body
from .conversations import Dataset, conversation_hash, message_text
from .lengths import sample_with_max, sample_without_max
from .text import take_tokens
from .tokens import count_tokens, tokenize

Mode = Literal["echo", "random"]
FinishReason = Literal["stop", "length"]
MODES: tuple[Mode, ...] = ("echo", "random")
DEFAULT_MAX_MODEL_LEN = 1024
"""The context window of echo and random modes unless configured (llm-d-inference-sim's default)."""


@dataclass(frozen=True, slots=True)
class Generated:
    """An answer: ``tokens`` are the pieces to stream (their concatenation is ``text``)."""

    text: str
    finish_reason: FinishReason
    prompt_tokens: int
    completion_tokens: int
    tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GenerationError:
    """A refused request: send ``body()`` with ``status``."""

    message: str
    type: str = "invalid_request_error"
    param: str | None = None
    code: str | None = None
    status: int = 400

    def body(self) -> dict[str, Any]:
        return error_body(self.message, type_=self.type, param=self.param, code=self.code, full=True)


def _context_error(window: int, prompt: int, completion: int, where: str, what: str) -> GenerationError:
    return GenerationError(
        f"This model's maximum context length is {window} tokens. However, you requested "
        f"{prompt + completion} tokens ({prompt} in the {where}, {completion} in the {what}). "
        f"Please reduce the length of the {where}.",
        param=where,
        code="context_length_exceeded",
    )


def generate_answer(
    *,
    mode: Mode,
    messages: Sequence[Mapping[str, Any]] | None = None,
    prompt: str | None = None,
    max_tokens: int | None = None,
    max_completion_tokens: int | None = None,
    ignore_eos: bool = False,
    max_model_len: int = DEFAULT_MAX_MODEL_LEN,
    seed: int | None = None,
    rng: random.Random | None = None,
    dataset: Dataset | None = None,
) -> Generated | GenerationError:
    """Answer a chat (``messages``) or legacy completion (``prompt``) request in echo or random mode.

    Every count uses :mod:`.tokens`. ``max_completion_tokens`` wins over ``max_tokens`` when both are
    set. Randomness comes from ``rng`` if given, else ``random.Random(seed)`` (``seed`` None: fresh).
    Errors (all 400): an empty ``messages``; a max below 1; echo: 2 × input > ``max_model_len``, or
    the echoed text longer than the max; random: input + 1 > ``max_model_len``, or ``ignore_eos``
    without a max. ``finish_reason`` is ``length`` exactly when the answer has as many tokens as the
    most it was allowed (the max, capped by the room left in the window), else ``stop``.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if (messages is None) == (prompt is None):
        raise ValueError("pass exactly one of messages (chat) or prompt (legacy completions)")
    if max_model_len < 1:
        raise ValueError("max_model_len must be at least 1")

    if messages is not None:
        if not messages:
            return GenerationError("messages must not be empty", param="messages", code="invalid_value")
        where, last = "messages", "last message"
        prompt_text = "\n".join(message_text(m.get("content")) for m in messages)
        echoed = message_text(messages[-1].get("content"))
        conversation = list(messages)
    else:
        assert prompt is not None
        where, last = "prompt", "prompt"
        prompt_text = echoed = prompt
        conversation = [{"role": "user", "content": prompt}]

    limit_name = "max_completion_tokens" if max_completion_tokens is not None else "max_tokens"
    limit = max_completion_tokens if max_completion_tokens is not None else max_tokens
    if limit is not None and limit < 1:
        return GenerationError(
            f"{limit_name} must be at least 1, got {limit}", param=limit_name, code="invalid_value"
        )

    input_tokens = count_tokens(prompt_text)
    room = max_model_len - input_tokens

    if mode == "echo":
        if 2 * input_tokens > max_model_len:
            return _context_error(max_model_len, input_tokens, input_tokens, where, "echoed completion")
        pieces = tokenize(echoed)
        if limit is not None and len(pieces) > limit:
            return GenerationError(
                f"{limit_name} is {limit}, but echo mode returns the {last} unmodified and it is "
                f"{len(pieces)} tokens long. Please raise {limit_name} to at least {len(pieces)} "
                f"or shorten the {last}.",
                param=limit_name,
                code="invalid_value",
            )
        cap = room if limit is None else min(limit, room)
        finish: FinishReason = "length" if pieces and len(pieces) == cap else "stop"
        return Generated(
            echoed, finish, input_tokens, len(pieces), tuple(pieces) or ((echoed,) if echoed else ())
        )

    if input_tokens + 1 > max_model_len:
        return _context_error(max_model_len, input_tokens, 1, where, "completion")
    if ignore_eos and limit is None:
        return GenerationError(
            "ignore_eos is true but neither max_tokens nor max_completion_tokens is set",
            param="ignore_eos",
            code="invalid_value",
        )
    rng = rng if rng is not None else random.Random(seed)
    cap = room if limit is None else min(limit, room)
    if ignore_eos:
        target = cap
    elif limit is not None:
        target = sample_with_max(rng, cap)
    else:
        target = sample_without_max(rng, room)
    if dataset is not None:
        pieces = dataset.choose(
            rng, conversation_hash(conversation), target=target, cap=cap, ignore_eos=ignore_eos
        )
        if pieces:
            pieces[-1] = pieces[-1].rstrip()
    else:
        pieces = take_tokens(rng, target)
    finish = "length" if len(pieces) == cap else "stop"
    return Generated("".join(pieces), finish, input_tokens, len(pieces), tuple(pieces))
