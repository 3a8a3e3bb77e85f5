"""The chat page: served at exactly ``/`` as self-contained HTML that talks only to /sim/."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from tgfake.page import page_html, register_page

HOOKS = [
    "__tgfakeMiniApp",
    "events",
    "backVisible",
    "closingConfirmation",
    "headerColor",
    "backgroundColor",
    "bottomBarColor",
    "setState",
    "sendViewport",
    "sendTheme",
    "webViewHeight",
    "visibleHeight",
    "safeArea",
    "contentSafeArea",
]
ELEMENT_IDS = ["miniapp", "miniappFrame", "miniappBack", "miniappLog"]
EVENTS = [
    "web_app_ready",
    "web_app_expand",
    "web_app_request_viewport",
    "web_app_request_theme",
    "web_app_request_safe_area",
    "web_app_request_content_safe_area",
    "web_app_setup_back_button",
    "web_app_setup_swipe_behavior",
    "web_app_setup_closing_behavior",
    "web_app_set_header_color",
    "web_app_set_background_color",
    "web_app_set_bottom_bar_color",
    "web_app_open_link",
    "web_app_close",
    "viewport_changed",
    "theme_changed",
    "safe_area_changed",
    "content_safe_area_changed",
    "back_button_pressed",
]


@pytest_asyncio.fixture
async def client() -> AsyncIterator[TestClient[web.Request, web.Application]]:
    app = web.Application()
    register_page(app)
    async with TestClient(TestServer(app)) as c:
        yield c


@pytest.mark.parametrize("method", ["GET", "POST", "HEAD", "PUT"])
async def test_page_is_served_as_html_for_any_method(
    client: TestClient[web.Request, web.Application], method: str
) -> None:
    resp = await client.request(method, "/")
    assert resp.status == 200
    assert resp.headers["Content-Type"] == "text/html; charset=utf-8"
    body = await resp.read()
    if method != "HEAD":
        assert body == page_html()
        assert body.startswith(b"<!doctype html>")


async def test_only_the_exact_root_is_the_page(client: TestClient[web.Request, web.Application]) -> None:
    resp = await client.get("/index.html")
    assert resp.status == 404


def test_page_talks_only_to_the_sim_api() -> None:
    html = page_html().decode()
    assert "/sim/" in html
    # Every address the script builds starts with the sim base of the page's own session (/sim/ at the root,
    # /s/<id>/sim/ under a session), directly or through the sim() helper; nothing else is fetched.
    assert 'const SIM = location.pathname.replace(/\\/+$/, "") + "/sim/";' in html
    fetched = re.findall(r"fetch\(\s*([^,)]*)", html)
    assert fetched
    assert all(arg.startswith("SIM + ") for arg in fetched), fetched
    assert "fetch(SIM + path" in html


def test_page_has_no_outside_assets() -> None:
    html = page_html().decode()
    assert not re.search(r"<script[^>]*\bsrc=", html, re.IGNORECASE)
    assert not re.search(r"<link\b", html, re.IGNORECASE)
    style = re.search(r"<style>(.*)</style>", html, re.DOTALL)
    assert style is not None
    assert not re.search(r"@import|url\(", style.group(1), re.IGNORECASE)
    assert not re.search(r"(src|href)=\"(https?:)?//", html, re.IGNORECASE)


def test_page_has_the_mini_app_hooks_elements_and_events() -> None:
    html = page_html().decode()
    for name in HOOKS + EVENTS:
        assert name in html, name
    for element_id in ELEMENT_IDS:
        assert f'id="{element_id}"' in html, element_id
    assert 'allow="clipboard-read; clipboard-write"' in html


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_page_script_parses() -> None:
    script = re.search(r"<script>(.*)</script>", page_html().decode(), re.DOTALL)
    assert script is not None
    check = subprocess.run(
        ["node", "-e", "new Function(require('fs').readFileSync(0, 'utf8'))"],
        input=script.group(1),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert check.returncode == 0, check.stderr
