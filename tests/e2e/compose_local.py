"""compose.yaml as the single source of truth: read its services and run them as local processes.

No container engine runs on our machines or in CI, so the e2e suites run each service's exact command
and environment from compose.yaml here, with two mappings a container would not need: the stand image's
ENTRYPOINT (``tgfake``) becomes ``python -m tgfake``, and every ``http://<service>:<port>`` becomes the
loopback address that service's local process is bound to (the stand binds ``127.0.0.1:0``, a free port,
in place of ``0.0.0.0:<port>``, so suites never collide with a stand already running). As in compose, one stand
process serves both examples (``LocalStands``, shared by the test session), each bot in its own session.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from tgfake.pytest_plugin import StandHandle

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
DOCKERFILE = ROOT / "Dockerfile"
URL = re.compile(r"http://(?P<host>[A-Za-z0-9_.-]+):(?P<port>\d+)")


def load() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(data, dict)
    return data


def services() -> dict[str, dict[str, Any]]:
    return dict(load()["services"])


def dockerfile_entrypoint(path: Path, stage: str) -> list[str]:
    """The exec-form ENTRYPOINT of one ``FROM ... AS <stage>`` section of a Dockerfile ([] when none)."""
    current = None
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["FROM"]:
            current = words[3] if len(words) >= 4 and words[2].upper() == "AS" else None
        elif words[:1] == ["ENTRYPOINT"] and current == stage:
            value = json.loads(line.split(None, 1)[1])
            assert isinstance(value, list), "ENTRYPOINT must be exec form"
            return [str(v) for v in value]
    return []


@dataclass
class Service:
    """One compose service as it runs: the full argv (entrypoint + command) and its environment."""

    name: str
    argv: list[str]
    environment: dict[str, str]
    spec: dict[str, Any] = field(repr=False)

    @classmethod
    def named(cls, name: str) -> Service:
        spec = services()[name]
        build = spec.get("build") or {}
        entry = spec.get("entrypoint")
        if entry is None and isinstance(build, dict) and build.get("target") and not build.get("dockerfile"):
            entry = dockerfile_entrypoint(DOCKERFILE, build["target"])
        argv = [*(entry or []), *[str(a) for a in spec.get("command") or []]]
        env = {str(k): str(v) for k, v in (spec.get("environment") or {}).items()}
        return cls(name, argv, env, spec)

    def listen_port(self) -> int:
        """The container port a stand service listens on (its ``--addr``)."""
        addr = self.argv[self.argv.index("--addr") + 1]
        return int(addr.rsplit(":", 1)[1])


def local_argv(argv: list[str]) -> list[str]:
    """The command as this machine runs it: ``tgfake`` and ``python`` through this interpreter."""
    if argv[:1] == ["tgfake"]:
        return [sys.executable, "-m", "tgfake", *argv[1:]]
    if argv[:1] in (["python"], ["python3"]):
        return [sys.executable, *argv[1:]]
    return list(argv)


def map_hosts(env: dict[str, str], hosts: dict[str, str]) -> dict[str, str]:
    """Replace ``http://<service>:<port>`` by the local origin of that service (``hosts``: "name:port" → url)."""

    def swap(m: re.Match[str]) -> str:
        key = f"{m.group('host')}:{m.group('port')}"
        if key not in hosts:
            raise AssertionError(f"compose names {m.group(0)}, which no local service serves (known: {hosts})")
        return hosts[key]

    return {k: URL.sub(swap, v) for k, v in env.items()}


class LocalStand:
    """A stand service of compose.yaml started as a local process on a free loopback port."""

    def __init__(self, service: Service) -> None:
        self.service = service
        argv = local_argv(service.argv)
        at = argv.index("--addr")
        argv[at + 1] = "127.0.0.1:0"
        fd, self.log_path = tempfile.mkstemp(prefix=f"tgfake-{service.name}-", suffix=".log")
        os.close(fd)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                argv,
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=log,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONUNBUFFERED": "1", **service.environment},
            )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline().decode()  # the banner's first line, written once bound
        found = re.search(r" at (http://\S+)", first)
        if found is None:
            self.stop()
            raise AssertionError(f"{service.name} did not start: {first!r}\n{Path(self.log_path).read_text()}")
        self.url = found.group(1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        Path(self.log_path).unlink(missing_ok=True)


def script_of(service: Service) -> list[Any] | None:
    """The rules a stand service's ``--llm-script`` loads (relative to the working directory /app = ROOT)."""
    if "--llm-script" not in service.argv:
        return None
    path = ROOT / service.argv[service.argv.index("--llm-script") + 1]
    rules = json.loads(path.read_text())
    assert isinstance(rules, list)
    return rules


class LocalStands:
    """compose's stand services as local processes, each started on first use and shared by every suite."""

    def __init__(self) -> None:
        self.running: dict[str, LocalStand] = {}

    def get(self, name: str) -> LocalStand:
        if name not in self.running:
            self.running[name] = LocalStand(Service.named(name))
        return self.running[name]

    def stop(self) -> None:
        for stand in self.running.values():
            stand.stop()
        self.running.clear()


@dataclass
class Stack:
    """A bot service and where it talks to its stand (``url``: its ``TELEGRAM_API``, a session of the stand)."""

    url: str
    bot_argv: list[str]
    bot_env: dict[str, str]
    script: list[Any] | None
    external: bool


def stack(stand: str, bot: str, url_env: str, stands: LocalStands) -> Stack:
    """Attach to the URL ``url_env`` names (compose's e2e container), else run compose's services here."""
    stand_service = Service.named(stand)
    bot_service = Service.named(bot)
    external = os.environ.get(url_env, "").strip()
    if external:
        return Stack(external.rstrip("/"), bot_service.argv, bot_service.environment, script_of(stand_service), True)
    local = stands.get(stand)
    hosts = {f"{stand}:{stand_service.listen_port()}": local.url}
    env = map_hosts(bot_service.environment, hosts)
    return Stack(env["TELEGRAM_API"], local_argv(bot_service.argv), env, script_of(stand_service), False)


def example_fixtures(stand: str, bot: str, url_env: str) -> tuple[Any, Any, Any, Any]:
    """The fixtures that point the plugin at one example's compose stack, for a test module to bind::

        compose_stack, tgfake_server, tgfake_bot_command, tgfake_bot_env = example_fixtures(...)

    The module's stand is compose's bot's session (not the plugin's session stand, and not a session per test:
    the bot is pointed at this one), and its bot is compose's bot service.
    """

    @pytest.fixture(scope="module")
    def compose_stack(local_stands: LocalStands) -> Stack:
        return stack(stand, bot, url_env, local_stands)

    @pytest.fixture(scope="module")
    def tgfake_server(compose_stack: Stack) -> StandHandle:
        return StandHandle(compose_stack.url, script=compose_stack.script, sessions=False)

    @pytest.fixture
    def tgfake_bot_command(compose_stack: Stack) -> list[str]:
        return compose_stack.bot_argv

    @pytest.fixture
    def tgfake_bot_env(compose_stack: Stack) -> dict[str, str]:
        return compose_stack.bot_env

    return compose_stack, tgfake_server, tgfake_bot_command, tgfake_bot_env
