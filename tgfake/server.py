"""Serving a stand's app on a TCP port: shared by the command and by the threaded stand of the test plugin."""

from __future__ import annotations

from aiohttp import web

SHUTDOWN_TIMEOUT = 5.0


async def serve(app: web.Application, host: str, port: int, *, shutdown_timeout: float = SHUTDOWN_TIMEOUT) -> tuple[
    web.AppRunner, int
]:
    """Start serving ``app``; returns the runner (``cleanup()`` stops it) and the bound port (port 0 picks one).

    ``handler_cancellation`` makes a client that goes away cancel its handler: a held poll is then neither
    answered nor recorded, and a model stream or a delayed step stops at once. Raises OSError when the port
    cannot be bound.
    """
    runner = web.AppRunner(app, handler_cancellation=True, shutdown_timeout=shutdown_timeout, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host or None, port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    bound = port
    for address in runner.addresses:
        if isinstance(address, tuple):
            bound = int(address[1])
            break
    return runner, bound
