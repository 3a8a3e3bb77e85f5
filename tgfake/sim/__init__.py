"""The simulation API under ``/sim/``: one module per concern, each with a ``routes`` table."""

from __future__ import annotations

from aiohttp import web

from tgfake.sim import (
    actions,
    business,
    channels,
    control,
    drafts,
    files,
    grants,
    inline,
    inspect,
    load,
    page_views,
    payments,
    person,
    sessions,
    webapp,
    webhook,
    world,
)
from tgfake.sim.openapi import register as register_openapi
from tgfake.sim.openapi import routes as openapi_routes
from tgfake.wire import answering

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
    load.routes,
    channels.routes,
    business.routes,
)


def register_sim(app: web.Application) -> None:
    """Add every sim route, each handler wrapped by :func:`~tgfake.wire.answering` (sim refusals as JSON)."""
    for table in (*ROUTE_TABLES, openapi_routes):
        for route in table:
            assert isinstance(route, web.RouteDef)
            app.router.add_route(route.method, route.path, answering(route.handler), **route.kwargs)
    register_openapi(app)  # GET /sim/openapi.json, which describes all of the above
