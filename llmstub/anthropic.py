"""Anthropic Messages (``POST /v1/messages``) on the one engine.

``system``, the messages' content blocks (text, images, ``tool_use``, ``tool_result``) and the tools become
a chat request; the engine's answer comes back as a ``message`` with content blocks and a ``stop_reason``,
or as Anthropic's stream (``message_start``, ``ping``, ``content_block_start``/``delta``/``stop`` with
``text_delta`` and ``input_json_delta``, ``message_delta``, ``message_stop``). Errors take Anthropic's shape,
``{"type":"error","error":{"type":...,"message":...}}``, the type following the status as Anthropic's
documentation maps it. The ``anthropic-version`` header is accepted and not required.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import wire
from .engine import ChatRequest, Plan, RequestError
from .errors import anthropic_error
from .surface import render_plan

if TYPE_CHECKING:
    from .serving import ServingModel

__all__ = ["ENDPOINT", "MessagesSurface", "create_message", "parse_request"]

ENDPOINT = "/v1/messages"

_STOP_REASONS = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens", "content_filter": "refusal"}


# ----- the request -----


def _kind(value: Any) -> str:
    return "an object" if isinstance(value, dict) else "an array" if isinstance(value, list) else type(value).__name__


def _block_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def system_text(system: Any) -> str:
    """``system`` is a string or an array of text blocks."""
    if system is None or isinstance(system, str):
        return system or ""
    if not isinstance(system, list) or not all(isinstance(b, dict) and b.get("type") == "text" for b in system):
        raise RequestError("system: Input should be a valid string or an array of text blocks")
    return _block_text(system)


def chat_messages(messages: Any) -> list[dict[str, Any]]:
    """Messages with content blocks as chat messages: ``tool_result`` blocks become tool messages (before the
    user's own text), ``tool_use`` blocks the assistant's tool calls with the input as JSON text."""
    if not isinstance(messages, list):
        raise RequestError(f"messages: Input should be a valid list, not {_kind(messages)}")
    converted: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        where = f"messages.{index}"
        if not isinstance(message, dict):
            raise RequestError(f"{where}: Input should be a valid dictionary")
        role = message.get("role")
        if role not in ("user", "assistant"):
            raise RequestError(f"{where}.role: Input should be 'user' or 'assistant'")
        content = message.get("content")
        if isinstance(content, str):
            converted.append({"role": role, "content": content})
            continue
        if not isinstance(content, list):
            raise RequestError(f"{where}.content: Input should be a valid string or a list of content blocks")
        parts: list[dict[str, Any]] = []
        calls: list[dict[str, Any]] = []
        for number, block in enumerate(content):
            if not isinstance(block, dict):
                raise RequestError(f"{where}.content.{number}: Input should be a valid dictionary")
            kind = block.get("type")
            if kind == "text":
                if not isinstance(block.get("text"), str):
                    raise RequestError(f"{where}.content.{number}.text: Input should be a valid string")
                parts.append({"type": "text", "text": block["text"]})
            elif kind == "tool_use":
                if not isinstance(block.get("id"), str) or not isinstance(block.get("name"), str):
                    raise RequestError(f"{where}.content.{number}: tool_use needs a string id and name")
                arguments = json.dumps(block.get("input") or {}, ensure_ascii=False)
                calls.append(wire.tool_call_entry(block["id"], block["name"], arguments))
            elif kind == "tool_result":
                if not isinstance(block.get("tool_use_id"), str):
                    raise RequestError(f"{where}.content.{number}.tool_use_id: Field required")
                text = _block_text(block.get("content"))
                converted.append({"role": "tool", "tool_call_id": block["tool_use_id"], "content": text})
            elif kind == "image":
                parts.append({"type": "image_url", "image_url": {"url": (block.get("source") or {}).get("url", "")}})
            # thinking and other blocks carry nothing the script reads
        if role == "assistant":
            text = "".join(p["text"] for p in parts if p["type"] == "text")
            reply: dict[str, Any] = {"role": "assistant", "content": text or (None if calls else "")}
            if calls:
                reply["tool_calls"] = calls
            converted.append(reply)
        elif parts:
            converted.append({"role": "user", "content": parts})
    return converted


def chat_tools(tools: Any) -> list[Any]:
    """Anthropic tools (``name``, ``description``, ``input_schema``) as chat function tools; server tools kept."""
    if tools is None:
        return []
    if not isinstance(tools, list):
        raise RequestError("tools: Input should be a valid list")
    converted: list[Any] = []
    for tool in tools:
        if isinstance(tool, dict) and tool.get("type") in (None, "custom") and isinstance(tool.get("name"), str):
            function = {"name": tool["name"], "parameters": tool.get("input_schema") or {}}
            if tool.get("description") is not None:
                function["description"] = tool["description"]
            converted.append({"type": "function", "function": function})
        else:
            converted.append(tool)
    return converted


def chat_tool_choice(choice: Any) -> Any:
    if not isinstance(choice, dict):
        return choice
    kind = choice.get("type")
    if kind == "tool" and isinstance(choice.get("name"), str):
        return {"type": "function", "function": {"name": choice["name"]}}
    return {"any": "required", "auto": "auto", "none": "none"}.get(str(kind), choice)


def parse_request(body: Any, *, profile: str = "", client: str | None = None) -> ChatRequest:
    """Validate a Messages body (``model``, ``max_tokens`` and ``messages`` are required, as Anthropic requires
    them) and build the chat request the engine answers."""
    if not isinstance(body, dict):
        raise RequestError("request body must be a JSON object")
    for name in ("model", "max_tokens", "messages"):
        if name not in body:
            raise RequestError(f"{name}: Field required")
    max_tokens = body["max_tokens"]
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise RequestError("max_tokens: Input should be a positive integer")
    messages = chat_messages(body["messages"])
    system = system_text(body.get("system"))
    if system:
        messages.insert(0, {"role": "system", "content": system})
    metadata = body.get("metadata")
    user = metadata.get("user_id") if isinstance(metadata, dict) else None
    chat_body: dict[str, Any] = {
        "model": body["model"],
        "messages": messages,
        "stream": body.get("stream", False),
        "tools": chat_tools(body.get("tools")),
        "tool_choice": chat_tool_choice(body.get("tool_choice")),
        "user": user,
        "max_tokens": max_tokens,
        "stream_options": {"include_usage": True},  # its stream always ends with the usage
    }
    return ChatRequest.from_body(chat_body, profile=profile, client=client)


# ----- the answer -----


def _input(arguments: str) -> Any:
    """A tool call's arguments as the ``input`` object; text that is not JSON (a negative step) stays text."""
    try:
        return json.loads(arguments)
    except ValueError:
        return arguments


class MessagesWriter:
    """Builds one ``message`` from the answer's events: Anthropic's stream events, and the final object."""

    def __init__(self, seq: int, *, stream: bool) -> None:
        self._stream = stream
        self._buffer = bytearray()
        self._open: dict[str, Any] | None = None
        self._arguments: dict[int, str] = {}
        self._calls: dict[int, dict[str, Any]] = {}
        self._finish: str | None = None
        self._usage: dict[str, int] | None = None
        self.message: dict[str, Any] = {
            "content": [],
            "id": f"msg_tgfake_{seq}",
            "model": "",
            "role": "assistant",
            "stop_reason": None,
            "stop_sequence": None,
            "type": "message",
        }

    def _event(self, kind: str, **fields: Any) -> None:
        if self._stream:
            self._buffer += f"event: {kind}\ndata: ".encode() + wire.dumps({"type": kind, **fields}).encode() + b"\n\n"

    def take(self) -> bytes:
        data = bytes(self._buffer)
        self._buffer.clear()
        return data

    def start(self, envelope: Mapping[str, Any], usage: Mapping[str, int] | None) -> None:
        self.message["model"] = envelope.get("model", "")
        if usage is not None:
            self._usage = {
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "input_tokens": usage.get("prompt_tokens", 0),
                "output_tokens": usage.get("completion_tokens", 0),
            }
        opening = self.message | {"content": []}
        if self._usage is not None:
            opening["usage"] = self._usage | {"output_tokens": 1}  # Anthropic announces 1 and settles at the end
        self._event("message_start", message=opening)
        self._event("ping")

    def _block(self, block: dict[str, Any]) -> int:
        self._close()
        self.message["content"].append(block)
        self._open = block
        index = len(self.message["content"]) - 1
        start: dict[str, Any] = {k: ({} if k == "input" else "" if k == "text" else v) for k, v in block.items()}
        self._event("content_block_start", index=index, content_block=start)
        return index

    def _close(self) -> None:
        if self._open is not None:
            self._event("content_block_stop", index=self.message["content"].index(self._open))
            self._open = None

    def text(self, delta: str) -> None:
        if self._open is None or self._open["type"] != "text":
            self._block({"text": "", "type": "text"})
        assert self._open is not None
        self._open["text"] += delta
        if self._stream:
            index = len(self.message["content"]) - 1
            self._buffer += (
                'event: content_block_delta\ndata: {"delta":{"text":'
                + wire.encode_string(delta)
                + f',"type":"text_delta"}},"index":{index},"type":"content_block_delta"}}\n\n'
            ).encode()

    def refusal(self, delta: str) -> None:
        self.text(delta)  # Anthropic has no refusal block: the text says it, stop_reason is "refusal"

    def tool_start(self, index: int, call_id: str, name: str) -> None:
        self._calls[index] = {"id": call_id, "input": {}, "name": name, "type": "tool_use"}
        self._arguments[index] = ""
        self._block(self._calls[index])

    def tool_arguments(self, index: int, delta: str) -> None:
        self._arguments[index] += delta
        block = self._calls[index]
        self._event(
            "content_block_delta",
            index=self.message["content"].index(block),
            delta={"partial_json": delta, "type": "input_json_delta"},
        )

    def finish(self, reason: str | None) -> None:
        self._finish = reason

    def end(self) -> None:
        self._close()
        for index, block in self._calls.items():
            block["input"] = _input(self._arguments[index]) if self._arguments[index] else {}
        stop = _STOP_REASONS.get(self._finish or "", "end_turn") if self._finish is not None else None
        self.message["stop_reason"] = stop
        if self._usage is not None:
            self.message["usage"] = self._usage
        delta: dict[str, Any] = {"delta": {"stop_reason": stop, "stop_sequence": None}}
        if self._usage is not None:
            delta["usage"] = {"output_tokens": self._usage["output_tokens"]}
        self._event("message_delta", **delta)
        self._event("message_stop")
        if not self._stream:
            self._buffer += (wire.dumps(self.message) + "\n").encode()


class MessagesSurface:
    """``/v1/messages`` for :meth:`Model.serve <llmstub.model.Model.serve>`: Anthropic's errors and stream."""

    @staticmethod
    def parse(body: Any, *, profile: str = "", client: str | None = None) -> ChatRequest:
        return parse_request(body, profile=profile, client=client)

    error_body = staticmethod(anthropic_error)

    @staticmethod
    def error_frame(message: str, error_type: str | None, sent: int) -> bytes:
        payload = {"error": {"message": message, "type": error_type or "api_error"}, "type": "error"}
        return b"event: error\ndata: " + wire.dumps(payload).encode() + b"\n\n"

    def render(self, plan: Plan, request: ChatRequest) -> Plan:
        plan.entry.setdefault("extra", {})["endpoint"] = ENDPOINT
        if plan.raw:
            return plan
        if plan.status >= 400:
            try:
                message = json.loads(plan.body)["error"]["message"]
            except (ValueError, KeyError, TypeError):
                return plan
            plan.body = (wire.dumps(anthropic_error(plan.status, str(message))) + "\n").encode()
            return plan
        render_plan(plan, MessagesWriter(plan.seq, stream=plan.streamed), wire.SSE_CONTENT_TYPE)
        return plan


_SURFACE = MessagesSurface()  # stateless: one serves every model


async def create_message(model: ServingModel, request: web.Request) -> web.StreamResponse:
    """``POST /v1/messages`` on the model that serves the request."""
    return await model.serve(request, _SURFACE)
