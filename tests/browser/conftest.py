"""Browser fixtures: Playwright driving the system Chromium (Debian's package; Playwright downloads no browser)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.requirements import missing

sync_api: Any
try:  # the test extra installs it; without it the browser tests skip
    from playwright import sync_api
except ImportError:  # pragma: no cover
    sync_api = None

__all__ = ["CHROMIUM", "WAIT_MS", "sync_api"]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""CI installs Chromium (.ci/run); a developer machine without it skips the browser tests, and says so."""
WAIT_MS = 10_000
"""How long an expectation waits for the page to show something (it polls the sim API every 0.7 s)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or sync_api is None:
        why = "chromium or playwright is not installed (apt-get install chromium; pip install -e '.[test]')"
        missing(why, "the browser tests")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser context (no state shared between tests), light theme, a desktop-sized window; a script error
    on the page fails the test."""
    context = browser.new_context(viewport={"width": 1360, "height": 820}, color_scheme="light", timezone_id="UTC")
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == []
