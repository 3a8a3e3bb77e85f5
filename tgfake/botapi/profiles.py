"""getUserProfilePhotos and getUserProfileAudios: the photos and audios a person put on their profile.

Read as Client.cpp reads them: ``user_id`` must be positive (``invalid user_id specified``, the precheck) and
someone the stand knows (``check_user``: ``user not found``); ``offset`` and ``limit`` are never refused but
clamped (``get_integer_arg``: offset at least 0, limit 1..100, 100 when absent). The profiles are set through
``POST /sim/profile`` (tgfake/world/files.py) and the bot's setMyProfilePhoto; everyone starts with none. A profile
photo is its PhotoSize array in a profile photo's sizes (squares of 160, 320, 640 px: tgfake/filestore.py
``draw_sizes``); a profile audio is the Audio object of a send.
getChat of a person shows the newest of each (``photo``, ``first_profile_audio``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.absent import known_user
from tgfake.botapi.managed import int_arg
from tgfake.botapi.registry import bot_method
from tgfake.content import Media, StoredFile, media_json, photo_sizes
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_LIMIT = 100


def _page(ctx: BotCall, p: Params, kind: str) -> tuple[int, list[Any]]:
    user_id = known_user(ctx, p)
    limit = int_arg(p, "limit", 1, MAX_LIMIT) if p.text("limit") else MAX_LIMIT
    return ctx.world.profiles.page(kind, user_id, int_arg(p, "offset", 0), limit)


@bot_method("getUserProfilePhotos")
async def get_user_profile_photos(ctx: BotCall, p: Params) -> Any:
    """UserProfilePhotos: the total, and each photo of the page as its PhotoSize array (newest first)."""
    total, photos = _page(ctx, p, "photos")
    return {"total_count": total, "photos": [photo_sizes(f) for f in photos]}


@bot_method("getUserProfileAudios")
async def get_user_profile_audios(ctx: BotCall, p: Params) -> Any:
    """UserProfileAudios (Bot API 10.x): the total, and the page's Audio objects as a message shows them."""
    total, audios = _page(ctx, p, "audios")
    return {"total_count": total, "audios": [audio_json(f) for f in audios]}


def audio_json(f: StoredFile) -> dict[str, Any]:
    """A profile audio as the Audio object a message with it shows (also getChat's ``first_profile_audio``)."""
    return dict(media_json(Media("audio", f))["audio"])
