"""The ``--llm-*`` flags: parsing, defaults, and the errors the command turns into exit 1."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from llmstub import Model, check_client_header
from llmstub.cli import ConfigError, add_arguments, given_flags, model_from_args, parse_duration


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("1s", 1.0),
        ("200ms", 0.2),
        ("1m30s", 90.0),
        ("0", 0.0),
        ("0s", 0.0),
        ("1.5s", 1.5),
        ("500us", 0.0005),
        ("500µs", 0.0005),
        ("2h", 7200.0),
        ("1h2m3.5s", 3723.5),
        (".5s", 0.5),
        ("-1s", -1.0),
        ("+20ms", 0.02),
        ("100ns", 1e-7),
    ],
)
def test_parse_duration_accepts_go_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", 'time: invalid duration ""'),
        ("5", 'time: missing unit in duration "5"'),
        ("1s5", 'time: missing unit in duration "1s5"'),
        ("abc", 'time: invalid duration "abc"'),
        ("1d", 'time: invalid duration "1d"'),
        ("1 s", 'time: invalid duration "1 s"'),
        ("-", 'time: invalid duration "-"'),
    ],
)
def test_parse_duration_refuses_the_rest(text: str, message: str) -> None:
    with pytest.raises(ValueError, match="^" + message + "$"):
        parse_duration(text)


def test_defaults_build_the_command_model() -> None:
    args = parse()
    assert given_flags(args) == []
    model = model_from_args(args)
    assert isinstance(model, Model)
    assert model.model_id == "tgfake-demo"
    assert model.options.delay == pytest.approx(0.05)
    assert model.options.chunk_words == 1
    assert (list(model.options.answers), list(model.options.strip_tags), model.rules) == ([], [], [])
    assert model.options.client_header is None


def test_every_flag_reaches_the_model(tmp_path: Path) -> None:
    script = tmp_path / "rules.json"
    script.write_text('[{"match": "ping", "answer": "pong"}]')
    args = parse(
        "--llm-model=m1",
        "--llm-script",
        str(script),
        "--llm-answer",
        "first",
        "--llm-answer",
        "second",
        "--llm-delay",
        "0s",
        "--llm-chunk-words",
        "3",
        "--llm-strip-tag",
        "turn_context",
        "--llm-strip-tag",
        "memo",
        "--llm-client-header",
        "X-Test-Client",
    )
    assert given_flags(args) == [
        "--llm-model",
        "--llm-script",
        "--llm-answer",
        "--llm-delay",
        "--llm-chunk-words",
        "--llm-strip-tag",
        "--llm-client-header",
    ]
    assert all(dest.startswith("llm_") for dest in vars(args))
    model = model_from_args(args)
    assert model.model_id == "m1"
    assert [r.answer for r in model.rules] == ["pong"]
    assert list(model.options.answers) == ["first", "second"]
    assert model.options.delay == 0
    assert model.options.chunk_words == 3
    assert list(model.options.strip_tags) == ["turn_context", "memo"]
    assert model.options.client_header == "X-Test-Client"


def test_chunk_words_below_one_behaves_as_one() -> None:
    assert model_from_args(parse("--llm-chunk-words", "0")).options.chunk_words == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--llm-delay", "fast"], 'invalid value "fast" for flag --llm-delay: parse error'),
        (["--llm-delay=-1s"], 'invalid value "-1s" for flag --llm-delay: must not be negative'),
        (["--llm-chunk-words", "two"], 'invalid value "two" for flag --llm-chunk-words: parse error'),
        (["--llm-model", ""], "--llm-model must not be empty"),
        (["--llm-strip-tag", "<b>"], 'invalid value "<b>" for flag --llm-strip-tag: give a bare tag name'),
        (
            ["--llm-client-header", "Authorization"],
            "--llm-client-header: client header 'Authorization' looks",
        ),
        (
            ["--llm-client-header", "bad header"],
            "--llm-client-header: client header 'bad header' is not a valid",
        ),
    ],
)
def test_bad_values_are_config_errors(argv: list[str], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        model_from_args(parse(*argv))
    assert str(caught.value).startswith(message), str(caught.value)


def test_an_unreadable_or_invalid_script_names_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(ConfigError, match=f"^{missing}: No such file or directory$"):
        model_from_args(parse("--llm-script", str(missing)))
    not_a_list = tmp_path / "object.json"
    not_a_list.write_text('{"match": "x"}')
    with pytest.raises(ConfigError, match=f"^{not_a_list}: the script must be a JSON list of rules"):
        model_from_args(parse("--llm-script", str(not_a_list)))


@pytest.mark.parametrize(
    "name",
    [
        "Authorization",
        "authorization",
        "Cookie",
        "Proxy-Authorization",
        "X-Auth-Token",
        "X-Auth",
        "auth",
        "X_AUTH_USER",
        "x.auth.id",
        "X-Access-Token",
        "Session-Token",
        "X-Client-Secret",
        "X-Password",
        "X-Credential-Id",
        "X-Credentials",
        "X-Api-Key",
        "x_api_key",
        "api.key",
        "ApiKey",
        "X-Access-Key",
        "access_key",
        "Private-Key",
        "private.key",
    ],
)
def test_credential_like_header_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="looks like a credential"):
        check_client_header(name)
    with pytest.raises(ValueError, match="looks like a credential"):
        Model.check_client_header(name)


@pytest.mark.parametrize(
    "name", ["X-Test-Client", "X-Client-Id", "X-Author", "X-Tenant", "X-Session-Label", "X-Api-Version"]
)
def test_nonsecret_header_names_are_accepted(name: str) -> None:
    check_client_header(name)
