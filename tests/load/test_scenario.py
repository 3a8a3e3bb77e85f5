"""Scenario files: YAML and JSON read the same, a scenario reads back from its own JSON (property), and anything
else is refused with a ScenarioError that says what and where (never another exception)."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tgfake.load.scenario import DEFAULT, KINDS, Action, Scenario, ScenarioError, fill, load_file, parse

YAML = """
start: /start
think: 1.5
groups: 0.25
actions:
  - text: "hello {name}, {words}"
    weight: 5
  - command: help
  - tap: {}
  - press: {}
  - photo: {caption: look}
  - join: {}
  - leave: {}
  - block: {}
    weight: 0.1
"""


def test_yaml_and_json_files_read_the_same(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(YAML)
    from_yaml = load_file(tmp_path / "s.yaml")
    (tmp_path / "s.json").write_text(json.dumps(from_yaml.json()))
    assert load_file(tmp_path / "s.json") == from_yaml
    assert from_yaml.start == ("/start",)
    assert (from_yaml.think, from_yaml.groups) == (1.5, 0.25)
    assert [a.kind for a in from_yaml.actions] == list(KINDS)
    assert from_yaml.actions[1] == Action("command", 1.0, "/help", "any")
    assert from_yaml.actions[5].where == "group"
    assert from_yaml.actions[7] == Action("block", 0.1, "", "private")


def test_no_scenario_is_the_default() -> None:
    assert parse(None) == parse({}) == DEFAULT
    assert DEFAULT.start == ("/start",)
    assert [a.kind for a in DEFAULT.actions] == ["text"]


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ([], "a scenario is a mapping"),
        ({"speed": 1}, "unknown key 'speed'"),
        ({"think": -1}, "think must be a number of at least 0"),
        ({"groups": 2}, "groups is a share of the acts, 0 to 1, not 2"),
        ({"actions": []}, "actions must be a non-empty list"),
        ({"actions": [{"text": "a", "command": "/b"}]}, "actions[0]: exactly one of"),
        ({"actions": [{"text": ""}]}, "actions[0].text must be a non-empty text"),
        ({"actions": [{"text": "a"}, {"tap": {}, "weight": 0}]}, "actions[1].weight must be positive"),
        ({"actions": [{"join": {}, "where": "private"}]}, "actions[0]: join is done in a group"),
        ({"actions": [{"tap": {}, "where": "moon"}]}, "actions[0].where must be one of any, private, group"),
        ({"actions": [{"photo": {"size": 3}}]}, "actions[0].photo takes only a caption"),
        ({"start": [""]}, "start must be a text or a list of texts"),
    ],
)
def test_bad_scenarios_say_what_and_where(raw: Any, words: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse(raw)
    assert words in str(caught.value)


def test_a_file_that_is_not_yaml_is_refused_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("actions: [text: {")
    with pytest.raises(ScenarioError, match=r"bad\.yaml: not YAML"):
        load_file(bad)
    with pytest.raises(ScenarioError, match=r"missing\.json"):
        load_file(tmp_path / "missing.json")


def test_patterns_fill_in_names_words_and_numbers() -> None:
    text = fill("hi {name}: {word} {n} {words}", "Ada", random.Random(1))
    head, _, rest = text.partition(": ")
    assert head == "hi Ada"
    word, number, *words = rest.split()
    assert word.isalpha()
    assert number.isdigit()
    assert 1 <= len(words) <= 5


texts = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=20).filter(str.strip)
actions = st.builds(
    lambda kind, weight, text, where: parse({"actions": [_raw(kind, weight, text, where)]}).actions[0],
    st.sampled_from(KINDS),
    st.floats(min_value=0.01, max_value=100, allow_nan=False),
    texts,
    st.sampled_from(["any", "private", "group"]),
)


def _raw(kind: str, weight: float, text: str, where: str) -> dict[str, Any]:
    value: Any = text if kind in ("text", "command") else ({"caption": text} if kind == "photo" else {})
    out = {kind: value, "weight": weight}
    if kind not in ("join", "leave", "block"):
        out["where"] = where
    return out


@given(
    st.builds(
        Scenario,
        st.lists(texts, min_size=1, max_size=3).map(tuple),
        st.floats(min_value=0, max_value=60, allow_nan=False),
        st.floats(min_value=0, max_value=1, allow_nan=False),
        st.lists(actions, min_size=1, max_size=6).map(tuple),
    )
)
def test_a_scenario_reads_back_from_its_json(scenario: Scenario) -> None:
    assert parse(json.loads(json.dumps(scenario.json()))) == scenario


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12))  # fmt: skip
def test_anything_else_is_a_scenario_or_a_scenario_error(raw: Any) -> None:
    with contextlib.suppress(ScenarioError):
        parse(raw)


@given(st.dictionaries(st.sampled_from(["start", "think", "groups", "actions"]), st.integers() | st.text(max_size=3)))
def test_mappings_of_known_keys_are_a_scenario_or_a_scenario_error(raw: dict[str, Any]) -> None:
    try:
        scenario = parse(raw)
    except ScenarioError:
        return
    assert scenario.actions
