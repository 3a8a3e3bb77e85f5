"""Stories: a bot posts them on behalf of a business account, and the stand has no business connection.

postStory and editStory parse ``content`` first (Client.cpp ``get_input_story_content``), then ask for the
connection; deleteStory and repostStory ask for it at once (after ``from_chat_id``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.absent import no_business_connection
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, loads
from tgfake.wire import ATTACH

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True

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


def check_story_content(p: Params) -> None:
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
    if not (ref.startswith(ATTACH) and ref[len(ATTACH) :] in p.files):
        raise bad_request(NOT_UPLOADED.format(kind=kind))


@bot_method("postStory")
async def post_story(ctx: BotCall, p: Params) -> Any:
    """The content is checked, then there is no business connection to post it through."""
    check_story_content(p)
    raise no_business_connection()


@bot_method("editStory")
async def edit_story(ctx: BotCall, p: Params) -> Any:
    """The content is checked, then there is no business connection whose story it could be."""
    check_story_content(p)
    raise no_business_connection()


@bot_method("deleteStory")
async def delete_story(ctx: BotCall, p: Params) -> Any:
    """No business connection, so no story: `business connection not found`."""
    raise no_business_connection()


@bot_method("repostStory")
async def repost_story(ctx: BotCall, p: Params) -> Any:
    """`from_chat_id` is required, then there is no business connection to repost through."""
    raise no_business_connection()
