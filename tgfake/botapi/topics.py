"""Forum topics: create, edit, close, reopen, delete, unpin all, the General topic's six methods, and the icon list.

A topic's ``message_thread_id`` is the id of its ``forum_topic_created`` message; the General topic is thread 1
(its messages carry no thread id). Each change posts the service message Telegram posts in the topic
(``forum_topic_edited``, ``forum_topic_closed``, ``forum_topic_reopened``, ``general_forum_topic_hidden``, ...).
A bot that is not an administrator with ``can_manage_topics`` may still edit, close and delete the topics it
created, as on Telegram.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.chats import unpin_all
from tgfake.botapi.managed import WRITE, bot_member, clean_name, input_string, int_arg, lenient_int, managed_chat
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, Topic
from tgfake.errors import bad_request
from tgfake.params import Params
from tgfake.world import groups, rights
from tgfake.world.membership import post_service

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

GENERAL = 1
MAX_COLOR = 0xFFFFFF
# Custom emoji a topic icon may use (getForumTopicIconStickers); ids in Telegram's shape, made up by the stand.
ICON_EMOJI = (("5312536423851630001", "💡"), ("5312536423851630002", "📰"), ("5312536423851630003", "🔥"))


def forum(ctx: BotCall, p: Params) -> Chat:
    """The forum a topic method acts on (access first, then whether it is a forum at all)."""
    chat = managed_chat(ctx, p, WRITE)
    if not chat.is_forum:
        raise bad_request(errors.NOT_A_FORUM)
    return chat


def thread_arg(p: Params) -> int:
    """``message_thread_id``: 0 for absent, negative or garbage, which no topic has."""
    value = max(lenient_int(p.text("message_thread_id")), 0)
    if not value:
        raise bad_request(errors.TOPIC_ID_BAD)
    return value


def own_topic(ctx: BotCall, chat: Chat, thread_id: int) -> bool:
    """Whether the calling bot opened this topic (its creation message is the bot's)."""
    msg = chat.messages.get(thread_id)
    return msg is not None and msg.sender is not None and msg.sender.id == ctx.bot.id


def may(ctx: BotCall, chat: Chat, action: str, thread_id: int) -> None:
    """Managing topics needs the right, except for a topic the bot opened itself (not the General one).

    A topic the stand does not know is TOPIC_ID_INVALID whatever the rights (TDLib checks rights only for topics
    it knows, then the server refuses the id).
    """
    topic_of(chat, thread_id)
    if thread_id != GENERAL and own_topic(ctx, chat, thread_id):
        return
    rights.require(chat, bot_member(ctx, chat), action)


def topic_of(chat: Chat, thread_id: int) -> Topic:
    topic = chat.general if thread_id == GENERAL else chat.topics.get(thread_id)
    if topic is None:
        raise bad_request(errors.TOPIC_ID_INVALID)
    return topic


def announce(ctx: BotCall, chat: Chat, topic: Topic, service: dict[str, Any]) -> None:
    thread = 0 if topic is chat.general else topic.message_thread_id
    post_service(ctx.telegram, chat, ctx.bot.user, service, thread_id=thread)


@bot_method("getForumTopicIconStickers")
async def get_forum_topic_icon_stickers(ctx: BotCall, p: Params) -> Any:
    """A short fixed set of custom emoji stickers (no bytes behind them)."""
    return [
        {
            "file_id": f"topic_icon_{n}",
            "file_unique_id": f"utopic_icon_{n}",
            "type": "custom_emoji",
            "width": 512,
            "height": 512,
            "is_animated": False,
            "is_video": False,
            "emoji": emoji,
            "custom_emoji_id": emoji_id,
        }
        for n, (emoji_id, emoji) in enumerate(ICON_EMOJI, 1)
    ]


@bot_method("createForumTopic")
async def create_forum_topic(ctx: BotCall, p: Params) -> Any:
    """``icon_color`` 0 picks the next of Telegram's six colours; the name is cut to 128 characters."""
    name = p.text("name")
    color = int_arg(p, "icon_color")
    emoji_id = p.text("icon_custom_emoji_id")
    chat = forum(ctx, p)
    rights.require(chat, bot_member(ctx, chat), "create_topic")
    name = clean_name(name)
    if not name:
        raise bad_request(errors.TOPIC_NAME_EMPTY)
    if not 0 <= color <= MAX_COLOR:
        raise bad_request(errors.TOPIC_COLOR_BAD)
    emoji = str(lenient_int(emoji_id)) if lenient_int(emoji_id) else ""
    return groups.create_topic(ctx.telegram, chat, name, ctx.bot.user, color, emoji).json()


def _edit(ctx: BotCall, chat: Chat, thread_id: int, name: str, emoji: str | None) -> bool:
    """Rename and/or change the icon; a blank name keeps the old one, and no change at all is TOPIC_NOT_MODIFIED."""
    may(ctx, chat, "edit_topic", thread_id)
    cleaned = clean_name(name)
    if input_string(name) and not cleaned:  # td renames only when the cleaned input is not empty
        raise bad_request(errors.TOPIC_NAME_EMPTY)
    if not cleaned and emoji is None:
        return True
    topic = topic_of(chat, thread_id)
    service: dict[str, Any] = {}
    if cleaned and cleaned != topic.name:
        service["name"] = cleaned
    if emoji is not None and emoji != topic.icon_custom_emoji_id:
        service["icon_custom_emoji_id"] = emoji
    if not service:
        raise bad_request(errors.TOPIC_NOT_MODIFIED)
    topic.name = service.get("name", topic.name)
    topic.icon_custom_emoji_id = service.get("icon_custom_emoji_id", topic.icon_custom_emoji_id)
    announce(ctx, chat, topic, {"forum_topic_edited": service})
    return True


@bot_method("editForumTopic")
async def edit_forum_topic(ctx: BotCall, p: Params) -> Any:
    """An empty ``icon_custom_emoji_id`` removes the icon; leaving it out keeps it."""
    chat = forum(ctx, p)
    thread_id = thread_arg(p)
    raw = p.get("icon_custom_emoji_id")
    emoji = None if raw is None else (str(lenient_int(raw)) if lenient_int(raw) else "")
    return _edit(ctx, chat, thread_id, p.text("name"), emoji)


def _toggle_closed(ctx: BotCall, chat: Chat, thread_id: int, closed: bool) -> bool:
    may(ctx, chat, "close_topic", thread_id)
    topic = topic_of(chat, thread_id)
    if topic.closed == closed:
        raise bad_request(errors.TOPIC_NOT_MODIFIED)
    topic.closed = closed
    announce(ctx, chat, topic, {"forum_topic_closed" if closed else "forum_topic_reopened": {}})
    return True


@bot_method("closeForumTopic")
async def close_forum_topic(ctx: BotCall, p: Params) -> Any:
    chat = forum(ctx, p)
    return _toggle_closed(ctx, chat, thread_arg(p), True)


@bot_method("reopenForumTopic")
async def reopen_forum_topic(ctx: BotCall, p: Params) -> Any:
    chat = forum(ctx, p)
    return _toggle_closed(ctx, chat, thread_arg(p), False)


@bot_method("deleteForumTopic")
async def delete_forum_topic(ctx: BotCall, p: Params) -> Any:
    """The topic and every message in it go (flagged deleted, so transcripts keep the history)."""
    chat = forum(ctx, p)
    thread_id = thread_arg(p)
    if thread_id == GENERAL:
        raise bad_request(errors.TOPIC_ID_INVALID)
    may(ctx, chat, "delete_topic", thread_id)
    del chat.topics[thread_id]
    for msg in chat.messages.values():
        if msg.thread_id == thread_id or msg.message_id == thread_id:
            msg.deleted = True
    chat.pinned[:] = [mid for mid in chat.pinned if chat.live(mid) is not None]
    return True


@bot_method("unpinAllForumTopicMessages")
async def unpin_all_forum_topic_messages(ctx: BotCall, p: Params) -> Any:
    chat = forum(ctx, p)
    thread_id = thread_arg(p)
    rights.require(chat, bot_member(ctx, chat), "pin")
    topic_of(chat, thread_id)
    unpin_all(chat, 0 if thread_id == GENERAL else thread_id)
    return True


@bot_method("editGeneralForumTopic")
async def edit_general_forum_topic(ctx: BotCall, p: Params) -> Any:
    chat = forum(ctx, p)
    return _edit(ctx, chat, GENERAL, p.text("name"), None)


@bot_method("closeGeneralForumTopic")
async def close_general_forum_topic(ctx: BotCall, p: Params) -> Any:
    return _toggle_closed(ctx, forum(ctx, p), GENERAL, True)


@bot_method("reopenGeneralForumTopic")
async def reopen_general_forum_topic(ctx: BotCall, p: Params) -> Any:
    """Reopening also shows the General topic again if it was hidden, as Telegram does."""
    chat = forum(ctx, p)
    _toggle_closed(ctx, chat, GENERAL, False)
    if chat.general.hidden:
        chat.general.hidden = False
        announce(ctx, chat, chat.general, {"general_forum_topic_unhidden": {}})
    return True


def _toggle_hidden(ctx: BotCall, chat: Chat, hidden: bool) -> bool:
    """Hiding the General topic closes it too (Telegram's rule)."""
    rights.require(chat, bot_member(ctx, chat), "close_topic")
    general = chat.general
    if general.hidden == hidden:
        raise bad_request(errors.TOPIC_NOT_MODIFIED)
    general.hidden = hidden
    if hidden:
        general.closed = True
    announce(ctx, chat, general, {"general_forum_topic_hidden" if hidden else "general_forum_topic_unhidden": {}})
    return True


@bot_method("hideGeneralForumTopic")
async def hide_general_forum_topic(ctx: BotCall, p: Params) -> Any:
    return _toggle_hidden(ctx, forum(ctx, p), True)


@bot_method("unhideGeneralForumTopic")
async def unhide_general_forum_topic(ctx: BotCall, p: Params) -> Any:
    return _toggle_hidden(ctx, forum(ctx, p), False)


@bot_method("unpinAllGeneralForumTopicMessages")
async def unpin_all_general_forum_topic_messages(ctx: BotCall, p: Params) -> Any:
    chat = forum(ctx, p)
    rights.require(chat, bot_member(ctx, chat), "pin")
    unpin_all(chat, 0)
    return True
