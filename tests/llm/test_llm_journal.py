"""The journal and the admin routes: log, clear, script replacement, reset."""

from __future__ import annotations

import json

from llmstub import LogEntry
from llmstub.journal import Journal, Record
from tests.llm.llm_support import LlmStand, MakeStand, content

SEQ = [{"name": "seq", "steps": [{"answer": "one"}, {"answer": "two"}]}]


async def test_entries_carry_the_request_and_never_a_header(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=SEQ)
    tools = [{"type": "function", "function": {"name": "t"}}]
    body = {
        "model": "m",
        "user": "u1",
        "tools": tools,
        "tool_choice": "auto",
        "messages": [{"role": "user", "content": "hi"}],
    }
    response = await stand.chat(
        body, headers={"Authorization": "Bearer sk-very-secret", "X-Tgfake-Profile": "p1"}
    )
    answer_text = await response.text()
    log = await stand.log()
    assert (log["count"], log["dropped"], log["calls"]) == (1, 0, 1)
    entry = log["entries"][0]
    assert set(entry) == {
        "seq",
        "at",
        "profile",
        "client",
        "model",
        "stream",
        "messages",
        "tools",
        "tool_choice",
        "rule",
        "rule_index",
        "step",
        "status",
        "response",
        "latency_ms",
        "cancelled",
        "request_id",
    }
    assert entry["request_id"] == response.headers["x-request-id"]
    assert entry["seq"] == 1
    assert entry["at"].endswith("Z")
    assert (entry["profile"], entry["client"], entry["model"], entry["stream"]) == ("p1", "u1", "m", False)
    assert entry["messages"] == body["messages"]
    assert entry["tools"] == tools
    assert entry["tool_choice"] == "auto"
    assert (entry["rule"], entry["rule_index"], entry["step"], entry["status"]) == ("seq", 0, 0, 200)
    assert entry["response"] == answer_text
    assert entry["latency_ms"] >= 0
    assert entry["cancelled"] is False
    raw = await (await stand.client.get("/sim/llm/log")).text()
    assert "sk-very-secret" not in raw
    assert "Authorization" not in raw


async def test_streamed_entries_record_the_whole_stream(llm: LlmStand) -> None:
    response = await llm.chat({"stream": True, "messages": [{"role": "user", "content": "a b"}]})
    text = await response.text()
    entry = (await llm.log())["entries"][0]
    assert entry["stream"] is True
    assert entry["response"] == text
    assert entry["rule"] is None
    assert entry["step"] == -1


async def test_delete_log_clears_entries_but_not_counters_or_cursors(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=SEQ)
    await stand.say("x")
    response = await stand.client.delete("/sim/llm/log")
    assert response.status == 200
    assert await response.json() == {"ok": True}
    assert await stand.log() == {"calls": 1, "count": 0, "dropped": 0, "entries": []}
    answer = await stand.say("x")
    assert content(answer) == "two"
    assert answer["id"] == "chatcmpl-tgfake-2"


async def test_put_script_replaces_rules_and_rewinds_cursors_keeping_journal(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=SEQ, answers=["first", "second"])
    await stand.say("x")  # seq step 0
    new_script = [{"name": "seq", "steps": [{"answer": "uno"}]}, {"match": "legacy", "answer": "old"}]
    response = await stand.client.put("/sim/llm/script", data=json.dumps(new_script))
    assert response.status == 200
    assert await response.json() == {"ok": True, "rules": 2}
    answer = await stand.say("x")
    assert content(answer) == "uno"
    assert answer["id"] == "chatcmpl-tgfake-2"
    assert (await stand.log())["count"] == 2
    assert [r.name for r in stand.model.rules] == ["seq", None]


async def test_put_script_refuses_bad_scripts_and_keeps_the_old_one(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=SEQ)
    cases = {
        "nope": "invalid JSON",
        '{"match": "x"}': "the script must be a JSON list of rules, got an object",
        '[{"name": "bad", "steps": [{"raw_body": "x"}]}]': (
            "rules[0] ('bad').steps.0: raw_body requires negative: true"
        ),
        '[{"match": "x", "anwser": "typo"}]': "rules[0].anwser: Extra inputs are not permitted",
    }
    for body, message in cases.items():
        response = await stand.client.put("/sim/llm/script", data=body)
        assert response.status == 400
        error = (await response.json())["error"]
        assert error.startswith(message), error
    assert content(await stand.say("x")) == "one"


async def test_reset_clears_journal_rewinds_sequences_and_rotation_keeping_ids(make_llm: MakeStand) -> None:
    stand = await make_llm(
        rules=[{"model": "s", "name": "seq", "steps": [{"answer": "one"}]}], answers=["a", "b"]
    )
    await stand.chat_json({"model": "s"})
    assert content(await stand.say("x")) == "a"
    response = await stand.client.post("/sim/llm/reset")
    assert response.status == 200
    assert await response.json() == {"ok": True}
    assert await stand.log() == {"calls": 2, "count": 0, "dropped": 0, "entries": []}
    assert content(await stand.chat_json({"model": "s"})) == "one"
    answer = await stand.say("x")
    assert content(answer) == "a"
    assert answer["id"] == "chatcmpl-tgfake-4"
    assert [r.name for r in stand.model.rules] == ["seq"]  # no reset changes the script


async def test_python_api_mirrors_the_routes(make_llm: MakeStand) -> None:
    stand = await make_llm(answers=["a", "b"])
    model = stand.model
    await stand.say("x")
    entries = model.log()
    assert [e.seq for e in entries] == [1]
    assert isinstance(entries[0], LogEntry)
    model.clear_log()
    assert model.log() == []
    assert model.calls == 1
    model.set_rules([{"match": "", "answer": "ruled"}])
    assert content(await stand.say("x")) == "ruled"
    model.reset()
    assert model.log() == []
    assert model.rules[0].answer == "ruled"


async def test_the_journal_keeps_the_newest_1000_and_counts_the_dropped(make_llm: MakeStand) -> None:
    stand = await make_llm(answers=["a"])
    for _ in range(1003):
        await stand.chat({"messages": []})
    log = await stand.log()
    assert (log["count"], log["dropped"], log["calls"]) == (1000, 3, 1003)
    assert [e["seq"] for e in log["entries"]] == list(range(4, 1004))


def _entry(seq: int) -> Record:
    return {
        "seq": seq,
        "at": 0.0,
        "profile": "",
        "client": "",
        "model": "",
        "stream": False,
        "messages": [],
        "tools": [],
        "tool_choice": None,
        "rule": None,
        "rule_index": None,
        "step": -1,
        "status": 200,
        "response": b"",
        "latency_ms": 0.0,
    }


def test_journal_orders_by_reservation_and_drops_the_earliest_reserved_first() -> None:
    journal = Journal(limit=3)
    for seq in (2, 3, 4, 1):  # 1 was reserved first and finished last
        journal.add(_entry(seq))
    assert [e.seq for e in journal.entries()] == [2, 3, 4]
    assert journal.dropped == 1
    journal.add(_entry(5))
    assert [e.seq for e in journal.entries()] == [3, 4, 5]
    assert journal.dropped == 2
    journal.clear()
    assert (journal.entries(), journal.dropped) == ([], 0)
