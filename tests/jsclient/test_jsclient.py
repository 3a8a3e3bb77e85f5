"""The Node client package (clients/js, npm package ``tgfake``) and its three example suites, run from pytest as CI
runs only pytest: the package builds with ``tsc --strict`` as ESM and CommonJS, its methods work through the wire,
its generated types are the live
stand's ``GET /sim/openapi.json`` (a stale copy fails the check, naming the line), the grammY and Telegraf suites
(Vitest, two workers) and the node-telegram-bot-api suite (Jest) pass against the stand in polling and webhook mode,
a failing test prints the bot's output, the transcript and the outbox, and ``npm pack``'s tarball installs into a
fresh project that runs the grammY dialog test of docs/testing-node.md, copied from the page.

Every Node step runs as a subprocess with a deadline. Without Node or ``npm ci`` at the repository root these tests
are skipped on a developer's machine and fail in CI (tests/requirements.py).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.node_support import ROOT, registry_hosts_in_lock, require_node, workspace_lock
from tgfake.world.people import user_id_for

pytestmark = pytest.mark.node
PACKAGE = ROOT / "clients" / "js"
EXAMPLES = PACKAGE / "examples"
FAILING = PACKAGE / "test" / "failing"
SUITES = ("grammy-vitest", "telegraf-vitest", "ntba-jest")
VITEST = ROOT / "node_modules" / "vitest" / "vitest.mjs"
JEST = ROOT / "node_modules" / "jest" / "bin" / "jest.js"
STARTUP = 60.0  # seconds the stand has to print its banner on a busy machine
SUITE_TIMEOUT = 180.0  # seconds an example suite may take (a green run takes about 15)


def node_env(**extra: str) -> dict[str, str]:
    """The environment of a Node step: this checkout's Python code for any tgfake it starts (PYTHONPATH), the
    interpreter's scripts first on PATH (its ``tgfake`` command), no TGFAKE_URL unless given."""
    env = {k: v for k, v in os.environ.items() if k not in ("TGFAKE_URL", "BOT_MODE")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["NO_COLOR"] = "1"
    env["FORCE_COLOR"] = "0"
    return {**env, **extra}


def run(argv: list[str], cwd: Path, timeout: float = SUITE_TIMEOUT, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=node_env(**env), capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )


def shown(done: subprocess.CompletedProcess[str]) -> str:
    return f"exit {done.returncode}\n--- stdout ---\n{done.stdout}\n--- stderr ---\n{done.stderr}"


@pytest.fixture(scope="module")
def node() -> None:
    require_node(PACKAGE, "the Node client package")
    for suite in SUITES:
        require_node(EXAMPLES / suite, f"the Node client's {suite} example")


@pytest.fixture(scope="module")
def built(node: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``npm run build`` in clients/js: dist/esm and dist/cjs, once per run.

    The build empties dist first, and this module's tests are spread over the xdist workers (tests/conftest.py):
    a second worker's build would take dist away from a first worker's running Jest. So the first build of the
    run holds a lock in the workers' shared temporary directory and leaves a mark; the others wait for it and
    find the mark.
    """
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # this run's, for all its workers
    with open(shared / "tgfake-js-build.lock", "w", encoding="ascii") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        mark = shared / "tgfake-js-built"
        if not mark.exists():
            npm = shutil.which("npm") or "npm"
            done = run([npm, "run", "build"], PACKAGE)
            assert done.returncode == 0, shown(done)
            mark.touch()
    return PACKAGE / "dist"


@pytest.fixture(scope="module")
def stand(node: None) -> Iterator[str]:
    """``tgfake --addr 127.0.0.1:0 --llm`` (this checkout's), its origin read from the banner's first line."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tgfake", "--addr", "127.0.0.1:0", "--llm"],
        env=node_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + STARTUP
    line = ""
    while "http://" not in line:
        ready, _, _ = select.select([proc.stdout], [], [], max(deadline - time.monotonic(), 0))
        if not ready or proc.poll() is not None:
            proc.kill()
            raise AssertionError(f"tgfake printed no banner within {STARTUP:g} s: {line!r}")
        line = proc.stdout.readline()
    url = line.split(" at ", 1)[1].split()[0]
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


# ---------------------------------------------------------------------------------------------------- the package


def test_the_packages_are_pinned_exactly_and_locked() -> None:
    package = json.loads((PACKAGE / "package.json").read_text())
    assert "dependencies" not in package, "the client has no runtime dependency"
    for folder in (PACKAGE, *(EXAMPLES / s for s in SUITES)):
        manifest = json.loads((folder / "package.json").read_text())
        for name, pin in {**manifest.get("dependencies", {}), **manifest.get("devDependencies", {})}.items():
            assert pin[:1].isdigit(), f"{folder.relative_to(ROOT)}: {name} {pin} is not an exact version"
        if manifest.get("dependencies"):
            declared, installed = workspace_lock(folder)
            assert declared == installed, folder
    # the examples use the library versions the library matrix runs in CI
    matrix = json.loads((ROOT / "tests" / "libraries" / "node" / "package.json").read_text())["dependencies"]
    libraries = {"grammy-vitest": "grammy", "telegraf-vitest": "telegraf", "ntba-jest": "node-telegram-bot-api"}
    for suite, library in libraries.items():
        assert json.loads((EXAMPLES / suite / "package.json").read_text())["dependencies"][library] == matrix[library]
    assert registry_hosts_in_lock() == []


def test_the_package_builds_with_tsc_strict_as_esm_and_commonjs(built: Path) -> None:
    assert json.loads((PACKAGE / "tsconfig.json").read_text())["compilerOptions"]["strict"] is True
    for kind in ("esm", "cjs"):
        for name in ("index.js", "index.d.ts", "client.js", "jest.js"):
            assert (built / kind / name).is_file(), f"dist/{kind}/{name}"
    assert (built / "esm" / "vitest.js").is_file()
    assert json.loads((built / "cjs" / "package.json").read_text()) == {"type": "commonjs"}
    # the Vitest suites (examples, failing reports) type-check against the built declarations, strictly
    tsc = ROOT / "node_modules" / "typescript" / "bin" / "tsc"
    typed = run(["node", str(tsc), "-p", "tsconfig.tests.json"], PACKAGE, 120)
    assert typed.returncode == 0, shown(typed)
    names = ["alice", "bob", "zed", "Ünïcode"]
    expected = [user_id_for(n) for n in names]  # the Node port of the stand's stable ids, crc32 and all
    ids = f"{json.dumps(names)}.map((n) => t.userIdFor(n))"
    check = f"console.log(JSON.stringify([typeof t.TgfakeClient, {ids}]))"
    cjs = run(["node", "-e", f"const t = require('tgfake'); {check}"], ROOT, 60)
    esm = run(["node", "--input-type=module", "-e", f"import * as t from 'tgfake'; {check}"], ROOT, 60)
    for done in (cjs, esm):
        assert done.returncode == 0, shown(done)
        assert json.loads(done.stdout) == ["function", expected]


def test_the_generated_types_are_the_stands_openapi_document(built: Path, stand: str, tmp_path: Path) -> None:
    script = str(PACKAGE / "scripts" / "generate-types.mjs")
    fresh = run(["node", script, "--check"], PACKAGE, 60, TGFAKE_URL=stand)
    assert fresh.returncode == 0, shown(fresh)
    assert "matches the stand's /sim/openapi.json" in fresh.stdout
    # a copy that lost a field of MessageIn is stale, and the check names the line
    text = (PACKAGE / "src" / "generated" / "sim.ts").read_text()
    head, tail = text.split("export interface MessageIn {\n", 1)
    lines = tail.split("\n")
    dropped = next(i for i, line in enumerate(lines) if line.strip().startswith("quote?:"))
    number = head.count("\n") + 2 + dropped
    stale = tmp_path / "sim.ts"
    stale.write_text(head + "export interface MessageIn {\n" + "\n".join(lines[:dropped] + lines[dropped + 1 :]))
    done = run(["node", script, "--check", "--file", str(stale)], PACKAGE, 60, TGFAKE_URL=stand)
    assert done.returncode == 1, shown(done)
    assert f"{stale} is stale against {stand}/sim/openapi.json (run npm run generate in clients/js)" in done.stderr
    assert f"line {number} is:" in done.stderr, done.stderr
    assert "quote?: string;" in done.stderr, done.stderr


def test_the_clients_methods_through_the_wire(built: Path, stand: str) -> None:
    """clients/js/test/client: each method against the stand, the test playing the bot with Bot API calls."""
    done = run(["node", str(VITEST), "run"], PACKAGE / "test" / "client", TGFAKE_URL=stand)
    assert done.returncode == 0, shown(done)
    assert "Tests  16 passed (16)" in done.stdout, shown(done)


# ---------------------------------------------------------------------------------------------------- the examples


@pytest.mark.timeout(SUITE_TIMEOUT + 60)
@pytest.mark.parametrize("mode", ["polling", "webhook"])
def test_the_example_suites_pass_against_the_stand(built: Path, stand: str, mode: str) -> None:
    """The three suites at once against one stand (each test its own session), Vitest with two workers; in polling
    mode the grammY and the node-telegram-bot-api suites start their own tgfake from PATH instead (the helpers'
    global setups for Vitest and Jest)."""
    procs: dict[str, subprocess.Popen[str]] = {}
    for suite in SUITES:
        env = node_env(BOT_MODE=mode)
        if suite == "telegraf-vitest" or mode == "webhook":
            env["TGFAKE_URL"] = stand
        if suite.endswith("vitest"):
            argv = ["node", str(VITEST), "run", "--maxWorkers=2", "--minWorkers=2"]
        else:
            argv = ["node", str(JEST), "--ci"]
        procs[suite] = subprocess.Popen(
            argv,
            cwd=EXAMPLES / suite,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
        )
    outputs: dict[str, tuple[int, str]] = {}
    deadline = time.monotonic() + SUITE_TIMEOUT
    for suite, proc in procs.items():
        try:
            out, _ = proc.communicate(timeout=max(deadline - time.monotonic(), 1))
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
            out += f"\n(killed after {SUITE_TIMEOUT:g} s)"
        outputs[suite] = (proc.returncode, out)
    for suite, (code, out) in outputs.items():
        assert code == 0, f"{suite} ({mode}): exit {code}\n{out}"
        passed = "Tests  5 passed (5)" if suite.endswith("vitest") else "Tests:       5 passed, 5 total"
        assert passed in out, f"{suite} ({mode})\n{out}"


# ---------------------------------------------------------------------------------------------------- failure reports


def test_a_failing_vitest_test_shows_the_bots_output_the_transcript_and_the_outbox(built: Path, stand: str) -> None:
    done = run(["node", str(VITEST), "run"], FAILING, TGFAKE_URL=stand)
    out = done.stdout + done.stderr
    assert done.returncode == 1, shown(done)
    assert "Tests  2 failed (2)" in out, out
    report = out.split("FAIL  report.fails.ts > an assertion fails after a reply", 1)[1]
    assert f"--- output of node {FAILING / 'bot.cjs'} ---\nbot got: hello there\n" in report, report
    assert "--- transcript of chat 4242 ---\n[1] alice: hello there\n[2] bot: Hi\n" in report, report
    assert "--- outbox (getUpdates omitted) ---\n#1 getMe -> 200" in report, report
    assert "sendMessage -> 200  chat_id=4242, text=Hi" in report, report
    exited = out.split("FAIL  report.fails.ts > a bot that exits before its first call", 1)[1]
    why = f"the bot node {FAILING / 'bot.cjs'} exited with status 3; its output:\ncannot read my configuration"
    assert why in exited, exited


def test_a_failing_jest_test_shows_the_bots_output_the_transcript_and_the_outbox(built: Path, stand: str) -> None:
    done = run(["node", str(JEST), "--ci", "--config", "jest.config.cjs"], FAILING, TGFAKE_URL=stand)
    out = done.stdout + done.stderr
    assert done.returncode == 1, shown(done)
    assert "Tests:       2 failed, 2 total" in out, out
    report = out.split("● an assertion fails after a reply", 1)[1].split("● a wait", 1)[0]
    for part in (
        "--- output of node",
        "    bot got: hello there",
        "    --- transcript of chat 4242 ---\n    [1] alice: hello there\n    [2] bot: Hi",
        "    --- outbox (getUpdates omitted) ---",
        "sendMessage -> 200  chat_id=4242, text=Hi",
    ):
        assert part in report, report
    waited = out.split("● a wait for a reply that does not come", 1)[1]
    assert 'TgfakeAssertionError: timed out waiting for the bot\'s next message to read "Bye" in chat 4242' in waited
    assert "the bot's next message was: bot: Hi" in waited, waited
    assert waited.count("--- transcript of chat 4242 ---") == 1, "a failed wait's evidence is not shown twice"


# ---------------------------------------------------------------------------------------------------- the tarball


def docs_files(section: str) -> dict[str, str]:
    """The files a docs/testing-node.md section writes out: each fenced block after a line naming it
    (`` `bot.js` ...``)."""
    text = (ROOT / "docs" / "testing-node.md").read_text()
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"^`([\w.]+)`[^\n]*\n\n```\w*\n(.*?)^```", body, re.MULTILINE | re.DOTALL)
    return dict(found)


def test_a_fresh_project_runs_the_docs_grammy_test_from_the_packed_tarball(
    built: Path, stand: str, tmp_path: Path
) -> None:
    npm = shutil.which("npm") or "npm"
    packed = run([npm, "pack", "--pack-destination", str(tmp_path), "--json"], PACKAGE, 60)
    assert packed.returncode == 0, shown(packed)
    tarball = tmp_path / json.loads(packed.stdout)[0]["filename"]
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
    assert {"package/dist/esm/index.js", "package/dist/cjs/index.js", "package/dist/esm/vitest.js"} <= names
    assert not [n for n in names if "/examples/" in n or "/test/" in n or "node_modules" in n], sorted(names)
    project = tmp_path / "fresh"
    project.mkdir()
    (project / "package.json").write_text('{"name": "fresh", "version": "1.0.0", "private": true}\n')
    files = docs_files("A dialog test with Vitest")
    assert sorted(files) == ["bot.js", "bot.test.ts", "setup.ts", "vitest.config.mjs"], sorted(files)
    for name, code in files.items():
        (project / name).write_text(code)
    # the versions CI locks, from npm's cache that npm ci filled (the registry only for what it lacks)
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    pins = [f"{name}@{lock[f'node_modules/{name}']['version']}" for name in ("grammy", "vitest", "vite")]
    argv = [npm, "install", "--prefer-offline", "--no-audit", "--no-fund", "--save-dev", str(tarball), *pins]
    installed = run(argv, project, 150)
    assert installed.returncode == 0, shown(installed)
    dialog = run(["node", str(project / "node_modules" / "vitest" / "vitest.mjs"), "run"], project, TGFAKE_URL=stand)
    assert dialog.returncode == 0, shown(dialog)
    assert "Tests  1 passed (1)" in dialog.stdout, shown(dialog)
    (project / "require.cjs").write_text(
        "console.log(typeof require('tgfake').TgfakeClient, typeof require('tgfake/jest').setupTgfake)\n"
    )
    required = run(["node", "require.cjs"], project, 60)
    assert (required.returncode, required.stdout) == (0, "function function\n"), shown(required)
