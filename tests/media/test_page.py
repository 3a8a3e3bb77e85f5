"""The chat page: served at exactly ``/`` as self-contained HTML that talks only to /sim/."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from tests.requirements import require_program
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


def test_page_script_parses() -> None:
    require_program("node", "the page script check", "apt-get install nodejs")
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


LINK_CASES = {
    "https://example.com/a?b=1": "https://example.com/a?b=1",
    "http://127.0.0.1:8080/": "http://127.0.0.1:8080/",
    "tg://resolve?domain=tgfake_bot": "tg://resolve?domain=tgfake_bot",
    "javascript:alert(1)": None,
    "JavaScript:alert(1)": None,
    "java\tscript:alert(1)": None,  # the URL parser drops the tab: still javascript:
    "data:text/html,<script>alert(1)</script>": None,
    "file:///etc/passwd": None,
    "blob:https://example.com/x": None,
    "vbscript:msgbox(1)": None,
    "/sim/reset": None,  # not absolute: no page-relative address is opened either
    "": None,
}


def test_the_page_opens_only_http_and_tg_links() -> None:
    """The page's own guard, run in node: only http(s) and tg addresses reach ``window.open``."""
    require_program("node", "the page's link guard check", "apt-get install nodejs")
    html = page_html().decode()
    guard = re.search(r"  const BUTTON_LINKS = .*?\n  function openLink\(.*?\n  }\n", html, re.DOTALL)
    assert guard is not None
    assert html.count("window.open(") == 1  # every link goes through openLink
    assert "openLink(b.url, BUTTON_LINKS)" in html
    assert "openLink(d.url, MINI_APP_LINKS)" in html
    script = (
        "const opened = []; const window = {open: (u) => opened.push(u)};\n"
        + guard.group(0)
        + "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
        "const out = {};\n"
        "for (const url of cases) { opened.length = 0; openLink(url, BUTTON_LINKS); out[url] = opened[0] ?? null; }\n"
        "opened.length = 0; openLink('tg://resolve?domain=x', MINI_APP_LINKS); out.miniAppTg = opened[0] ?? null;\n"
        "console.log(JSON.stringify(out));\n"
    )
    done = subprocess.run(
        ["node", "-e", script], input=json.dumps(list(LINK_CASES)), capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {**LINK_CASES, "miniAppTg": None}
