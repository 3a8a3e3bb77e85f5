"""Every aiohttp AppKey of the stand, in one place (state lives on the app, never in module globals)."""

from __future__ import annotations

from aiohttp import web

from tgfake.stand import Stand

STAND = web.AppKey("tgfake.stand", Stand)
