"""llmstub: a scripted OpenAI-compatible model served under /v1 (mounted by ``tgfake --llm``).

Mount it on any aiohttp application::

    app = web.Application()
    Model(ModelOptions(rules=[{"match": "ping", "answer": "pong"}])).register(app)

``ModelOptions(mode="echo" | "random")`` answers what no rule covers with generated text
(:mod:`llmstub.generate`); ``register`` also mounts ``POST /v1/completions``, the Responses API
(:mod:`llmstub.responses`), Anthropic Messages (:mod:`llmstub.anthropic`) and the fixture routes.
"""

from __future__ import annotations

from .engine import ChatRequest, Reply, echo_reply
from .headers import PROFILE_HEADER, check_client_header
from .journal import LogEntry
from .model import DEFAULT_MODEL, MODEL_KEY, REQUEST_ID, REQUEST_MODEL, Model, ModelOptions, request_id
from .modes import MODES, ModeName
from .rules import Fault, LegacyTool, Rule, RulesError, Step, StepToolCall, Usage, load_rules_file, parse_rules

__all__ = [
    "DEFAULT_MODEL",
    "MODEL_KEY",
    "MODES",
    "PROFILE_HEADER",
    "REQUEST_ID",
    "REQUEST_MODEL",
    "ChatRequest",
    "Fault",
    "LegacyTool",
    "LogEntry",
    "ModeName",
    "Model",
    "ModelOptions",
    "Reply",
    "Rule",
    "RulesError",
    "Step",
    "StepToolCall",
    "Usage",
    "check_client_header",
    "echo_reply",
    "load_rules_file",
    "parse_rules",
    "request_id",
]
