"""The browser fixtures of tests/browser (Playwright on the system Chromium), for the business chat on the page."""

from tests.browser.conftest import browser, page

__all__ = ["browser", "page"]
