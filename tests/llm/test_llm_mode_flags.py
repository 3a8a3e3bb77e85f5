"""The mode flags and options: parsing, defaults, refusals, and the command's exit status."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from llmstub import Model, ModelOptions
from llmstub.cli import ConfigError, add_arguments, given_flags, model_from_args
from llmstub.generate import DatasetError
from llmstub.generate.conversations import EXAMPLE_SOURCE, build
from tgfake.cli import main


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


def example(tmp_path: Path) -> Path:
    path = tmp_path / "answers.sqlite"
    build(json.loads(EXAMPLE_SOURCE.read_text(encoding="utf-8")), path)
    return path


def test_defaults_are_script_mode() -> None:
    model = model_from_args(parse())
    assert model.mode == "script"
    assert model.max_model_len is None
    assert (model.options.seed, model.options.dataset) == (None, None)


def test_generation_flags_reach_the_model(tmp_path: Path) -> None:
    path = example(tmp_path)
    args = parse("--llm-mode", "random", "--llm-max-model-len", "64", "--llm-seed", "7", "--llm-dataset", str(path))
    assert given_flags(args) == ["--llm-mode", "--llm-max-model-len", "--llm-seed", "--llm-dataset"]
    model = model_from_args(args)
    assert (model.mode, model.max_model_len, model.options.seed) == ("random", 64, 7)
    assert model.options.dataset == str(path)
    model.close()


def test_echo_and_random_default_to_a_1024_token_window() -> None:
    assert model_from_args(parse("--llm-mode", "echo")).max_model_len == 1024
    assert Model(ModelOptions(mode="random")).max_model_len == 1024


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--llm-mode", "bogus"], 'invalid value "bogus" for flag --llm-mode: choose script, echo or random'),
        (
            ["--llm-mode", "echo", "--llm-max-model-len", "0"],
            'invalid value "0" for flag --llm-max-model-len: must be at least 1',
        ),
        (
            ["--llm-mode", "echo", "--llm-max-model-len", "1k"],
            'invalid value "1k" for flag --llm-max-model-len: parse error',
        ),
        (["--llm-mode", "random", "--llm-seed", "x"], 'invalid value "x" for flag --llm-seed: parse error'),
        (["--llm-seed", "1"], "--llm-seed needs --llm-mode echo or random (the mode is script)"),
        (["--llm-max-model-len", "9"], "--llm-max-model-len needs --llm-mode echo or random (the mode is script)"),
        (
            ["--llm-mode", "echo", "--llm-dataset", "x.sqlite"],
            "--llm-dataset needs --llm-mode random (echo answers with the prompt)",
        ),
    ],
)
def test_bad_mode_settings_are_config_errors(argv: list[str], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        model_from_args(parse(*argv))
    assert str(caught.value) == message


def test_an_unusable_dataset_is_refused_at_start_naming_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sqlite"
    with pytest.raises(ConfigError) as caught:
        model_from_args(parse("--llm-mode", "random", "--llm-dataset", str(missing)))
    assert str(caught.value) == f"--llm-dataset: dataset {str(missing)!r} does not exist"
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_text("not a database")
    with pytest.raises(ConfigError) as caught:
        model_from_args(parse("--llm-mode", "random", "--llm-dataset", str(garbage)))
    assert str(caught.value).startswith(f"--llm-dataset: {str(garbage)!r} is not a tgfake dataset")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "bogus"}, "mode must be one of script, echo, random, not 'bogus'"),
        ({"seed": 1}, "seed need mode echo or random (the mode is script)"),
        ({"mode": "echo", "dataset": "x.sqlite"}, "dataset needs mode random"),
        ({"mode": "echo", "max_model_len": 0}, "max_model_len must be a positive integer, not 0"),
        (
            {"mode": "random", "fallback": lambda prompt, request: None},
            "fallback replaces the answer of script mode; mode random generates its own",
        ),
    ],
)
def test_bad_options_raise_value_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        Model(ModelOptions(**options))  # type: ignore[arg-type]


def test_python_api_refuses_a_missing_dataset(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="does not exist"):
        Model(ModelOptions(mode="random", dataset=str(tmp_path / "none.sqlite")))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--llm", "--llm-mode", "bogus"],
            'tgfake: invalid value "bogus" for flag --llm-mode: choose script, echo or random\n',
        ),
        (["--llm-mode", "echo"], "tgfake: --llm-mode configures the scripted model, which only --llm serves\n"),
        (["--llm-seed", "1"], "tgfake: --llm-seed configures the scripted model, which only --llm serves\n"),
        (
            ["--llm", "--llm-mode", "random", "--llm-dataset", "/nonexistent/answers.sqlite"],
            "tgfake: --llm-dataset: dataset '/nonexistent/answers.sqlite' does not exist\n",
        ),
    ],
)
def test_the_command_exits_1_with_a_clear_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 1
    assert capsys.readouterr().err == message
