"""One set of handlers: any request under ``/s/<id>/`` is answered exactly as the same request at the root.

The root and a session start as equal worlds (same options, same manual clock); hypothesis sends the same random
request (path, verb, body) to both, in the same order, and the two answers must be byte for byte the same.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.bdd.stand_thread import ThreadedStand
from tgfake.options import Options

SEGMENTS = [
    "sim", "bot1:x", "bot2:y", "getMe", "sendMessage", "getUpdates", "chat", "4242", "-100", "outbox", "count",
    "state", "chats", "file", "file_1", "clock", "fault", "reset", "message", "callback", "webhook", "chats",
    "members", "bots", "v1", "models", "", "%20", "x%2Fy", "%F0%9F%99%82",
]  # fmt: skip
NOT_ROUTED_ALIKE = {"s", "sessions", "wait"}  # nested prefixes, the shared registry, and held waits

segment = st.sampled_from(SEGMENTS) | st.text("abc:_-.019", min_size=1, max_size=6)
paths = st.lists(segment, min_size=0, max_size=4).filter(lambda parts: not NOT_ROUTED_ALIKE & set(parts))
queries = st.sampled_from(["", "?format=text", "?method=getMe", "?chat_id=4242&text=hi", "?bot=nobody", "?since=x"])
bodies = st.sampled_from([None, b"", b"{}", b'{"text":"hi"}', b'{"advance":5}', b"[", b'{"chat_id":4242,"text":"x"}'])


@pytest.fixture(scope="module")
def stand() -> Iterator[ThreadedStand]:
    server = ThreadedStand(Options(poll_max=0.01)).start()
    try:
        assert server.request("POST", "/sim/sessions", b'{"id":"p"}', "application/json")[0] == 200
        yield server
    finally:
        server.stop()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=paths, query=queries, verb=st.sampled_from(["GET", "POST", "DELETE", "PUT"]), body=bodies)
def test_a_session_answers_as_the_root_does(
    stand: ThreadedStand, parts: list[str], query: str, verb: str, body: bytes | None
) -> None:
    path = "/" + "/".join(parts) + query
    ctype = "application/json" if body is not None else ""
    at_root = stand.request(verb, path, body, ctype)
    in_session = stand.request(verb, "/s/p" + path, body, ctype)
    assert in_session == at_root
    assert at_root[0] < 500
