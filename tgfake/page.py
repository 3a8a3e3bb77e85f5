"""The chat page at ``/``: a person's side of the conversation in a browser, for looking, not for tests.

The page is one self-contained HTML file (inline CSS and JavaScript, no outside assets) that talks
only to ``/sim/*``; it is read once and served for any HTTP method at exactly ``/``.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from aiohttp import web

__all__ = ["page_html", "register_page"]


@cache
def page_html() -> bytes:
    """The page's bytes, read from the package once."""
    return files("tgfake").joinpath("page.html").read_bytes()


async def _serve_page(request: web.Request) -> web.Response:
    return web.Response(body=page_html(), content_type="text/html", charset="utf-8")


def register_page(app: web.Application) -> None:
    """Serve the chat page at ``/`` (exact path, any method)."""
    app.router.add_route("*", "/", _serve_page)
