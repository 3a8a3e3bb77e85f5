"""Random mode with a SQLite dataset: hash matching, trimming, padding, fallback; the builder command."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from llmstub.generate import Dataset, DatasetError, Generated, count_tokens, generate_answer
from llmstub.generate.conversations import EXAMPLE_SOURCE, build

TESTS_ANSWERS = {
    "Run python -m pytest -q from the project root. The suite is fast, needs no network and starts its own "
    "stand for every test.",  # 29 tokens
    "Use pytest: it finds the tests under tests/ and runs them against an in-process stand.",  # 20 tokens
}
ALL_RESPONSES = {
    m["content"] if "messages" in c else c["response"]
    for c in json.loads(EXAMPLE_SOURCE.read_text(encoding="utf-8"))
    for m in c.get("messages", [{"role": "assistant"}])
    if m["role"] == "assistant"
} - {None}


def answer(dataset: Dataset, seed: int, **request: object) -> Generated:
    result = generate_answer(mode="random", dataset=dataset, seed=seed, **request)  # type: ignore[arg-type]
    assert isinstance(result, Generated), result
    return result


def test_a_hit_is_a_stored_answer_trimmed_to_the_sampled_length(example_dataset: Dataset) -> None:
    question = [{"role": "user", "content": "How do I run   the tests?"}]  # extra spaces still match
    seen = set()
    for seed in range(60):
        got = answer(example_dataset, seed, messages=question, max_tokens=40)
        assert any(full.startswith(got.text) for full in TESTS_ANSWERS), got.text
        assert got.completion_tokens == count_tokens(got.text) <= 40
        seen.add(got.text)
    assert seen >= TESTS_ANSWERS  # both recorded answers come back whole when the sample is long enough
    assert len(seen) > len(TESTS_ANSWERS)  # and trimmed prefixes when it is shorter


def test_a_hit_on_a_short_answer_is_padded_only_with_ignore_eos(example_dataset: Dataset) -> None:
    full = "One, two, three, four, five."  # 10 tokens
    texts = {answer(example_dataset, seed, prompt="Count to five.", max_tokens=30).text for seed in range(40)}
    assert full in texts  # samples above 10 tokens get the whole answer, never more
    assert all(full.startswith(text) for text in texts)
    padded = answer(example_dataset, 1, prompt="Count to five.", max_tokens=30, ignore_eos=True)
    assert padded.text.startswith("One, two, three, four, five. ")
    assert padded.completion_tokens == count_tokens(padded.text) == 30
    assert padded.finish_reason == "length"


def test_a_miss_takes_a_dataset_answer_within_the_limit(example_dataset: Dataset) -> None:
    for seed in range(40):
        got = answer(example_dataset, seed, prompt="Something nobody asked before", max_tokens=25)
        assert got.text in ALL_RESPONSES
        assert got.completion_tokens <= 25


def test_multi_turn_conversations_match_on_the_whole_history(example_dataset: Dataset) -> None:
    history = [
        {"role": "system", "content": "You are a terse assistant."},
        {"role": "user", "content": "Say hello."},
        {"role": "assistant", "content": "Hello."},
        {"role": "user", "content": "Now say it in French."},
    ]
    assert answer(example_dataset, 0, messages=history, max_tokens=2, ignore_eos=True).text == "Bonjour."


def test_the_builder_command(tmp_path: Path) -> None:
    out = tmp_path / "made.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "llmstub.generate.dataset", "build", str(EXAMPLE_SOURCE), str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wrote 9 conversations to {out}\n"
    db = sqlite3.connect(out)
    assert dict(db.execute("SELECT key, value FROM meta")) == {"schema": "1", "tokenizer": "tgfake-regex-v1"}
    rows = db.execute("SELECT prompt, response, response_tokens FROM conversations ORDER BY id").fetchall()
    db.close()
    assert rows[0][1].startswith("tgfake is a test stand")
    assert rows[0][2] == count_tokens(rows[0][1])
    assert json.loads(rows[2][0])[-1] == {"role": "user", "content": "Now say it in French."}


def test_the_builder_names_what_is_wrong(tmp_path: Path) -> None:
    source = tmp_path / "bad.json"
    source.write_text('[{"messages": [{"content": "no role"}]}]')
    done = subprocess.run(
        [sys.executable, "-m", "llmstub.generate.dataset", "build", str(source), str(tmp_path / "x.sqlite")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "error: conversation 0: every message needs a string 'role'\n"
    with pytest.raises(DatasetError, match="no assistant answer"):
        build([{"prompt": "hi", "response": "   "}], tmp_path / "y.sqlite")


def test_opening_something_that_is_not_a_dataset(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="does not exist"):
        Dataset(tmp_path / "missing.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(DatasetError, match="is not a tgfake dataset"):
        Dataset(junk)
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.executescript("CREATE TABLE meta (key TEXT, value TEXT); CREATE TABLE conversations (id INTEGER);")
    db.close()
    with pytest.raises(DatasetError, match="rebuild it with"):
        Dataset(other)
