"""The OpenAI Responses API (``POST /v1/responses``, ``GET``/``DELETE /v1/responses/{id}``) on the one engine.

A request's ``instructions``, ``input`` (a string or items) and function tools become a chat request, so
rules, sequences, faults, the journal and pacing are the chat route's. ``previous_response_id`` puts the
stored conversation of an earlier response in front of the new input; responses are stored per model
(``store: false`` opts out) and forgotten on reset.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import wire
from .engine import ChatRequest, Plan, RequestError
from .errors import openai_error
from .http import json_response, method_not_allowed
from .journal import JOURNAL_LIMIT
from .surface import render_plan

if TYPE_CHECKING:
    from .serving import ServingModel

__all__ = ["ENDPOINT", "ResponseStore", "ResponsesSurface", "create_response", "one_response"]

ENDPOINT = "/v1/responses"


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored response and the conversation it ended (chat messages, instructions left out)."""

    response: dict[str, Any]
    conversation: list[dict[str, Any]]


class ResponseStore:
    """Responses by id, the ``limit`` newest kept; plain state on the model, cleared by its reset."""

    def __init__(self, limit: int = JOURNAL_LIMIT) -> None:
        self._limit = limit
        self._items: OrderedDict[str, Stored] = OrderedDict()

    def put(self, stored: Stored) -> None:
        self._items[stored.response["id"]] = stored
        while len(self._items) > self._limit:
            self._items.popitem(last=False)

    def get(self, response_id: str) -> Stored | None:
        return self._items.get(response_id)

    def delete(self, response_id: str) -> bool:
        return self._items.pop(response_id, None) is not None

    def clear(self) -> None:
        self._items.clear()


@dataclass(frozen=True, slots=True)
class ResponsesChat(ChatRequest):
    """A chat request that came as a Responses request: ``source`` is the original body."""

    source: Mapping[str, Any] = field(default_factory=dict)


# ----- the request -----


def _kind(value: Any) -> str:
    return "an object" if isinstance(value, dict) else "an array" if isinstance(value, list) else type(value).__name__


def _parts(content: Any, where: str) -> str | list[dict[str, Any]]:
    """Responses content parts as chat parts (``input_text``/``output_text`` are text, images stay images)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise RequestError(f"{where}.content must be a string or an array of content parts, not {_kind(content)}")
    parts: list[dict[str, Any]] = []
    for index, part in enumerate(content):
        if not isinstance(part, dict):
            raise RequestError(f"{where}.content[{index}] must be an object")
        kind = part.get("type")
        if kind in ("input_text", "output_text", "text"):
            if not isinstance(part.get("text"), str):
                raise RequestError(f"{where}.content[{index}].text must be a string")
            parts.append({"type": "text", "text": part["text"]})
        elif kind == "input_image":
            parts.append({"type": "image_url", "image_url": {"url": part.get("image_url") or part.get("file_id")}})
        else:
            parts.append(dict(part))
    return parts


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "".join(p.get("text", "") for p in output if isinstance(p, dict) and isinstance(p.get("text"), str))
    return wire.dumps(output)


def input_messages(value: Any) -> list[dict[str, Any]]:
    """``input`` as chat messages: a string is one user message; items are messages, function calls (merged
    into the assistant message before them, as chat carries parallel calls) and function call outputs."""
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    if not isinstance(value, list):
        raise RequestError(f"input must be a string or an array of input items, not {_kind(value)}")
    messages: list[dict[str, Any]] = []
    for index, item in enumerate(value):
        where = f"input[{index}]"
        if not isinstance(item, dict):
            raise RequestError(f"{where} must be an object")
        kind = item.get("type", "message")
        if kind == "message":
            role = item.get("role")
            if role not in ("user", "assistant", "system", "developer"):
                raise RequestError(f"{where}.role must be one of user, assistant, system, developer")
            messages.append({"role": role, "content": _parts(item.get("content", ""), where)})
        elif kind == "function_call":
            for name in ("call_id", "name", "arguments"):
                if not isinstance(item.get(name), str):
                    raise RequestError(f"{where}.{name} must be a string")
            call = wire.tool_call_entry(item["call_id"], item["name"], item["arguments"])
            if messages and messages[-1]["role"] == "assistant":
                previous = messages[-1]
                previous["tool_calls"] = [*previous.get("tool_calls", ()), call]
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif kind == "function_call_output":
            if not isinstance(item.get("call_id"), str):
                raise RequestError(f"{where}.call_id must be a string")
            messages.append(
                {"role": "tool", "tool_call_id": item["call_id"], "content": _output_text(item.get("output"))}
            )
        # Reasoning items, item references and hosted-tool items carry nothing the script reads.
    return messages


def chat_tools(tools: Any) -> list[Any]:
    """Responses function tools (flat: ``{"type":"function","name",...}``) in the chat shape; others kept."""
    if tools is None:
        return []
    if not isinstance(tools, list):
        raise RequestError("tools must be an array")
    converted: list[Any] = []
    for tool in tools:
        if isinstance(tool, dict) and tool.get("type") == "function" and "function" not in tool:
            function = {k: v for k, v in tool.items() if k in ("name", "description", "parameters", "strict")}
            converted.append({"type": "function", "function": function})
        else:
            converted.append(tool)
    return converted


def chat_tool_choice(choice: Any) -> Any:
    if isinstance(choice, dict) and choice.get("type") == "function" and isinstance(choice.get("name"), str):
        return {"type": "function", "function": {"name": choice["name"]}}
    return choice


def parse_request(body: Any, store: ResponseStore, *, profile: str = "", client: str | None = None) -> ResponsesChat:
    """Validate a Responses body and build the chat request the engine answers (400 naming the field)."""
    if not isinstance(body, dict):
        raise RequestError("request body must be a JSON object")
    if "input" not in body and body.get("previous_response_id") is None:
        raise RequestError("input is required")
    instructions = body.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise RequestError("instructions must be a string")
    history: list[dict[str, Any]] = []
    previous_id = body.get("previous_response_id")
    if previous_id is not None:
        if not isinstance(previous_id, str):
            raise RequestError("previous_response_id must be a string")
        previous = store.get(previous_id)
        if previous is None:
            raise RequestError(f"Previous response with id '{previous_id}' not found.")
        history = [dict(m) for m in previous.conversation]
    messages = history + input_messages(body.get("input", []))
    if instructions:
        messages.insert(0, {"role": "system", "content": instructions})
    chat_body: dict[str, Any] = {
        "model": body.get("model", ""),
        "messages": messages,
        "stream": body.get("stream", False),
        "tools": chat_tools(body.get("tools")),
        "tool_choice": chat_tool_choice(body.get("tool_choice")),
        "user": body.get("user", body.get("safety_identifier")),
        "stream_options": {"include_usage": True},  # its stream always ends with the usage
    }
    for ours, theirs in (("max_tokens", "max_output_tokens"), ("seed", "seed"), ("temperature", "temperature")):
        if body.get(theirs) is not None:
            chat_body[ours] = body[theirs]
    text_format = (body.get("text") or {}).get("format") if isinstance(body.get("text"), dict) else None
    if isinstance(text_format, dict) and text_format.get("type") == "json_schema":
        schema = {k: v for k, v in text_format.items() if k in ("name", "schema", "strict", "description")}
        chat_body["response_format"] = {"type": "json_schema", "json_schema": schema}
    elif isinstance(text_format, dict) and text_format.get("type") == "json_object":
        chat_body["response_format"] = {"type": "json_object"}
    chat = ChatRequest.from_body(chat_body, profile=profile, client=client)
    fields = {f.name: getattr(chat, f.name) for f in dataclasses.fields(ChatRequest)}
    return ResponsesChat(**fields, source=body)


# ----- the answer -----


def _usage(usage: Mapping[str, int] | None) -> dict[str, Any] | None:
    if usage is None:
        return None
    return {
        "input_tokens": usage.get("prompt_tokens", 0),
        "input_tokens_details": {"cache_write_tokens": 0, "cached_tokens": 0},
        "output_tokens": usage.get("completion_tokens", 0),
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": usage.get("total_tokens", 0),
    }


_INCOMPLETE = {"length": "max_output_tokens", "content_filter": "content_filter"}


class ResponsesWriter:
    """Builds one response from the answer's events: the typed, numbered stream events, and the final object."""

    def __init__(self, seq: int, source: Mapping[str, Any], *, stream: bool) -> None:
        self._stream = stream
        self._seq = seq
        self._number = 0
        self._buffer = bytearray()
        self._output: list[dict[str, Any]] = []
        self._message: dict[str, Any] | None = None
        self._calls: dict[int, dict[str, Any]] = {}
        self._open_call: dict[str, Any] | None = None
        self._finish: str | None = None
        self._delta_part: dict[str, Any] | None = None  # the part _delta_frame was encoded for
        self._delta_frame = ("", "", "")
        tool_choice = source.get("tool_choice")
        self.response: dict[str, Any] = {
            "id": f"resp_tgfake_{seq}",
            "object": "response",
            "created_at": 0,
            "status": "in_progress",
            "background": False,
            "error": None,
            "incomplete_details": None,
            "instructions": source.get("instructions"),
            "max_output_tokens": source.get("max_output_tokens"),
            "metadata": source.get("metadata") or {},
            "model": "",
            "output": [],
            "parallel_tool_calls": source.get("parallel_tool_calls", True),
            "previous_response_id": source.get("previous_response_id"),
            "store": source.get("store", True) is not False,
            "temperature": source.get("temperature", 1.0),
            "text": source.get("text") or {"format": {"type": "text"}},
            "tool_choice": "auto" if tool_choice is None else tool_choice,
            "tools": source.get("tools") or [],
            "top_p": source.get("top_p", 1.0),
            "truncation": source.get("truncation", "disabled"),
            "usage": None,
            "user": source.get("user"),
        }
        self._usage: dict[str, Any] | None = None

    def _event(self, kind: str, **fields: Any) -> None:
        if not self._stream:
            return
        payload = {"type": kind, "sequence_number": self._number, **fields}
        self._number += 1
        self._buffer += f"event: {kind}\ndata: ".encode() + wire.dumps(payload).encode() + b"\n\n"

    def take(self) -> bytes:
        data = bytes(self._buffer)
        self._buffer.clear()
        return data

    def start(self, envelope: Mapping[str, Any], usage: Mapping[str, int] | None) -> None:
        self.response |= {"created_at": envelope.get("created", 0), "model": envelope.get("model", "")}
        self._usage = _usage(usage)
        self._event("response.created", response=self.response | {"output": []})
        self._event("response.in_progress", response=self.response | {"output": []})

    def _open_message(self) -> dict[str, Any]:
        if self._message is None:
            self._close_call()
            self._message = {
                "content": [],
                "id": f"msg_tgfake_{self._seq}",
                "role": "assistant",
                "status": "in_progress",
                "type": "message",
            }
            self._output.append(self._message)
            self._event("response.output_item.added", output_index=len(self._output) - 1, item=self._message)
        return self._message

    def _part(self, kind: str) -> tuple[dict[str, Any], int]:
        message = self._open_message()
        parts = message["content"]
        if not parts or parts[-1]["type"] != kind:
            self._close_part()
            part = {"annotations": [], "logprobs": [], "text": "", "type": "output_text"}
            if kind == "refusal":
                part = {"refusal": "", "type": "refusal"}
            parts.append(part)
            self._event("response.content_part.added", **self._where(message), content_index=len(parts) - 1, part=part)
        return parts[-1], len(parts) - 1

    def _where(self, item: dict[str, Any]) -> dict[str, Any]:
        return {"item_id": item["id"], "output_index": self._output.index(item)}

    def text(self, delta: str) -> None:
        part, index = self._part("output_text")
        part["text"] += delta
        if not self._stream:
            return
        if part is not self._delta_part:
            # Every delta of one part differs only in its text and number: encode the rest once per part.
            assert self._message is not None
            self._delta_part = part
            item, output = self._message["id"], self._output.index(self._message)
            self._delta_frame = (
                f'event: response.output_text.delta\ndata: {{"content_index":{index},"delta":',
                f',"item_id":{wire.dumps(item)},"logprobs":[],"output_index":{output},"sequence_number":',
                ',"type":"response.output_text.delta"}\n\n',
            )
        head, middle, tail = self._delta_frame
        self._buffer += (head + wire.encode_string(delta) + middle + str(self._number) + tail).encode()
        self._number += 1

    def refusal(self, delta: str) -> None:
        part, index = self._part("refusal")
        part["refusal"] += delta
        assert self._message is not None
        self._event("response.refusal.delta", **self._where(self._message), content_index=index, delta=delta)

    def _close_part(self) -> None:
        message = self._message
        if message is None or not message["content"]:
            return
        index = len(message["content"]) - 1
        part = message["content"][index]
        where = self._where(message) | {"content_index": index}
        if part["type"] == "refusal":
            self._event("response.refusal.done", **where, refusal=part["refusal"])
        else:
            self._event("response.output_text.done", **where, text=part["text"], logprobs=[])
        self._event("response.content_part.done", **where, part=part)

    def _close_message(self) -> None:
        message = self._message
        if message is None or message["status"] != "in_progress":
            return
        self._close_part()
        message["status"] = "completed"
        self._event("response.output_item.done", output_index=self._output.index(message), item=message)

    def tool_start(self, index: int, call_id: str, name: str) -> None:
        self._close_message()
        self._close_call()
        item = {
            "arguments": "",
            "call_id": call_id,
            "id": f"fc_tgfake_{self._seq}_{index + 1}",
            "name": name,
            "status": "in_progress",
            "type": "function_call",
        }
        self._calls[index] = item
        self._open_call = item
        self._output.append(item)
        self._event("response.output_item.added", output_index=len(self._output) - 1, item=item)

    def tool_arguments(self, index: int, delta: str) -> None:
        item = self._calls[index]
        item["arguments"] += delta
        self._event("response.function_call_arguments.delta", **self._where(item), delta=delta)

    def _close_call(self) -> None:
        item = self._open_call
        if item is None:
            return
        self._open_call = None
        item["status"] = "completed"
        self._event("response.function_call_arguments.done", **self._where(item), arguments=item["arguments"])
        self._event("response.output_item.done", output_index=self._output.index(item), item=item)

    def finish(self, reason: str | None) -> None:
        self._finish = reason

    def end(self) -> None:
        if self._finish is not None and not self._output:
            self._part("output_text")  # an empty answer is still a message with one (empty) text part
        self._close_message()
        self._close_call()
        incomplete = _INCOMPLETE.get(self._finish or "")
        self.response |= {
            "output": self._output,
            "status": "incomplete" if incomplete else "completed",
            "incomplete_details": {"reason": incomplete} if incomplete else None,
            "usage": self._usage,
        }
        if incomplete:
            self._event("response.incomplete", response=self.response)
        else:
            self._event("response.completed", response=self.response)
        if not self._stream:
            self._buffer += (wire.dumps(self.response) + "\n").encode()


def conversation_after(chat: ResponsesChat, output: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The conversation a follow-up with ``previous_response_id`` continues: input (instructions left out,
    as the API does not carry them over) and this response's output, as chat messages."""
    messages = [m for i, m in enumerate(chat.messages) if not (i == 0 and chat.source.get("instructions"))]
    reply: dict[str, Any] = {"role": "assistant", "content": None}
    for item in output:
        if item["type"] == "message":
            reply["content"] = "".join(p.get("text", "") for p in item["content"])
        elif item["type"] == "function_call":
            call = wire.tool_call_entry(item["call_id"], item["name"], item["arguments"])
            reply["tool_calls"] = [*reply.get("tool_calls", ()), call]
    return [*messages, reply]


class ResponsesSurface:
    """``/v1/responses`` for :meth:`Model.serve <llmstub.model.Model.serve>`: OpenAI's error shape, typed events."""

    def __init__(self, store: ResponseStore) -> None:
        self.store = store

    def parse(self, body: Any, *, profile: str = "", client: str | None = None) -> ResponsesChat:
        return parse_request(body, self.store, profile=profile, client=client)

    error_body = staticmethod(openai_error)

    @staticmethod
    def error_frame(message: str, error_type: str | None, sent: int) -> bytes:
        payload = {"code": error_type or "server_error", "message": message, "param": None, "sequence_number": sent}
        return b"event: error\ndata: " + wire.dumps(payload | {"type": "error"}).encode() + b"\n\n"

    def render(self, plan: Plan, request: ChatRequest) -> Plan:
        plan.entry.setdefault("extra", {})["endpoint"] = ENDPOINT
        if plan.raw or plan.status >= 400 or not isinstance(request, ResponsesChat):
            return plan
        writer = ResponsesWriter(plan.seq, request.source, stream=plan.streamed)
        render_plan(plan, writer, wire.SSE_CONTENT_TYPE)
        if writer.response["store"]:
            self.store.put(Stored(writer.response, conversation_after(request, writer.response["output"])))
        return plan


def _not_found(response_id: str) -> web.Response:
    # OpenAI's 404 for an unknown response id carries no code (not the status's model_not_found).
    body = wire.error_body(f"Response with id '{response_id}' not found.", type_="invalid_request_error", full=True)
    return json_response(404, body)


async def create_response(model: ServingModel, request: web.Request) -> web.StreamResponse:
    """``POST /v1/responses`` on the model that serves the request, with that model's stored responses."""
    return await model.serve(request, ResponsesSurface(model.state(ResponseStore)))


async def one_response(model: ServingModel, request: web.Request) -> web.StreamResponse:
    """``GET``/``DELETE /v1/responses/{id}`` from the serving model's store."""
    store = model.state(ResponseStore)
    response_id = request.match_info["id"]
    if request.method == "DELETE":
        if not store.delete(response_id):
            return _not_found(response_id)
        return json_response(200, {"deleted": True, "id": response_id, "object": "response"})
    if request.method not in ("GET", "HEAD"):
        return method_not_allowed("GET, HEAD, DELETE")
    stored = store.get(response_id)
    if stored is None:
        return _not_found(response_id)
    return json_response(200, stored.response)
