"""compose.yaml and the Dockerfiles, checked statically (no container engine runs here).

The dynamic half is test_e2e_*.py, which runs every service's command and environment from this same
file; together they keep compose.yaml from drifting away from what the suites prove.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.compose_local import DOCKERFILE, ROOT, Service, dockerfile_entrypoint, load, services
from tgfake.cli import build_parser

STANDS = ("stand",)
BOTS = {"echobot": "examples/echobot/echobot.py", "dialogbot": "examples/dialogbot/dialogbot.py"}


def bot_env_names(source: Path) -> tuple[set[str], set[str]]:
    """The environment names a bot reads: (required ``os.environ[...]``, optional ``os.environ.get``)."""
    required: set[str] = set()
    optional: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if (
            isinstance(node, ast.Subscript)
            and ast.unparse(node.value) == "os.environ"
            and isinstance(node.slice, ast.Constant)
        ):
            required.add(str(node.slice.value))
        if (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) == "os.environ.get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            optional.add(str(node.args[0].value))
    return required, optional


def test_the_file_has_no_version_key_and_exactly_these_services() -> None:
    data = load()
    assert "version" not in data
    assert set(data["services"]) == {"stand", "echobot", "dialogbot", "e2e"}


@pytest.mark.parametrize("name", STANDS)
def test_a_stand_runs_the_image_entrypoint_with_flags_the_command_accepts(name: str) -> None:
    svc = Service.named(name)
    assert svc.spec["build"] == {"context": ".", "target": "stand"}
    assert svc.argv[0] == "tgfake"
    args = build_parser().parse_args(svc.argv[1:])
    assert args.rest == []
    assert args.addr.startswith("0.0.0.0:"), "a container must listen on every interface"
    assert args.poll_max == 1.0, "an idle bot's poll is recorded within a second"
    port = svc.listen_port()
    assert svc.spec["ports"] == [f"{port}:{port}"]


@pytest.mark.parametrize("name", STANDS)
def test_a_stand_health_check_probes_sim_state_without_curl(name: str) -> None:
    svc = Service.named(name)
    check = svc.spec["healthcheck"]
    test = check["test"]
    assert test[:2] == ["CMD", "python"], "slim images have no curl"
    assert f"http://127.0.0.1:{svc.listen_port()}/sim/state" in test[-1]
    assert re.fullmatch(r"\d+s", check["interval"]), "an explicit short interval (the default is 30 s)"
    assert int(check["retries"]) >= 5


def test_the_model_stand_loads_the_dialogbot_script_that_the_image_can_see() -> None:
    svc = Service.named("stand")
    args = build_parser().parse_args(svc.argv[1:])
    assert args.llm is True
    script = args.llm_script
    assert (ROOT / script).is_file()
    rules = json.loads((ROOT / script).read_text())
    assert isinstance(rules, list)
    assert f"./{script}:/app/{script}:ro" in svc.spec["volumes"], "the stand image has no examples/"


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_runs_its_script_with_every_variable_it_requires(name: str) -> None:
    svc = Service.named(name)
    assert svc.spec["build"] == {"context": ".", "dockerfile": "examples/Dockerfile"}
    assert svc.argv == ["python", BOTS[name]]
    required, optional = bot_env_names(ROOT / BOTS[name])
    env = svc.environment
    assert required <= env.keys(), f"{name} needs {required - env.keys()}"
    assert env.keys() <= required | optional, f"{name} does not read {env.keys() - required - optional}"
    assert {"TELEGRAM_API", "BOT_TOKEN"} <= env.keys()


def test_one_stand_opens_a_session_for_each_bot() -> None:
    args = build_parser().parse_args(Service.named("stand").argv[1:])
    assert args.session == sorted(BOTS, reverse=True) == ["echobot", "dialogbot"]


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_talks_to_its_own_session_of_the_healthy_stand(bot: str) -> None:
    svc = Service.named(bot)
    port = Service.named("stand").listen_port()
    session = f"http://stand:{port}/s/{bot}"
    assert svc.environment["TELEGRAM_API"] == session
    for name, value in svc.environment.items():
        if value.startswith("http://"):
            assert value.startswith(session), f"{bot}'s {name} must name its session {session}"
    assert svc.spec["depends_on"] == {"stand": {"condition": "service_healthy"}}


def test_the_bots_are_two_bots_with_tokens_of_their_own() -> None:
    tokens = [Service.named(bot).environment["BOT_TOKEN"] for bot in sorted(BOTS)]
    assert len({t.split(":")[0] for t in tokens}) == 2


def test_dialogbot_reaches_the_model_on_its_stand_with_the_scripts_profile() -> None:
    svc = Service.named("dialogbot")
    assert svc.environment["OPENAI_BASE_URL"] == "http://stand:18790/s/dialogbot/v1"
    rules: list[dict[str, Any]] = json.loads((ROOT / "examples/dialogbot/script.json").read_text())
    profiles = {r["profile"] for r in rules if "profile" in r}
    assert profiles == {svc.environment["OPENAI_PROFILE"]}


def test_e2e_runs_the_suites_against_the_running_services() -> None:
    svc = Service.named("e2e")
    assert svc.spec["build"] == {"context": ".", "target": "e2e"}
    assert svc.argv[:3] == ["python", "-m", "pytest"]
    assert "tests/e2e" in svc.argv
    assert svc.environment == {
        "ECHOBOT_STAND_URL": Service.named("echobot").environment["TELEGRAM_API"],
        "DIALOGBOT_STAND_URL": Service.named("dialogbot").environment["TELEGRAM_API"],
        "TGFAKE_BOT": "external",
    }
    deps = svc.spec["depends_on"]
    assert {k: v["condition"] for k, v in deps.items()} == {
        "stand": "service_healthy",
        "echobot": "service_started",
        "dialogbot": "service_started",
    }
    # the suites read these names (tests/e2e/test_e2e_*.py)
    for module, name in (
        ("test_e2e_echobot.py", "ECHOBOT_STAND_URL"),
        ("test_e2e_dialogbot.py", "DIALOGBOT_STAND_URL"),
    ):
        assert name in (ROOT / "tests/e2e" / module).read_text()


def test_the_stand_image_is_slim_non_root_exec_form_and_self_checking() -> None:
    text = DOCKERFILE.read_text()
    stage = text[text.index("AS stand") :]
    assert "FROM python:3.11-slim AS base" in text
    assert re.search(r"^USER tgfake$", stage, re.M)
    assert dockerfile_entrypoint(DOCKERFILE, "stand") == ["tgfake"]
    health = re.search(r"HEALTHCHECK .*\n\s*CMD (\[.*\])", stage)
    assert health is not None
    cmd = json.loads(health.group(1))
    assert cmd[0] == "python"
    assert "/sim/state" in cmd[-1]
    assert not [line for line in text.splitlines() if "curl" in line and not line.startswith("#")]


def test_the_bot_image_is_slim_and_non_root() -> None:
    text = (ROOT / "examples/Dockerfile").read_text()
    assert text.count("FROM python:3.11-slim") == 1
    assert re.search(r"^USER bot$", text, re.M)
    assert re.search(r'^CMD \["python", ', text, re.M), "exec form"


def test_every_service_is_built_from_a_file_in_the_repository() -> None:
    for name, spec in services().items():
        build = spec["build"]
        assert (ROOT / build["context"] / build.get("dockerfile", "Dockerfile")).is_file(), name
