"""The load report's page in Chromium: every chart drawn, nothing fetched, no script error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import browser, page  # noqa: F401 - the browser tests' fixtures
from tgfake.load import LoadReport
from tgfake.load.html import write_html


def test_the_report_draws_its_charts_offline(page: Any, tmp_path: Path) -> None:  # noqa: F811
    rows = [{"t": i, "offered": 30, "delivered": 30 - i, "answered": 25 - i, "p50": 2.0 + i, "p90": 4.0 + i,
             "p99": 9.0 + 3 * i, "max": 12.0 + 3 * i, "errors": i % 2, "too_many": i % 2, "webhook_failures": 0,
             "backlog": 2 * i, "cpu": 20.0, "rss_mb": 80.0} for i in range(6)]  # fmt: skip
    totals = {"offered": 180, "calls": {"sendMessage": 150}, "refusals": {"Too Many Requests: retry after 1": 3}}
    settings = {"people": 10, "groups": 1, "rate": 30, "flood": True}
    report = LoadReport({"seconds": rows, "settings": settings, "totals": totals, "stopped": "duration",
                         "elapsed": 6.0, "bot": {"username": "tgfake_bot"}})  # fmt: skip
    target = tmp_path / "load.html"
    write_html(report, target)
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(target.as_uri())
    figures = page.locator("figure")
    assert figures.count() == 5
    for n in range(5):
        box = figures.nth(n).locator("svg").first.bounding_box()
        assert box is not None
        assert box["width"] > 500
        assert box["height"] > 150
    assert page.locator("polyline").count() == 12
    assert page.get_by_text("Too Many Requests: retry after 1").is_visible()
    assert fetched == [target.as_uri()]  # the page alone: no style, script or font from anywhere
