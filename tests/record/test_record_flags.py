"""The ``--llm-record*`` flags through the command (exit 1 and the words on stderr), and the ``pieces`` a
recording writes into a step, checked when a script is loaded."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from llmstub.cli import add_arguments, model_from_args
from llmstub.record import RecordingModel
from llmstub.rules import RulesError, parse_rules_json
from tgfake.cli import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--llm-record-mode", "all"], "--llm-record-mode configures the scripted model, which only --llm serves"),
        (["--llm", "--llm-record-file", "r.json"], "--llm-record-file needs --llm-record URL or --llm-record-anthro"),
        (["--llm", "--llm-record", "api.openai.com"], 'invalid value "api.openai.com" for flag --llm-record: give an'),
        (["--llm", "--llm-record", "http://127.0.0.1:9/v1"], "--llm-record needs --llm-record-file FILE"),
        (
            ["--llm", "--llm-record", "http://h/v1", "--llm-record-file", "r.json", "--llm-record-mode", "some"],
            'invalid value "some" for flag --llm-record-mode: choose new or all',
        ),
        (
            ["--llm", "--llm-record", "http://h/v1", "--llm-record-file", "r.json", "--llm-record-match", "prompt,key"],
            "--llm-record-match: choose among prompt, model, tools, system, profile (comma-separated), not 'prompt,k",
        ),
        (
            ["--llm", "--llm-record", "http://h/v1", "--llm-record-file", "r.json", "--llm-script", "s.json"],
            "--llm-script and --llm-record-file both name the rules",
        ),
    ],
)
def test_bad_record_flags_stop_the_command(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    assert capsys.readouterr().err.startswith(f"tgfake: {message}")


def test_a_broken_recording_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text('[{"match": "a", "steps": [{"answer": "ab", "pieces": ["a"]}]}]')
    assert main(["--llm", "--llm-record", "http://h/v1", "--llm-record-file", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"tgfake: {path}: rules[0].steps.0: pieces must join to the answer (or the refusal) they stream\n"


def test_the_flags_build_a_recording_model(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(
        ["--llm-record", "http://h/v1", "--llm-record-file", str(tmp_path / "r.json"), "--llm-record-match", "prompt"]
    )
    model = model_from_args(args)
    assert isinstance(model, RecordingModel)
    assert model.record_options is not None
    assert model.record_options.match == ("prompt",)
    assert model.record_options.mode == "new"


def test_pieces_must_join_to_the_answer() -> None:
    rules = parse_rules_json('[{"steps": [{"answer": "one two", "pieces": ["one ", "two"]}]}]')
    assert rules[0].steps is not None
    assert rules[0].steps[0].pieces == ["one ", "two"]
    with pytest.raises(RulesError) as caught:
        parse_rules_json('[{"steps": [{"answer": "one two", "pieces": ["one"]}]}]')
    assert str(caught.value) == "rules[0].steps.0: pieces must join to the answer (or the refusal) they stream"


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ('[{"match": "a", "embedding": []}]', "rules[0].embedding: List should have at least 1 item after validation"),
        (
            '[{"match": "a", "embedding": [0.5], "flag": []}]',
            "rules[0]: flag answers moderations and embedding embeddings: one rule does one",
        ),
        ('[{"match": "a", "embedding": [0.5], "answer": "x"}]', "rules[0]: a embedding rule matches with match and"),
    ],
)
def test_an_embedding_rule_is_checked_when_loaded(script: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules_json(script)
    assert str(caught.value).startswith(message), str(caught.value)
