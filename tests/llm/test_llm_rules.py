"""Script validation: every error names the rule (index and name) and the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from llmstub import Model, ModelOptions, Rule, RulesError, load_rules_file, parse_rules
from llmstub.text import split_pieces, strip_tags


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"match": "x"}, "the script must be a JSON list of rules, got an object"),
        (["x"], "rules[0]: a rule must be a JSON object"),
        ([{"match": 1}], "rules[0].match: Input should be a valid string"),
        ([{}, {"name": "b", "answr": "typo"}], "rules[1] ('b').answr: Extra inputs are not permitted"),
        ([{"tool": {"arguments": {}}}], "rules[0].tool.name: Field required"),
        (
            [{"tool": {"name": "t", "arguments": "{}"}}],
            "rules[0].tool.arguments: Input should be a valid dictionary",
        ),
        ([{"name": "s", "steps": []}], "rules[0] ('s'): steps must not be empty"),
        ([{"repeat_last": True, "answer": "x"}], "rules[0]: repeat_last needs steps"),
        (
            [{"name": "s", "answer": "a", "steps": [{"answer": "b"}]}],
            "rules[0] ('s'): a rule with steps answers from its steps; drop answer, tool, refusal and finish_reason",
        ),
        (
            [{"model": "m", "answer": "a", "tool": {"name": "t"}}],
            "rules[0]: a filtered rule without steps returns its answer or its tool on every match, not both",
        ),
        ([{"steps": [{"raw_body": "x"}]}], "rules[0].steps.0: raw_body requires negative: true"),
        ([{"steps": [{"empty_choices": True}]}], "rules[0].steps.0: empty_choices requires negative: true"),
        (
            [{"tools": ["t"], "steps": [{"tool_calls": [{"name": "t", "raw_arguments": "{"}]}]}],
            "rules[0].steps.0: tool 't': raw_arguments requires negative: true",
        ),
        (
            [{"name": "a", "steps": [{"answer": "x"}, {"tool_calls": [{"name": "gen"}]}]}],
            "rules[0] ('a'): steps[1]: tool 'gen' is not offered: list it in the rule's tools filter",
        ),
        (
            [{"steps": [{"status": 700}]}],
            "rules[0].steps.0.status: Input should be less than or equal to 599",
        ),
        (
            [{"steps": [{"delay_ms": -1}]}],
            "rules[0].steps.0.delay_ms: Input should be greater than or equal to 0",
        ),
        (
            [{"steps": [{"status": 429, "tool_calls": [{"name": "t"}], "negative": True}]}],
            "rules[0].steps.0: status 429 answers with an error object",
        ),
        (
            [{"steps": [{"negative": True, "raw_body": "x", "answer": "y"}]}],
            "rules[0].steps.0: raw_body is the whole response body; drop answer",
        ),
        (
            [
                {
                    "steps": [
                        {
                            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                            "omit_usage": True,
                        }
                    ]
                }
            ],
            "rules[0].steps.0: usage and omit_usage: true contradict each other",
        ),
        (
            [{"steps": [{"usage": {"prompt_tokens": 1}}]}],
            "rules[0].steps.0.usage.completion_tokens: Field required",
        ),
        (
            [
                {
                    "steps": [
                        {
                            "tool_calls": [{"name": "t", "arguments": {}, "raw_arguments": "{}"}],
                            "negative": True,
                        }
                    ]
                }
            ],
            "rules[0].steps.0.tool_calls.0: set arguments (a JSON object) or raw_arguments (exact text)",
        ),
    ],
)
def test_invalid_scripts_name_the_rule_and_field(rules: Any, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(rules)
    assert str(caught.value).startswith(message), str(caught.value)


def test_negative_permits_an_unoffered_tool_and_raw_parts() -> None:
    rules = parse_rules(
        [
            {
                "name": "neg",
                "steps": [
                    {"negative": True, "tool_calls": [{"name": "nowhere", "raw_arguments": "{"}]},
                    {"negative": True, "raw_body": "", "status": 502},
                    {"negative": True, "empty_choices": True, "omit_usage": True},
                ],
            }
        ]
    )
    assert rules[0].sequenced


def test_rule_models_raise_pydantic_errors_naming_the_field() -> None:
    with pytest.raises(ValidationError) as caught:
        Rule.model_validate({"match": "x", "steps": [{"answer": 3}]})
    assert caught.value.errors()[0]["loc"] == ("steps", 0, "answer")


def test_model_options_rules_are_validated() -> None:
    with pytest.raises(RulesError, match=r"rules\[0\]\.tool\.name: Field required"):
        Model(ModelOptions(rules=[{"tool": {}}]))
    model = Model(ModelOptions(rules=[Rule(match="a", answer="b"), {"match": "c"}]))
    assert [r.match for r in model.rules] == ["a", "c"]
    with pytest.raises(RulesError):
        model.set_rules([{"steps": "x"}])
    assert [r.match for r in model.rules] == ["a", "c"]


def test_load_rules_file_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    with pytest.raises(RulesError, match=rf"^{missing}: No such file or directory$"):
        load_rules_file(missing)
    broken = tmp_path / "broken.json"
    broken.write_text("[{")
    with pytest.raises(RulesError, match=rf"^{broken}: invalid JSON: "):
        load_rules_file(broken)
    invalid = tmp_path / "invalid.json"
    invalid.write_text('[{"match": "x", "answer": 1}]')
    with pytest.raises(RulesError, match=rf"^{invalid}: rules\[0\]\.answer: Input should be a valid string"):
        load_rules_file(invalid)
    good = tmp_path / "good.json"
    good.write_text('[{"match": "weather", "tool": {"name": "get_weather", "arguments": {"city": "Paris"}}}]')
    assert load_rules_file(good)[0].tool is not None


@pytest.mark.parametrize(
    ("text", "words", "pieces"),
    [
        ("one two three", 1, ["one ", "two ", "three"]),
        ("one two three", 2, ["one two ", "three"]),
        ("a\nb", 1, ["a\n", "b"]),
        ("", 1, []),
        ("solo", 3, ["solo"]),
        ("  lead  trail  ", 1, ["  lead  ", "trail  "]),
        ("a\r\nb", 1, ["a\r\n", "b"]),
        ("x y", 0, ["x ", "y"]),
    ],
)
def test_split_pieces_vectors(text: str, words: int, pieces: list[str]) -> None:
    assert split_pieces(text, words) == pieces
    assert "".join(pieces) == text


def _pieces_by_characters(text: str, words: int) -> list[str]:
    """The definition, one character at a time: a new piece starts at every ``words``-th word's first letter."""
    pieces: list[str] = []
    start = count = 0
    previous_space = True
    for index, char in enumerate(text):
        space = char in " \n\t"
        if previous_space and not space:
            if count == max(1, words):
                pieces.append(text[start:index])
                start, count = index, 0
            count += 1
        previous_space = space
    return [*pieces, text[start:]] if start < len(text) else pieces


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(" \n\t\rab\u00e9\U0001f600"), max_size=60), st.integers(0, 4))
def test_split_pieces_equals_the_character_definition(text: str, words: int) -> None:
    assert split_pieces(text, words) == _pieces_by_characters(text, words)


def test_strip_tags_vectors() -> None:
    assert strip_tags("before <t>x</t> after", ["t"]) == "before  after"
    assert strip_tags("open <t> never closed", ["t"]) == "open "
    assert strip_tags("<t>a</t><t>b</t>c<u>d</u>", ["t"]) == "c<u>d</u>"
    assert strip_tags("<t>a</t>", []) == "<t>a</t>"
