"""What python-telegram-bot's example tests (``test_ptb_examples_*.py``) share: the example's Application
polling the stand for every update type with the person talking to it, and the calls the stand refused."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from telegram import Update
from telegram.ext import Application, ApplicationBuilder, BaseHandler, ContextTypes

from tests.clients import PtbApp, origin
from tests.conftest import Wire
from tests.contract.running import ptb_polling
from tgfake.testing import AsyncStandClient
from tgfake.world.people import user_id_for

BOB = user_id_for("bob")
CAROL = user_id_for("carol")

Handlers = Sequence[BaseHandler[Any, Any, Any] | tuple[BaseHandler[Any, Any, Any], int]]


@contextlib.asynccontextmanager
async def example(
    wire: Wire,
    handlers: Handlers,
    build: Callable[[ApplicationBuilder[Any, Any, Any, Any, Any, Any]], Any] | None = None,
    errors: Callable[..., Any] | None = None,
    person: AsyncStandClient | None = None,
) -> AsyncIterator[tuple[AsyncStandClient, PtbApp]]:
    """The example's Application (``build`` adds its builder steps: persistence, context types...), polling the stand
    for every update type, and the person talking to it (``person``: the same one across two runs of a bot)."""
    api = origin(wire)
    builder = Application.builder().token(wire.token).base_url(f"{api}/bot").base_file_url(f"{api}/file/bot")
    app: PtbApp = (build(builder) if build else builder).build()
    for handler in handlers:
        if isinstance(handler, tuple):
            app.add_handler(handler[0], group=handler[1])
        else:
            app.add_handler(handler)
    if errors is not None:
        app.add_error_handler(errors)
    async with ptb_polling(app, allowed_updates=Update.ALL_TYPES), contextlib.AsyncExitStack() as stack:
        yield (person if person is not None else await stack.enter_async_context(AsyncStandClient(api))), app


def refusals(wire: Wire) -> list[tuple[str, int, str]]:
    """Every Bot API call the stand refused: (method, status, description)."""
    return [(c.method, c.status, str(c.response.get("description"))) for c in wire.stand.calls() if c.status != 200]


# echobot.py's /help, which inlinebot.py answers with too.
async def echo_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None
    await update.message.reply_text("Help!")
