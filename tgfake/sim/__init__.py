"""The simulation API under ``/sim/``: one module per concern, each with a ``routes`` table."""

from __future__ import annotations

from aiohttp import web

from tgfake.sim import (
    actions,
    control,
    drafts,
    files,
    grants,
    inline,
    inspect,
    page_views,
    payments,
    person,
    sessions,
    webapp,
    webhook,
    world,
)
from tgfake.sim.openapi import register as register_openapi

ROUTE_TABLES = (
    person.routes,
    inspect.routes,
    control.routes,
    files.routes,
    drafts.routes,
    webapp.routes,
    webhook.routes,
    world.routes,
    sessions.routes,
    actions.routes,
    payments.routes,
    grants.routes,
    page_views.routes,
    inline.routes,
)


def register_sim(app: web.Application) -> None:
    for table in ROUTE_TABLES:
        app.router.add_routes(table)
    register_openapi(app)  # GET /sim/openapi.json, which describes all of the above
