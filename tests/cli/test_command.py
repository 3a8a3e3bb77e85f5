"""The ``tgfake`` command: flags, banner, exit codes, and a graceful stop that releases held polls."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest

from tgfake import __version__
from tgfake.cli import banner, build_parser, main
from tgfake.options import Options


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(["--version"], capsys) == (0, f"tgfake {__version__}\n", "")


def test_positional_argument_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["serve"], capsys)
    assert (code, err) == (1, 'tgfake: unexpected argument "serve": tgfake takes flags only\n')


def test_model_flag_without_llm_refused_before_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["--version", "--llm-model", "x"], capsys)
    assert (code, err) == (1, "tgfake: --llm-model configures the scripted model, which only --llm serves\n")


def test_unknown_flag_and_bad_duration(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["--nope"], capsys)
    assert code == 1
    assert err.startswith("tgfake: unrecognized arguments: --nope")
    code, _, err = run_main(["--poll-max", "soon"], capsys)
    assert code == 1
    assert 'invalid duration "soon"' in err


def test_bad_session_flags(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["--session", "a b"], capsys)
    assert (code, err) == (1, "tgfake: --session: session id 'a b' must be 1-64 letters, digits, '-' or '_'\n")
    code, _, err = run_main(["--session", "x", "--session", "x"], capsys)
    assert (code, err) == (1, "tgfake: --session: session x already exists\n")
    code, _, err = run_main(["--max-sessions", "-1"], capsys)
    assert (code, err) == (1, 'tgfake: argument --max-sessions/-max-sessions: invalid value "-1": a whole number\n')


def test_help_exits_zero_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(["-h"], capsys)
    assert (code, out) == (0, "")
    assert "--addr" in err


def test_busy_port(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        code, _, err = run_main(["--addr", f"127.0.0.1:{port}"], capsys)
    assert code == 1
    assert err.startswith(f"tgfake: listen tcp 127.0.0.1:{port}: ")


def test_banner_shows_wildcard_bind() -> None:
    text = banner("v1", Options(), "0.0.0.0", 18790, None)
    assert text.splitlines()[0] == "tgfake v1: fake Bot API for @tgfake_bot at http://[::]:18790"
    assert "model:" not in text


@pytest.fixture
def stand_process() -> Iterator[tuple[subprocess.Popen[str], str]]:
    flags = ["--addr", "127.0.0.1:0", "--poll-max", "30s", "--verbose", "--session", "kept"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "tgfake", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert first.startswith(f"tgfake {__version__}: fake Bot API for @tgfake_bot at http://127.0.0.1:")
    origin = first.rstrip("\n").split(" at ", 1)[1]
    try:
        yield proc, origin
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def get_json(url: str, timeout: float = 10) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        return dict(json.loads(resp.read()))


def test_sigterm_releases_a_held_poll_and_exits_zero(stand_process: tuple[subprocess.Popen[str], str]) -> None:
    """The root's held poll and the one in the --session session both answer at once."""
    proc, origin = stand_process
    assert get_json(f"{origin}/bot1:x/getMe")["ok"] is True
    answered: dict[str, tuple[object, float]] = {}

    def poll(base: str) -> None:
        answered[base] = (get_json(f"{base}/bot1:x/getUpdates?timeout=30", timeout=20), time.monotonic())

    pollers = [threading.Thread(target=poll, args=(base,)) for base in (origin, f"{origin}/s/kept")]
    for poller in pollers:
        poller.start()
    assert get_json(f"{origin}/sim/wait?polling=1&timeout=5") == {"polling": True}
    assert get_json(f"{origin}/s/kept/sim/wait?polling=1&timeout=5") == {"polling": True}
    proc.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    for poller in pollers:
        poller.join(10)
    assert len(answered) == 2
    for body, at in answered.values():
        assert body == {"ok": True, "result": []}
        assert at - sent < 3
    assert proc.wait(10) == 0
    _, err = proc.communicate()
    assert " getMe 200" in err
    assert " getUpdates 200 timeout=30" in err


def test_url_files_takes_its_three_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["--url-files", "private"], capsys)
    assert code == 1
    assert err == (
        "tgfake: argument --url-files/-url-files: invalid choice: 'private' (choose from 'default', 'all', 'none')\n"
    )
    parser = build_parser()
    assert parser.parse_args([]).url_files == "default"
    assert parser.parse_args(["-url-files", "none"]).url_files == "none"


def test_url_files_none_reaches_the_stand() -> None:
    """tgfake --url-files none: a document by URL from a loopback server is refused, and the server sees nothing."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        proc = subprocess.Popen(
            [sys.executable, "-m", "tgfake", "--addr", "127.0.0.1:0", "--url-files", "none"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None
            origin = proc.stdout.readline().rstrip("\n").split(" at ", 1)[1]
            form = urllib.parse.urlencode({"chat_id": 4242, "document": f"http://127.0.0.1:{port}/f.pdf"}).encode()
            request = urllib.request.Request(f"{origin}/bot1:x/sendDocument", data=form)
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            assert (refused.value.code, json.loads(refused.value.read())["description"]) == (
                400,
                "Bad Request: failed to get HTTP URL content",
            )
            listener.settimeout(0)
            with pytest.raises(BlockingIOError):
                listener.accept()  # no connection is waiting: the stand never connected
        finally:
            proc.kill()
            proc.communicate()
