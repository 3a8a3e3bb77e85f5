"""Stories: a bot posts them on behalf of a business account through its connection (``can_manage_stories``;
the rules in tgfake/world/stories.py).

postStory and editStory parse ``content``, ``areas`` and the caption first (Client.cpp ``get_input_story_content``,
``get_input_story_areas``, ``get_caption``), then ask for the connection; deleteStory and repostStory ask for it at
once (after ``from_chat_id``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.common import caption_text, entities_json
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, loads, to_integer
from tgfake.wire import ATTACH
from tgfake.world import stories

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

CONTENT_MISSING = "Bad Request: story content isn't specified"
CONTENT_BAD = "Bad Request: can't parse story content JSON object"
CONTENT_NOT_OBJECT = "Bad Request: object expected as story content"
CONTENT_TYPE_BAD = "Bad Request: invalid story content type specified"
FIELD_MISSING = 'Bad Request: can\'t find field "{name}"'
FIELD_NOT_STRING = 'Bad Request: field "{name}" must be of type String'
NOT_UPLOADED = "Bad Request: story {kind} must be uploaded as a file"


def _string_field(obj: dict[str, Any], name: str) -> str:
    """TDLib's ``get_required_string_field``: a string, or a number taken as its text."""
    if name not in obj:
        raise bad_request(FIELD_MISSING.format(name=name))
    value = obj[name]
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise bad_request(FIELD_NOT_STRING.format(name=name))
    return str(value)


def check_story_content(p: Params) -> dict[str, Any]:
    """``content``: an InputStoryContentPhoto or ...Video whose file is a part of this multipart request."""
    raw = p.text("content")
    if not raw:
        raise bad_request(CONTENT_MISSING)
    try:
        content = loads(raw)
    except ValueError:
        raise bad_request(CONTENT_BAD) from None
    if not isinstance(content, dict):
        raise bad_request(CONTENT_NOT_OBJECT)
    kind = _string_field(content, "type")
    if kind not in ("photo", "video"):
        raise bad_request(CONTENT_TYPE_BAD)
    ref = _string_field(content, kind)
    upload = p.files.get(ref[len(ATTACH) :]) if ref.startswith(ATTACH) else None
    if upload is None:
        raise bad_request(NOT_UPLOADED.format(kind=kind))
    return {"type": kind, "size": len(upload.data)}


AREAS_BAD = "Bad Request: can't parse story areas JSON object"
AREAS_NOT_ARRAY = "Bad Request: expected an Array of InputStoryArea"


def story_areas(p: Params) -> list[Any]:
    """``get_input_story_areas``: absent is none; else a JSON array (the areas themselves are kept as given)."""
    raw = p.text("areas")
    if not raw:
        return []
    try:
        areas = loads(raw)
    except ValueError:
        raise bad_request(AREAS_BAD) from None
    if not isinstance(areas, list):
        raise bad_request(AREAS_NOT_ARRAY)
    return areas


def story_caption(ctx: BotCall, p: Params) -> dict[str, Any]:
    caption = caption_text(p)
    return {"text": caption.text, "entities": entities_json(ctx, caption)}


def _period(p: Params) -> int:
    return max(0, min(to_integer(p.text("active_period")), 1_000_000_000))  # get_integer_arg clamps


def _story_id(p: Params) -> int:
    return max(0, min(to_integer(p.text("story_id")), 1_000_000_000))


@bot_method("postStory")
async def post_story(ctx: BotCall, p: Params) -> Any:
    """A story on the business account: the content, areas and caption, then the connection with
    ``can_manage_stories``, then ``active_period`` (6 or 12 hours, 1 or 2 days: else ``STORY_PERIOD_INVALID``)."""
    content, areas, caption = check_story_content(p), story_areas(p), story_caption(ctx, p)
    conn = stories.managing(ctx.telegram, ctx.bot, p.text("business_connection_id"))
    return stories.post(ctx.telegram, conn, content, caption, areas, _period(p))


@bot_method("editStory")
async def edit_story(ctx: BotCall, p: Params) -> Any:
    """A story the account has: its content, areas and caption replaced (``STORY_ID_INVALID`` for another id)."""
    content, areas, caption = check_story_content(p), story_areas(p), story_caption(ctx, p)
    conn = stories.managing(ctx.telegram, ctx.bot, p.text("business_connection_id"))
    return stories.edit(ctx.telegram, conn, _story_id(p), content, caption, areas)


@bot_method("deleteStory")
async def delete_story(ctx: BotCall, p: Params) -> Any:
    """A story the account has is deleted (``STORY_ID_INVALID`` for another id)."""
    conn = stories.managing(ctx.telegram, ctx.bot, p.text("business_connection_id"))
    stories.delete(ctx.telegram, conn, _story_id(p))
    return True


@bot_method("repostStory")
async def repost_story(ctx: BotCall, p: Params) -> Any:
    """`from_chat_id` is required, then the connection (``can_manage_stories``), then the source account: another
    business account the bot manages with ``can_manage_stories`` (``chat not found`` for any other chat)."""
    conn = stories.managing(ctx.telegram, ctx.bot, p.text("business_connection_id"))
    return stories.repost(ctx.telegram, ctx.bot, conn, to_integer(p.text("from_chat_id")), _story_id(p), _period(p))
