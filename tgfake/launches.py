"""Opening a Mini App as Telegram would: the launch address and the launch data signed with the bot's token.

Transport-free: the sim route ``POST /sim/webapp/launch`` and in-process callers share this.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tgfake import webapp
from tgfake.chats import type_for_id
from tgfake.errors import SimError
from tgfake.models import LaunchIn
from tgfake.world.inline_state import WebAppQuery

if TYPE_CHECKING:
    from tgfake.world.telegram import Telegram

NO_TOKEN = "no bot token to sign with yet: let the bot call the stand first, or start it with --token"
NO_MINI_APP = "no Mini App to open: give a url, or let the bot set a web_app menu button"


def go_json(value: Any) -> str:
    """JSON as Go's encoder writes a map: keys sorted, compact, ``<``, ``>`` and ``&`` escaped."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def launch(stand: Telegram, req: LaunchIn) -> dict[str, Any]:
    """The launch: ``url`` (launch parameters in its fragment), ``init_data``, ``theme_params``, ``version``,
    ``platform``. Refused (SimError 400) without a signing token, without a Mini App, or for an address
    Telegram would not open. Each launch uses the next ``query_id`` (``tgfake-N``, never reset)."""
    bot = stand.find_bot(req.bot)
    token = bot.token
    if not token:
        raise SimError(400, NO_TOKEN)
    url = req.url
    if not url:
        chat = stand.chat_of(bot, req.chat_id) if req.chat_id else None
        kind = chat.type if chat is not None else type_for_id(req.chat_id) if req.chat_id else "private"
        button = bot.menus.shown(req.chat_id, kind)
        if button.get("type") != "web_app":
            raise SimError(400, NO_MINI_APP)
        url = button["web_app"]["url"]
    problem = webapp.url_problem(url)
    if problem is not None:
        raise SimError(400, problem)
    person = stand.person(req.user_id, req.username, req.first_name, name_from_username=True)
    user: dict[str, Any] = {
        "allows_write_to_pm": True,
        "first_name": person.first_name,
        "id": person.id,
        "language_code": "en",
    }
    if person.username:
        user["username"] = person.username
    fields = {
        "auth_date": str(stand.unix_now()),
        "query_id": f"tgfake-{stand.next_query_id}",
        "user": go_json(user),
    }
    stand.next_query_id += 1
    stand.world.inline.web_app_queries[fields["query_id"]] = WebAppQuery(
        fields["query_id"], bot.id, person.id, req.chat_id or person.id
    )
    if req.start_param:
        fields["start_param"] = req.start_param
    init_data = webapp.sign(fields, token)
    scheme = "light" if req.color_scheme.strip().lower() == "light" else webapp.DEFAULT_COLOR_SCHEME
    theme = webapp.theme_params(scheme)
    version = req.version or webapp.VERSION
    platform = req.platform or webapp.PLATFORM
    params = {
        "tgWebAppData": init_data,
        "tgWebAppPlatform": platform,
        "tgWebAppThemeParams": go_json(theme),
        "tgWebAppVersion": version,
    }
    return {
        "url": webapp.append_launch_params(url.strip(), params, req.start_param),
        "init_data": init_data,
        "theme_params": theme,
        "version": version,
        "platform": platform,
    }
