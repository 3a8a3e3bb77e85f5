"""What differs from run to run in a bot's calls and a chat's transcript, and the same text with it normalised.

One place for the recorded conversations of ``tgfake replay`` (:mod:`tgfake.record`) and the transcript snapshots
of the testing client (:mod:`tgfake.testing.snapshots`): dates read ``<date>``, message, update and file ids
``<id>``, JSON-valued parameters (``reply_markup``) compared by their content.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["VOLATILE", "call_lines", "normal"]

VOLATILE = frozenset(
    {
        "date",
        "edit_date",
        "message_id",
        "reply_to_message_id",
        "update_id",
        "file_id",
        "file_unique_id",
        "offset",
        "draft_id",
        "callback_query_id",
        "inline_query_id",
    }
)
"""Fields whose values differ from run to run: compared as ``<date>``/``<id>``, wherever they sit."""


def normal(value: Any, volatile: frozenset[str] = VOLATILE, key: str = "") -> Any:
    """``value`` with every volatile field (at any depth, also inside JSON text) replaced by ``<date>``/``<id>``."""
    if key in volatile:
        return "<date>" if "date" in key else "<id>"
    if isinstance(value, Mapping):
        return {k: normal(v, volatile, k) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [normal(v, volatile) for v in value]
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return normal(json.loads(value), volatile)
        except ValueError:
            return value
    return value


def call_lines(
    calls: Iterable[Mapping[str, Any]],
    *,
    ignore_methods: Iterable[str] = (),
    ignore_fields: Iterable[str] = (),
) -> list[str]:
    """One line per compared call: ``method {normalised params}`` (the answer is the stand's, not compared)."""
    skipped = {m.lower() for m in ignore_methods}
    volatile = VOLATILE | frozenset(ignore_fields)
    lines = []
    for call in calls:
        method = str(call["method"])
        if method.lower() in skipped:
            continue
        params = {k: v for k, v in (call.get("params") or {}).items() if k not in ignore_fields}
        lines.append(f"{method} {json.dumps(normal(params, volatile), ensure_ascii=False, sort_keys=True)}")
    return lines


