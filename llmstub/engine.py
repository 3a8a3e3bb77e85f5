"""The model's state and answer choice, apart from HTTP.

A completion request is *reserved* under one lock: it gets its call number, picks its rule, and a
sequence step is validated and consumed; the lock is released before any waiting or writing. The
transport then carries out the returned :class:`Plan` and reports back with :meth:`Engine.finish`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import wire
from .chunks import completion_stream
from .errors import default_message, openai_error
from .faults import Fault
from .journal import JOURNAL_LIMIT, Journal, LogEntry
from .requested import DemandError, Demands, arguments_text, read_demands, schema_value, seed_for
from .rules import Rule, Step
from .text import content_text, split_pieces, strip_tags, word_count

__all__ = [
    "ChatRequest",
    "Engine",
    "Generator",
    "Plan",
    "Refusal",
    "Reply",
    "RequestError",
    "echo_reply",
    "extract_prompt",
]


class RequestError(ValueError):
    """A completion request the model cannot read (answered 400 with the message; ``param`` names the
    field, as OpenAI's error does)."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """The parts of a Chat Completions request the model reads, plus the two identity labels."""

    messages: list[dict[str, Any]]
    model: str = ""
    stream: bool = False
    tools: list[Any] = field(default_factory=list)
    tool_choice: Any = None
    profile: str = ""
    client: str = ""
    body: Mapping[str, Any] = field(default_factory=dict)
    prompt: str | None = None
    """The ``prompt`` of a legacy ``/v1/completions`` request (``messages`` then holds it as one user
    message); ``None`` for chat."""
    demands: Demands = field(default_factory=Demands)
    """The answer shape the request asks for (``response_format``, ``tool_choice``, ``n``, ...)."""

    @property
    def legacy(self) -> bool:
        """Whether this is a ``/v1/completions`` (text completion) request."""
        return self.prompt is not None

    @classmethod
    def from_completion_body(cls, body: Any, *, profile: str = "", client: str | None = None) -> ChatRequest:
        """Validate a ``/v1/completions`` body: ``prompt`` is a string (or a list of exactly one)."""
        if not isinstance(body, dict):
            raise RequestError("request body must be a JSON object")
        prompt = body.get("prompt")
        if isinstance(prompt, list) and len(prompt) == 1 and isinstance(prompt[0], str):
            prompt = prompt[0]
        if prompt is None:
            raise RequestError("prompt is required", "prompt")
        if not isinstance(prompt, str):
            raise RequestError("prompt must be a string (or an array of one string)", "prompt")
        chat = cls.from_body(
            {k: v for k, v in body.items() if k not in ("messages", "tools")}
            | {"messages": [{"role": "user", "content": prompt}]},
            profile=profile,
            client=client,
        )
        return cls(
            messages=chat.messages,
            model=chat.model,
            stream=chat.stream,
            profile=chat.profile,
            client=chat.client,
            body=body,
            prompt=prompt,
        )

    @classmethod
    def from_body(cls, body: Any, *, profile: str = "", client: str | None = None) -> ChatRequest:
        """Validate a decoded JSON body; ``client`` overrides the body's ``user`` (header-selected key)."""
        if not isinstance(body, dict):
            raise RequestError("request body must be a JSON object")
        messages = body.get("messages", [])
        if messages is None:
            messages = []
        if not isinstance(messages, list):
            raise RequestError("messages must be an array", "messages")
        for index, message in enumerate(messages):
            if not isinstance(message, dict):
                raise RequestError(f"messages[{index}] must be an object", "messages")
            content = message.get("content")
            if content is not None and not isinstance(content, str | list):
                raise RequestError(f"messages[{index}].content must be a string, an array of parts or null", "messages")
        model = body.get("model", "")
        if model is None:
            model = ""
        if not isinstance(model, str):
            raise RequestError("model must be a string", "model")
        stream = body.get("stream", False)
        if stream is None:
            stream = False
        if not isinstance(stream, bool):
            raise RequestError("stream must be a boolean", "stream")
        tools = body.get("tools")
        if tools is None:
            tools = []
        if not isinstance(tools, list):
            raise RequestError("tools must be an array", "tools")
        user = body.get("user")
        if user is not None and not isinstance(user, str):
            raise RequestError("user must be a string", "user")
        try:
            demands = read_demands(body)
        except DemandError as exc:
            raise RequestError(str(exc), exc.param) from None
        return cls(
            messages=messages,
            model=model,
            stream=stream,
            tools=tools,
            tool_choice=body.get("tool_choice"),
            profile=profile,
            client=client if client is not None else (user or ""),
            body=body,
            demands=demands,
        )

    def offered_tools(self) -> set[str]:
        """Names of the function tools the request offers (or its legacy ``functions``)."""
        return set(self.demands.parameters)

    def system_text(self) -> str:
        """The system (and developer) messages, joined, for the ``system`` filter."""
        return "\n".join(
            content_text(m.get("content")) for m in self.messages if m.get("role") in ("system", "developer")
        )


@dataclass(frozen=True, slots=True)
class Reply:
    """A text answer with its accounting; ``completion_tokens`` defaults to the word count.

    ``pieces`` are the stream units (tokens of a generated answer, grouped by ``chunk_words``);
    ``None`` splits the text into words.
    """

    text: str
    finish_reason: str = "stop"
    prompt_tokens: int = 1
    completion_tokens: int | None = None
    pieces: tuple[str, ...] | None = None
    refusal: bool = False
    """The text is the model's refusal (``message.refusal``, ``content`` null)."""


FallbackReply = Callable[[str, ChatRequest], Reply]


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request the answer of last resort refuses (sent as ``body`` with ``status``, journaled)."""

    status: int
    body: dict[str, Any]


class Generator(Protocol):
    """What answers when nothing scripted applies in echo and random modes (see :mod:`.modes`)."""

    def answer(self, request: ChatRequest, strip: Sequence[str]) -> Reply | Refusal: ...

    def reset(self) -> None: ...


def echo_reply(prompt: str, request: ChatRequest) -> Reply:
    """The answer when no rule matches and no canned answers are set."""
    return Reply(f"You said: {prompt}")


def _user_texts(messages: Sequence[Mapping[str, Any]], tags: Sequence[str]) -> list[str | None]:
    """Per message: the trimmed, stripped user text, or ``None`` for other roles."""
    return [
        strip_tags(content_text(m.get("content")), tags).strip() if m.get("role") == "user" else None
        for m in messages
    ]


def extract_prompt(messages: Sequence[Mapping[str, Any]], tags: Sequence[str] = ()) -> str:
    """The newest user message that has text, trimmed, after tag stripping ("" when none)."""
    for text in reversed(_user_texts(messages, tags)):
        if text:
            return text
    return ""


def newest_is_tool_result(messages: Sequence[Mapping[str, Any]], tags: Sequence[str] = ()) -> bool:
    """Whether the newest message, skipping user messages left empty by stripping, is a tool result."""
    for message, text in zip(reversed(messages), reversed(_user_texts(messages, tags)), strict=True):
        if text == "":
            continue
        return bool(message.get("role") == "tool")
    return False


def tool_results(messages: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Tool results after the latest assistant message, by ``tool_call_id``."""
    results: dict[str, str] = {}
    for message in reversed(messages):
        role = message.get("role")
        if role == "assistant":
            break
        call_id = message.get("tool_call_id")
        if role == "tool" and isinstance(call_id, str):
            results.setdefault(call_id, content_text(message.get("content")))
    return results


@dataclass(slots=True)
class _Cursor:
    position: int = 0
    outstanding: list[tuple[str, str]] = field(default_factory=list)  # (tool_call_id, name)


@dataclass(slots=True)
class Plan:
    """What the transport sends for one reserved request.

    A streamed plan is ``head`` at once, then each of ``pieces`` after a pause of the stream delay,
    then ``tail`` with no pause. Otherwise ``body`` is sent whole after ``delay`` seconds.
    """

    seq: int
    status: int
    content_type: str
    headers: dict[str, str]
    delay: float = 0.0
    body: bytes = b""
    streamed: bool = False
    head: bytes = b""
    pieces: list[bytes] = field(default_factory=list)
    tail: bytes = b""
    # Bookkeeping for Engine.finish.
    started: float = 0.0
    entry: dict[str, Any] = field(default_factory=dict)
    cursor_key: tuple[int, str, str] | None = None
    generation: int = 0
    delivers: list[tuple[str, str]] | None = None
    fault: Fault | None = None
    raw: bool = False
    """A scripted ``raw_body``: every surface sends it byte for byte."""


_NO_RETRY = {"x-should-retry": "false"}  # validation failures are deterministic: the SDK should not retry


class Engine:
    """Counters, cursors, outstanding tool calls and the journal of one model. Thread-safe."""

    def __init__(
        self,
        *,
        model_id: str,
        rules: Sequence[Rule],
        answers: Sequence[str],
        chunk_words: int,
        strip_tags: Sequence[str],
        fallback: FallbackReply | None = None,
        generator: Generator | None = None,
        journal_limit: int = JOURNAL_LIMIT,
        wall_clock: Callable[[], float] = time.time,
        usage_on_request: bool = False,
    ) -> None:
        self.model_id = model_id
        self._rules = list(rules)
        self._answers = list(answers)
        self._chunk_words = max(1, chunk_words)
        self._strip_tags = list(strip_tags)
        self._fallback = fallback
        self._generator = generator
        self._wall_clock = wall_clock
        self._usage_on_request = usage_on_request
        self._lock = threading.Lock()
        self._calls = 0
        self._legacy_calls = 0
        self._generation = 0
        self._cursors: dict[tuple[int, str, str], _Cursor] = {}
        self._journal = Journal(journal_limit)

    # ----- configuration and diagnostics -----

    @property
    def rules(self) -> list[Rule]:
        with self._lock:
            return list(self._rules)

    @property
    def calls(self) -> int:
        """Completion requests answered since start (never rewound; numbers the ids)."""
        with self._lock:
            return self._calls

    def set_rules(self, rules: Sequence[Rule]) -> None:
        """Replace the script and rewind cursors; keep the journal and every counter."""
        with self._lock:
            self._rules = list(rules)
            self._cursors.clear()
            self._generation += 1

    def reset(self) -> None:
        """Clear the journal, rewind cursors and the canned-answer rotation; ids keep increasing."""
        with self._lock:
            self._journal.clear()
            self._cursors.clear()
            self._legacy_calls = 0
            self._generation += 1
            if self._generator is not None:
                self._generator.reset()

    def log(self) -> tuple[list[LogEntry], int, int]:
        """Entries, the number dropped since the last clear, and the call counter."""
        with self._lock:
            return self._journal.entries(), self._journal.dropped, self._calls

    def clear_log(self) -> None:
        with self._lock:
            self._journal.clear()

    def fallback_reply(self, prompt: str, request: ChatRequest) -> Reply | Refusal:
        """The answer of the last resort: the mode's generated answer (echo, random), else the
        plugged-in fallback, else ``You said: <prompt>``. Called under the lock."""
        if self._generator is not None:
            return self._generator.answer(request, self._strip_tags)
        return (self._fallback or echo_reply)(prompt, request)

    # ----- answering -----

    def reserve(self, request: ChatRequest) -> Plan:
        """Number the call, choose the rule, and reserve (validate and consume) a sequence step."""
        with self._lock:
            self._calls += 1
            seq = self._calls
            prompt = extract_prompt(request.messages, self._strip_tags)
            chosen: tuple[int, Rule] | None = None
            for index, rule in enumerate(self._rules):
                if rule.side is not None:
                    continue  # moderation and transcription rules answer their own routes
                if request.legacy and (rule.sequenced or rule.tool is not None):
                    continue  # a text completion cannot carry tool calls; sequences script chat turns
                if self._matches(rule, request, prompt):
                    chosen = index, rule
                    break
            created = int(self._wall_clock())
            entry = {
                "seq": seq,
                "at": self._wall_clock(),
                "profile": request.profile,
                "client": request.client,
                "model": request.model,
                "stream": request.stream,
                "messages": request.messages,
                "tools": request.tools,
                "tool_choice": request.tool_choice,
                "rule": chosen[1].name if chosen else None,
                "rule_index": chosen[0] if chosen else None,
                "step": -1,
            }
            if request.legacy:
                entry["extra"] = {"endpoint": "/v1/completions", "prompt": request.prompt}
            if chosen is not None and chosen[1].sequenced:
                plan = self._sequence_plan(seq, created, chosen[0], chosen[1], request)
            else:
                plan = self._legacy_plan(seq, created, chosen[1] if chosen else None, request, prompt)
                plan.fault = chosen[1].fault if chosen else None
            if plan.entry:  # a sequence step's own fields
                step_extra = plan.entry.pop("extra", None)
                entry.update(plan.entry)
                if step_extra:
                    entry["extra"] = entry.get("extra", {}) | step_extra
            plan.entry = entry
            plan.started = time.monotonic()
            plan.generation = self._generation
            return plan

    def finish(self, plan: Plan, *, sent: bytes, cancelled: bool = False) -> None:
        """Record the request in the journal; a delivered completion settles its tool calls."""
        latency = (time.monotonic() - plan.started) * 1000
        with self._lock:
            if (
                not cancelled
                and plan.delivers is not None
                and plan.cursor_key is not None
                and plan.generation == self._generation
            ):
                self._cursors.setdefault(plan.cursor_key, _Cursor()).outstanding = list(plan.delivers)
            record = plan.entry  # (the plan's last use: its entry becomes the record)
            record["status"] = 499 if cancelled else plan.status
            record["response"] = sent
            record["latency_ms"] = round(latency, 3)
            record["cancelled"] = cancelled
            self._journal.add(record)

    def _matches(self, rule: Rule, request: ChatRequest, prompt: str) -> bool:
        if rule.match and rule.match.lower() not in prompt.lower():
            return False
        if rule.model is not None and rule.model != request.model:
            return False
        if rule.system is not None and rule.system.lower() not in request.system_text().lower():
            return False
        if rule.tools is not None and not set(rule.tools) <= request.offered_tools():
            return False
        if rule.has_tools is not None and rule.has_tools != bool(request.tools):
            return False
        if rule.profile is not None and rule.profile != request.profile:
            return False
        return rule.user is None or rule.user == request.client

    def stream_usage(self, request: ChatRequest) -> bool:
        """Whether a stream ends with the usage chunk: always (seed 002), or, with ``usage_on_request``,
        only when ``stream_options.include_usage`` is true, as OpenAI does."""
        if not self._usage_on_request:
            return True
        options = request.body.get("stream_options")
        return isinstance(options, dict) and options.get("include_usage") is True

    # ----- the legacy path -----

    def _legacy_plan(
        self, seq: int, created: int, rule: Rule | None, request: ChatRequest, prompt: str
    ) -> Plan:
        self._legacy_calls += 1
        demands = request.demands
        if rule is not None:
            if (
                rule.tool is not None
                and demands.tool_choice != "none"
                and (rule.filtered or not newest_is_tool_result(request.messages, self._strip_tags))
            ):
                call = wire.tool_call_entry(f"call_llmstub_{seq}", rule.tool.name, rule.tool.arguments_json())
                return self._tool_plan(seq, created, request, call)
            reply = Reply(
                rule.refusal if rule.refusal is not None else rule.answer or "",
                finish_reason=rule.finish_reason or "stop",
                refusal=rule.refusal is not None,
            )
            return self._reply_plan(seq, created, request, reply)
        if self._answers:
            reply = Reply(self._answers[(self._legacy_calls - 1) % len(self._answers)])
            return self._reply_plan(seq, created, request, reply)
        forced = demands.forced_tool
        if forced is not None and not request.legacy:
            schema = demands.parameters.get(forced)
            value = schema_value(schema, seed_for(forced, schema, prompt, request.body.get("seed")), prompt.split())
            arguments = arguments_text(value if value is not None else {})
            call = wire.tool_call_entry(f"call_llmstub_{seq}", forced, arguments)
            return self._tool_plan(seq, created, request, call)
        answer = self.fallback_reply(prompt, request)
        if isinstance(answer, Refusal):
            return self._json_plan(seq, answer.status, answer.body)
        return self._reply_plan(seq, created, request, self._shaped(answer, request, prompt))

    @staticmethod
    def _shaped(reply: Reply, request: ChatRequest, prompt: str) -> Reply:
        """The fallback in the format the request asks: JSON valid against its schema, or a JSON object."""
        demands = request.demands
        if demands.format == "json_schema":
            seed = seed_for(demands.schema, prompt, request.body.get("seed"))
            text = arguments_text(schema_value(demands.schema or {}, seed, prompt.split()))
        elif demands.format == "json_object":
            text = arguments_text({"answer": reply.text})
        else:
            return reply
        return Reply(text, prompt_tokens=reply.prompt_tokens)

    def _reply_plan(self, seq: int, created: int, request: ChatRequest, reply: Reply) -> Plan:
        if request.legacy:
            return self._completion_plan(seq, created, request, reply)
        return self._text_plan(seq, created, request, reply)

    def _pieces(self, reply: Reply) -> list[str]:
        """Stream pieces: ``chunk_words`` tokens of a generated answer, or words of a scripted one."""
        if reply.pieces is None:
            return split_pieces(reply.text, self._chunk_words)
        step = self._chunk_words
        return ["".join(reply.pieces[i : i + step]) for i in range(0, len(reply.pieces), step)]

    def _scripted_pieces(self, text: str) -> list[str]:
        return split_pieces(text, self._chunk_words)

    def _step_pieces(self, step: Step) -> Callable[[str], list[str]]:
        """How a step's text is cut for its stream: the recorded ``pieces`` as they are, else in words."""
        recorded = step.pieces
        if recorded is None:
            return self._scripted_pieces
        return lambda text: list(recorded) if "".join(recorded) == text else self._scripted_pieces(text)

    @staticmethod
    def _usage(reply: Reply) -> dict[str, int]:
        tokens = word_count(reply.text) if reply.completion_tokens is None else reply.completion_tokens
        return wire.usage_object(reply.prompt_tokens, tokens)

    def _completion_plan(self, seq: int, created: int, request: ChatRequest, reply: Reply) -> Plan:
        """A legacy ``text_completion``: whole, or streamed as text chunks with the chat framing."""
        usage = self._usage(reply)
        env = wire.Envelope(f"cmpl-tgfake-{seq}", created, self.model_id)
        if not request.stream:
            body = wire.text_completion(env, text=reply.text, finish_reason=reply.finish_reason, usage=usage)
            return self._json_plan(seq, 200, body)
        return self._sse_plan(
            seq,
            pieces=wire.sse_text_frames(lambda piece: wire.text_chunk(env, piece), self._pieces(reply)),
            tail=[
                wire.text_chunk(env, "", finish_reason=reply.finish_reason),
                *([wire.text_usage_chunk(env, usage=usage)] if self.stream_usage(request) else []),
            ],
        )

    def _text_plan(self, seq: int, created: int, request: ChatRequest, reply: Reply) -> Plan:
        completion_id = f"chatcmpl-tgfake-{seq}"
        usage = self._usage(reply)
        env = wire.Envelope(completion_id, created, self.model_id)
        n = request.demands.n
        if not request.stream:
            body = wire.encoded_chat_completion(
                env,
                content=None if reply.refusal else reply.text,
                refusal=reply.text if reply.refusal else None,
                finish_reason=reply.finish_reason,
                usage=usage,
                n=n,
            )
            return Plan(seq=seq, status=200, content_type=wire.JSON_CONTENT_TYPE, headers={}, body=body)
        key = "refusal" if reply.refusal else "content"
        pieces = self._pieces(reply)

        def piece_chunk(index: int) -> Callable[[str], dict[str, Any]]:
            return lambda piece: wire.chat_chunk(env, delta={key: piece}, index=index)

        frames = [wire.sse_text_frames(piece_chunk(i), pieces) for i in range(n)]
        return self._sse_plan(
            seq,
            head=b"".join(
                wire.sse_frame(wire.chat_chunk(env, delta={key: "", "role": "assistant"}, index=i)) for i in range(n)
            ),
            pieces=[b"".join(group) for group in zip(*frames, strict=True)],
            tail=[
                *(wire.chat_chunk(env, delta={}, finish_reason=reply.finish_reason, index=i) for i in range(n)),
                *([wire.usage_chunk(env, usage=usage)] if self.stream_usage(request) else []),
            ],
        )

    def _tool_plan(self, seq: int, created: int, request: ChatRequest, call: dict[str, Any]) -> Plan:
        """A tool call; a request that offered legacy ``functions`` gets ``function_call`` instead."""
        completion_id = f"chatcmpl-tgfake-{seq}"
        usage = wire.usage_object(1, 1)
        env = wire.Envelope(completion_id, created, self.model_id)
        legacy = request.demands.legacy_functions
        finish = "function_call" if legacy else "tool_calls"
        n = request.demands.n
        if not request.stream:
            body = wire.chat_completion(
                env,
                content=None,
                tool_calls=[] if legacy else [call],
                function_call=call["function"] if legacy else None,
                finish_reason=finish,
                usage=usage,
                n=n,
            )
            return self._json_plan(seq, 200, body)
        delta: dict[str, Any] = {"role": "assistant"}
        delta |= {"function_call": call["function"]} if legacy else {"tool_calls": [call | {"index": 0}]}
        return self._sse_plan(
            seq,
            tail=[
                *(wire.chat_chunk(env, delta=delta, index=i) for i in range(n)),
                *(wire.chat_chunk(env, delta={}, finish_reason=finish, index=i) for i in range(n)),
                *([wire.usage_chunk(env, usage=usage)] if self.stream_usage(request) else []),
            ],
        )

    @staticmethod
    def _sse_plan(seq: int, *, head: bytes = b"", pieces: list[bytes] | None = None, tail: list[Any]) -> Plan:
        """A 200 event stream: ``head`` at once, each piece after the stream delay, then the ``tail`` events and
        ``[DONE]`` with no pause (a tool call has no pieces: everything goes out at once)."""
        return Plan(
            seq=seq,
            status=200,
            content_type=wire.SSE_CONTENT_TYPE,
            headers=dict(wire.SSE_HEADERS),
            streamed=True,
            head=head,
            pieces=pieces or [],
            tail=wire.sse_frames(tail) + wire.SSE_DONE,
        )

    @staticmethod
    def _json_plan(seq: int, status: int, body: Any, headers: Mapping[str, str] | None = None) -> Plan:
        return Plan(
            seq=seq,
            status=status,
            content_type=wire.JSON_CONTENT_TYPE,
            headers=dict(headers or {}),
            body=(wire.dumps(body) + "\n").encode(),
        )

    # ----- named sequences -----

    def _conflict(self, seq: int, step: int, code: str, message: str) -> Plan:
        plan = self._json_plan(
            seq, 409, openai_error(409, message, code=code, type_="llmstub_conflict"), _NO_RETRY
        )
        plan.entry = {"step": step}
        return plan

    def _sequence_plan(self, seq: int, created: int, index: int, rule: Rule, request: ChatRequest) -> Plan:
        steps = rule.steps or []
        label = rule.label(index)
        key = (index, request.profile, request.client)
        cursor = self._cursors.setdefault(key, _Cursor())
        step_index = min(cursor.position, len(steps) - 1) if rule.repeat_last else cursor.position
        if step_index >= len(steps):
            return self._conflict(
                seq,
                step_index,
                "sequence_exhausted",
                f"{label} has no step left: all {len(steps)} were used (set repeat_last, "
                "add steps, or reset)",
            )
        step = steps[step_index]
        results = tool_results(request.messages)
        missing = [call_id for call_id, _ in cursor.outstanding if call_id not in results]
        if missing:
            return self._conflict(
                seq,
                step_index,
                "tool_results_missing",
                f"{label} step {step_index} needs the results of tool calls {', '.join(missing)} "
                "after the latest assistant message",
            )
        if step.tool_name is not None or step.tool_result is not None:
            found = any(
                (step.tool_name is None or name == step.tool_name)
                and (step.tool_result is None or step.tool_result in results[call_id])
                for call_id, name in cursor.outstanding
            )
            if not found:
                wanted = f"tool {step.tool_name!r}" if step.tool_name is not None else "a tool"
                if step.tool_result is not None:
                    wanted += f" whose result contains {step.tool_result!r}"
                return self._conflict(
                    seq,
                    step_index,
                    "tool_result_mismatch",
                    f"{label} step {step_index} needs an outstanding call of {wanted}",
                )
        cursor.position = min(cursor.position + 1, len(steps))
        plan = self._step_plan(seq, created, step, request)
        plan.entry = {"step": step_index}
        plan.cursor_key = key
        plan.fault = step.fault or rule.fault
        return plan

    def _step_plan(self, seq: int, created: int, step: Step, request: ChatRequest) -> Plan:
        """A step's answer: a streamed request gets the stream of the same completion object."""
        headers = dict(step.headers)
        delay = step.delay_ms / 1000
        if step.raw_body is not None:
            plan = Plan(
                seq=seq,
                status=step.status,
                content_type=wire.JSON_CONTENT_TYPE,
                headers=headers,
                body=step.raw_body.encode(),
                raw=True,
            )
        elif step.failing_status:
            body = openai_error(
                step.status,
                step.answer or default_message(step.status, step.code),
                code=step.code,
                type_=step.type,
                param=step.param,
            )
            plan = self._json_plan(seq, step.status, body, headers)
        else:
            calls = [
                wire.tool_call_entry(
                    call.id or (f"call_llmstub_{seq}" if i == 0 else f"call_llmstub_{seq}_{i + 1}"),
                    call.name,
                    call.arguments_json(),
                )
                for i, call in enumerate(step.tool_calls or ())
            ]
            usage = (
                None
                if step.omit_usage
                else (step.usage.model_dump() if step.usage else wire.usage_object(1, 1))
            )
            content = step.answer if step.answer is not None or calls or step.refusal is not None else ""
            body = wire.chat_completion(
                wire.Envelope(f"chatcmpl-tgfake-{seq}", created, self.model_id),
                content=content,
                refusal=step.refusal,
                tool_calls=calls,
                finish_reason=step.finish_reason or ("tool_calls" if calls else "stop"),
                usage=usage,
                empty_choices=step.empty_choices,
            )
            if request.stream:
                head, pieces, tail = completion_stream(
                    body, self._step_pieces(step), self._chunk_words, usage=self.stream_usage(request)
                )
                plan = self._sse_plan(seq, head=head, pieces=pieces, tail=tail)
                plan.status = step.status
                plan.headers.update(headers)
            else:
                plan = self._json_plan(seq, step.status, body, headers)
            if not step.failing:
                plan.delivers = [(c["id"], c["function"]["name"]) for c in calls]
        plan.delay = delay
        return plan
