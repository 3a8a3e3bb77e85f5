"""The chat page at ``/``: a person's side of the conversation in a browser, for looking, not for tests.

The page is one self-contained HTML file (inline CSS and JavaScript, no outside assets) that talks
only to ``/sim/*``; it is read from the package's data when the app is built and served from memory for any HTTP
method at exactly ``/``, so reinstalling the package under a running stand cannot take the page away.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from aiohttp import web

__all__ = ["page_html", "register_page"]


@cache
def page_html() -> bytes:
    """The page's bytes, read from the package's data once."""
    return files("tgfake").joinpath("page.html").read_bytes()


def register_page(app: web.Application) -> None:
    """Serve the chat page at ``/`` (exact path, any method), its bytes read now, at start, and kept."""
    body = page_html()

    async def serve_page(request: web.Request) -> web.Response:
        return web.Response(body=body, content_type="text/html", charset="utf-8")

    app.router.add_route("*", "/", serve_page)
