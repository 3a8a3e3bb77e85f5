"""``GET /file/bot<token>/<file_path>``: the bytes behind a getFile answer, where client libraries fetch them.

python-telegram-bot (``base_file_url``) and aiogram (``TelegramAPIServer.file``) build this URL themselves, so
``download_as_bytearray()`` and ``bot.download(...)`` work against the stand unchanged. A bot configured for
Telegram's test environment fetches ``/file/bot<token>/test/<file_path>``: the same bytes.
"""

from __future__ import annotations

from aiohttp import web

from tgfake import errors
from tgfake.filestore import MAX_DOWNLOAD_BYTES, by_path
from tgfake.keys import stand_of
from tgfake.wire import envelope_response, file_response

ROUTE = "/file/bot{token}/{path:.+}"


async def download(request: web.Request) -> web.StreamResponse:
    """A wrong token (when the stand has one) is 401 as on the Bot API; a path getFile would not name is 404."""
    stand = stand_of(request)
    token = request.match_info["token"]
    if stand.options.all_tokens and token not in stand.options.all_tokens:
        return envelope_response(401, {"ok": False, "error_code": 401, "description": errors.UNAUTHORIZED})
    path = request.match_info["path"]
    stored = by_path(stand, path) or (by_path(stand, path[5:]) if path.startswith("test/") else None)
    if stored is None or stored.size > MAX_DOWNLOAD_BYTES:
        return envelope_response(404, {"ok": False, "error_code": 404, "description": errors.NOT_FOUND})
    return file_response(stored.data, stored.mime_type, stored.name)
