"""``--verbose`` lines: the reference stand's text format, or JSON lines for machines."""

from __future__ import annotations

import io
import json

from tgfake.logging import call_logger
from tgfake.stand import Call


def sample() -> Call:
    params = {"text": "line one\nline two " + "x" * 80, "chat_id": "4242"}
    return Call(seq=1, at=1_700_000_000.0, method="sendMessage", params=params, status=200, body=b"{}")


def test_text_line_sorts_params_and_cuts_long_values() -> None:
    out = io.StringIO()
    call_logger("text", out)(sample())
    line = out.getvalue()
    assert line.endswith("\n")
    stamp, rest = line[:19], line[20:].rstrip("\n")
    assert stamp.count("/") == 2
    assert stamp.count(":") == 2
    cut = ("line one\\nline two " + "x" * 80).encode()[:80].decode()
    assert rest == f"sendMessage 200 chat_id=4242 text={cut}…"


def test_json_lines() -> None:
    out = io.StringIO()
    call_logger("json", out)(sample())
    record = json.loads(out.getvalue())
    assert (record["method"], record["status"], record["params"]["chat_id"]) == ("sendMessage", 200, "4242")
    assert record["time"].startswith("2023-11-1")
