"""getFile: where a bot downloads a file from (``/file/bot<token>/<file_path>``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.registry import bot_method
from tgfake.filestore import for_get_file, get_file_json
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


@bot_method("getFile")
async def get_file(ctx: BotCall, p: Params) -> Any:
    """The File object of a photo or document the stand holds (the bot's uploads and the person's files alike)."""
    return get_file_json(for_get_file(ctx.telegram, p.text("file_id").strip()))
