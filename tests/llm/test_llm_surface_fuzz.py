"""Whatever JSON a client sends to /v1/responses or /v1/messages, the surface refuses it with a 400 message
(:class:`RequestError`) or answers it: parsing, reserving and rendering never raise anything else."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from llmstub import Model, ModelOptions
from llmstub.anthropic import MessagesSurface
from llmstub.engine import RequestError
from llmstub.responses import ResponsesSurface, ResponseStore

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
KEYS = ["model", "input", "instructions", "tools", "tool_choice", "stream", "previous_response_id", "text"]
KEYS += ["messages", "system", "max_tokens", "metadata", "role", "content", "type", "call_id", "output"]
bodies = st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6) | json_values
items = st.lists(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5), max_size=3)
MODEL = Model(ModelOptions(rules=[{"match": "", "answer": "fine", "tool": {"name": "t"}}]))


def answer(surface: Any, body: Any) -> None:
    try:
        chat = surface.parse(body)
    except RequestError:
        return
    surface.render(MODEL.engine.reserve(chat), chat)


@settings(max_examples=120, deadline=None)
@given(bodies, items)
def test_responses_requests_never_crash(body: Any, input_items: list[dict[str, Any]]) -> None:
    surface = ResponsesSurface(ResponseStore())
    answer(surface, body)
    answer(surface, {"input": input_items, "stream": True})


@settings(max_examples=120, deadline=None)
@given(bodies, items)
def test_messages_requests_never_crash(body: Any, messages: list[dict[str, Any]]) -> None:
    surface = MessagesSurface()
    answer(surface, body)
    answer(surface, {"model": "c", "max_tokens": 5, "messages": messages, "stream": True})
