"""A stand served on a real port from its own thread, for synchronous Gherkin steps.

pytest-bdd steps are plain functions; the stand must keep serving between them, so it runs on its
own event loop in a thread (the pytest-httpserver arrangement) and the steps talk plain HTTP to it.
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from aiohttp import web

from tgfake.app import create_app
from tgfake.clock import ManualClock
from tgfake.options import Options

TIMEOUT = 10.0


class ThreadedStand:
    """``create_app`` on 127.0.0.1:<free port>, with a manual clock the scenario moves."""

    def __init__(self, options: Options | None = None, clock: ManualClock | None = None) -> None:
        self.options = options or Options(poll_max=1.0)
        self.clock = clock or ManualClock()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="tgfake-stand", daemon=True)
        self.runner: web.AppRunner | None = None
        self.origin = ""

    def start(self) -> ThreadedStand:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(TIMEOUT)
        return self

    async def _start(self) -> None:
        self.runner = web.AppRunner(create_app(self.options, clock=self.clock))
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", 0).start()
        host, port = self.runner.addresses[0][:2]
        self.origin = f"http://{host}:{port}"

    def stop(self) -> None:
        if self.runner is not None:
            asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(TIMEOUT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)
        self.loop.close()

    # --- plain HTTP, as any bot or test in any language would do it ----------------------------------------------
    def request(self, method: str, path: str, body: bytes | None = None, ctype: str = "") -> tuple[int, bytes]:
        req = urllib.request.Request(self.origin + path, data=body, method=method)
        if ctype:
            req.add_header("Content-Type", ctype)
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as err:
            with err:
                return err.code, err.read()

    def bot(self, token: str, method: str, **params: Any) -> Any:
        """A Bot API call sent as a form; returns ``result`` (the call must succeed)."""
        form = urllib.parse.urlencode({k: str(v) for k, v in params.items()}).encode()
        status, raw = self.request("POST", f"/bot{token}/{method}", form, "application/x-www-form-urlencoded")
        body = json.loads(raw)
        assert (status, body["ok"]) == (200, True), body
        return body["result"]

    def sim(self, method: str, path: str, body: Any = None) -> Any:
        """A sim call; returns the decoded answer (the call must succeed)."""
        data = None if body is None else json.dumps(body).encode()
        status, raw = self.request(method, path, data, "application/json" if data is not None else "")
        assert status == 200, raw
        return json.loads(raw)

    def text(self, chat_id: int = 4242) -> str:
        status, raw = self.request("GET", f"/sim/chat/{chat_id}?format=text")
        assert status == 200
        return raw.decode()
