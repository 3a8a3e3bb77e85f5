"""schemathesis over ``GET /sim/openapi.json``: generated requests (schemathesis's coverage phase, its edge and
wrong-typed values, then hypothesis examples) to every documented operation of the ``tgfake --llm`` command,
each answer checked: no 5xx, its status documented, its body, content type and headers as documented, and a
request the document forbids refused."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings

EXAMPLES = 5
"""Hypothesis examples per operation, after the coverage phase's own (about 70 per operation in all); derandomized,
so a run in CI sends what the last run sent (raise it, or drop ``derandomize``, to explore further by hand)."""
EXCLUDED = [
    # A schema-valid request the world refuses (no such chat, a person needs a name) is a documented 4xx.
    schemathesis.checks.positive_data_acceptance,
    # A sim path called with another method falls through to the Bot API's 404, as in the reference stand.
    schemathesis.checks.unsupported_method,
]
WAIT = 0.05
"""The server-held waits run on real time: every generated timeout is cut to this."""


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    """The shipped command in its own process (its own GIL: the fuzzer and the server do not share one)."""
    command = [sys.executable, "-m", "tgfake", "--addr", "127.0.0.1:0", "--llm", "--max-sessions", "8"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as proc:
        assert proc.stdout is not None
        banner = proc.stdout.readline()
        drain = threading.Thread(target=proc.stdout.read, daemon=True)  # keep the pipe from filling up
        drain.start()
        try:
            assert " at http://" in banner, banner
            yield banner.split(" at ", 1)[1].split()[0]
        finally:
            proc.terminate()
            proc.wait(10)
            drain.join(10)


@pytest.fixture(scope="module")
def api(origin: str) -> schemathesis.BaseSchema:
    # No requests with undocumented methods: a sim path answers those with the Bot API's 404 (see EXCLUDED).
    config = schemathesis.Config.from_dict({"phases": {"coverage": {"unexpected-methods": []}}})
    return schemathesis.openapi.from_url(origin + "/sim/openapi.json", config=config)


schema = schemathesis.pytest.from_fixture("api")
SESSION = requests.Session()  # one keep-alive connection for every generated request


def _short(value: Any) -> Any:
    """A timeout cut to :data:`WAIT` (an unparsable one kept, so its refusal is still checked)."""
    if isinstance(value, list):
        return [_short(v) for v in value]
    if value is None or value == "":  # none or empty: the server's default, 5 s
        return WAIT
    try:
        return min(float(value), WAIT)
    except (TypeError, ValueError):
        return value


@schema.parametrize()
@pytest.mark.timeout(900)  # one test item for every operation (about 5,900 requests: 85 s here, more on a busy machine)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_operation(case: schemathesis.Case[Any]) -> None:
    if any(p.name == "timeout" for p in case.operation.query):
        case.query = {**(case.query or {}), "timeout": _short((case.query or {}).get("timeout"))}
    case.call_and_validate(session=SESSION, excluded_checks=EXCLUDED)
