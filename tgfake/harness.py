"""A stand served from a thread, a bot under test as a subprocess, and the sim API's refusal: what the testing
client (``tgfake.testing`` re-exports them) and the tools that start a bot (``tgfake.botrun``: explore, load)
share. It imports nothing of either, so the testing client may offer the tools (``StandClient.explore``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

DEFAULT_BOT_TOKEN = "123456:tgfake"
"""The token handed to a bot under test when the stand accepts any token."""

DEFAULT_READY_TIMEOUT = 60.0
"""How long a bot under test has to make its first Bot API call: generous, since an import can take 10 s on a busy
machine and a green run never waits it out."""

HTTP_SLACK = 5.0
"""How much longer than a server-held wait the HTTP request itself may take."""


class SimAPIError(Exception):
    """The sim API refused a request: ``status`` and the ``error`` text it answered."""

    def __init__(self, status: int, message: str, path: str) -> None:
        super().__init__(f"{path}: HTTP {status}: {message}")
        self.status = status
        self.message = message
        self.path = path


MAX_HELD_WAIT = 60.0
"""The longest wait ``GET /sim/wait`` holds; a longer readiness wait is a series of them."""

# ----------------------------------------------------------------------------------------------------------
# A stand in a thread


class ThreadedStand:
    """A stand served from a daemon thread with its own event loop, on a free loopback port.

    The bot under test (a subprocess, or client code in the test) talks to it while the test's own
    thread is blocked in a sync step, which is why it cannot share pytest-asyncio's loop.
    """

    def __init__(self, options: Any = None, *, model: Any = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.options = options
        self.model = model
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        if not self._ready.is_set():
            raise RuntimeError("the stand is not started")
        return f"http://{self.host}:{self.port}"

    def start(self) -> str:
        self._thread = threading.Thread(target=self._serve, name="tgfake-stand", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise RuntimeError(f"the stand did not start: {self._error!r}") from self._error
        if not self._ready.is_set():
            raise RuntimeError("the stand did not start within 30 s")
        return self.url

    def _serve(self) -> None:
        from tgfake.app import create_app  # imported late: the testing client works without the server
        from tgfake.server import serve

        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            app = create_app(self.options, model=self.model)
            runner, self.port = loop.run_until_complete(serve(app, self.host, self.port, shutdown_timeout=2.0))
        except BaseException as e:  # reported to the starting thread
            self._error = e
            loop.close()
            self._ready.set()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(runner.cleanup())
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(15)
        self._thread = None

    def __enter__(self) -> ThreadedStand:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# ----------------------------------------------------------------------------------------------------------
# A bot under test


class _HasURL(Protocol):
    @property
    def url(self) -> str: ...


def bot_environment(url: str, *, token: str = "") -> dict[str, str]:
    """The environment an example bot reads: the stand's origin, a token, the model's base URL and a key."""
    return {
        "TELEGRAM_API": url.rstrip("/"),
        "BOT_TOKEN": token or DEFAULT_BOT_TOKEN,
        "OPENAI_BASE_URL": url.rstrip("/") + "/v1",
        "OPENAI_API_KEY": "tgfake",
    }


class BotProcess:
    """A bot under test as a subprocess, its output (stdout and stderr) kept in a file for failure reports."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        name: str = "",
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("the bot command is empty")
        if self.argv[0] in ("python", "python3"):
            self.argv[0] = sys.executable  # the interpreter running the tests, with the same packages
        self.env = dict(env or {})
        self.cwd = cwd
        self.name = name or Path(self.argv[-1]).name
        fd, self._log_path = tempfile.mkstemp(prefix="tgfake-bot-", suffix=".log")
        os.close(fd)
        self._proc: subprocess.Popen[bytes] | None = None
        self._exited = threading.Event()  # set by the watcher thread once the process has exited
        self._wakers: list[threading.Event] = []  # readiness waits to wake when it exits

    def start(self) -> BotProcess:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        with open(self._log_path, "wb") as log:
            proc = subprocess.Popen(
                self.argv,
                env=env,
                cwd=self.cwd,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        self._proc = proc
        exited = self._exited = threading.Event()

        def watch() -> None:  # waitpid in a thread: the exit is an event, no one polls for it
            proc.wait()
            exited.set()
            for wake in list(self._wakers):
                wake.set()

        threading.Thread(target=watch, name=f"tgfake-bot-{proc.pid}", daemon=True).start()
        return self

    @property
    def pid(self) -> int:
        return self._proc.pid if self._proc else 0

    @property
    def token(self) -> str:
        """The token the bot was given (``BOT_TOKEN`` of its environment)."""
        return self.env.get("BOT_TOKEN", "")

    @property
    def returncode(self) -> int | None:
        return None if self._proc is None else self._proc.returncode if self._exited.is_set() else None

    def alive(self) -> bool:
        return self._proc is not None and not self._exited.is_set()

    def output(self, offset: int = 0) -> str:
        """What the bot printed (from byte ``offset``)."""
        try:
            with open(self._log_path, "rb") as f:
                f.seek(offset)
                return f.read().decode(errors="replace")
        except FileNotFoundError:
            return ""

    def output_size(self) -> int:
        try:
            return os.path.getsize(self._log_path)
        except OSError:
            return 0

    def wait_ready(
        self,
        client: _HasURL | str,
        *,
        since: int = 0,
        timeout: float = DEFAULT_READY_TIMEOUT,
        token: str | None = None,
    ) -> None:
        """Block until the bot has made its own first Bot API call: one made with its token (``token``, else the
        ``BOT_TOKEN`` it was given) after outbox seq ``since``, while it runs.

        The call is waited for on the stand (``GET /sim/wait?token=``, held server-side) and the process's exit
        from a thread (``waitpid``), so nothing polls: a bot that exits first fails at once, with its output; one
        that makes no call (it only sleeps, or calls with another token) fails after ``timeout`` seconds. An async
        test runs this in a thread (``await asyncio.to_thread(bot.wait_ready, atgfake)``).
        """
        if self._proc is None:
            raise RuntimeError(f"the bot {self.name} is not started")
        token = self.token if token is None else token
        url = client if isinstance(client, str) else client.url
        done = threading.Event()
        called: list[bool] = []
        failed: list[BaseException] = []

        def on_stand() -> None:  # server-held waits of at most a minute each, until the deadline
            try:
                deadline = time.monotonic() + timeout
                while not called and not self._exited.is_set():
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    wait = min(remaining, MAX_HELD_WAIT)
                    if _token_called(url, since, wait, token):
                        called.append(True)
            except BaseException as exc:  # reported by the waiting thread
                failed.append(exc)
            finally:
                done.set()

        self._wakers.append(done)
        try:
            if not self._exited.is_set():
                threading.Thread(target=on_stand, name=f"tgfake-ready-{self.pid}", daemon=True).start()
                done.wait()
        finally:
            self._wakers.remove(done)
        if called:
            return
        if failed:
            raise failed[0]
        code = self.returncode
        if code is not None:
            why = f"exited with status {code}"
        else:
            why = f"made no Bot API call with its token {token!r} within {timeout:g} s"
        raise AssertionError(f"the bot {self.name} {why}; its output:\n{self.output()}")

    def stop(self, timeout: float = 5.0) -> int | None:
        """SIGTERM, then SIGKILL after ``timeout``; the exit status."""
        proc = self._proc
        if proc is None:
            return None
        if not self._exited.is_set():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            if not self._exited.wait(timeout):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                self._exited.wait()
        return proc.returncode

    def close(self) -> None:
        self.stop()
        with contextlib.suppress(OSError):
            os.unlink(self._log_path)

    def __enter__(self) -> BotProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _token_called(url: str, since: int, timeout: float, token: str) -> bool:
    """``GET /sim/wait?token=``: held by the stand until a call made with ``token`` comes after ``since``; False
    at the deadline (408)."""
    query = urllib.parse.urlencode({"token": token, "since": since, "count": 1, "timeout": f"{timeout:.3f}"})
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/sim/wait?{query}", timeout=timeout + HTTP_SLACK):
            return True
    except urllib.error.HTTPError as exc:
        with exc:
            if exc.code == 408:
                return False
            raise SimAPIError(exc.code, exc.read().decode(errors="replace"), "/sim/wait") from None
