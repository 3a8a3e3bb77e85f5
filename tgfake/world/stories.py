"""Stories a bot posts on a business account through its connection (``can_manage_stories``): posted, edited,
deleted, and reposted from another business account the same bot manages. Rules over
:class:`~tgfake.world.business_state.Account`'s stories.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.chats import Chat
from tgfake.errors import bad_request
from tgfake.world import business
from tgfake.world.business_state import Story

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.business_state import Connection
    from tgfake.world.telegram import Telegram

ACTIVE_PERIODS = frozenset({6 * 3600, 12 * 3600, 86400, 2 * 86400})
"""How long a story may stay up (the Bot API's four choices); another is the server's STORY_PERIOD_INVALID."""


def story_json(conn: Connection, story_id: int) -> dict[str, Any]:
    """The Bot API Story: the account's private chat with the bot, and the story's id (Client.cpp's JsonStory)."""
    return {"chat": Chat(id=conn.owner.id, type="private", user=conn.owner).json(), "id": story_id}


def managing(t: Telegram, bot: Bot, connection_id: str) -> Connection:
    return business.managed(t, bot, connection_id, "can_manage_stories")


def post(
    t: Telegram,
    conn: Connection,
    content: dict[str, Any],
    caption: dict[str, Any],
    areas: list[Any],
    active_period: int,
) -> dict[str, Any]:
    if active_period not in ACTIVE_PERIODS:
        raise bad_request(errors.STORY_PERIOD_INVALID)
    account = t.world.business.account(conn.owner.id)
    story = Story(
        id=account.next_story_id,
        connection_id=conn.id,
        content=content,
        active_period=active_period,
        date=t.unix_now(),
        caption=caption.get("text", ""),
        entities=caption.get("entities", []),
        areas=areas,
    )
    account.next_story_id += 1
    account.stories[story.id] = story
    return story_json(conn, story.id)


def _story(t: Telegram, conn: Connection, story_id: int) -> Story:
    story = t.world.business.account(conn.owner.id).stories.get(story_id)
    if story is None or story.deleted:
        raise bad_request(errors.STORY_ID_INVALID)
    return story


def edit(
    t: Telegram, conn: Connection, story_id: int, content: dict[str, Any], caption: dict[str, Any], areas: list[Any]
) -> dict[str, Any]:
    story = _story(t, conn, story_id)
    story.content = content
    story.caption = caption.get("text", "")
    story.entities = caption.get("entities", [])
    story.areas = areas
    return story_json(conn, story.id)


def delete(t: Telegram, conn: Connection, story_id: int) -> None:
    _story(t, conn, story_id).deleted = True


def repost(
    t: Telegram, bot: Bot, conn: Connection, from_chat_id: int, story_id: int, active_period: int
) -> dict[str, Any]:
    """A story of another business account the same bot manages (its owner's id is ``from_chat_id``), posted
    again on this one; the source connection needs ``can_manage_stories`` too."""
    source = next(
        (c for c in t.world.business.connections.values() if c.bot is bot and c.owner.id == from_chat_id), None
    )
    if source is None:
        raise bad_request(errors.CHAT_NOT_FOUND)
    business.require(source, "can_manage_stories")
    original = _story(t, source, story_id)
    caption = {"text": original.caption, "entities": original.entities}
    return post(t, conn, dict(original.content), caption, list(original.areas), active_period)
